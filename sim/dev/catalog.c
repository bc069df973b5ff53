/* SPDX-License-Identifier: MIT */
/* catalog.c — the boards hsa-sim can be. Values are those the amdgpu/KFD driver reports
 * for the real boards: the gfx906 entry is taken from a captured Radeon VII/MI50 topology
 * (tests/fixtures/topology/workstation-gfx906-gfx1102-gfx1032/nodes/1); gfx900 and gfx90a
 * follow the same kernel generation, with each chip's own geometry, clocks and memory.
 * gfx942 (MI300X) is the captured node in tests/fixtures/topology/node-properties, from a
 * 6.12+ kernel (it publishes cwsr_size/ctl_stack_size); gfx942-apu (MI300A) is the same
 * die with 6 XCCs and unified HBM as system memory.
 * gfx1100 (Radeon RX 7900 XTX) takes the field shapes of the captured gfx1102 node (the
 * same kernel generation and RDNA3 family, workstation capture node 2) with Navi 31's own
 * counts; gfx1201 (Radeon RX 9070 XT) is the captured node in
 * tests/fixtures/topology/node-properties/gfx1201.properties. */
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

/* Doorbell layouts of amdgpu (amdgpu_doorbell.h): Vega 10 (GC 9.0.1) puts its two SDMA engines
 * two doorbells apart, so a queue id above 3 reaches the next engine's doorbells; Vega 20,
 * Arcturus and Aldebaran (GC 9.4.x, vega20_doorbell_index_init) space eight engines ten
 * apart. The non-CP range runs from the first SDMA doorbell to the last VCE one. */
#define VEGA10_DOORBELLS .sdma_doorbell = { 0xf0, 0xf2 }, .non_cp_first = 0xf0, .non_cp_last = 0xff
#define VEGA20_DOORBELLS                                                                    \
  .sdma_doorbell = { 0x100, 0x10a, 0x114, 0x11e, 0x128, 0x132, 0x13c, 0x146 },                \
  .non_cp_first = 0x100, .non_cp_last = 0x18f
/* GC 9.4.3 (MI300, aqua_vanjaram_doorbell_index_init, amdgpu's "layout 1"): sixteen engines
 * ten apart from 0x100; the non-CP range runs on through IH and VCN to 0x1e8. */
#define LAYOUT1_DOORBELLS                                                                   \
  .sdma_doorbell = { 0x100, 0x10a, 0x114, 0x11e, 0x128, 0x132, 0x13c, 0x146,                  \
                     0x150, 0x15a, 0x164, 0x16e, 0x178, 0x182, 0x18c, 0x196 },               \
  .non_cp_first = 0x100, .non_cp_last = 0x1e8

/* What every GC 9.4.3 (MI300) board shares, as the captured MI300X node reports it, for a
 * board of `xcc` XCCs of 38 CUs (4 shader arrays of 10 CU slots, 2 of them harvested). */
#define MI300(xcc)                                                                         \
  .gfx_target_version = 90402,                                                              \
  .vendor_id = 0x1002, .pci_revision = 0x00, .family_id = 141, .chip_external_rev = 0x46,   \
  .simd_count = 152 * (xcc), .cu_count = 38 * (xcc), .simd_per_cu = 4,                      \
  .array_count = 4 * (xcc), .cu_per_simd_array = 10, .simd_arrays_per_engine = 1,            \
  .max_waves_per_simd = 8, .wave_front_size = 64, .lds_size_in_kb = 64, .gds_size_in_kb = 0, \
  .num_gws = 64, .max_slots_scratch_cu = 32, .num_sdma_engines = 2,                          \
  .num_sdma_xgmi_engines = 14, .num_sdma_queues_per_engine = 8, .num_cp_queues = 24,        \
  .max_engine_clk_fcompute = 2100, .local_mem_clk_max = 1300, .vram_width = 8192,           \
  .fw_version = 192, .sdma_fw_version = 25, .capability = 2893521536u, /* as captured */   \
  .debug_prop = 1511, .l1_kb = 16, .l2_kb = 4096, .l3_kb = 262144, .cacheline_bytes = 128,  \
  .xnack = 0, .sramecc = 1, .asic_name = "ip discovery", .subsystem_vendor_id = 0x1002,      \
  .pcie_gen = 5, LAYOUT1_DOORBELLS, .num_xcc = (xcc), .capability2 = 1,                     \
  .queue_buffer_checks = 1

/* Navi 1x onwards (navi10/soc21/soc24 doorbell index init, amdgpu's NAVI10 assignment): SDMA
 * engines at 0x100 and 0x10a, the non-CP range from the first SDMA doorbell to VCN e/f. */
#define NAVI10_DOORBELLS .sdma_doorbell = { 0x100, 0x10a }, .non_cp_first = 0x100, .non_cp_last = 0x18f

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
    VEGA10_DOORBELLS,
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
    VEGA20_DOORBELLS,
    /* SRAM ECC, no memory ECC (the captured RAS and SRAM-EDC capability bits) */
    .ras_enabled = 0x3efe, .ras_features = 0x0e,   /* SDMA, GFX, MMHUB */
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
    VEGA20_DOORBELLS,
    /* memory and SRAM ECC: every block; UMC, SDMA, GFX, MMHUB, PCIE_BIF, HDP, XGMI_WAFL on */
    .ras_enabled = 0x3fff, .ras_features = 0xef,
  },
  {
    /* Aqua Vanjaram: Instinct MI300X in SPX mode (8 XCCs of 38 CUs, 192 GiB HBM3 on an
     * 8192-bit bus, PCIe 5.0). Values as captured, caches from AMD's CDNA3 figures: 16 KiB
     * L1 per CU, 4 MiB L2 per XCC, 256 MiB Infinity Cache. */
    MI300(8),
    .name = "gfx942",
    .marketing_name = "AMD Instinct MI300X",
    .device_id = 0x74a1, .subsystem_device_id = 0x74a1,
    .max_engine_clk_ccompute = 2400,
    .default_vram_bytes = 206141652992ull, /* as captured */
    .unique_id = 5593906200782126851ull,
    .apu = 0,
  },
  {
    /* Instinct MI300A: the gfx942 APU (6 XCCs of 38 CUs, 24 Zen 4 cores beside them). Its
     * 128 GiB HBM3 is the system memory: amdgpu prefers GTT for everything and KFD reports
     * as the node's (FB_PUBLIC) bank the part of system memory TTM may use (gpus.c). */
    MI300(6),
    .name = "gfx942-apu",
    .marketing_name = "AMD Instinct MI300A",
    .device_id = 0x74a0, .subsystem_device_id = 0x74a0,
    .max_engine_clk_ccompute = 3700,
    .default_vram_bytes = 0,
    .unique_id = 0x2b7d4e19c05a8f31ull,
    .apu = 1,
  },
  {
    /* Navi 31: Radeon RX 7900 XTX (96 CUs in 48 WGPs, 6 shader engines of 2 arrays, 24 GiB
     * GDDR6 on a 384-bit bus, PCIe 4.0). RDNA3 caches: 32 KiB vector L0 per CU, 6 MiB L2,
     * 96 MiB Infinity Cache. Capability, firmware and debug bits as the gfx1102 capture. */
    .name = "gfx1100",
    .marketing_name = "AMD Radeon RX 7900 XTX",
    .gfx_target_version = 110000,
    .vendor_id = 0x1002, .device_id = 0x744c, .pci_revision = 0xc8,
    .family_id = 145 /* AMDGPU_FAMILY_GC_11_0_0 */, .chip_external_rev = 0x01,
    .simd_count = 192, .cu_count = 96, .simd_per_cu = 2, .array_count = 12,
    .cu_per_simd_array = 8, .simd_arrays_per_engine = 2, .max_waves_per_simd = 16,
    .wave_front_size = 32, .lds_size_in_kb = 64, .gds_size_in_kb = 0, .num_gws = 64,
    .max_slots_scratch_cu = 32, .num_sdma_engines = 2, .num_sdma_xgmi_engines = 0,
    .num_sdma_queues_per_engine = 6, .num_cp_queues = 8,
    .max_engine_clk_fcompute = 2500, .max_engine_clk_ccompute = 0, .local_mem_clk_max = 1250,
    .vram_width = 384, .fw_version = 2590, .sdma_fw_version = 21,
    .capability = 671326848u, /* as the gfx1102 capture */
    .debug_prop = 1495,
    .default_vram_bytes = 24 * GIB - 16 * MIB,
    .l1_kb = 32, .l2_kb = 6144, .l3_kb = 98304, .cacheline_bytes = 128,
    .xnack = -1, .sramecc = -1,
    .asic_name = "ip discovery", .subsystem_vendor_id = 0x1002, .subsystem_device_id = 0x0e3b,
    .pcie_gen = 4, .unique_id = 0x3f18c2a9e6b04d57ull,
    NAVI10_DOORBELLS,
    .num_xcc = 1, .capability2 = 0, .apu = 0, .queue_buffer_checks = 1,
    .sdma_ip_major = 6, .vram_type = 9 /* AMDGPU_VRAM_TYPE_GDDR6 */, .mes = 1,
  },
  {
    /* Navi 48: Radeon RX 9070 XT (64 CUs in 32 WGPs, 4 shader engines of 2 arrays, 16 GiB
     * GDDR6 on a 256-bit bus, PCIe 5.0). Values as captured; caches from AMD's RDNA4 figures:
     * 32 KiB vector L0 per CU, 8 MiB L2, 64 MiB Infinity Cache. */
    .name = "gfx1201",
    .marketing_name = "AMD Radeon RX 9070 XT",
    .gfx_target_version = 120001,
    .vendor_id = 0x1002, .device_id = 0x7550, .pci_revision = 0xc0,
    .family_id = 152 /* AMDGPU_FAMILY_GC_12_0_0 */, .chip_external_rev = 0x50,
    .simd_count = 128, .cu_count = 64, .simd_per_cu = 2, .array_count = 8,
    .cu_per_simd_array = 8, .simd_arrays_per_engine = 2, .max_waves_per_simd = 16,
    .wave_front_size = 32, .lds_size_in_kb = 64, .gds_size_in_kb = 0, .num_gws = 64,
    .max_slots_scratch_cu = 32, .num_sdma_engines = 2, .num_sdma_xgmi_engines = 0,
    .num_sdma_queues_per_engine = 6, .num_cp_queues = 4,
    .max_engine_clk_fcompute = 2400, .max_engine_clk_ccompute = 0, .local_mem_clk_max = 1258,
    .vram_width = 256, .fw_version = 3250, .sdma_fw_version = 36502,
    .capability = 1745068672u, /* as captured */
    .debug_prop = 1495,
    .default_vram_bytes = 16 * GIB - 16 * MIB,
    .l1_kb = 32, .l2_kb = 8192, .l3_kb = 65536, .cacheline_bytes = 128,
    .xnack = -1, .sramecc = -1,
    .asic_name = "ip discovery", .subsystem_vendor_id = 0x1002, .subsystem_device_id = 0x7550,
    .pcie_gen = 5, .unique_id = 2903314361593472692ull,
    NAVI10_DOORBELLS,
    .num_xcc = 1, .capability2 = 0, .apu = 0, .queue_buffer_checks = 1,
    .sdma_ip_major = 7, .vram_type = 9 /* AMDGPU_VRAM_TYPE_GDDR6 */, .mes = 1,
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
