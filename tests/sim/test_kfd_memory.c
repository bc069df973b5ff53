/* SPDX-License-Identifier: MIT */
/* test_kfd_memory.c — apertures, ACQUIRE_VM, buffer objects and the GPU VM: each invalid
 * argument class gets the kernel's errno, and memory written through the CPU mapping is
 * what the GPU side (sim_vm_translate) sees. */
#include "kfd_fixture.h"

#include <stdlib.h>

START_TEST(apertures_gfx9_layout)
{
  fx_cfg.gpu_count = 2;
  fx_open();
  struct kfd_ioctl_get_process_apertures_new_args q = {0};
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &q), 0);
  ck_assert_uint_eq(q.num_of_nodes, 2);   /* a count query */
  struct kfd_process_device_apertures ap[3];
  memset(ap, 0x5a, sizeof ap);
  q.kfd_process_device_apertures_ptr = (uintptr_t)ap;
  q.num_of_nodes = 3;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &q), 0);
  ck_assert_uint_eq(q.num_of_nodes, 2);
  ck_assert_uint_eq(ap[0].gpu_id, 0x1000);
  ck_assert_uint_eq(ap[1].gpu_id, 0x1111);
  ck_assert_uint_eq(ap[0].lds_base, 0x1000000000000ull);
  ck_assert_uint_eq(ap[0].lds_limit, 0x10000ffffffffull);
  ck_assert_uint_eq(ap[0].scratch_base, 0x2000000000000ull);
  ck_assert_uint_eq(ap[0].scratch_limit, 0x20000ffffffffull);
  ck_assert_uint_eq(ap[0].gpuvm_base, 0x4000);
  ck_assert_uint_eq(ap[0].gpuvm_limit, 0x7fffffffffffull);
  ck_assert_uint_eq(ap[2].gpu_id, 0x5a5a5a5a);   /* untouched past the nodes */
  q.kfd_process_device_apertures_ptr = 16;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &q), -EFAULT);
  struct kfd_ioctl_get_process_apertures_args old;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_PROCESS_APERTURES, &old), 0);
  ck_assert_uint_eq(old.num_of_nodes, 2);
  ck_assert_uint_eq(old.process_apertures[1].gpu_id, 0x1111);
}
END_TEST

START_TEST(acquire_vm_rules)
{
  fx_cfg.gpu_count = 2;
  fx_build();
  ck_assert_int_eq(sim_kfd_open(), 0);
  struct kfd_ioctl_acquire_vm_args a = { .drm_fd = 9999, .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), -EINVAL);   /* not an open file */
  a.drm_fd = 0;   /* open, but not a render node */
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), -EINVAL);
  a.drm_fd = (uint32_t)fx_render(1);   /* another GPU's render node */
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), -EINVAL);
  a = (struct kfd_ioctl_acquire_vm_args){ .drm_fd = (uint32_t)fx_render(0), .gpu_id = 0x4242 };
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), -EINVAL);   /* unknown gpu */
  a.gpu_id = GPU0;
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), 0);   /* the same file again */
  a.drm_fd = (uint32_t)dup(fx_render(0));
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), 0);   /* a dup is the same file */
  int other = (int)syscall(SYS_memfd_create, "other", 0);
  fx_render_fd[0] = other;
  a.drm_fd = (uint32_t)other;
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), -EBUSY);
}
END_TEST

START_TEST(alloc_invalid_arguments)
{
  fx_cfg.gpu_count = 2;
  fx_build();
  ck_assert_int_eq(sim_kfd_open(), 0);
  int e;
  fx_alloc(GPU0, 0x100000, 4096, GTT_RW, &e);
  ck_assert_int_eq(e, -ENODEV);   /* no VM acquired yet */
  struct kfd_ioctl_acquire_vm_args a = { .drm_fd = (uint32_t)fx_render(0), .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), 0);
  fx_alloc(GPU0, 0x100000, 0, GTT_RW, &e);
  ck_assert_int_eq(e, -EINVAL);   /* size 0 */
  fx_alloc(0x4242, 0x100000, 4096, GTT_RW, &e);
  ck_assert_int_eq(e, -EINVAL);   /* unknown gpu */
  fx_alloc(GPU0, 0x100000, 4096, FX_WRITABLE, &e);
  ck_assert_int_eq(e, -EINVAL);   /* no memory type */
  fx_alloc(GPU0, 0x100000, 4096, KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, &e);
  ck_assert_int_eq(e, -EINVAL);   /* doorbell slice is 8 KiB */
  fx_alloc(GPU0, 0x100000, 8192, KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, &e);
  ck_assert_int_eq(e, -EINVAL);   /* MMIO remap is one page */
  fx_alloc(GPU0, 0x100000, 4096, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, &e);
  ck_assert_int_eq(e, -EINVAL);   /* userptr without an address */
  struct kfd_ioctl_alloc_memory_of_gpu_args u = {
    .va_addr = 0x100000, .size = 8192, .gpu_id = GPU0, .mmap_offset = 0x10000,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &u), -EFAULT);   /* unmapped pages */
  fx_alloc(GPU0, 0x100000, sim_gpu(0)->vram_bytes, VRAM_RW, &e);
  ck_assert_int_eq(e, -ENOMEM);   /* all of VRAM: the page-table reserve does not fit */
}
END_TEST

START_TEST(alloc_handles_and_offsets)
{
  fx_open();
  int e;
  uint64_t h0 = fx_alloc(GPU0, 0x100000, 4096, VRAM_RW, &e);
  ck_assert_int_eq(e, 0);
  uint64_t h1 = fx_alloc(GPU0, 0x200000, 5000, GTT_RW, &e);
  ck_assert_int_eq(e, 0);
  ck_assert_uint_eq(h0, 0x100000000000ull);
  ck_assert_uint_eq(h1, 0x100000000001ull);
  struct kfd_ioctl_free_memory_of_gpu_args f = { h0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), -EINVAL);   /* already freed */
  f.handle = 0x4242ull << 32;
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), -EINVAL);   /* unknown gpu */
  uint64_t h2 = fx_alloc(GPU0, 0x300000, 4096, VRAM_RW, &e);
  ck_assert_uint_eq(h2, h0);   /* the lowest free id is reused */
  struct kfd_ioctl_alloc_memory_of_gpu_args m = { .va_addr = 0x400000, .size = 4096, .gpu_id = GPU0,
                                                  .flags = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &m), 0);
  ck_assert_uint_eq(m.mmap_offset, (uint64_t)GPU0 << 46);   /* KFD_MMAP_TYPE_MMIO | gpu id */
}
END_TEST

START_TEST(map_invalid_arguments)
{
  fx_cfg.gpu_count = 2;
  fx_open();
  int e;
  uint64_t h = fx_alloc(GPU0, 0x100000, 8192, VRAM_RW, &e);
  uint32_t ids[2] = { GPU0, 0x1111 };
  struct kfd_ioctl_map_memory_to_gpu_args a = { .handle = h, .device_ids_array_ptr = (uintptr_t)ids };
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);   /* n_devices 0 */
  a.n_devices = 1;
  a.n_success = 2;
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);   /* n_success > n_devices */
  a.n_success = 0;
  a.device_ids_array_ptr = 24;
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), -EFAULT);   /* bad id array */
  a.device_ids_array_ptr = (uintptr_t)ids;
  a.handle = h + 7;
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), -ENOMEM);   /* unknown handle */
  a.handle = 0x4242ull << 32;
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);   /* unknown handle's gpu */
  uint32_t bad[2] = { GPU0, 0x4242 };
  a = (struct kfd_ioctl_map_memory_to_gpu_args){ .handle = h, .device_ids_array_ptr = (uintptr_t)bad, .n_devices = 2 };
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), -EINVAL);
  ck_assert_uint_eq(a.n_success, 1);   /* the first device was mapped */
  /* retry from n_success with a good list */
  a.device_ids_array_ptr = (uintptr_t)ids;
  ck_assert_int_eq(kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a), 0);
  ck_assert_uint_eq(a.n_success, 2);
  /* misaligned VA and overlapping VA fail at map time */
  uint64_t odd = fx_alloc(GPU0, 0x300010, 4096, GTT_RW, &e);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(fx_map(odd, ids, 1, true), -EINVAL);
  uint64_t over = fx_alloc(GPU0, 0x101000, 4096, GTT_RW, &e);
  ck_assert_int_eq(fx_map(over, ids, 1, true), -EINVAL);
  uint64_t high = fx_alloc(GPU0, (1ull << 48) - 4096, 8192, GTT_RW, &e);
  ck_assert_int_eq(fx_map(high, ids, 1, true), -EINVAL);   /* beyond the 48-bit VM */
  /* unmap what is not mapped; free what is mapped */
  ck_assert_int_eq(fx_map(over, ids, 1, false), -EINVAL);
  struct kfd_ioctl_free_memory_of_gpu_args f = { h };
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), -EBUSY);
  ck_assert_int_eq(fx_map(h, ids, 2, false), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
}
END_TEST

START_TEST(cpu_and_gpu_see_the_same_bytes)
{
  fx_cfg.gpu_count = 2;
  fx_open();
  struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = 0x7000000, .size = 3 * 4096,
                                                  .gpu_id = GPU0, .flags = VRAM_RW };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
  /* the thunk's pattern: reserve, then map the render node over it at the BO's offset */
  char *cpu = mmap(NULL, 3 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  int err = 0;
  void *m = sim_drm_mmap(sim_gpu(0), cpu, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                         (off_t)a.mmap_offset, &err);
  ck_assert_ptr_eq(m, cpu);
  strcpy(cpu + 4096 + 8, "hello gpu");
  uint32_t ids[2] = { GPU0, 0x1111 };
  ck_assert_ptr_null(sim_vm_translate(sim_gpu(0), 0x7001008, 10));   /* not mapped yet */
  ck_assert_int_eq(fx_map(a.handle, ids, 1, true), 0);
  char *g = sim_vm_translate(sim_gpu(0), 0x7001008, 10);
  ck_assert_ptr_nonnull(g);
  ck_assert_str_eq(g, "hello gpu");
  ck_assert_ptr_null(sim_vm_translate(sim_gpu(1), 0x7001008, 10));   /* not on GPU 1 */
  ck_assert_ptr_null(sim_vm_translate(sim_gpu(0), 0x7002ff0, 32));   /* runs off the end */
  g[0] = 'j';
  ck_assert_int_eq(cpu[4096 + 8], 'j');
  /* a second offset into the same object, and an offset past it */
  void *m2 = sim_drm_mmap(sim_gpu(0), NULL, 4096, PROT_READ, MAP_SHARED,
                          (off_t)(a.mmap_offset + 4096), &err);
  ck_assert_ptr_ne(m2, MAP_FAILED);
  ck_assert_int_eq(((char *)m2)[8], 'j');
  ck_assert_ptr_eq(sim_drm_mmap(sim_gpu(0), NULL, 8192, PROT_READ, MAP_SHARED,
                                (off_t)(a.mmap_offset + 8192), &err), MAP_FAILED);
  ck_assert_int_eq(err, EINVAL);
  ck_assert_ptr_eq(sim_drm_mmap(sim_gpu(1), NULL, 4096, PROT_READ, MAP_SHARED,
                                (off_t)a.mmap_offset, &err), MAP_FAILED);   /* other GPU's node */
  ck_assert_int_eq(sim_kfd_munmap(cpu, 3 * 4096), 1);
}
END_TEST

START_TEST(userptr_and_aql_double_mapping)
{
  fx_open();
  char *user = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  strcpy(user + 100, "from the host");
  struct kfd_ioctl_alloc_memory_of_gpu_args u = {
    .va_addr = 0x9000000, .size = 8192, .gpu_id = GPU0, .mmap_offset = (uintptr_t)user,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | FX_WRITABLE };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &u), 0);
  uint32_t id = GPU0;
  ck_assert_int_eq(fx_map(u.handle, &id, 1, true), 0);
  ck_assert_str_eq(sim_vm_translate(sim_gpu(0), 0x9000000 + 100, 4), "from the host");
  int err = 0;   /* user pages are not mapped through the render node */
  ck_assert_ptr_eq(sim_drm_mmap(sim_gpu(0), NULL, 4096, PROT_READ, MAP_SHARED, (off_t)u.mmap_offset,
                                &err), MAP_FAILED);
  ck_assert_int_eq(err, EPERM);

  struct kfd_ioctl_alloc_memory_of_gpu_args q = {
    .va_addr = 0xa000000, .size = 16384, .gpu_id = GPU0,
    .flags = VRAM_RW | KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &q), 0);
  ck_assert_int_eq(fx_map(q.handle, &id, 1, true), 0);
  char *lo = sim_vm_translate(sim_gpu(0), 0xa000010, 8), *hi = sim_vm_translate(sim_gpu(0), 0xa002010, 8);
  ck_assert_ptr_nonnull(lo);
  ck_assert_ptr_eq(lo, hi);   /* the second half maps the same memory */
  ck_assert_ptr_eq(sim_drm_mmap(sim_gpu(0), NULL, 16384, PROT_READ, MAP_SHARED, (off_t)q.mmap_offset,
                                &err), MAP_FAILED);   /* only half is backing */
}
END_TEST

START_TEST(available_memory_tracks_vram)
{
  fx_open();
  struct kfd_ioctl_get_available_memory_args a = { .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_AVAILABLE_MEMORY, &a), 0);
  uint64_t before = a.available;
  ck_assert_uint_gt(before, 0);
  ck_assert_uint_le(before, sim_gpu(0)->vram_bytes);
  ck_assert_uint_eq(before % (2u << 20), 0);
  int e;
  fx_alloc(GPU0, 0x100000, 64u << 20, VRAM_RW, &e);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_AVAILABLE_MEMORY, &a), 0);
  ck_assert_uint_eq(a.available, before - (64u << 20));
  fx_alloc(GPU0, 0x8000000, 4096, GTT_RW, &e);   /* GTT does not count */
  ck_assert_int_eq(kio(AMDKFD_IOC_AVAILABLE_MEMORY, &a), 0);
  ck_assert_uint_eq(a.available, before - (64u << 20));
  a.gpu_id = 0x4242;
  ck_assert_int_eq(kio(AMDKFD_IOC_AVAILABLE_MEMORY, &a), -EINVAL);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_memory");
  TCase *t = tcase_create("memory");
  tcase_add_test(t, apertures_gfx9_layout);
  tcase_add_test(t, acquire_vm_rules);
  tcase_add_test(t, alloc_invalid_arguments);
  tcase_add_test(t, alloc_handles_and_offsets);
  tcase_add_test(t, map_invalid_arguments);
  tcase_add_test(t, cpu_and_gpu_see_the_same_bytes);
  tcase_add_test(t, userptr_and_aql_double_mapping);
  tcase_add_test(t, available_memory_tracks_vram);
  suite_add_tcase(s, t);
  return s;
}
