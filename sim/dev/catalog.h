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
};

/* NULL when no such model. */
const struct sim_gpu_model *sim_catalog_find(const char *name);
/* For listing in --help: the i-th model, NULL past the end. */
const struct sim_gpu_model *sim_catalog_at(unsigned i);

#endif
