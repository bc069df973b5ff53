/* SPDX-License-Identifier: MIT */
/* test_kfd_export.c — the interface level (--kfd-version) and EXPORT_DMABUF (KFD 1.12): the
 * ioctl is unknown below 1.12; a VRAM object exported keeps its contents, CPU mapping and GPU
 * mapping while its memory moves to the dma-buf's file; the descriptor maps the same bytes,
 * KFD and the render node import it, and it outlives the object; a dma-buf file made by
 * another process's simulator is recognised by its name; CONTIGUOUS (1.16) makes a
 * VRAM_CONTIGUOUS object, as the render node's GEM_OP reports it; EXT_COHERENT stays with
 * an object from 1.15 on and is ignored below. */
#include "kfd_fixture.h"
#include "kfd/kfd.h"

#include <kfd_abi/kfd_ioctl_supp.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

static uint32_t version_minor(void)
{
  struct kfd_ioctl_get_version_args v = { 0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_VERSION, &v), 0);
  ck_assert_uint_eq(v.major_version, 1);
  return v.minor_version;
}

START_TEST(level_gates_export)
{
  fx_open();
  int err;
  uint64_t h = fx_alloc(GPU0, 0x40000000, 4096, VRAM_RW, &err);
  ck_assert_int_eq(err, 0);
  struct kfd_ioctl_export_dmabuf_args x = { .handle = h, .flags = O_CLOEXEC };
  fx_cfg.kfd_minor = 0;   /* unset: the newest level, today's kernels */
  ck_assert_uint_eq(version_minor(), 18);
  fx_cfg.kfd_minor = 11;
  ck_assert_uint_eq(version_minor(), 11);
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), -EINVAL);   /* not in a 1.11 table */
  for (unsigned m = 12; m <= 18; m++) {
    fx_cfg.kfd_minor = m;
    ck_assert_uint_eq(version_minor(), m);
  }
  fx_cfg.kfd_minor = 12;
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), 0);
  ck_assert_int_ge((int)x.dmabuf_fd, 3);
  ck_assert_int_eq(fcntl((int)x.dmabuf_fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  close((int)x.dmabuf_fd);
}
END_TEST

START_TEST(export_shares_memory)
{
  fx_cfg.kfd_minor = 18;
  fx_open();
  struct sim_gpu *g = sim_gpu(0);
  struct kfd_ioctl_alloc_memory_of_gpu_args a = {
    .va_addr = 0x40000000, .size = 8192, .gpu_id = GPU0,
    .flags = VRAM_RW | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
  uint32_t ids[1] = { GPU0 };
  ck_assert_int_eq(fx_map(a.handle, ids, 1, true), 0);
  int err = 0;
  uint32_t *cpu = sim_drm_mmap(g, NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
                               (off_t)a.mmap_offset, &err);
  ck_assert_ptr_ne(cpu, MAP_FAILED);
  cpu[5] = 0x1234;
  cpu[2000] = 0x7777;

  struct kfd_ioctl_export_dmabuf_args x = { .handle = a.handle };
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), 0);
  int fd = (int)x.dmabuf_fd;
  ck_assert_int_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);   /* no O_CLOEXEC asked */
  /* contents moved with the memory; the old CPU and GPU views are of the new file */
  ck_assert_uint_eq(cpu[5], 0x1234);
  uint32_t *via_fd = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ck_assert_ptr_ne(via_fd, MAP_FAILED);
  ck_assert_uint_eq(via_fd[5], 0x1234);
  ck_assert_uint_eq(via_fd[2000], 0x7777);
  cpu[6] = 0x5678;
  ck_assert_uint_eq(via_fd[6], 0x5678);
  via_fd[7] = 0x9abc;
  ck_assert_uint_eq(cpu[7], 0x9abc);
  uint32_t *gpu_view = sim_vm_translate(g, 0x40000000 + 28, 4);
  ck_assert_ptr_nonnull(gpu_view);
  ck_assert_uint_eq(*gpu_view, 0x9abc);
  *gpu_view = 0xfeed;
  ck_assert_uint_eq(via_fd[7], 0xfeed);

  struct kfd_ioctl_get_dmabuf_info_args di = { .dmabuf_fd = (uint32_t)fd };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), 0);
  ck_assert_uint_eq(di.size, 8192);
  ck_assert_uint_eq(di.gpu_id, GPU0);
  ck_assert_uint_eq(di.flags, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC);

  /* a second export is the same buffer */
  struct kfd_ioctl_export_dmabuf_args x2 = { .handle = a.handle, .flags = O_CLOEXEC };
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x2), 0);
  struct stat s1, s2;
  ck_assert_int_eq(fstat(fd, &s1), 0);
  ck_assert_int_eq(fstat((int)x2.dmabuf_fd, &s2), 0);
  ck_assert_uint_eq(s1.st_ino, s2.st_ino);
  close((int)x2.dmabuf_fd);

  /* KFD and the render node take it back */
  struct kfd_ioctl_import_dmabuf_args im = { .va_addr = 0x50000000, .gpu_id = GPU0,
                                             .dmabuf_fd = (uint32_t)fd };
  ck_assert_int_eq(kio(AMDKFD_IOC_IMPORT_DMABUF, &im), 0);
  ck_assert_int_eq(fx_map(im.handle, ids, 1, true), 0);
  uint32_t *imp_view = sim_vm_translate(g, 0x50000000 + 28, 4);
  ck_assert_ptr_nonnull(imp_view);
  ck_assert_uint_eq(*imp_view, 0xfeed);
  struct drm_prime_handle ph = { .fd = fd };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), 0);
  ck_assert_uint_ne(ph.handle, 0);

  /* the exporter frees its object: the dma-buf keeps the memory */
  ck_assert_int_eq(fx_map(a.handle, ids, 1, false), 0);
  struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = a.handle };
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
  ck_assert_uint_eq(via_fd[2000], 0x7777);
  ck_assert_uint_eq(*imp_view, 0xfeed);
  x.handle = a.handle;
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), -EINVAL);   /* freed handle */
  munmap(via_fd, 8192);
  close(fd);
}
END_TEST

START_TEST(export_errors)
{
  fx_cfg.kfd_minor = 12;
  fx_open();
  struct kfd_ioctl_export_dmabuf_args x = { .handle = ((uint64_t)GPU0 << 32) | 77 };
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), -EINVAL);   /* no such object */
  x.handle = 0x9999ull << 32;
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), -EINVAL);   /* no such device */
  void *user = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(user, MAP_FAILED);
  struct kfd_ioctl_alloc_memory_of_gpu_args a = {
    .va_addr = (uintptr_t)user, .size = 4096, .mmap_offset = (uintptr_t)user, .gpu_id = GPU0,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | FX_WRITABLE };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
  x.handle = a.handle;
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), -EPERM);   /* user pages */
}
END_TEST

/* What another process's simulator hands over is a memory file named for its device: this
 * process's driver knows it by that name; any other file is not a dma-buf of this driver. */
START_TEST(foreign_dmabuf_by_name)
{
  fx_open();
  char name[64];
  snprintf(name, sizeof name, "amdgpu-dmabuf:%x:%x:0", GPU0, AMDGPU_GEM_DOMAIN_GTT);
  int fd = (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(ftruncate(fd, 12288), 0);
  struct kfd_ioctl_get_dmabuf_info_args di = { .dmabuf_fd = (uint32_t)fd };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), 0);
  ck_assert_uint_eq(di.size, 12288);
  ck_assert_uint_eq(di.gpu_id, GPU0);
  ck_assert_uint_eq(di.flags, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
  int other = (int)syscall(SYS_memfd_create, "amdgpu-bo", MFD_CLOEXEC);
  ck_assert_int_eq(ftruncate(other, 4096), 0);
  di.dmabuf_fd = (uint32_t)other;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), -EINVAL);
  snprintf(name, sizeof name, "amdgpu-dmabuf:%x:%x:0", 0x4242, AMDGPU_GEM_DOMAIN_GTT);
  int nodev = (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
  di.dmabuf_fd = (uint32_t)nodev;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), -EINVAL);   /* no such GPU here */
  close(fd);
  close(other);
  close(nodev);
}
END_TEST

/* The create flags of KFD object `handle` as the render node reports them (export, PRIME
 * import, GEM_OP GET_GEM_CREATE_INFO: what libdrm's amdgpu_bo_query_info reads). */
static struct drm_amdgpu_gem_create_in create_info(uint64_t handle)
{
  struct sim_gpu *g = sim_gpu(0);
  struct kfd_ioctl_export_dmabuf_args x = { .handle = handle, .flags = O_CLOEXEC };
  ck_assert_int_eq(kio(AMDKFD_IOC_EXPORT_DMABUF, &x), 0);
  struct drm_prime_handle ph = { .fd = (int)x.dmabuf_fd };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), 0);
  struct drm_amdgpu_gem_create_in info;
  memset(&info, 0xff, sizeof info);
  struct drm_amdgpu_gem_op op = { .handle = ph.handle, .op = AMDGPU_GEM_OP_GET_GEM_CREATE_INFO,
                                  .value = (uintptr_t)&info };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), 0);
  close((int)x.dmabuf_fd);
  return info;
}

/* KFD 1.16's CONTIGUOUS: a dGPU's VRAM object is made VRAM_CONTIGUOUS (beside
 * WIPE_ON_RELEASE, which every KFD VRAM object has); GTT ignores the flag, and a kernel
 * before 1.16 ignores the bit it does not know. */
START_TEST(contiguous_vram)
{
  fx_cfg.kfd_minor = 16;
  fx_open();
  int err;
  uint64_t contig = fx_alloc(GPU0, 0x40000000, 3 << 20, VRAM_RW | KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS,
                             &err);
  ck_assert_int_eq(err, 0);
  struct drm_amdgpu_gem_create_in in = create_info(contig);
  ck_assert_uint_eq(in.bo_size, 3 << 20);
  ck_assert_uint_eq(in.alignment, 4096);
  ck_assert_uint_eq(in.domains, AMDGPU_GEM_DOMAIN_VRAM);
  ck_assert_uint_eq(in.domain_flags,
                    AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS | AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE);
  uint64_t plain = fx_alloc(GPU0, 0x50000000, 8192, VRAM_RW | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, &err);
  ck_assert_int_eq(err, 0);
  in = create_info(plain);
  ck_assert_uint_eq(in.domain_flags,
                    AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED | AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE);
  uint64_t gtt = fx_alloc(GPU0, 0x60000000, 8192, GTT_RW | KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS, &err);
  ck_assert_int_eq(err, 0);
  in = create_info(gtt);
  ck_assert_uint_eq(in.domains, AMDGPU_GEM_DOMAIN_GTT);
  ck_assert_uint_eq(in.domain_flags, 0);
  fx_cfg.kfd_minor = 15;
  uint64_t old = fx_alloc(GPU0, 0x70000000, 8192, VRAM_RW | KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS, &err);
  ck_assert_int_eq(err, 0);   /* accepted and ignored */
  in = create_info(old);
  ck_assert_uint_eq(in.domain_flags, AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE);
  fx_cfg.kfd_minor = 0;
}
END_TEST

/* EXT_COHERENT (KFD 1.15 on): the object keeps it, in VRAM and in GTT; a kernel before
 * 1.15 accepted the bit it did not know and ignored it. */
START_TEST(ext_coherent_level)
{
  static const struct { unsigned minor; bool kept; } lv[] = { {15, true}, {18, true}, {14, false},
                                                             {11, false} };
  fx_cfg.kfd_minor = 18;
  fx_open();
  for (unsigned i = 0; i < sizeof lv / sizeof lv[0]; i++) {
    fx_cfg.kfd_minor = lv[i].minor;
    int err;
    uint32_t ext = KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT | KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
    uint64_t v = fx_alloc(GPU0, 0x40000000 + 0x100000 * i, 8192, VRAM_RW | ext, &err);
    ck_assert_int_eq(err, 0);
    uint64_t g = fx_alloc(GPU0, 0x50000000 + 0x100000 * i, 8192, GTT_RW | ext, &err);
    ck_assert_int_eq(err, 0);
    struct sim_bo *bv = sim_bo_lookup(sim_kfd_current(), v), *bg = sim_bo_lookup(sim_kfd_current(), g);
    ck_assert_ptr_nonnull(bv);
    ck_assert_ptr_nonnull(bg);
    ck_assert_msg(!!(bv->flags & KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT) == lv[i].kept &&
                  !!(bg->flags & KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT) == lv[i].kept,
                  "1.%u: VRAM 0x%x, GTT 0x%x", lv[i].minor, bv->flags, bg->flags);
    ck_assert(bv->flags & KFD_IOC_ALLOC_MEM_FLAGS_COHERENT);
  }
  fx_cfg.kfd_minor = 0;
}
END_TEST

/* GEM_OP and GEM_METADATA on render-node objects, with amdgpu's answers. */
START_TEST(gem_op_and_metadata)
{
  fx_open();
  struct sim_gpu *g = sim_gpu(0);
  union drm_amdgpu_gem_create c = { .in = { .bo_size = 5000, .alignment = 65536,
                                            .domains = AMDGPU_GEM_DOMAIN_GTT } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
  uint32_t h = c.out.handle;
  struct drm_amdgpu_gem_create_in info;
  struct drm_amdgpu_gem_op op = { .handle = h, .op = AMDGPU_GEM_OP_GET_GEM_CREATE_INFO,
                                  .value = (uintptr_t)&info };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), 0);
  ck_assert_uint_eq(info.bo_size, 8192);
  ck_assert_uint_eq(info.alignment, 65536);
  ck_assert_uint_eq(info.domains, AMDGPU_GEM_DOMAIN_GTT);
  ck_assert_uint_eq(info.domain_flags, AMDGPU_GEM_CREATE_VRAM_CLEARED);
  op.op = AMDGPU_GEM_OP_SET_PLACEMENT;
  op.value = AMDGPU_GEM_DOMAIN_VRAM | AMDGPU_GEM_DOMAIN_GDS;   /* only VRAM/GTT/CPU are kept */
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), 0);
  op.op = AMDGPU_GEM_OP_GET_GEM_CREATE_INFO;
  op.value = (uintptr_t)&info;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), 0);
  ck_assert_uint_eq(info.domains, AMDGPU_GEM_DOMAIN_VRAM);
  op.op = 7;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), -EINVAL);
  op.op = AMDGPU_GEM_OP_GET_GEM_CREATE_INFO;
  op.value = 8;   /* not a writable address */
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), -EFAULT);
  op.handle = h + 100;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_OP, &op), -ENOENT);

  struct drm_amdgpu_gem_metadata m = { .handle = h, .op = AMDGPU_GEM_METADATA_OP_GET_METADATA };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_METADATA, &m), 0);
  ck_assert_uint_eq(m.data.data_size_bytes, 0);
  ck_assert_uint_eq(m.data.tiling_info, 0);
  memset(&m, 0, sizeof m);
  m.handle = h;
  m.op = AMDGPU_GEM_METADATA_OP_SET_METADATA;
  m.data.flags = 3;
  m.data.tiling_info = 0x55;
  m.data.data_size_bytes = 12;
  m.data.data[0] = 0xa;
  m.data.data[2] = 0xc;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_METADATA, &m), 0);
  m.data.data_size_bytes = 260;   /* more than the 256 bytes the argument holds */
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_METADATA, &m), -EINVAL);
  memset(&m, 0, sizeof m);
  m.handle = h;
  m.op = AMDGPU_GEM_METADATA_OP_GET_METADATA;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_METADATA, &m), 0);
  ck_assert_uint_eq(m.data.data_size_bytes, 12);
  ck_assert_uint_eq(m.data.flags, 3);
  ck_assert_uint_eq(m.data.tiling_info, 0x55);
  ck_assert_uint_eq(m.data.data[0], 0xa);
  ck_assert_uint_eq(m.data.data[2], 0xc);
  m.handle = h + 100;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_METADATA, &m), -ENOENT);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_export");
  TCase *t = tcase_create("export");
  tcase_add_test(t, level_gates_export);
  tcase_add_test(t, export_shares_memory);
  tcase_add_test(t, export_errors);
  tcase_add_test(t, foreign_dmabuf_by_name);
  tcase_add_test(t, contiguous_vram);
  tcase_add_test(t, ext_coherent_level);
  tcase_add_test(t, gem_op_and_metadata);
  suite_add_tcase(s, t);
  return s;
}
