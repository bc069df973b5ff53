/* SPDX-License-Identifier: MIT */
/* ioctls.h — the KFD ioctls the driver model implements, one row each:
 * X(NAME, handler, argument fields), NAME as in AMDKFD_IOC_<NAME>. The one list of their
 * names: ioctl.c builds its dispatch table from it, sim/os/options.c its name lookup (which
 * takes only the names, so it names no handler). */
#ifndef SIM_KFD_IOCTLS_H
#define SIM_KFD_IOCTLS_H

/* Each number exists from the interface level that added it (kfd_ioctl_supp.h): */
#define SIM_KFD_IOCTL_SINCE(nr) ((nr) >= 0x25 ? 13u : (nr) == 0x24 ? 12u : 11u)

#define SIM_KFD_IOCTLS(X) \
  X(GET_VERSION, sim_kfd_get_version, f_version) \
  X(CREATE_QUEUE, sim_kfd_create_queue, f_create_queue) \
  X(DESTROY_QUEUE, sim_kfd_destroy_queue, f_destroy_queue) \
  X(SET_MEMORY_POLICY, sim_kfd_set_memory_policy, f_memory_policy) \
  X(GET_CLOCK_COUNTERS, sim_kfd_get_clock_counters, f_clock) \
  X(GET_PROCESS_APERTURES, sim_kfd_get_apertures, f_apertures) \
  X(UPDATE_QUEUE, sim_kfd_update_queue, f_update_queue) \
  X(CREATE_EVENT, sim_kfd_create_event, f_create_event) \
  X(DESTROY_EVENT, sim_kfd_destroy_event, f_event_id) \
  X(SET_EVENT, sim_kfd_set_event, f_event_id) \
  X(RESET_EVENT, sim_kfd_reset_event, f_event_id) \
  X(WAIT_EVENTS, sim_kfd_wait_events, f_wait) \
  X(DBG_REGISTER_DEPRECATED, dbg_deprecated, f_gpu_only) \
  X(DBG_UNREGISTER_DEPRECATED, dbg_deprecated, f_gpu_only) \
  X(DBG_ADDRESS_WATCH_DEPRECATED, dbg_deprecated, f_gpu_only) \
  X(DBG_WAVE_CONTROL_DEPRECATED, dbg_deprecated, f_gpu_only) \
  X(SET_SCRATCH_BACKING_VA, sim_kfd_set_scratch_backing_va, f_scratch) \
  X(GET_TILE_CONFIG, sim_kfd_get_tile_config, f_tile) \
  X(SET_TRAP_HANDLER, sim_kfd_set_trap_handler, f_trap) \
  X(GET_PROCESS_APERTURES_NEW, sim_kfd_get_apertures_new, f_apertures_new) \
  X(ACQUIRE_VM, sim_kfd_acquire_vm, f_acquire_vm) \
  X(ALLOC_MEMORY_OF_GPU, sim_kfd_alloc_memory, f_alloc) \
  X(FREE_MEMORY_OF_GPU, sim_kfd_free_memory, f_free) \
  X(MAP_MEMORY_TO_GPU, sim_kfd_map_memory, f_map) \
  X(UNMAP_MEMORY_FROM_GPU, sim_kfd_unmap_memory, f_map) \
  X(SET_CU_MASK, sim_kfd_set_cu_mask, f_cu_mask) \
  X(GET_QUEUE_WAVE_STATE, sim_kfd_get_queue_wave_state, f_wave_state) \
  X(GET_DMABUF_INFO, sim_kfd_get_dmabuf_info, f_dmabuf_info) \
  X(IMPORT_DMABUF, sim_kfd_import_dmabuf, f_import_dmabuf) \
  X(ALLOC_QUEUE_GWS, sim_kfd_alloc_queue_gws, f_gws) \
  X(SMI_EVENTS, sim_kfd_smi_events, f_smi) \
  X(SVM, sim_kfd_svm, f_svm) \
  X(SET_XNACK_MODE, sim_kfd_set_xnack_mode, f_xnack) \
  X(CRIU_OP, criu_op, f_criu) \
  X(AVAILABLE_MEMORY, sim_kfd_available_memory, f_avail) \
  X(EXPORT_DMABUF, sim_kfd_export_dmabuf, f_export_dmabuf) \
  X(RUNTIME_ENABLE, sim_kfd_runtime_enable, f_runtime_enable) \
  X(DBG_TRAP, sim_kfd_dbg_trap, f_dbg_trap)

#endif
