/* SPDX-License-Identifier: MIT */
/* catalog.h — the GPU boards hsa-sim can be: the property values of real boards, used
 * for the KFD sysfs topology (sim/dev, sim/os) and the driver's answers (sim/kfd).
 * Owner: sim/dev. Others only read it. Fields may be added; keep existing ones.
 * Added by sim/dev (Part A): asic_name, subsystem ids, pcie_gen, unique_id (at the end). */
#ifndef SIM_DEV_CATALOG_H
#define SIM_DEV_CATALOG_H

#include <stdint.h>

struct sim_gpu_model {
  const char *name;                 /* "gfx900" */
  const char *marketing_name;       /* "Radeon RX Vega" (what libdrm_amdgpu's ids table gives) */
  uint32_t gfx_target_version;      /* e.g. 90000 for gfx900, 90010 for gfx90a */
  uint16_t vendor_id, device_id;    /* PCI ids, e.g. 0x1002, 0x687f */
  uint8_t pci_revision;
  uint32_t family_id;               /* AMDGPU_FAMILY_* (AI = 141 for gfx9) */
  uint32_t chip_external_rev;       /* amdgpu_gpu_info.chip_external_rev */
  uint32_t simd_count, cu_count, simd_per_cu, array_count, cu_per_simd_array;
  uint32_t simd_arrays_per_engine, max_waves_per_simd, wave_front_size;
  uint32_t lds_size_in_kb, gds_size_in_kb, num_gws;
  uint32_t max_slots_scratch_cu, num_sdma_engines, num_sdma_xgmi_engines;
  uint32_t num_sdma_queues_per_engine, num_cp_queues;
  uint32_t max_engine_clk_fcompute;  /* MHz */
  uint32_t max_engine_clk_ccompute;  /* MHz (CPU-side value KFD reports) */
  uint32_t local_mem_clk_max;       /* MHz */
  uint32_t vram_width;              /* bits */
  uint32_t fw_version, sdma_fw_version;
  uint32_t capability;              /* HSA_CAP_* bits as the kernel reports them */
  uint64_t debug_prop;
  uint64_t default_vram_bytes;
  uint32_t l1_kb, l2_kb, l3_kb;      /* cache sizes for the caches/ directory */
  uint32_t cacheline_bytes;
  int xnack, sramecc;               /* target-ID features: -1 unsupported, 0 off, 1 on */
  /* added by sim/dev */
  const char *asic_name;            /* KFD nodes/N/name: amdgpu's asic name, "vega10" */
  uint16_t subsystem_vendor_id, subsystem_device_id;  /* PCI subsystem of the board */
  uint32_t pcie_gen;                /* link generation (x16): io_link bandwidth */
  uint64_t unique_id;               /* KFD unique_id of the first board; 0 if none */
  /* added for the doorbell layout: amdgpu's doorbell assignment of the chip (its
   * *_doorbell_index_init), in 64-bit doorbell units of a process's doorbell pages. */
  uint16_t sdma_doorbell[16];        /* first doorbell of each SDMA engine, xGMI ones after */
  uint16_t non_cp_first, non_cp_last;  /* SDMA/IH/VCN range: never given to a CP queue */
  /* added for RAS: amdgpu's RAS blocks (bit per AMDGPU_RAS_BLOCK__*: UMC 0, SDMA 1, GFX 2,
   * MMHUB 3, ATHUB 4, PCIE_BIF 5, HDP 6, XGMI_WAFL 7, DF 8, ... FUSE 13) the board's ECC
   * supports (adev->ras_enabled) and those the driver turned on (the RAS features); 0 and 0
   * on boards without RAS. SRAM ECC alone covers all but UMC and DF. */
  uint32_t ras_enabled, ras_features;
  /* added for gfx942 (issue 20) */
  uint32_t num_xcc;                 /* compute dies (XCCs) in the partition; 0 reads as 1 */
  uint32_t capability2;             /* KFD capability2 as the kernel reports it */
  int apu;                          /* 1: memory is system memory, no VRAM heap (MI300A): the
                                     * node's bank is TTM's share of it, VRAM requests are GTT */
  int queue_buffer_checks;          /* 1: the board's kernel (6.12+) publishes cwsr_size and
                                     * ctl_stack_size and checks queue buffers against them */
  /* added for RDNA3/RDNA4 (issue 21) */
  uint32_t sdma_ip_major;           /* SDMA IP version: 0 reads as 4 (gfx9); 6 gfx11, 7 gfx12 */
  uint32_t vram_type;               /* AMDGPU_VRAM_TYPE_*: 0 reads as HBM */
  int mes;                          /* 1: queues are scheduled by MES (gfx11+): the write
                                     * pointer's buffer must be this device's, at most a page,
                                     * mapped in its VM, and is mapped to the GART for MES */
};

/* What the kernel's kfd_queue.c computes per node (and, with queue_buffer_checks, publishes
 * and enforces): the CWSR area and control stack of one XCC, the debugger bytes per XCC,
 * the EOP buffer size. All zero for a model without CWSR. */
struct sim_queue_sizes {
  uint32_t ctl_stack_size, cwsr_size, debug_size, eop_size;
  uint64_t cwsr_total;              /* (cwsr_size + debug_size) x num_xcc, page aligned */
};
void sim_model_queue_sizes(const struct sim_gpu_model *m, struct sim_queue_sizes *out);
/* SDMA IP major version of the board (4: gfx9's v4 packets, 6: gfx11, 7: gfx12). */
static inline uint32_t sim_model_sdma_major(const struct sim_gpu_model *m)
{
  return m->sdma_ip_major ? m->sdma_ip_major : 4;
}
/* GC major version: 9, 11, 12 */
static inline uint32_t sim_model_gfx_major(const struct sim_gpu_model *m)
{
  return m->gfx_target_version / 10000;
}
static inline uint32_t sim_model_xcc(const struct sim_gpu_model *m)
{
  return m->num_xcc ? m->num_xcc : 1;
}

/* NULL when no such model. */
const struct sim_gpu_model *sim_catalog_find(const char *name);
/* For listing in --help: the i-th model, NULL past the end. */
const struct sim_gpu_model *sim_catalog_at(unsigned i);

#endif
