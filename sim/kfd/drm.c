/* SPDX-License-Identifier: MIT */
/* drm.c — the render node's ioctls as the DRM core (drm_ioctl) and amdgpu answer them for
 * what libdrm_amdgpu and the thunk ask: DRM_IOCTL_VERSION, GET_CAP and AMDGPU_INFO queries
 * (device info, acceleration, registers, firmware, memory heaps, IP blocks), and the
 * render node's own buffer objects and contexts (gem.c: GEM_CREATE, GEM_MMAP, GEM_CLOSE,
 * PRIME export/import, CTX). Command submission (CS) is not modelled. */
#include "kfd/gem.h"
#include "kfd/kfd.h"
#include "kfd/trace.h"

#include <errno.h>
#include <stdbool.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysinfo.h>

uint32_t sim_gb_addr_config(const struct sim_gpu_model *m);
uint64_t sim_gpu_clock_counter(void);

#define KMS_MAJOR 3
#define KMS_MINOR 49   /* amdgpu in Linux 6.1 */
#define VA_RESERVED (1ull << 20)
#define GMC_HOLE_START 0x0000800000000000ull
#define GMC_HOLE_END 0xffff800000000000ull
#define VM_SIZE (1ull << 48)
#define RESERVED_VRAM (8ull << 20)
#define GRBM_STATUS 0x2004
#define GB_ADDR_CONFIG 0x263e

static unsigned shader_engines(const struct sim_gpu_model *m)
{
  unsigned per = m->simd_arrays_per_engine ? m->simd_arrays_per_engine : 1;
  return m->array_count / per ? m->array_count / per : 1;
}

static uint64_t gtt_size(void)
{
  struct sysinfo si;
  uint64_t ram = sysinfo(&si) == 0 ? (uint64_t)si.totalram * si.mem_unit : 0;
  uint64_t g = ram / 4 * 3;
  return g > (3072ull << 20) ? g : 3072ull << 20;
}

static void dev_info(const struct sim_gpu *gpu, struct drm_amdgpu_info_device *d)
{
  const struct sim_gpu_model *m = gpu->model;
  unsigned se = shader_engines(m), sh = m->simd_arrays_per_engine ? m->simd_arrays_per_engine : 1;
  unsigned cu_per_sh = m->cu_per_simd_array;
  memset(d, 0, sizeof *d);
  d->device_id = m->device_id;
  d->chip_rev = 0;
  d->external_rev = m->chip_external_rev;
  d->pci_rev = m->pci_revision;
  d->family = m->family_id;
  d->num_shader_engines = se;
  d->num_shader_arrays_per_engine = sh;
  d->gpu_counter_freq = 100000;   /* kHz: the 100 MHz reference clock */
  d->max_engine_clock = (uint64_t)m->max_engine_clk_fcompute * 1000;
  d->max_memory_clock = (uint64_t)m->local_mem_clk_max * 1000;
  d->cu_active_number = m->cu_count;
  /* gfx11/gfx12 enable CUs by work-group processor: each active WGP of a shader array
   * sets its two CU bits, so an odd CU left over has none; they keep no always-on CUs
   * (cu_ao_bitmap and cu_ao_mask stay 0), and the active count is the bits set */
  bool wgp = sim_model_gfx_major(m) >= 11;
  unsigned sh_cus = wgp ? cu_per_sh & ~1u : cu_per_sh;
  uint32_t sh_mask = sh_cus >= 32 ? 0xffffffffu : (1u << sh_cus) - 1;
  if (wgp)
    d->cu_active_number = 0;
  for (unsigned i = 0; i < se && i < 8; i++)
    for (unsigned j = 0; j < sh && j < 2; j++) {
      /* SEs 4-7 fold into the columns 2-3 of the 4x4 bitmap (gfx9, gfx11, gfx12) */
      d->cu_bitmap[i % 4][j + (i / 4) * 2] = sh_mask;
      if (wgp) {
        d->cu_active_number += sh_cus;
        continue;
      }
      d->cu_ao_bitmap[i % 4][j + (i / 4) * 2] = sh_mask;   /* dGPU: every CU always on */
      if (i < 2 && j < 2)
        d->cu_ao_mask |= (sh_mask & 0xff) << (i * 16 + j * 8);
    }
  unsigned rbs = 4 * se;
  d->enabled_rb_pipes_mask = rbs >= 32 ? 0xffffffffu : (1u << rbs) - 1;
  d->num_rb_pipes = rbs;
  d->num_hw_gfx_contexts = 8;
  d->ids_flags = m->apu ? AMDGPU_IDS_FLAGS_FUSION : 0;   /* MI300A: an APU */
  uint64_t vm = VM_SIZE - VA_RESERVED;
  d->virtual_address_offset = VA_RESERVED;
  d->virtual_address_max = vm < GMC_HOLE_START ? vm : GMC_HOLE_START;
  d->high_va_offset = GMC_HOLE_END;
  d->high_va_max = GMC_HOLE_END | vm;
  d->virtual_address_alignment = 4096;
  d->pte_fragment_size = 2u << 20;
  d->gart_page_size = 4096;
  d->ce_ram_size = 32768;
  d->vram_type = m->vram_type ? m->vram_type : AMDGPU_VRAM_TYPE_HBM;
  d->vram_bit_width = m->vram_width;
  d->gc_double_offchip_lds_buf = 1;
  d->wave_front_size = m->wave_front_size;
  d->num_shader_visible_vgprs = 256;
  d->num_cu_per_sh = cu_per_sh;
  d->num_tcc_blocks = 16;
  d->gs_vgt_table_depth = 32;
  d->gs_prim_buffer_depth = 1792;
  d->max_gs_waves_per_vgt = 32;
}

static int hw_ip(const struct sim_gpu_model *m, uint32_t type, uint32_t inst,
                 struct drm_amdgpu_info_hw_ip *ip)
{
  if (inst >= AMDGPU_HW_IP_INSTANCE_MAX_COUNT || type >= AMDGPU_HW_IP_NUM)
    return -EINVAL;
  memset(ip, 0, sizeof *ip);
  ip->ib_start_alignment = 32;
  ip->ib_size_alignment = 32;
  switch (type) {
  case AMDGPU_HW_IP_GFX:
    ip->hw_ip_version_major = sim_model_gfx_major(m);
    ip->available_rings = 1;
    break;
  case AMDGPU_HW_IP_COMPUTE:
    ip->hw_ip_version_major = sim_model_gfx_major(m);
    ip->available_rings = 0xff;
    break;
  case AMDGPU_HW_IP_DMA:
    ip->hw_ip_version_major = sim_model_sdma_major(m);
    ip->ib_start_alignment = 256;
    ip->ib_size_alignment = 4;
    ip->available_rings = (1u << m->num_sdma_engines) - 1;
    break;
  default:
    ip->ib_start_alignment = 64;
    ip->ib_size_alignment = 64;
    break;   /* multimedia blocks: present, no rings for compute work */
  }
  return 0;
}

static int fw_version(const struct sim_gpu_model *m, const struct drm_amdgpu_query_fw *q,
                      struct drm_amdgpu_info_firmware *fw)
{
  if (q->ip_instance != 0)
    return -EINVAL;
  memset(fw, 0, sizeof *fw);
  switch (q->fw_type) {
  case AMDGPU_INFO_FW_GFX_MEC:
    if (q->index > 1)
      return -EINVAL;
    fw->ver = m->fw_version;
    fw->feature = 42;
    break;
  case AMDGPU_INFO_FW_SDMA:
    if (q->index >= m->num_sdma_engines)
      return -EINVAL;
    fw->ver = m->sdma_fw_version;
    break;
  case AMDGPU_INFO_FW_GFX_ME: fw->ver = 163; fw->feature = 42; break;
  case AMDGPU_INFO_FW_GFX_PFP: fw->ver = 186; fw->feature = 42; break;
  case AMDGPU_INFO_FW_GFX_CE: fw->ver = 79; fw->feature = 42; break;
  case AMDGPU_INFO_FW_GFX_RLC: fw->ver = 93; fw->feature = 1; break;
  case AMDGPU_INFO_FW_SMC: fw->ver = 0x001b2d00; break;
  case AMDGPU_INFO_FW_SOS: fw->ver = 0x00080b1c; break;
  case AMDGPU_INFO_FW_ASD: fw->ver = 0x21000088; break;
  case AMDGPU_INFO_FW_TA: fw->ver = 0; break;
  case AMDGPU_INFO_FW_VCE: fw->ver = 0x34d0000; break;
  case AMDGPU_INFO_FW_UVD: fw->ver = 0x01820000; break;
  case AMDGPU_INFO_FW_GMC: case AMDGPU_INFO_FW_VCN: case AMDGPU_INFO_FW_DMCU:
  case AMDGPU_INFO_FW_DMCUB: case AMDGPU_INFO_FW_TOC:
  case AMDGPU_INFO_FW_GFX_RLC_RESTORE_LIST_CNTL:
  case AMDGPU_INFO_FW_GFX_RLC_RESTORE_LIST_GPM_MEM:
  case AMDGPU_INFO_FW_GFX_RLC_RESTORE_LIST_SRM_MEM:
    break;   /* not on this chip: version 0 */
  default:
    return -EINVAL;
  }
  return 0;
}

static uint64_t vram_used(const struct sim_gpu *gpu)
{
  struct sim_kfd_process *p = sim_kfd_current();
  uint64_t used = 0;
  if (!p)
    return 0;
  pthread_mutex_lock(&p->lock);
  for (struct sim_bo *b = p->bos; b; b = b->next)
    if (b->pdd->gpu == gpu && (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM))
      used += b->bo_size;
  pthread_mutex_unlock(&p->lock);
  return used;
}

static int put(uint64_t out, uint32_t size, const void *v, size_t n)
{
  return sim_copy_to_user(out, v, size < n ? size : n) ? -EFAULT : 0;
}

static int amdgpu_info(struct sim_gpu *gpu, struct drm_amdgpu_info *in)
{
  const struct sim_gpu_model *m = gpu->model;
  uint64_t out = in->return_pointer;
  uint32_t size = in->return_size;
  if (!size || !out)
    return -EINVAL;
  uint32_t u32;
  uint64_t u64;
  int r;
  switch (in->query) {
  case AMDGPU_INFO_ACCEL_WORKING:
    u32 = 1;
    return put(out, size, &u32, 4);
  case AMDGPU_INFO_DEV_INFO: {
    struct drm_amdgpu_info_device d;
    dev_info(gpu, &d);
    return put(out, size, &d, sizeof d);
  }
  case AMDGPU_INFO_HW_IP_INFO: {
    struct drm_amdgpu_info_hw_ip ip;
    if ((r = hw_ip(m, in->query_hw_ip.type, in->query_hw_ip.ip_instance, &ip)) != 0)
      return r;
    return put(out, size, &ip, sizeof ip);
  }
  case AMDGPU_INFO_HW_IP_COUNT:
    if (in->query_hw_ip.type >= AMDGPU_HW_IP_NUM)
      return -EINVAL;
    u32 = in->query_hw_ip.type <= AMDGPU_HW_IP_DMA || in->query_hw_ip.type == AMDGPU_HW_IP_UVD ||
          in->query_hw_ip.type == AMDGPU_HW_IP_VCE;
    return put(out, size, &u32, 4);
  case AMDGPU_INFO_TIMESTAMP:
    u64 = sim_gpu_clock_counter();
    return put(out, size, &u64, 8);
  case AMDGPU_INFO_FW_VERSION: {
    struct drm_amdgpu_info_firmware fw;
    if ((r = fw_version(m, &in->query_fw, &fw)) != 0)
      return r;
    return put(out, size, &fw, sizeof fw);
  }
  case AMDGPU_INFO_NUM_BYTES_MOVED: case AMDGPU_INFO_NUM_EVICTIONS:
  case AMDGPU_INFO_NUM_VRAM_CPU_PAGE_FAULTS: case AMDGPU_INFO_GTT_USAGE:
    u64 = 0;
    return put(out, size, &u64, 8);
  case AMDGPU_INFO_VRAM_LOST_COUNTER:
    u64 = 0;
    return put(out, size, &u64, 4);
  case AMDGPU_INFO_RAS_ENABLED_FEATURES:
    if (!m->ras_enabled)
      return -EINVAL;   /* no RAS context on this board */
    u64 = (uint64_t)m->ras_enabled << 32 | m->ras_features;
    return put(out, size, &u64, 8);
  case AMDGPU_INFO_VRAM_USAGE: case AMDGPU_INFO_VIS_VRAM_USAGE:
    u64 = vram_used(gpu);
    return put(out, size, &u64, 8);
  case AMDGPU_INFO_GDS_CONFIG: {
    struct drm_amdgpu_info_gds g = {0};
    g.compute_partition_size = g.gds_total_size = m->gds_size_in_kb * 1024;
    g.gws_per_compute_partition = m->num_gws;
    g.oa_per_compute_partition = 16;
    return put(out, size, &g, sizeof g);
  }
  case AMDGPU_INFO_VRAM_GTT: {
    struct drm_amdgpu_info_vram_gtt v;
    v.vram_size = gpu->vram_bytes > RESERVED_VRAM ? gpu->vram_bytes - RESERVED_VRAM : 0;
    v.vram_cpu_accessible_size = v.vram_size;   /* large BAR: all VRAM is visible */
    v.gtt_size = gtt_size();
    return put(out, size, &v, sizeof v);
  }
  case AMDGPU_INFO_MEMORY: {
    struct drm_amdgpu_memory_info mi;
    uint64_t used = vram_used(gpu);
    mi.vram.total_heap_size = gpu->vram_bytes;
    mi.vram.usable_heap_size = gpu->vram_bytes > RESERVED_VRAM ? gpu->vram_bytes - RESERVED_VRAM : 0;
    mi.vram.heap_usage = used;
    mi.vram.max_allocation = mi.vram.usable_heap_size / 4 * 3;
    mi.cpu_accessible_vram = mi.vram;
    mi.gtt.total_heap_size = gtt_size();
    mi.gtt.usable_heap_size = mi.gtt.total_heap_size;
    mi.gtt.heap_usage = 0;
    mi.gtt.max_allocation = mi.gtt.usable_heap_size / 4 * 3;
    return put(out, size, &mi, sizeof mi);
  }
  case AMDGPU_INFO_READ_MMR_REG: {
    uint32_t se = in->read_mmr_reg.instance & 0xff, sh = (in->read_mmr_reg.instance >> 8) & 0xff;
    if ((se != 0xff && se >= 8) || (sh != 0xff && sh >= 2) || in->read_mmr_reg.count > 128)
      return -EINVAL;
    uint32_t n = in->read_mmr_reg.count, regs[128];
    for (uint32_t i = 0; i < n; i++) {
      uint32_t reg = in->read_mmr_reg.dword_offset + i;
      if (reg == GB_ADDR_CONFIG)
        regs[i] = sim_gb_addr_config(m);
      else if (reg == GRBM_STATUS)
        regs[i] = 0x00003028;   /* idle */
      else
        return -EFAULT;   /* not on the driver's list of readable registers */
    }
    return put(out, size, regs, n * 4u);
  }
  case AMDGPU_INFO_SENSOR:
    switch (in->sensor_info.type) {
    case AMDGPU_INFO_SENSOR_GFX_SCLK: case AMDGPU_INFO_SENSOR_STABLE_PSTATE_GFX_SCLK:
      u32 = m->max_engine_clk_fcompute;
      break;
    case AMDGPU_INFO_SENSOR_GFX_MCLK: case AMDGPU_INFO_SENSOR_STABLE_PSTATE_GFX_MCLK:
      u32 = m->local_mem_clk_max;
      break;
    case AMDGPU_INFO_SENSOR_GPU_TEMP: u32 = 40000; break;   /* millidegrees */
    case AMDGPU_INFO_SENSOR_GPU_LOAD: u32 = 0; break;
    case AMDGPU_INFO_SENSOR_GPU_AVG_POWER: u32 = 30; break;
    case AMDGPU_INFO_SENSOR_VDDNB: case AMDGPU_INFO_SENSOR_VDDGFX: u32 = 1000; break;
    default: return -EINVAL;
    }
    return put(out, size, &u32, 4);
  default:
    return -EINVAL;
  }
}

static int copy_field(uint64_t buf, __kernel_size_t *len, const char *value)
{
  size_t n = strlen(value), k = n < *len ? n : *len;
  *len = n;   /* the full length, whatever fitted */
  if (k && buf && sim_copy_to_user(buf, value, k))
    return -EFAULT;
  return 0;
}

static int drm_version(struct drm_version *v)
{
  v->version_major = KMS_MAJOR;
  v->version_minor = KMS_MINOR;
  v->version_patchlevel = 0;
  int r = copy_field((uintptr_t)v->name, &v->name_len, "amdgpu");
  if (!r)
    r = copy_field((uintptr_t)v->date, &v->date_len, "20150101");
  if (!r)
    r = copy_field((uintptr_t)v->desc, &v->desc_len, "AMD GPU");
  return r;
}

static int get_cap(struct drm_get_cap *c)
{
  switch (c->capability) {
  case DRM_CAP_TIMESTAMP_MONOTONIC: c->value = 1; return 0;
  case DRM_CAP_PRIME: c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT; return 0;
  case DRM_CAP_SYNCOBJ: case DRM_CAP_SYNCOBJ_TIMELINE: c->value = 1; return 0;
  case DRM_CAP_DUMB_BUFFER: case DRM_CAP_VBLANK_HIGH_CRTC: case DRM_CAP_DUMB_PREFER_SHADOW:
  case DRM_CAP_ASYNC_PAGE_FLIP: case DRM_CAP_ADDFB2_MODIFIERS: case DRM_CAP_PAGE_FLIP_TARGET:
  case DRM_CAP_CRTC_IN_VBLANK_EVENT:
    c->value = 1;
    return 0;
  case DRM_CAP_DUMB_PREFERRED_DEPTH: c->value = 24; return 0;
  case DRM_CAP_CURSOR_WIDTH: case DRM_CAP_CURSOR_HEIGHT: c->value = 128; return 0;
  default: c->value = 0; return -EINVAL;
  }
}

struct drm_desc {
  unsigned long cmd;
  const char *name;
  bool render_ok;   /* DRM_RENDER_ALLOW */
};

static const struct drm_desc core[] = {
  { DRM_IOCTL_VERSION, "VERSION", true },
  { DRM_IOCTL_GET_UNIQUE, "GET_UNIQUE", false },
  { DRM_IOCTL_GET_MAGIC, "GET_MAGIC", false },
  { DRM_IOCTL_GET_CLIENT, "GET_CLIENT", false },
  { DRM_IOCTL_GEM_CLOSE, "GEM_CLOSE", true },
  { DRM_IOCTL_GET_CAP, "GET_CAP", true },
  { DRM_IOCTL_SET_CLIENT_CAP, "SET_CLIENT_CAP", false },
  { DRM_IOCTL_AUTH_MAGIC, "AUTH_MAGIC", false },
  { DRM_IOCTL_PRIME_HANDLE_TO_FD, "PRIME_HANDLE_TO_FD", true },
  { DRM_IOCTL_PRIME_FD_TO_HANDLE, "PRIME_FD_TO_HANDLE", true },
};
static const struct drm_desc amdgpu[] = {
  { DRM_IOCTL_AMDGPU_INFO, "AMDGPU_INFO", true },
  { DRM_IOCTL_AMDGPU_GEM_CREATE, "AMDGPU_GEM_CREATE", true },
  { DRM_IOCTL_AMDGPU_GEM_MMAP, "AMDGPU_GEM_MMAP", true },
  { DRM_IOCTL_AMDGPU_CTX, "AMDGPU_CTX", true },
  { DRM_IOCTL_AMDGPU_GEM_VA, "AMDGPU_GEM_VA", true },
  { DRM_IOCTL_AMDGPU_GEM_OP, "AMDGPU_GEM_OP", true },
  { DRM_IOCTL_AMDGPU_GEM_METADATA, "AMDGPU_GEM_METADATA", true },
};

static const struct sim_field f_info[] = {
  SIM_FIELD(struct drm_amdgpu_info, return_pointer, SIM_F_HEX),
  SIM_FIELD(struct drm_amdgpu_info, return_size, SIM_F_DEC),
  SIM_FIELD(struct drm_amdgpu_info, query, SIM_F_HEX),
  { "arg0", 16, 4, SIM_F_HEX }, { "arg1", 20, 4, SIM_F_HEX }, { "arg2", 24, 4, SIM_F_HEX },
};
static const struct sim_field f_ver[] = {
  SIM_FIELD(struct drm_version, version_major, SIM_F_DEC),
  SIM_FIELD(struct drm_version, version_minor, SIM_F_DEC),
  SIM_FIELD(struct drm_version, name_len, SIM_F_DEC),
};
static const struct sim_field f_cap[] = {
  SIM_FIELD(struct drm_get_cap, capability, SIM_F_HEX),
  SIM_FIELD(struct drm_get_cap, value, SIM_F_DEC),
};

int sim_drm_ioctl(struct sim_gpu *gpu, unsigned long request, void *arg)
{
  if (_IOC_TYPE(request) != DRM_IOCTL_BASE)
    return -ENOTTY;
  unsigned nr = _IOC_NR(request);
  const struct drm_desc *d = NULL;
  if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
    for (size_t i = 0; i < sizeof amdgpu / sizeof amdgpu[0]; i++)
      if (_IOC_NR(amdgpu[i].cmd) == nr)
        d = &amdgpu[i];
  } else {
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++)
      if (_IOC_NR(core[i].cmd) == nr)
        d = &core[i];
  }
  if (!d) {
    sim_trace("drm renderD%u ioctl(0x%lx) = -1 EINVAL (not modelled)", gpu->render_minor,
              request);
    return -EINVAL;
  }
  if (!d->render_ok) {
    sim_trace("drm renderD%u %s = -1 EACCES (not on a render node)", gpu->render_minor, d->name);
    return -EACCES;
  }
  /* the caller's size, in each direction both sides agree on */
  size_t usize = _IOC_SIZE(request), dsize = _IOC_SIZE(d->cmd);
  size_t in = (_IOC_DIR(request) & _IOC_DIR(d->cmd) & _IOC_WRITE) ? usize : 0;
  size_t out = (_IOC_DIR(request) & _IOC_DIR(d->cmd) & _IOC_READ) ? usize : 0;
  size_t k = in > out ? in : out;
  if (dsize > k)
    k = dsize;
  _Alignas(8) unsigned char kdata[320], before[320];   /* GEM_METADATA's is 288 bytes */
  if (k > sizeof kdata)
    return -EINVAL;
  memset(kdata, 0, sizeof kdata);
  if (in && sim_copy_from_user(kdata, (uintptr_t)arg, in))
    return -EFAULT;
  memcpy(before, kdata, sizeof kdata);
  int r;
  const struct sim_field *f = NULL;
  unsigned nf = 0;
  switch (nr) {
  case _IOC_NR(DRM_IOCTL_VERSION):
    r = drm_version((struct drm_version *)kdata);
    f = f_ver, nf = 3;
    break;
  case _IOC_NR(DRM_IOCTL_GET_CAP):
    r = get_cap((struct drm_get_cap *)kdata);
    f = f_cap, nf = 2;
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_INFO):
    r = amdgpu_info(gpu, (struct drm_amdgpu_info *)kdata);
    f = f_info, nf = 6;
    break;
  case _IOC_NR(DRM_IOCTL_GEM_CLOSE):
    r = sim_gem_close(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_PRIME_HANDLE_TO_FD):
    r = sim_gem_export(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_PRIME_FD_TO_HANDLE):
    r = sim_gem_import(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_GEM_CREATE):
    r = sim_gem_create(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_GEM_MMAP):
    r = sim_gem_mmap(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_CTX):
    r = sim_amdgpu_ctx(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_GEM_VA):
    r = sim_gem_va(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_GEM_OP):
    r = sim_gem_op(gpu, kdata);
    break;
  case _IOC_NR(DRM_IOCTL_AMDGPU_GEM_METADATA):
    r = sim_gem_metadata(gpu, kdata);
    break;
  default:
    r = -EINVAL;
    break;
  }
  if (out && sim_copy_to_user((uintptr_t)arg, kdata, out))
    r = -EFAULT;
  if (sim_trace_on()) {
    char dev[32];
    snprintf(dev, sizeof dev, "drm renderD%u", gpu->render_minor);
    sim_trace_ioctl(dev, d->name, f, nf, before, out ? kdata : NULL, usize, r, NULL);
  }
  return r;
}
