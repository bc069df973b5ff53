/* SPDX-License-Identifier: MIT */
/* catalog.c — the boards hsa-sim can be. Values are those the amdgpu/KFD driver reports
 * for the real boards: the gfx906 entry is taken from a captured Radeon VII/MI50 topology
 * (tests/fixtures/topology/workstation-gfx906-gfx1102-gfx1032/nodes/1); gfx900 and gfx90a
 * follow the same kernel generation, with each chip's own geometry, clocks and memory. */
#include "dev/catalog.h"

#include <linux/kfd_sysfs.h>
#include <string.h>

#define GIB (1024ull * 1024 * 1024)
#define MIB (1024ull * 1024)

/* The kernel's capability bits for a gfx9 dGPU: 4 address watch points, 2.0 doorbells, the
 * SVM API. Bits 15-17, 29 and 31 are the debugger capabilities newer kernels add (seen in
 * the gfx906 capture); ROCR 5.2 ignores them. */
#define GFX9_CAP (HSA_CAP_WATCH_POINTS_SUPPORTED | (2u << HSA_CAP_WATCH_POINTS_TOTALBITS_SHIFT) | \
                  (HSA_CAP_DOORBELL_TYPE_2_0 << HSA_CAP_DOORBELL_TYPE_TOTALBITS_SHIFT) |        \
                  HSA_CAP_SVMAPI_SUPPORTED | 0x00038000u | 0x20000000u | 0x80000000u)
/* ECC boards also report RAS events and SRAM EDC. */
#define GFX9_ECC_CAP (GFX9_CAP | HSA_CAP_RASEVENTNOTIFY | HSA_CAP_SRAM_EDCSUPPORTED)

static const struct sim_gpu_model models[] = {
  {
    /* Vega 10: Radeon RX Vega 64 (64 CUs, 8 GiB HBM2 on a 2048-bit bus, PCIe 3.0). */
    .name = "gfx900",
    .marketing_name = "AMD Radeon RX Vega",
    .gfx_target_version = 90000,
    .vendor_id = 0x1002, .device_id = 0x687f, .pci_revision = 0xc1,
    .family_id = 141, .chip_external_rev = 0x01,
    .simd_count = 256, .cu_count = 64, .simd_per_cu = 4, .array_count = 4,
    .cu_per_simd_array = 16, .simd_arrays_per_engine = 1, .max_waves_per_simd = 10,
    .wave_front_size = 64, .lds_size_in_kb = 64, .gds_size_in_kb = 0, .num_gws = 64,
    .max_slots_scratch_cu = 32, .num_sdma_engines = 2, .num_sdma_xgmi_engines = 0,
    .num_sdma_queues_per_engine = 2, .num_cp_queues = 24,
    .max_engine_clk_fcompute = 1630, .max_engine_clk_ccompute = 0, .local_mem_clk_max = 945,
    .vram_width = 2048, .fw_version = 446, .sdma_fw_version = 433,
    .capability = GFX9_CAP | (1u << HSA_CAP_ASIC_REVISION_SHIFT), .debug_prop = 1494,
    .default_vram_bytes = 8 * GIB - 16 * MIB,
    .l1_kb = 16, .l2_kb = 4096, .l3_kb = 0, .cacheline_bytes = 64,
    .xnack = 0, .sramecc = -1,
    .asic_name = "vega10", .subsystem_vendor_id = 0x1002, .subsystem_device_id = 0x0b36,
    .pcie_gen = 3, .unique_id = 0,
  },
  {
    /* Vega 20: Radeon VII / Instinct MI50 (60 CUs, 16 GiB HBM2, 4096-bit, PCIe 4.0). */
    .name = "gfx906",
    .marketing_name = "AMD Radeon VII",
    .gfx_target_version = 90006,
    .vendor_id = 0x1002, .device_id = 0x66af, .pci_revision = 0xc1,
    .family_id = 141, .chip_external_rev = 0x29,
    .simd_count = 240, .cu_count = 60, .simd_per_cu = 4, .array_count = 4,
    .cu_per_simd_array = 16, .simd_arrays_per_engine = 1, .max_waves_per_simd = 10,
    .wave_front_size = 64, .lds_size_in_kb = 64, .gds_size_in_kb = 0, .num_gws = 64,
    .max_slots_scratch_cu = 32, .num_sdma_engines = 2, .num_sdma_xgmi_engines = 0,
    .num_sdma_queues_per_engine = 8, .num_cp_queues = 24,
    .max_engine_clk_fcompute = 1801, .max_engine_clk_ccompute = 0, .local_mem_clk_max = 1000,
    .vram_width = 4096, .fw_version = 472, .sdma_fw_version = 145,
    .capability = 2892210816u, /* as captured */
    .debug_prop = 1494,
    .default_vram_bytes = 17163091968ull, /* as captured: 16 GiB less 16 MiB reserved */
    .l1_kb = 16, .l2_kb = 4096, .l3_kb = 0, .cacheline_bytes = 64,
    .xnack = 0, .sramecc = 1,
    .asic_name = "vega20", .subsystem_vendor_id = 0x1002, .subsystem_device_id = 0x081e,
    .pcie_gen = 4, .unique_id = 985321441578344217ull,
  },
  {
    /* Aldebaran: Instinct MI210 (104 CUs, 64 GiB HBM2e, 4096-bit, PCIe 4.0). */
    .name = "gfx90a",
    .marketing_name = "AMD Instinct MI210",
    .gfx_target_version = 90010,
    .vendor_id = 0x1002, .device_id = 0x740f, .pci_revision = 0x02,
    .family_id = 141, .chip_external_rev = 0x3c,
    .simd_count = 416, .cu_count = 104, .simd_per_cu = 4, .array_count = 8,
    .cu_per_simd_array = 16, .simd_arrays_per_engine = 1, .max_waves_per_simd = 8,
    .wave_front_size = 64, .lds_size_in_kb = 64, .gds_size_in_kb = 0, .num_gws = 64,
    .max_slots_scratch_cu = 32, .num_sdma_engines = 2, .num_sdma_xgmi_engines = 3,
    .num_sdma_queues_per_engine = 8, .num_cp_queues = 24,
    .max_engine_clk_fcompute = 1700, .max_engine_clk_ccompute = 0, .local_mem_clk_max = 1600,
    .vram_width = 4096, .fw_version = 78, .sdma_fw_version = 8,
    .capability = GFX9_ECC_CAP | HSA_CAP_MEM_EDCSUPPORTED | (2u << HSA_CAP_ASIC_REVISION_SHIFT),
    .debug_prop = 1494,
    .default_vram_bytes = 64 * GIB - 16 * MIB,
    .l1_kb = 16, .l2_kb = 8192, .l3_kb = 0, .cacheline_bytes = 128,
    .xnack = 0, .sramecc = 1,
    .asic_name = "aldebaran", .subsystem_vendor_id = 0x1002, .subsystem_device_id = 0x0c34,
    .pcie_gen = 4, .unique_id = 0x49fa3c2d1e07b5a1ull,
  },
};

const struct sim_gpu_model *sim_catalog_find(const char *name)
{
  if (!name)
    return NULL;
  for (unsigned i = 0; i < sizeof models / sizeof models[0]; i++)
    if (strcmp(models[i].name, name) == 0)
      return &models[i];
  return NULL;
}

const struct sim_gpu_model *sim_catalog_at(unsigned i)
{
  return i < sizeof models / sizeof models[0] ? &models[i] : NULL;
}
