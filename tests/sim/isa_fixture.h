/* SPDX-License-Identifier: MIT */
/* isa_fixture.h — running hand-written gfx9 code on sim/isa in a test: assemble with
 * llvm-mc at test time, put code and data in user memory mapped on the simulated GPU
 * (GPU VA = host address, as with SVM), run one workgroup. Include after kfd_fixture.h. */
#ifndef TESTS_SIM_ISA_FIXTURE_H
#define TESTS_SIM_ISA_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/catalog.h"
#include "isa/isa.h"

#ifndef ISA_FX_MC
#define ISA_FX_MC "/usr/lib/llvm-15/bin/llvm-mc"
#endif
#ifndef ISA_FX_OBJCOPY
#define ISA_FX_OBJCOPY "/usr/lib/llvm-15/bin/llvm-objcopy"
#endif

/* GPU 0 as the catalogue's gfx900 board with another gfx_target_version (110000 for gfx1100,
 * 120001 for gfx1201): a newer target's ISA on a board sim/dev describes */
static __attribute__((unused)) void isa_fx_as_target(unsigned version)
{
  static struct sim_gpu_model model;
  fx_open();
  model = *sim_catalog_find("gfx900");
  model.gfx_target_version = version;
  sim_gpu(0)->model = &model;
  sim_isa_invalidate(sim_gpu(0), 0, 0);
}

/* Page-aligned host memory mapped on GPU 0 at the same address. */
static __attribute__((unused)) void *isa_fx_mem(size_t size)
{
  size = (size + 4095) & ~(size_t)4095;
  char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(p, MAP_FAILED);
  struct kfd_ioctl_alloc_memory_of_gpu_args u = {
    .va_addr = (uintptr_t)p, .size = size, .gpu_id = GPU0, .mmap_offset = (uintptr_t)p,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | FX_WRITABLE };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &u), 0);
  uint32_t id = GPU0;
  ck_assert_int_eq(fx_map(u.handle, &id, 1, true), 0);
  return p;
}

/* Assembles `src` for `mcpu` and copies its .text into fresh mapped memory; returns it.
 * NULL when llvm-mc is missing (the caller skips). */
static __attribute__((unused)) void *isa_fx_code_for(const char *mcpu, const char *src, size_t *len)
{
  if (access(ISA_FX_MC, X_OK) != 0)
    return NULL;
  char dir[] = "/tmp/isa_fx_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char s[64], o[64], b[64], cmd[512];
  snprintf(s, sizeof s, "%s/a.s", dir);
  snprintf(o, sizeof o, "%s/a.o", dir);
  snprintf(b, sizeof b, "%s/a.bin", dir);
  FILE *f = fopen(s, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, ".text\n%s\n", src);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s -arch=amdgcn -mcpu=%s -filetype=obj -o %s %s && %s -O binary "
           "--only-section=.text %s %s", ISA_FX_MC, mcpu, o, s, ISA_FX_OBJCOPY, o, b);
  ck_assert_msg(system(cmd) == 0, "assembling failed: %s", src);
  f = fopen(b, "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  ck_assert_int_gt(n, 0);
  uint8_t *code = isa_fx_mem((size_t)n + 64);
  ck_assert_int_eq(fread(code, 1, (size_t)n, f), n);
  fclose(f);
  unlink(s); unlink(o); unlink(b); rmdir(dir);
  if (len)
    *len = (size_t)n;
  return code;
}

static __attribute__((unused)) void *isa_fx_code(const char *src)
{
  return isa_fx_code_for("gfx900", src, NULL);
}

/* A workgroup of `waves` full waves at `code`: s[0:1] = arg0, s[2:3] = arg1 per wave,
 * s4 = wave index; v0 = id = lane + 64 * wave (the flat work-item id), v1 = 4 * id,
 * v2 = 4 * (64 * waves - 1 - id). */
struct isa_fx_run {
  struct sim_isa_workgroup wg;
  struct sim_isa_wave_init init[SIM_ISA_MAX_WAVES_PER_GROUP];
  struct sim_isa_fault fault;
};

static __attribute__((unused)) void isa_fx_setup(struct isa_fx_run *r, void *code, unsigned waves,
                                                 uint64_t arg0, uint64_t arg1)
{
  memset(r, 0, sizeof *r);
  r->wg.gpu = sim_gpu(0);
  r->wg.code_entry = (uintptr_t)code;
  r->wg.wave_count = waves;
  r->wg.wave_size = 64;
  r->wg.waves = r->init;
  r->wg.sgpr_alloc = 96;
  r->wg.vgpr_alloc = 64;
  r->wg.lds_bytes = 0;
  r->wg.rsrc1 = 1u << 21 | 1u << 23 | 0xf0u << 12;   /* DX10 clamp, IEEE, denormals on */
  for (unsigned i = 0; i < waves; i++) {
    struct sim_isa_wave_init *w = &r->init[i];
    w->sgpr[0] = (uint32_t)arg0;
    w->sgpr[1] = (uint32_t)(arg0 >> 32);
    w->sgpr[2] = (uint32_t)arg1;
    w->sgpr[3] = (uint32_t)(arg1 >> 32);
    w->sgpr[4] = i;
    w->sgpr_count = 5;
    w->exec = ~0ull;
    w->vgpr_count = 3;
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
      w->vgpr[0][l] = l + 64 * i;
      w->vgpr[1][l] = 4 * (l + 64 * i);
      w->vgpr[2][l] = 4 * (64 * waves - 1 - (l + 64 * i));
    }
  }
}

static __attribute__((unused)) int isa_fx_go(struct isa_fx_run *r)
{
  return sim_isa_run_workgroup(&r->wg, &r->fault);
}

/* The results of the MUBUF d16 format test program (test_isa_mem's gfx9 and test_isa_gfx11's
 * gfx11/gfx12 versions): `buf` holds the source bytes (stores land at +1024 and +2048), `out`
 * the six result registers at 256-byte strides, for `lanes` lanes. Loads through an
 * 8_8_8_8_UNORM V# selecting (Z, Y, X, 1): xyzw, xyz (last high half 0), _hi_x over 0xabcd;
 * through 8_8_SINT: xy sign-extended. Stores: xyzw's bytes in x y z w order, _hi_x as x. */
static __attribute__((unused)) void isa_fx_check_mubuf_d16(const uint8_t *buf,
                                                           const uint32_t *out, unsigned lanes)
{
  for (unsigned l = 0; l < lanes; l++) {
    const uint8_t *b = buf + 4 * l;
    uint16_t h[4], one = 0x3c00;
    for (unsigned c = 0; c < 4; c++) {
      _Float16 f = (_Float16)((float)b[c] / 255.0f);
      memcpy(&h[c], &f, 2);
    }
    ck_assert_msg(out[l] == (h[2] | (uint32_t)h[1] << 16), "lane %u: %#x", l, out[l]);
    ck_assert_uint_eq(out[64 + l], h[0] | (uint32_t)one << 16);
    ck_assert_uint_eq(out[128 + l], h[2] | (uint32_t)h[1] << 16);
    ck_assert_uint_eq(out[192 + l], h[0]);
    ck_assert_uint_eq(out[256 + l], 0xabcdu | (uint32_t)h[2] << 16);
    ck_assert_uint_eq(out[320 + l], (uint16_t)(int8_t)b[0] | (uint32_t)(uint16_t)(int8_t)b[1] << 16);
    const uint8_t *s1 = buf + 1024 + 4 * l, *s2 = buf + 2048 + 4 * l;
    ck_assert_msg(s1[0] == b[2] && s1[1] == b[1] && s1[2] == b[0] && s1[3] == 255,
                  "lane %u: %02x %02x %02x %02x", l, s1[0], s1[1], s1[2], s1[3]);
    ck_assert_msg(s2[0] == b[2] && s2[1] == 0xee && s2[2] == 0xee && s2[3] == 0xee,
                  "lane %u: %02x %02x %02x %02x", l, s2[0], s2[1], s2[2], s2[3]);
  }
}

#endif
