/* SPDX-License-Identifier: MIT */
/* devcfg.c — per-device settings and queries: GET_CLOCK_COUNTERS, SET_SCRATCH_BACKING_VA,
 * SET_TRAP_HANDLER, SET_MEMORY_POLICY and GET_TILE_CONFIG. */
#include "kfd/kfd.h"

#include <errno.h>
#include <time.h>

/* gfx9's RLC reference clock counts at 100 MHz. */
#define GPU_COUNTER_HZ 100000000ull

static uint64_t ns_of(clockid_t c)
{
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sim_gpu_clock_counter(void);
uint64_t sim_gpu_clock_counter(void)
{
  return ns_of(CLOCK_MONOTONIC_RAW) / (1000000000ull / GPU_COUNTER_HZ);
}

int sim_kfd_get_clock_counters(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_clock_counters_args *a = data;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  pthread_mutex_unlock(&p->lock);
  a->gpu_clock_counter = pdd ? sim_gpu_clock_counter() : 0;   /* 0 for a node without GPU */
  a->cpu_clock_counter = ns_of(CLOCK_MONOTONIC_RAW);
  a->system_clock_counter = ns_of(CLOCK_BOOTTIME);
  a->system_clock_freq = 1000000000ull;
  return 0;
}

int sim_kfd_set_scratch_backing_va(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_scratch_backing_va_args *a = data;
  int r;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd)
    r = -EINVAL;
  else if ((r = sim_pdd_bind(pdd)) == 0)
    pdd->scratch_va = a->va_addr;
  pthread_mutex_unlock(&p->lock);
  return r;
}

int sim_kfd_set_trap_handler(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_trap_handler_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd)
    r = -EINVAL;
  else if (sim_pdd_bind(pdd))
    r = -ESRCH;
  else {
    pdd->qpd.tba = a->tba_addr;
    pdd->qpd.tma = a->tma_addr;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}

int sim_kfd_set_memory_policy(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_memory_policy_args *a = data;
  if ((a->default_policy != KFD_IOC_CACHE_POLICY_COHERENT &&
       a->default_policy != KFD_IOC_CACHE_POLICY_NONCOHERENT) ||
      (a->alternate_policy != KFD_IOC_CACHE_POLICY_COHERENT &&
       a->alternate_policy != KFD_IOC_CACHE_POLICY_NONCOHERENT))
    return -EINVAL;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd)
    r = -EINVAL;
  else if (sim_pdd_bind(pdd))
    r = -ESRCH;
  else {
    /* gfx9 has no alternate aperture: the kernel records the policies only */
    pdd->default_policy = a->default_policy;
    pdd->alt_policy = a->alternate_policy;
    pdd->alt_base = a->alternate_aperture_base;
    pdd->alt_size = a->alternate_aperture_size;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}

/* GB_ADDR_CONFIG of the gfx9 chips (the golden value the driver programs). */
uint32_t sim_gb_addr_config(const struct sim_gpu_model *m);
uint32_t sim_gb_addr_config(const struct sim_gpu_model *m)
{
  switch (m->gfx_target_version) {
  case 90008: case 90010: case 90400: case 90401: case 90402:
    return 0x24104042u;   /* Arcturus, Aldebaran, GC 9.4.3 */
  case 90002: case 90004: case 90012: case 90014:
    return 0x26013041u;   /* Raven family (APUs) */
  /* gfx10+ layout: NUM_PIPES [2:0], PIPE_INTERLEAVE_SIZE [5:3], MAX_COMPRESSED_FRAGS [7:6],
   * NUM_PKRS [10:8] (log2 each). amdgpu reads the register on these chips (no golden
   * value); the numbers are Mesa's per-chip addressing table (src/amd/common
   * ac_fake_hw_db.h): navi31 32 pipes, 32 packers over gfx11's 2 compressed fragments;
   * gfx12 16 pipes, 16 packers over 0. The shader-engine and RB-per-SE fields stay 0 as
   * there (no capture of a board's raw register was found). */
  case 110000:
    return 0x00000545u;   /* Navi 31, RX 7900 XTX */
  case 120001:
    return 0x00000404u;   /* Navi 48, RX 9070 XT */
  default:
    return 0x2a114042u;   /* Vega 10, Vega 12, Vega 20 */
  }
}

int sim_kfd_get_tile_config(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_tile_config_args *a = data;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  pthread_mutex_unlock(&p->lock);
  if (!pdd)
    return -EINVAL;
  /* From gfx9 on there are no tile mode tables: 32 + 16 zero entries, no banks/ranks. */
  static const uint32_t tiles[32], macro[16];
  a->gb_addr_config = sim_gb_addr_config(pdd->gpu->model);
  a->num_banks = 0;
  a->num_ranks = 0;
  if (a->num_tile_configs > 32)
    a->num_tile_configs = 32;
  if (sim_copy_to_user(a->tile_config_ptr, tiles, a->num_tile_configs * 4u)) {
    a->num_tile_configs = 0;
    return -EFAULT;
  }
  if (a->num_macro_tile_configs > 16)
    a->num_macro_tile_configs = 16;
  if (sim_copy_to_user(a->macro_tile_config_ptr, macro, a->num_macro_tile_configs * 4u)) {
    a->num_macro_tile_configs = 0;
    return -EFAULT;
  }
  return 0;
}
