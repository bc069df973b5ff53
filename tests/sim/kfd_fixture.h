/* SPDX-License-Identifier: MIT */
/* kfd_fixture.h — test doubles for the simulator parts the driver model depends on
 * (configuration, GPU list, render-node fd lookup), so that tests of sim/kfd link only the
 * driver model and the board catalogue. Include once per test program. Each Check test
 * runs in its own forked child, so each gets a fresh KFD process. */
#ifndef TESTS_SIM_KFD_FIXTURE_H
#define TESTS_SIM_KFD_FIXTURE_H

#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sim.h"
#include "dev/catalog.h"

static struct sim_config fx_cfg = { .gpu_model = "gfx900", .gpu_count = 1, .trace_fd = -1 };
static struct sim_gpu fx_gpus[SIM_MAX_GPUS];
static unsigned fx_ngpus;
static __attribute__((unused)) int fx_render_fd[SIM_MAX_GPUS] = { -1, -1, -1, -1, -1, -1, -1, -1 };

const struct sim_config *sim_config(void) { return &fx_cfg; }

static __attribute__((unused)) void fx_build(void)
{
  if (fx_ngpus)
    return;
  const struct sim_gpu_model *m = sim_catalog_find(fx_cfg.gpu_model);
  ck_assert_ptr_nonnull(m);
  for (unsigned i = 0; i < fx_cfg.gpu_count; i++) {
    fx_gpus[i].model = m;
    fx_gpus[i].index = i;
    fx_gpus[i].node_id = i + 1;
    fx_gpus[i].gpu_id = 0x1000 + 0x111 * i;
    fx_gpus[i].render_minor = 128 + i;
    fx_gpus[i].vram_bytes = fx_cfg.vram_bytes ? fx_cfg.vram_bytes : m->default_vram_bytes;
  }
  fx_ngpus = fx_cfg.gpu_count;
}

unsigned sim_gpu_count(void) { fx_build(); return fx_ngpus; }
struct sim_gpu *sim_gpu(unsigned i) { fx_build(); return i < fx_ngpus ? &fx_gpus[i] : NULL; }
struct sim_gpu *sim_gpu_by_id(uint32_t id)
{
  fx_build();
  for (unsigned i = 0; i < fx_ngpus; i++)
    if (fx_gpus[i].gpu_id == id)
      return &fx_gpus[i];
  return NULL;
}
struct sim_gpu *sim_gpu_by_minor(unsigned minor)
{
  fx_build();
  return minor >= 128 && minor - 128 < fx_ngpus ? &fx_gpus[minor - 128] : NULL;
}
struct sim_gpu *sim_os_gpu_of_fd(int fd)
{
  for (unsigned i = 0; i < fx_ngpus; i++)
    if (fx_render_fd[i] >= 0 && fx_render_fd[i] == fd)
      return &fx_gpus[i];
  return NULL;
}

#define GPU0 (sim_gpu(0)->gpu_id)

/* A "render node" fd for GPU i: any real file stands in for it. */
static __attribute__((unused)) int fx_render(unsigned i)
{
  if (fx_render_fd[i] < 0)
    fx_render_fd[i] = (int)syscall(SYS_memfd_create, "render", 0);
  return fx_render_fd[i];
}

static __attribute__((unused)) int kio(unsigned long req, void *arg) { return sim_kfd_ioctl(req, arg); }

/* Open /dev/kfd and acquire the VM of every GPU, as the thunk does at init. */
static __attribute__((unused)) void fx_open(void)
{
  fx_build();
  ck_assert_int_eq(sim_kfd_open(), 0);
  for (unsigned i = 0; i < fx_ngpus; i++) {
    struct kfd_ioctl_acquire_vm_args a = { .drm_fd = (uint32_t)fx_render(i), .gpu_id = fx_gpus[i].gpu_id };
    ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), 0);
  }
}

static __attribute__((unused)) uint64_t fx_alloc(uint32_t gpu_id, uint64_t va, uint64_t size, uint32_t flags, int *err)
{
  struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = va, .size = size, .gpu_id = gpu_id, .flags = flags };
  *err = kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
  return a.handle;
}

static __attribute__((unused)) int fx_map(uint64_t handle, uint32_t *ids, uint32_t n, bool map)
{
  struct kfd_ioctl_map_memory_to_gpu_args a = { .handle = handle, .device_ids_array_ptr = (uintptr_t)ids, .n_devices = n };
  return kio(map ? AMDKFD_IOC_MAP_MEMORY_TO_GPU : AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &a);
}

/* KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE is written (1 << 31) in the uapi header: a signed
 * overflow in C that UBSan rejects, so the tests spell bit 31 unsigned. */
#define FX_WRITABLE 0x80000000u
#define VRAM_RW (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | FX_WRITABLE)
#define GTT_RW (KFD_IOC_ALLOC_MEM_FLAGS_GTT | FX_WRITABLE)

#endif
