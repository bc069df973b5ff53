/* SPDX-License-Identifier: MIT */
/* qsizes.c — the queue buffer sizes the kernel derives from a node's properties
 * (kfd_queue.c, Linux 6.12+; sizes as of 6.15 for gfx9-gfx12): per XCC, a context save area of the control stack plus every
 * CU's wave state, a debugger area of 32 bytes per wave, and the EOP buffer. */
#include "dev/catalog.h"

#include <string.h>

#define PAGE 4096u
#define ALIGN_UP(v, a) (((v) + (a) - 1) / (a) * (a))

/* Wave state bytes per CU: VGPRs (twice as many on the CDNA parts, 1.5 times on the RDNA3
 * parts with the larger register file, gfx1100/1101, and on RDNA4 gfx1200/1201), SGPRs,
 * LDS, HW regs. */
static uint32_t wg_data_per_cu(uint32_t gfxv)
{
  uint32_t vgpr = 0x40000u;
  if (gfxv == 90008 || gfxv == 90010 || gfxv == 90402)
    vgpr = 0x80000u;
  else if (gfxv == 110000 || gfxv == 110001 || gfxv == 120000 || gfxv == 120001)
    vgpr = 0x60000u;
  return vgpr + 0x4000u + 0x10000u + 0x1000u;
}

void sim_model_queue_sizes(const struct sim_gpu_model *m, struct sim_queue_sizes *out)
{
  memset(out, 0, sizeof *out);
  uint32_t gfxv = m->gfx_target_version;
  if (gfxv < 80001 || !m->simd_per_cu)
    return;
  uint32_t xcc = sim_model_xcc(m);
  uint32_t cu = m->simd_count / m->simd_per_cu / xcc;
  /* gfx9: 40 waves per CU, at most 512 per shader engine; gfx10.1 on: 32 waves per CU */
  uint32_t waves = cu * 32;
  if (gfxv < 100100) {
    waves = cu * 40;
    uint32_t se_cap = m->array_count / (m->simd_arrays_per_engine ? m->simd_arrays_per_engine : 1)
                      * 512;
    if (se_cap < waves)
      waves = se_cap;
  }
  /* a 40-byte save area header, 8 bytes per wave (12 from gfx10.1), 8 more */
  uint32_t per_wave = gfxv >= 100100 ? 12u : 8u;
  out->ctl_stack_size = ALIGN_UP(40u + waves * per_wave + 8u, PAGE);
  if (gfxv / 10000 == 10 && out->ctl_stack_size > 0x7000u)
    out->ctl_stack_size = 0x7000u;   /* gfx10's hardware limit on the control stack */
  out->cwsr_size = out->ctl_stack_size + ALIGN_UP(cu * wg_data_per_cu(gfxv), PAGE);
  out->debug_size = ALIGN_UP(waves * 32u, 64u);
  out->eop_size = gfxv == 80002 ? 0x8000u : 4096u;   /* Tonga 32 KiB, every other gfx8+ 4 KiB */
  out->cwsr_total = ALIGN_UP((uint64_t)(out->cwsr_size + out->debug_size) * xcc, (uint64_t)PAGE);
}
