/* SPDX-License-Identifier: MIT */
/* test_kfd_drm.c — the render node's DRM ioctls (version, caps, AMDGPU_INFO) and the
 * per-device KFD settings: clocks, tile config, memory policy, trap handler, scratch,
 * SVM and XNACK, dma-buf. */
#include "kfd_fixture.h"

#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <fcntl.h>
#include <stdlib.h>

static int info(uint32_t query, void *out, uint32_t size, uint32_t a0, uint32_t a1, uint32_t a2)
{
  struct drm_amdgpu_info in = { .return_pointer = (uintptr_t)out, .return_size = size, .query = query };
  in.read_mmr_reg.dword_offset = a0;
  in.read_mmr_reg.count = a1;
  in.read_mmr_reg.instance = a2;
  return sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_AMDGPU_INFO, &in);
}

START_TEST(drm_version_strings)
{
  fx_build();
  struct drm_version v = {0};
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_VERSION, &v), 0);
  ck_assert_int_eq(v.version_major, 3);
  ck_assert_uint_eq(v.name_len, 6);
  ck_assert_uint_eq(v.desc_len, 7);
  char name[3] = "xx", date[16] = {0}, desc[16] = {0};
  v.name = name; v.name_len = 2; v.date = date; v.date_len = sizeof date; v.desc = desc; v.desc_len = sizeof desc;
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_VERSION, &v), 0);
  ck_assert_int_eq(memcmp(name, "am", 2), 0);   /* truncated to the buffer */
  ck_assert_uint_eq(v.name_len, 6);            /* but the full length reported */
  ck_assert_str_eq(date, "20150101");
  ck_assert_str_eq(desc, "AMD GPU");
  v.date = (char *)8;
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_VERSION, &v), -EFAULT);
}
END_TEST

START_TEST(drm_dispatch_errors)
{
  fx_build();
  char buf[64] = {0};
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), _IOWR('K', 1, char[8]), buf), -ENOTTY);
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_SET_CLIENT_CAP, buf), -EACCES);
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_GET_CLIENT, buf), -EACCES);
  struct drm_get_cap c = { .capability = DRM_CAP_PRIME };
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_GET_CAP, &c), 0);
  ck_assert_uint_eq(c.value, DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT);
  c.capability = 0x7777;
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_GET_CAP, &c), -EINVAL);
  ck_assert_int_eq(sim_drm_ioctl(sim_gpu(0), DRM_IOCTL_VERSION, (void *)8), -EFAULT);
}
END_TEST

START_TEST(amdgpu_info_queries)
{
  fx_build();
  const struct sim_gpu_model *m = sim_gpu(0)->model;
  uint32_t u = 0;
  ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, &u, 4, 0, 0, 0), 0);
  ck_assert_uint_eq(u, 1);
  struct drm_amdgpu_info_device d;
  ck_assert_int_eq(info(AMDGPU_INFO_DEV_INFO, &d, sizeof d, 0, 0, 0), 0);
  ck_assert_uint_eq(d.device_id, m->device_id);
  ck_assert_uint_eq(d.pci_rev, m->pci_revision);
  ck_assert_uint_eq(d.family, AMDGPU_FAMILY_AI);
  ck_assert_uint_eq(d.cu_active_number, m->cu_count);
  ck_assert_uint_eq(d.num_shader_engines, 4);
  ck_assert_uint_eq(d.cu_bitmap[0][0], 0xffff);
  ck_assert_uint_eq(d.cu_ao_bitmap[3][0], 0xffff);   /* gfx9 dGPU: every CU always on */
  ck_assert_uint_eq(d.cu_ao_mask, 0x00ff00ffull);    /* SE0-1, one array each: 8 CUs */
  ck_assert_uint_eq(d.virtual_address_offset, 1u << 20);
  ck_assert_uint_eq(d.virtual_address_max, 1ull << 47);
  ck_assert_uint_eq(d.high_va_offset, 0xffff800000000000ull);
  ck_assert_uint_eq(d.high_va_max, 0xfffffffffff00000ull);
  ck_assert_uint_eq(d.max_engine_clock, m->max_engine_clk_fcompute * 1000ull);
  ck_assert_uint_eq(d.wave_front_size, 64);
  uint32_t regs[2] = {0};
  ck_assert_int_eq(info(AMDGPU_INFO_READ_MMR_REG, regs, 4, 0x263e, 1, 0xffffffff), 0);
  ck_assert_uint_eq(regs[0], 0x2a114042);   /* vega10's GB_ADDR_CONFIG */
  ck_assert_int_eq(info(AMDGPU_INFO_READ_MMR_REG, regs, 4, 0x1234, 1, 0xffffffff), -EFAULT);
  ck_assert_int_eq(info(AMDGPU_INFO_READ_MMR_REG, regs, 4, 0x263e, 129, 0xffffffff), -EINVAL);
  ck_assert_int_eq(info(AMDGPU_INFO_READ_MMR_REG, regs, 4, 0x263e, 1, 9), -EINVAL);   /* SE 9 */
  ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, &u, 0, 0, 0, 0), -EINVAL);   /* no size */
  ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, NULL, 4, 0, 0, 0), -EINVAL);
  ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, (void *)8, 4, 0, 0, 0), -EFAULT);
  ck_assert_int_eq(info(0x7e, &u, 4, 0, 0, 0), -EINVAL);   /* unknown query */
  struct drm_amdgpu_info_firmware fw;
  ck_assert_int_eq(info(AMDGPU_INFO_FW_VERSION, &fw, sizeof fw, AMDGPU_INFO_FW_GFX_MEC, 0, 0), 0);
  ck_assert_uint_eq(fw.ver, m->fw_version);
  ck_assert_int_eq(info(AMDGPU_INFO_FW_VERSION, &fw, sizeof fw, AMDGPU_INFO_FW_GFX_MEC, 1, 0), -EINVAL);
  ck_assert_int_eq(info(AMDGPU_INFO_FW_VERSION, &fw, sizeof fw, AMDGPU_INFO_FW_SDMA, 0, 9), -EINVAL);
  struct drm_amdgpu_info_hw_ip ip;
  ck_assert_int_eq(info(AMDGPU_INFO_HW_IP_INFO, &ip, sizeof ip, AMDGPU_HW_IP_COMPUTE, 0, 0), 0);
  ck_assert_uint_eq(ip.hw_ip_version_major, 9);
  ck_assert_int_eq(info(AMDGPU_INFO_HW_IP_INFO, &ip, sizeof ip, 99, 0, 0), -EINVAL);
  ck_assert_int_eq(info(AMDGPU_INFO_HW_IP_INFO, &ip, sizeof ip, AMDGPU_HW_IP_GFX, 1, 0), -EINVAL);
  struct drm_amdgpu_info_vram_gtt vg;
  ck_assert_int_eq(info(AMDGPU_INFO_VRAM_GTT, &vg, sizeof vg, 0, 0, 0), 0);
  ck_assert_uint_eq(vg.vram_size, sim_gpu(0)->vram_bytes - (8u << 20));
}
END_TEST

/* AMDGPU_INFO_RAS_ENABLED_FEATURES: refused without a RAS context (gfx900); otherwise the
 * blocks the board's ECC covers in the high half, those turned on in the low half */
START_TEST(ras_query)
{
  uint64_t v = 0;
  fx_build();
  ck_assert_int_eq(info(AMDGPU_INFO_RAS_ENABLED_FEATURES, &v, 8, 0, 0, 0), -EINVAL);
}
END_TEST

/* gfx11/gfx12 report CUs by work-group processor: 4 WGPs (8 CUs, bits 0-7) per shader
 * array; 2 arrays per engine; engines 4-5 of the RX 7900 XTX in the columns 2-3 of rows 0-1;
 * no always-on CUs. */
START_TEST(cu_bitmap_wgp)
{
  static const struct { const char *model; unsigned engines, cus; } b[] = {
    { "gfx1100", 6, 96 }, { "gfx1201", 4, 64 },
  };
  fx_cfg.gpu_model = b[_i].model;
  fx_build();
  struct drm_amdgpu_info_device d;
  ck_assert_int_eq(info(AMDGPU_INFO_DEV_INFO, &d, sizeof d, 0, 0, 0), 0);
  ck_assert_uint_eq(d.num_shader_engines, b[_i].engines);
  ck_assert_uint_eq(d.num_shader_arrays_per_engine, 2);
  ck_assert_uint_eq(d.num_cu_per_sh, 8);
  unsigned bits = 0;
  for (unsigned r = 0; r < 4; r++)
    for (unsigned c = 0; c < 4; c++) {
      unsigned se = r + (c / 2) * 4;   /* columns 2-3 hold SEs 4-7 */
      ck_assert_uint_eq(d.cu_bitmap[r][c], se < b[_i].engines ? 0xffu : 0u);
      ck_assert_uint_eq(d.cu_ao_bitmap[r][c], 0);
      bits += (unsigned)__builtin_popcount(d.cu_bitmap[r][c]);
    }
  ck_assert_uint_eq(d.cu_ao_mask, 0);
  ck_assert_uint_eq(d.cu_active_number, b[_i].cus);
  ck_assert_uint_eq(bits, b[_i].cus);
}
END_TEST

/* GB_ADDR_CONFIG per chip, the same through AMDGPU_INFO_READ_MMR_REG (0x263e) and
 * AMDKFD_IOC_GET_TILE_CONFIG. gfx900/gfx906: Vega 10/20 and gfx90a: Aldebaran (Mesa's
 * ac_surface test table and amdgpu's gfx_v9_0.c golden values); gfx1100 (Navi 31) and gfx1201
 * (Navi 48): amdgpu reads the register there, the fields are Mesa's ac_fake_hw_db.h entries
 * (navi31: NUM_PIPES 5, NUM_PKRS 5 over gfx11's 0x40; gfx12: 4 and 4 over 0). Decoded as
 * Mesa's ac_print_gpu_info does: pipes, packers, 256-byte pipe interleave. */
START_TEST(gb_addr_config_per_chip)
{
  static const struct { const char *model; uint32_t gb; unsigned pipes, pkrs; } c[] = {
    { "gfx900", 0x2a114042u, 4, 0 }, { "gfx906", 0x2a114042u, 4, 0 },
    { "gfx90a", 0x24104042u, 4, 0 },
    { "gfx1100", 0x00000545u, 32, 32 }, { "gfx1201", 0x00000404u, 16, 16 },
  };
  fx_cfg.gpu_model = c[_i].model;
  fx_build();
  fx_open();
  uint32_t reg = 0;
  ck_assert_int_eq(info(AMDGPU_INFO_READ_MMR_REG, &reg, 4, 0x263e, 1, 0xffffffff), 0);
  ck_assert_msg(reg == c[_i].gb, "%s: GB_ADDR_CONFIG 0x%08x, want 0x%08x", c[_i].model, reg,
                c[_i].gb);
  uint32_t tiles[32], macro[16];
  struct kfd_ioctl_get_tile_config_args tc = { .tile_config_ptr = (uintptr_t)tiles,
                                               .macro_tile_config_ptr = (uintptr_t)macro,
                                               .num_tile_configs = 32,
                                               .num_macro_tile_configs = 16, .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_TILE_CONFIG, &tc), 0);
  ck_assert_uint_eq(tc.gb_addr_config, c[_i].gb);
  ck_assert_uint_eq(1u << (reg & 7), c[_i].pipes);
  ck_assert_uint_eq(256u << ((reg >> 3) & 7), 256);
  if (c[_i].pkrs)   /* gfx10.3+: NUM_PKRS [10:8] */
    ck_assert_uint_eq(1u << ((reg >> 8) & 7), c[_i].pkrs);
}
END_TEST

START_TEST(ras_query_ecc)
{
  uint64_t v = 0;
  fx_cfg.gpu_model = _i ? "gfx90a" : "gfx906";
  fx_build();
  ck_assert_int_eq(info(AMDGPU_INFO_RAS_ENABLED_FEATURES, &v, 8, 0, 0, 0), 0);
  if (_i)
    ck_assert_uint_eq(v, 0x3fffull << 32 | 0xef);   /* every block covered */
  else
    ck_assert_uint_eq(v, 0x3efeull << 32 | 0x0e);   /* SRAM ECC: not UMC, not DF */
}
END_TEST

START_TEST(device_settings)
{
  fx_build();
  ck_assert_int_eq(sim_kfd_open(), 0);
  struct kfd_ioctl_set_trap_handler_args t = { .tba_addr = 0x1000, .tma_addr = 0x2000, .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_TRAP_HANDLER, &t), -ESRCH);   /* no VM yet */
  struct kfd_ioctl_set_scratch_backing_va_args s = { .va_addr = 0x100000, .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &s), -ENODEV);
  fx_open();
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_TRAP_HANDLER, &t), 0);
  t.gpu_id = 0x4242;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_TRAP_HANDLER, &t), -EINVAL);
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &s), 0);
  s.gpu_id = 0x4242;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &s), -EINVAL);
  struct kfd_ioctl_set_memory_policy_args p = { .gpu_id = GPU0, .default_policy = 1, .alternate_policy = 0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_MEMORY_POLICY, &p), 0);
  p.default_policy = 2;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_MEMORY_POLICY, &p), -EINVAL);
  p.default_policy = 0; p.alternate_policy = 5;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_MEMORY_POLICY, &p), -EINVAL);

  struct kfd_ioctl_get_clock_counters_args c = { .gpu_id = GPU0 }, c2 = { .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_CLOCK_COUNTERS, &c), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_CLOCK_COUNTERS, &c2), 0);
  ck_assert_uint_eq(c.system_clock_freq, 1000000000);
  ck_assert_uint_gt(c.gpu_clock_counter, 0);
  ck_assert_uint_ge(c2.gpu_clock_counter, c.gpu_clock_counter);
  ck_assert_uint_ge(c2.system_clock_counter, c.system_clock_counter);
  c.gpu_id = 0;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_CLOCK_COUNTERS, &c), 0);
  ck_assert_uint_eq(c.gpu_clock_counter, 0);   /* a node without a GPU */

  uint32_t tiles[40], macro[20];
  memset(tiles, 0xff, sizeof tiles);
  struct kfd_ioctl_get_tile_config_args tc = { .tile_config_ptr = (uintptr_t)tiles, .macro_tile_config_ptr = (uintptr_t)macro,
                                               .num_tile_configs = 40, .num_macro_tile_configs = 20, .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_TILE_CONFIG, &tc), 0);
  ck_assert_uint_eq(tc.num_tile_configs, 32);
  ck_assert_uint_eq(tc.num_macro_tile_configs, 16);
  ck_assert_uint_eq(tc.gb_addr_config, 0x2a114042);
  ck_assert_uint_eq(tiles[31], 0);
  ck_assert_uint_eq(tiles[32], 0xffffffffu);
  tc.tile_config_ptr = 8;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_TILE_CONFIG, &tc), -EFAULT);
  ck_assert_uint_eq(tc.num_tile_configs, 0);
}
END_TEST

START_TEST(svm_xnack_dmabuf)
{
  fx_open();
  struct kfd_ioctl_set_xnack_mode_args x = { .xnack_enabled = -1 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_XNACK_MODE, &x), 0);
  ck_assert_int_eq(x.xnack_enabled, 0);
  x.xnack_enabled = 1;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_XNACK_MODE, &x), -EPERM);   /* gfx900 cannot retry */
  x.xnack_enabled = 0;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_XNACK_MODE, &x), 0);

  char *mem = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  /* The argument block is the header followed by its attribute array (a flexible array
   * member), so it is built on the heap rather than as a struct holding both. */
  size_t svm_size = sizeof(struct kfd_ioctl_svm_args) + 2 * sizeof(struct kfd_ioctl_svm_attribute);
  struct kfd_ioctl_svm_args *h = calloc(1, svm_size);
  ck_assert_ptr_nonnull(h);
  *h = (struct kfd_ioctl_svm_args){ .start_addr = (uintptr_t)mem, .size = 8192,
                                    .op = KFD_IOCTL_SVM_OP_SET_ATTR, .nattr = 2 };
  h->attrs[0] = (struct kfd_ioctl_svm_attribute){ KFD_IOCTL_SVM_ATTR_PREFERRED_LOC,
                                                  KFD_IOCTL_SVM_LOCATION_SYSMEM };
  h->attrs[1] = (struct kfd_ioctl_svm_attribute){ KFD_IOCTL_SVM_ATTR_ACCESS, 0x1000 };
  unsigned long req = _IOC(_IOC_READ | _IOC_WRITE, 'K', _IOC_NR(AMDKFD_IOC_SVM), svm_size);
  ck_assert_int_eq(kio(req, h), 0);
  h->op = KFD_IOCTL_SVM_OP_GET_ATTR;
  ck_assert_int_eq(kio(req, h), 0);
  ck_assert_uint_eq(h->attrs[0].value, KFD_IOCTL_SVM_LOCATION_SYSMEM);   /* kept */
  ck_assert_uint_eq(h->attrs[1].type, KFD_IOCTL_SVM_ATTR_ACCESS);
  h->op = KFD_IOCTL_SVM_OP_SET_ATTR;
  h->attrs[1].value = 0x4242;
  ck_assert_int_eq(kio(req, h), -EINVAL);   /* unknown gpu */
  h->attrs[1] = (struct kfd_ioctl_svm_attribute){ 99, 0 };
  ck_assert_int_eq(kio(req, h), -EINVAL);   /* unknown attribute */
  h->start_addr += 8;
  ck_assert_int_eq(kio(req, h), -EINVAL);   /* unaligned */
  h->start_addr = 0x10000; h->nattr = 0;
  ck_assert_int_eq(kio(req, h), -EFAULT);   /* not mapped memory */

  free(h);

  struct kfd_ioctl_get_dmabuf_info_args di = { .dmabuf_fd = 9999 };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), -EBADF);
  di.dmabuf_fd = 0;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), -EINVAL);
}
END_TEST

/* Render-node objects: create (argument checks), CPU-map offset, PRIME export, KFD's view of
 * the dma-buf (size, device, placement), import on another device refused, close. */
/* GEM_VA as amdgpu_gem_va_ioctl checks it, and the GPU reaching the mapping: readable where
 * mapped READABLE, writable only where WRITEABLE; UNMAP, CLEAR (trimming) and GEM_CLOSE drop
 * it. */
static int gem_va(struct sim_gpu *g, uint32_t h, uint32_t op, uint32_t flags, uint64_t va,
                  uint64_t off, uint64_t size)
{
  struct drm_amdgpu_gem_va v = { .handle = h, .operation = op, .flags = flags, .va_address = va,
                                 .offset_in_bo = off, .map_size = size };
  return sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_VA, &v);
}

START_TEST(gem_va_maps_for_the_gpu)
{
  fx_open();
  struct sim_gpu *g = sim_gpu(0);
  union drm_amdgpu_gem_create c = { .in = { .bo_size = 3 * 4096, .domains = AMDGPU_GEM_DOMAIN_GTT } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
  uint32_t h = c.out.handle;
  union drm_amdgpu_gem_mmap m = { .in = { .handle = h } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), 0);
  int err = 0;
  uint32_t *cpu = sim_drm_mmap(g, NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
                               (off_t)m.out.addr_ptr, &err);
  ck_assert_ptr_ne(cpu, MAP_FAILED);
  cpu[1024] = 0x1111;
  cpu[2048] = 0x2222;
  const uint32_t rw = AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE | AMDGPU_VM_PAGE_EXECUTABLE;
  const uint64_t va = 0x6000000000ull;
  /* the checks, in amdgpu's order */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, 0x1000, 0, 4096), -EINVAL);   /* reserved MiB */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, 0x0000800000000000ull, 0, 4096), -EINVAL);
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, (1ull << 48) - 4096, 0, 4096), -EINVAL);
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw | (1u << 12), va, 0, 4096), -EINVAL);
  ck_assert_int_eq(gem_va(g, h, 5, rw, va, 0, 4096), -EINVAL);
  ck_assert_int_eq(gem_va(g, h + 7, AMDGPU_VA_OP_MAP, rw, va, 0, 4096), -ENOENT);
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, va + 8, 0, 4096), -EINVAL);   /* alignment */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, va, 4096, 3 * 4096), -EINVAL);   /* past the end */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, va, 0, 0), -EINVAL);
  /* pages 1..2 of the object, read-write, at va; page 0 read-only at va + 64 KiB */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, va, 4096, 2 * 4096), 0);
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, rw, va + 4096, 0, 4096), -EINVAL);   /* overlap */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_MAP, AMDGPU_VM_PAGE_READABLE, va + 0x10000, 0, 4096), 0);
  uint32_t *gv = sim_vm_translate_write(g, va, 4);
  ck_assert_ptr_nonnull(gv);
  ck_assert_uint_eq(*gv, 0x1111);
  *gv = 0x3333;                                         /* the GPU's write, seen by the CPU */
  ck_assert_uint_eq(cpu[1024], 0x3333);
  ck_assert_uint_eq(*(uint32_t *)sim_vm_translate(g, va + 4096, 4), 0x2222);
  ck_assert_ptr_null(sim_vm_translate(g, va + 2 * 4096, 4));     /* past the mapping */
  cpu[0] = 0x4444;
  ck_assert_uint_eq(*(uint32_t *)sim_vm_translate(g, va + 0x10000, 4), 0x4444);
  ck_assert_ptr_null(sim_vm_translate_write(g, va + 0x10000, 4));   /* READABLE only */
  /* UNMAP needs the start of a mapping of that object; CLEAR trims */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_UNMAP, rw, va + 4096, 0, 0), -ENOENT);
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_UNMAP, rw, va + 0x10000, 0, 0), 0);
  ck_assert_ptr_null(sim_vm_translate(g, va + 0x10000, 4));
  ck_assert_int_eq(gem_va(g, 0, AMDGPU_VA_OP_CLEAR, 0, va, 0, 4096), 0);
  ck_assert_ptr_null(sim_vm_translate(g, va, 4));
  ck_assert_uint_eq(*(uint32_t *)sim_vm_translate(g, va + 4096, 4), 0x2222);   /* trimmed, kept */
  /* REPLACE maps over whatever is there; closing the handle drops the mappings */
  ck_assert_int_eq(gem_va(g, h, AMDGPU_VA_OP_REPLACE, rw, va, 0, 2 * 4096), 0);
  ck_assert_uint_eq(*(uint32_t *)sim_vm_translate(g, va, 4), 0x4444);
  ck_assert_uint_eq(*(uint32_t *)sim_vm_translate(g, va + 4096, 4), 0x3333);
  struct drm_gem_close gc = { .handle = h };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_GEM_CLOSE, &gc), 0);
  ck_assert_ptr_null(sim_vm_translate(g, va, 4));
}
END_TEST

START_TEST(gem_objects_dmabuf)
{
  fx_cfg.gpu_count = 2;
  fx_open();
  struct sim_gpu *g = sim_gpu(0);
  union drm_amdgpu_gem_create c = { .in = { .bo_size = 5000, .domains = AMDGPU_GEM_DOMAIN_VRAM,
                                            .domain_flags = AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_CREATE, &c), 0);
  uint32_t h = c.out.handle;
  ck_assert_uint_eq(h, 1);   /* handles start at 1 */
  union drm_amdgpu_gem_create bad = { .in = { .bo_size = 4096, .domains = AMDGPU_GEM_DOMAIN_GTT,
                                              .domain_flags = AMDGPU_GEM_CREATE_ENCRYPTED } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_CREATE, &bad), -EINVAL);   /* no TMZ */
  bad.in.domain_flags = 0;
  bad.in.bo_size = 0;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_CREATE, &bad), -EINVAL);
  bad.in.bo_size = g->vram_bytes + 4096;
  bad.in.domains = AMDGPU_GEM_DOMAIN_VRAM;
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_CREATE, &bad), -ENOMEM);

  union drm_amdgpu_gem_mmap m = { .in = { .handle = h } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_GEM_MMAP, &m), 0);
  ck_assert_uint_ne(m.out.addr_ptr, 0);
  int err = 0;
  uint32_t *cpu = sim_drm_mmap(g, NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
                               (off_t)m.out.addr_ptr, &err);
  ck_assert_ptr_ne(cpu, MAP_FAILED);
  cpu[1025] = 0xabcd;

  struct drm_prime_handle ph = { .handle = h, .flags = DRM_CLOEXEC | DRM_RDWR };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
  struct drm_prime_handle bad_ph = { .handle = h, .flags = 0x4 };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_PRIME_HANDLE_TO_FD, &bad_ph), -EINVAL);
  bad_ph = (struct drm_prime_handle){ .handle = 77 };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_PRIME_HANDLE_TO_FD, &bad_ph), -ENOENT);

  struct kfd_ioctl_get_dmabuf_info_args di = { .dmabuf_fd = (uint32_t)ph.fd };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_DMABUF_INFO, &di), 0);
  ck_assert_uint_eq(di.size, 8192);
  ck_assert_uint_eq(di.gpu_id, GPU0);
  ck_assert_uint_eq(di.flags, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC);
  struct kfd_ioctl_import_dmabuf_args im = { .va_addr = 0x40000000, .gpu_id = GPU0 + 0x111,
                                             .dmabuf_fd = (uint32_t)ph.fd };
  ck_assert_int_eq(kio(AMDKFD_IOC_IMPORT_DMABUF, &im), -EINVAL);   /* another device's */
  im.gpu_id = GPU0;
  ck_assert_int_eq(kio(AMDKFD_IOC_IMPORT_DMABUF, &im), 0);
  ck_assert_uint_eq(im.handle >> 32, GPU0);
  /* the imported object is the same memory */
  uint32_t ids[1] = { GPU0 };
  ck_assert_int_eq(fx_map(im.handle, ids, 1, true), 0);
  uint32_t *gpu_view = sim_vm_translate(g, 0x40000000 + 4100, 4);
  ck_assert_ptr_nonnull(gpu_view);
  ck_assert_uint_eq(*gpu_view, 0xabcd);
  ck_assert_int_eq(fx_map(im.handle, ids, 1, false), 0);

  struct drm_gem_close gc = { .handle = h };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_GEM_CLOSE, &gc), 0);
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_GEM_CLOSE, &gc), -EINVAL);
  ck_assert_uint_eq(cpu[1025], 0xabcd);   /* the mapping outlives the handle */
  struct kfd_ioctl_free_memory_of_gpu_args fr = { .handle = im.handle };
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0);
  close(ph.fd);

  union drm_amdgpu_ctx x = { .in = { .op = AMDGPU_CTX_OP_ALLOC_CTX } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_CTX, &x), 0);
  ck_assert_uint_eq(x.out.alloc.ctx_id, 1);
  uint32_t id = x.out.alloc.ctx_id;
  x = (union drm_amdgpu_ctx){ .in = { .op = AMDGPU_CTX_OP_QUERY_STATE2, .ctx_id = id } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_CTX, &x), 0);
  x = (union drm_amdgpu_ctx){ .in = { .op = AMDGPU_CTX_OP_FREE_CTX, .ctx_id = id } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_CTX, &x), 0);
  x = (union drm_amdgpu_ctx){ .in = { .op = AMDGPU_CTX_OP_FREE_CTX, .ctx_id = id } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_CTX, &x), -EINVAL);
  x = (union drm_amdgpu_ctx){ .in = { .op = 99 } };
  ck_assert_int_eq(sim_drm_ioctl(g, DRM_IOCTL_AMDGPU_CTX, &x), -EINVAL);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_drm");
  TCase *t = tcase_create("drm");
  tcase_add_test(t, drm_version_strings);
  tcase_add_test(t, drm_dispatch_errors);
  tcase_add_test(t, amdgpu_info_queries);
  tcase_add_test(t, device_settings);
  tcase_add_test(t, svm_xnack_dmabuf);
  tcase_add_test(t, gem_objects_dmabuf);
  tcase_add_test(t, gem_va_maps_for_the_gpu);
  tcase_add_test(t, ras_query);
  tcase_add_loop_test(t, ras_query_ecc, 0, 2);
  tcase_add_loop_test(t, cu_bitmap_wgp, 0, 2);
  tcase_add_loop_test(t, gb_addr_config_per_chip, 0, 5);
  suite_add_tcase(s, t);
  return s;
}
