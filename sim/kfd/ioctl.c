/* SPDX-License-Identifier: MIT */
/* ioctl.c — /dev/kfd's ioctl entry, as kfd_ioctl() does it: the command number selects the
 * handler and the driver's own command word decides the copy direction; the caller's
 * _IOC_SIZE decides how many bytes are copied (a shorter struct from an older userspace is
 * zero-extended, a longer one is truncated). Unknown numbers give EINVAL, as in the
 * kernel (KFD does not return ENOTTY), and so do numbers newer than the interface level the
 * run answers as (--kfd-version): an older kernel's table ends before them. Also the place for fault injection and tracing. */
#include "kfd/ioctls.h"
#include "kfd/kfd.h"
#include "kfd/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int dbg_deprecated(struct sim_kfd_process *p, void *data)
{
  return -EPERM;   /* the old debugger interface is gone from the kernel */
}

static int criu_op(struct sim_kfd_process *p, void *data)
{
  /* needs CAP_CHECKPOINT_RESTORE or CAP_SYS_ADMIN; the simulator models no checkpointing */
  return geteuid() == 0 ? -EINVAL : -EACCES;
}

#define T(s) struct kfd_ioctl_##s##_args
static const struct sim_field f_version[] = {
  SIM_FIELD(T(get_version), major_version, SIM_F_DEC),
  SIM_FIELD(T(get_version), minor_version, SIM_F_DEC),
};
static const struct sim_field f_create_queue[] = {
  SIM_FIELD(T(create_queue), ring_base_address, SIM_F_HEX),
  SIM_FIELD(T(create_queue), write_pointer_address, SIM_F_HEX),
  SIM_FIELD(T(create_queue), read_pointer_address, SIM_F_HEX),
  SIM_FIELD(T(create_queue), doorbell_offset, SIM_F_HEX),
  SIM_FIELD(T(create_queue), ring_size, SIM_F_HEX),
  SIM_FIELD(T(create_queue), gpu_id, SIM_F_HEX),
  SIM_FIELD(T(create_queue), queue_type, SIM_F_QTYPE),
  SIM_FIELD(T(create_queue), queue_percentage, SIM_F_DEC),
  SIM_FIELD(T(create_queue), queue_priority, SIM_F_DEC),
  SIM_FIELD(T(create_queue), queue_id, SIM_F_DEC),
  SIM_FIELD(T(create_queue), eop_buffer_address, SIM_F_HEX),
  SIM_FIELD(T(create_queue), eop_buffer_size, SIM_F_HEX),
  SIM_FIELD(T(create_queue), ctx_save_restore_address, SIM_F_HEX),
  SIM_FIELD(T(create_queue), ctx_save_restore_size, SIM_F_HEX),
  SIM_FIELD(T(create_queue), ctl_stack_size, SIM_F_HEX),
};
static const struct sim_field f_destroy_queue[] = {
  SIM_FIELD(T(destroy_queue), queue_id, SIM_F_DEC),
};
static const struct sim_field f_memory_policy[] = {
  SIM_FIELD(T(set_memory_policy), alternate_aperture_base, SIM_F_HEX),
  SIM_FIELD(T(set_memory_policy), alternate_aperture_size, SIM_F_HEX),
  SIM_FIELD(T(set_memory_policy), gpu_id, SIM_F_HEX),
  SIM_FIELD(T(set_memory_policy), default_policy, SIM_F_DEC),
  SIM_FIELD(T(set_memory_policy), alternate_policy, SIM_F_DEC),
};
static const struct sim_field f_clock[] = {
  SIM_FIELD(T(get_clock_counters), gpu_clock_counter, SIM_F_DEC),
  SIM_FIELD(T(get_clock_counters), cpu_clock_counter, SIM_F_DEC),
  SIM_FIELD(T(get_clock_counters), system_clock_counter, SIM_F_DEC),
  SIM_FIELD(T(get_clock_counters), system_clock_freq, SIM_F_DEC),
  SIM_FIELD(T(get_clock_counters), gpu_id, SIM_F_HEX),
};
static const struct sim_field f_apertures[] = {
  SIM_FIELD(T(get_process_apertures), num_of_nodes, SIM_F_DEC),
};
static const struct sim_field f_update_queue[] = {
  SIM_FIELD(T(update_queue), ring_base_address, SIM_F_HEX),
  SIM_FIELD(T(update_queue), queue_id, SIM_F_DEC),
  SIM_FIELD(T(update_queue), ring_size, SIM_F_HEX),
  SIM_FIELD(T(update_queue), queue_percentage, SIM_F_DEC),
  SIM_FIELD(T(update_queue), queue_priority, SIM_F_DEC),
};
static const struct sim_field f_create_event[] = {
  SIM_FIELD(T(create_event), event_page_offset, SIM_F_HEX),
  SIM_FIELD(T(create_event), event_trigger_data, SIM_F_HEX),
  SIM_FIELD(T(create_event), event_type, SIM_F_DEC),
  SIM_FIELD(T(create_event), auto_reset, SIM_F_DEC),
  SIM_FIELD(T(create_event), node_id, SIM_F_DEC),
  SIM_FIELD(T(create_event), event_id, SIM_F_HEX),
  SIM_FIELD(T(create_event), event_slot_index, SIM_F_DEC),
};
static const struct sim_field f_event_id[] = {
  SIM_FIELD(T(set_event), event_id, SIM_F_HEX),
};
static const struct sim_field f_wait[] = {
  SIM_FIELD(T(wait_events), events_ptr, SIM_F_HEX),
  SIM_FIELD(T(wait_events), num_events, SIM_F_DEC),
  SIM_FIELD(T(wait_events), wait_for_all, SIM_F_DEC),
  SIM_FIELD(T(wait_events), timeout, SIM_F_DEC),
  SIM_FIELD(T(wait_events), wait_result, SIM_F_DEC),
};
static const struct sim_field f_gpu_only[] = {
  SIM_FIELD(T(dbg_register), gpu_id, SIM_F_HEX),
};
static const struct sim_field f_scratch[] = {
  SIM_FIELD(T(set_scratch_backing_va), va_addr, SIM_F_HEX),
  SIM_FIELD(T(set_scratch_backing_va), gpu_id, SIM_F_HEX),
};
static const struct sim_field f_tile[] = {
  SIM_FIELD(T(get_tile_config), tile_config_ptr, SIM_F_HEX),
  SIM_FIELD(T(get_tile_config), macro_tile_config_ptr, SIM_F_HEX),
  SIM_FIELD(T(get_tile_config), num_tile_configs, SIM_F_DEC),
  SIM_FIELD(T(get_tile_config), num_macro_tile_configs, SIM_F_DEC),
  SIM_FIELD(T(get_tile_config), gpu_id, SIM_F_HEX),
  SIM_FIELD(T(get_tile_config), gb_addr_config, SIM_F_HEX),
  SIM_FIELD(T(get_tile_config), num_banks, SIM_F_DEC),
  SIM_FIELD(T(get_tile_config), num_ranks, SIM_F_DEC),
};
static const struct sim_field f_trap[] = {
  SIM_FIELD(T(set_trap_handler), tba_addr, SIM_F_HEX),
  SIM_FIELD(T(set_trap_handler), tma_addr, SIM_F_HEX),
  SIM_FIELD(T(set_trap_handler), gpu_id, SIM_F_HEX),
};
static const struct sim_field f_apertures_new[] = {
  SIM_FIELD(T(get_process_apertures_new), kfd_process_device_apertures_ptr, SIM_F_HEX),
  SIM_FIELD(T(get_process_apertures_new), num_of_nodes, SIM_F_DEC),
};
static const struct sim_field f_acquire_vm[] = {
  SIM_FIELD(T(acquire_vm), drm_fd, SIM_F_DEC),
  SIM_FIELD(T(acquire_vm), gpu_id, SIM_F_HEX),
};
static const struct sim_field f_alloc[] = {
  SIM_FIELD(T(alloc_memory_of_gpu), va_addr, SIM_F_HEX),
  SIM_FIELD(T(alloc_memory_of_gpu), size, SIM_F_HEX),
  SIM_FIELD(T(alloc_memory_of_gpu), handle, SIM_F_HEX),
  SIM_FIELD(T(alloc_memory_of_gpu), mmap_offset, SIM_F_HEX),
  SIM_FIELD(T(alloc_memory_of_gpu), gpu_id, SIM_F_HEX),
  SIM_FIELD(T(alloc_memory_of_gpu), flags, SIM_F_MEMFLAGS),
};
static const struct sim_field f_free[] = {
  SIM_FIELD(T(free_memory_of_gpu), handle, SIM_F_HEX),
};
static const struct sim_field f_map[] = {
  SIM_FIELD(T(map_memory_to_gpu), handle, SIM_F_HEX),
  SIM_FIELD(T(map_memory_to_gpu), device_ids_array_ptr, SIM_F_HEX),
  SIM_FIELD(T(map_memory_to_gpu), n_devices, SIM_F_DEC),
  SIM_FIELD(T(map_memory_to_gpu), n_success, SIM_F_DEC),
};
static const struct sim_field f_cu_mask[] = {
  SIM_FIELD(T(set_cu_mask), queue_id, SIM_F_DEC),
  SIM_FIELD(T(set_cu_mask), num_cu_mask, SIM_F_DEC),
  SIM_FIELD(T(set_cu_mask), cu_mask_ptr, SIM_F_HEX),
};
static const struct sim_field f_wave_state[] = {
  SIM_FIELD(T(get_queue_wave_state), ctl_stack_address, SIM_F_HEX),
  SIM_FIELD(T(get_queue_wave_state), ctl_stack_used_size, SIM_F_HEX),
  SIM_FIELD(T(get_queue_wave_state), save_area_used_size, SIM_F_HEX),
  SIM_FIELD(T(get_queue_wave_state), queue_id, SIM_F_DEC),
};
static const struct sim_field f_dmabuf_info[] = {
  SIM_FIELD(T(get_dmabuf_info), size, SIM_F_HEX),
  SIM_FIELD(T(get_dmabuf_info), metadata_ptr, SIM_F_HEX),
  SIM_FIELD(T(get_dmabuf_info), metadata_size, SIM_F_DEC),
  SIM_FIELD(T(get_dmabuf_info), gpu_id, SIM_F_HEX),
  SIM_FIELD(T(get_dmabuf_info), flags, SIM_F_MEMFLAGS),
  SIM_FIELD(T(get_dmabuf_info), dmabuf_fd, SIM_F_DEC),
};
static const struct sim_field f_import_dmabuf[] = {
  SIM_FIELD(T(import_dmabuf), va_addr, SIM_F_HEX),
  SIM_FIELD(T(import_dmabuf), handle, SIM_F_HEX),
  SIM_FIELD(T(import_dmabuf), gpu_id, SIM_F_HEX),
  SIM_FIELD(T(import_dmabuf), dmabuf_fd, SIM_F_DEC),
};
static const struct sim_field f_gws[] = {
  SIM_FIELD(T(alloc_queue_gws), queue_id, SIM_F_DEC),
  SIM_FIELD(T(alloc_queue_gws), num_gws, SIM_F_DEC),
  SIM_FIELD(T(alloc_queue_gws), first_gws, SIM_F_DEC),
};
static const struct sim_field f_smi[] = {
  SIM_FIELD(T(smi_events), gpuid, SIM_F_HEX),
  SIM_FIELD(T(smi_events), anon_fd, SIM_F_DEC),
};
static const struct sim_field f_svm[] = {
  SIM_FIELD(T(svm), start_addr, SIM_F_HEX),
  SIM_FIELD(T(svm), size, SIM_F_HEX),
  SIM_FIELD(T(svm), op, SIM_F_DEC),
  SIM_FIELD(T(svm), nattr, SIM_F_DEC),
};
static const struct sim_field f_xnack[] = {
  { "xnack_enabled", 0, 4, SIM_F_DEC },
};
static const struct sim_field f_criu[] = {
  SIM_FIELD(T(criu), op, SIM_F_DEC),
};
static const struct sim_field f_export_dmabuf[] = {
  SIM_FIELD(T(export_dmabuf), handle, SIM_F_HEX),
  SIM_FIELD(T(export_dmabuf), flags, SIM_F_HEX),
  SIM_FIELD(T(export_dmabuf), dmabuf_fd, SIM_F_DEC),
};
static const struct sim_field f_runtime_enable[] = {
  SIM_FIELD(T(runtime_enable), r_debug, SIM_F_HEX),
  SIM_FIELD(T(runtime_enable), mode_mask, SIM_F_HEX),
  SIM_FIELD(T(runtime_enable), capabilities_mask, SIM_F_HEX),
};
static const struct sim_field f_dbg_trap[] = {
  SIM_FIELD(T(dbg_trap), pid, SIM_F_DEC),
  SIM_FIELD(T(dbg_trap), op, SIM_F_DEC),
};
static const struct sim_field f_avail[] = {
  SIM_FIELD(T(get_available_memory), available, SIM_F_HEX),
  SIM_FIELD(T(get_available_memory), gpu_id, SIM_F_HEX),
};
#undef T

unsigned sim_kfd_level(void)
{
  unsigned m = sim_config()->kfd_minor;
  return m ? m : KFD_SUPP_MINOR_NEWEST;   /* a configuration that names none: the newest */
}

struct ioctl_desc {
  unsigned long cmd;
  const char *name;
  sim_kfd_handler *fn;
  const struct sim_field *fields;
  unsigned nfields;
};

#define D(c, fn, f) [_IOC_NR(AMDKFD_IOC_##c)] = { AMDKFD_IOC_##c, #c, fn, f, sizeof f / sizeof f[0] },
static const struct ioctl_desc ioctls[KFD_SUPP_COMMAND_END] = { SIM_KFD_IOCTLS(D) };
#undef D

/* The caller's argument size of the ioctl being handled (SVM has trailing attributes). */
static __thread uint32_t arg_size;
uint32_t sim_kfd_arg_size(void);
uint32_t sim_kfd_arg_size(void)
{
  return arg_size;
}

/* Calls so far of each ioctl number, for fault injection (1-based "Nth call"). */
static unsigned call_count[KFD_SUPP_COMMAND_END];

static int injected_fault(unsigned nr)
{
  unsigned n = __atomic_add_fetch(&call_count[nr], 1, __ATOMIC_RELAXED);
  const struct sim_config *cfg = sim_config();
  for (unsigned i = 0; i < cfg->fault_count && i < SIM_MAX_FAULTS; i++)
    if (cfg->faults[i].ioctl_nr == nr && cfg->faults[i].nth == n)
      return cfg->faults[i].err > 0 ? cfg->faults[i].err : EIO;
  return 0;
}

int sim_kfd_ioctl(unsigned long request, void *arg)
{
  unsigned nr = _IOC_NR(request);
  if (nr < AMDKFD_COMMAND_START || nr >= KFD_SUPP_COMMAND_END || !ioctls[nr].fn ||
      SIM_KFD_IOCTL_SINCE(nr) > sim_kfd_level()) {   /* not in this kernel's table */
    sim_trace("kfd ioctl(0x%lx nr=0x%x) = -1 EINVAL (unknown)", request, nr);
    return -EINVAL;
  }
  const struct ioctl_desc *d = &ioctls[nr];
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p) {
    /* only the process that opened /dev/kfd may use the descriptor */
    sim_trace("kfd %s = -1 EBADF (not this process's KFD)", d->name);
    return -EBADF;
  }
  int fault = injected_fault(nr);
  if (fault) {
    sim_trace("kfd %s = -1 %s (injected, call %u)", d->name, sim_errno_name(fault),
              __atomic_load_n(&call_count[nr], __ATOMIC_RELAXED));
    return -fault;
  }

  size_t usize = _IOC_SIZE(request), ksize = _IOC_SIZE(d->cmd);
  /* from 1.17 the kernel's create-queue argument is 96 bytes (sdma_engine_id): a shorter
   * caller's missing words read as zeros */
  if (nr == _IOC_NR(AMDKFD_IOC_CREATE_QUEUE) && sim_kfd_level() >= 17 &&
      ksize < KFD_SUPP_CREATE_QUEUE_SIZE_V17)
    ksize = KFD_SUPP_CREATE_QUEUE_SIZE_V17;
  size_t asize = usize > ksize ? usize : ksize;
  /* _IOC_SIZE is 14 bits: at most 16 KiB; small structs stay on the stack */
  _Alignas(8) unsigned char small[2][256];
  unsigned char *kdata = small[0], *before = small[1], *heap = NULL;
  if (asize > sizeof small[0]) {
    heap = malloc(2 * asize);
    if (!heap)
      return -ENOMEM;
    kdata = heap;
    before = heap + asize;
  }
  memset(kdata, 0, asize);
  unsigned dir = _IOC_DIR(d->cmd);
  if (dir & _IOC_WRITE) {
    if (sim_copy_from_user(kdata, (uintptr_t)arg, usize) != 0) {
      sim_trace("kfd %s(arg=%p) = -1 EFAULT", d->name, arg);
      free(heap);
      return -EFAULT;
    }
  }
  int tracing = sim_trace_on();
  if (tracing)
    memcpy(before, kdata, asize);

  arg_size = (uint32_t)usize;
  int ret = d->fn(p, kdata);

  if (dir & _IOC_READ)
    if (sim_copy_to_user((uintptr_t)arg, kdata, usize) != 0)
      ret = -EFAULT;
  if (tracing)
    sim_trace_ioctl("kfd", d->name, d->fields, d->nfields, before,
                    (dir & _IOC_READ) ? kdata : NULL, ksize < usize ? ksize : usize, ret, NULL);
  free(heap);
  return ret;
}

int sim_kfd_get_version(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_version_args *a = data;
  a->major_version = KFD_IOCTL_MAJOR_VERSION;
  a->minor_version = sim_kfd_level();   /* the level the run answers as */
  return 0;
}
