/* SPDX-License-Identifier: MIT */
/* modparams.c — the readable parameters of the amdgpu module with the defaults of Linux 6.1
 * (amdgpu_drv.c), as a machine booted without amdgpu.* options shows them: ints in decimal,
 * unsigned masks in decimal (ip_block_mask, pg_mask, ras_mask) or hex where the module
 * declares them hex (ppfeaturemask), bools as Y/N, unset strings as "(null)". The KFD ones
 * say what the driver model does: hardware scheduling (sched_policy 0), CWSR on, retry
 * faults left to the chip (noretry -1), no MES on gfx9. */
#include "os/modparams.h"

const struct sim_modparam sim_modparams[] = {
  { "abmlevel", "0" }, { "aspm", "-1" }, { "async_gfx_ring", "1" }, { "audio", "-1" },
  { "backlight", "-1" }, { "bad_page_threshold", "-1" }, { "bapm", "-1" },
  { "compute_multipipe", "-1" }, { "cwsr_enable", "1" }, { "dc", "-1" },
  { "dcdebugmask", "0" }, { "dcfeaturemask", "0" }, { "debug_evictions", "N" },
  { "debug_largebar", "0" }, { "deep_color", "0" }, { "disable_cu", "(null)" },
  { "discovery", "-1" }, { "dpm", "-1" }, { "emu_mode", "0" }, { "exp_hw_support", "0" },
  { "force_asic_type", "-1" }, { "forcelongtraining", "0" }, { "freesync_video", "0" },
  { "fw_load_type", "-1" }, { "gartsize", "-1" }, { "gpu_recovery", "-1" },
  { "gttsize", "-1" }, { "halt_if_hws_hang", "0" }, { "hw_i2c", "0" },
  { "hws_gws_support", "N" }, { "hws_max_conc_proc", "-1" }, { "ignore_crat", "0" },
  { "ip_block_mask", "4294967295" }, { "job_hang_limit", "0" }, { "lbpw", "-1" },
  { "lockup_timeout", "" }, { "max_num_of_queues_per_device", "4096" }, { "mcbp", "0" },
  { "mes", "0" }, { "mes_kiq", "0" }, { "moverate", "-1" }, { "msi", "-1" },
  { "no_queue_eviction_on_vm_fault", "0" }, { "no_system_mem_limit", "N" },
  { "noretry", "-1" }, { "num_kcq", "-1" }, { "pcie_gen2", "-1" }, { "pcie_gen_cap", "0" },
  { "pcie_lane_cap", "0" }, { "pg_mask", "4294967295" }, { "ppfeaturemask", "0xfff7bfff" },
  { "queue_preemption_timeout_ms", "9000" }, { "ras_enable", "-1" },
  { "ras_mask", "4294967295" }, { "reset_method", "-1" }, { "runpm", "-1" },
  { "sched_hw_submission", "2" }, { "sched_jobs", "32" }, { "sched_policy", "0" },
  { "sdma_phase_quantum", "32" }, { "send_sigterm", "0" }, { "sg_display", "-1" },
  { "smu_memory_pool_size", "0" }, { "smu_pptable_id", "-1" },
  { "timeout_fatal_disable", "N" }, { "timeout_period", "0" }, { "tmz", "-1" },
  { "use_xgmi_p2p", "1" }, { "vcnfw_log", "0" }, { "virtual_display", "(null)" },
  { "vis_vramlimit", "0" }, { "vm_block_size", "-1" }, { "vm_debug", "0" },
  { "vm_fault_stop", "0" }, { "vm_fragment_size", "-1" }, { "vm_size", "-1" },
  { "vm_update_mode", "-1" }, { "vramlimit", "0" },
};
const unsigned sim_modparam_count = sizeof sim_modparams / sizeof sim_modparams[0];
