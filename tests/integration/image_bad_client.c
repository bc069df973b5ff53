/* SPDX-License-Identifier: MIT */
/* image_bad_client.c — bad input to the image and sampler functions: `image_bad_client N...`
 * runs the cases named (each in the same process), printing "case N <what> status=S" so
 * image_vs_rocr.sh can compare our statuses with ROCR 5.2.3's; `list` prints how many. A case
 * that crashes prints nothing after its name. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_image.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t pool;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
    *(hsa_amd_memory_pool_t *)data = p;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_ext_image_descriptor_t desc2d(size_t w, size_t h, unsigned order, unsigned type) {
  hsa_ext_image_descriptor_t d;
  memset(&d, 0, sizeof(d));
  d.geometry = HSA_EXT_IMAGE_GEOMETRY_2D;
  d.width = w;
  d.height = h;
  d.format.channel_order = order;
  d.format.channel_type = type;
  return d;
}

static void *alloc(size_t size) {
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(pool, size, 0, &p) != HSA_STATUS_SUCCESS) return NULL;
  hsa_amd_agents_allow_access(1, &gpu, NULL, p);
  return p;
}

/* hsa_amd_image_create of a 64x64 RGBA8 2D image, with a zero T# template of version
 * `version`, for AMD's vendor id over the agent's chip id (+ `other`). */
static hsa_status_t amd_create(void *data, uint32_t version, uint32_t other, hsa_ext_image_t *img) {
  union { hsa_amd_image_descriptor_t d; uint32_t words[2 + 8]; } layout;
  memset(&layout, 0, sizeof(layout));
  uint32_t chip = 0;
  hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip);
  layout.d.version = version;
  layout.d.deviceID = (0x1002u << 16 | chip) + other;
  hsa_ext_image_descriptor_t d;
  memset(&d, 0, sizeof(d));
  d.geometry = HSA_EXT_IMAGE_GEOMETRY_2D;
  d.width = d.height = 64;
  d.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA;
  d.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8;
  return hsa_amd_image_create(gpu, &d, &layout.d, data, HSA_ACCESS_PERMISSION_RW, img);
}

#define RGBA HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA
#define U8 HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8

static hsa_status_t run(int n, const char **what) {
  hsa_ext_image_format_t f = {U8, RGBA};
  uint32_t cap;
  hsa_ext_image_data_info_t info;
  hsa_ext_image_descriptor_t d = desc2d(64, 64, RGBA, U8);
  hsa_ext_image_t img = {0};
  hsa_ext_sampler_t smp = {0};
  hsa_ext_sampler_descriptor_t sd = {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
                                     HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
                                     HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE};
  hsa_agent_t bad = {1};
  static char host[64 * 64 * 4 * 4];
  switch (n) {
  case 0: *what = "capability geometry 8"; return hsa_ext_image_get_capability(gpu, (hsa_ext_image_geometry_t)8, &f, &cap);
  case 1: *what = "capability order 20"; f.channel_order = 20; return hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &f, &cap);
  case 2: *what = "capability type 16"; f.channel_type = 16; return hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &f, &cap);
  case 3: *what = "capability NULL format"; return hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, NULL, &cap);
  case 4: *what = "capability NULL mask"; return hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &f, NULL);
  case 5: *what = "capability layout 2"; return hsa_ext_image_get_capability_with_layout(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &f, (hsa_ext_image_data_layout_t)2, &cap);
  case 6: *what = "data_get_info width 0"; d.width = 0; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 7: *what = "data_get_info 2D width 16385"; d.width = 16385; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 8: *what = "data_get_info 2D height 16385"; d.height = 16385; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 9: *what = "data_get_info 3D depth 8193"; d.geometry = HSA_EXT_IMAGE_GEOMETRY_3D; d.depth = 8193; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 10: *what = "data_get_info 2DA array 8193"; d.geometry = HSA_EXT_IMAGE_GEOMETRY_2DA; d.array_size = 8193; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 11: *what = "data_get_info RGBA 565"; d.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 12: *what = "data_get_info 2DDEPTH RGBA"; d.geometry = HSA_EXT_IMAGE_GEOMETRY_2DDEPTH; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 13: *what = "data_get_info sRGBA write-only"; d.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_WO, &info);
  case 14: *what = "data_get_info NULL info"; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, NULL);
  case 15: *what = "data_get_info NULL descriptor"; return hsa_ext_image_data_get_info(gpu, NULL, HSA_ACCESS_PERMISSION_RW, &info);
  case 16: *what = "data_get_info 1DB width 2^32"; d.geometry = HSA_EXT_IMAGE_GEOMETRY_1DB; d.height = 0; d.width = (size_t)1 << 32; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 17: *what = "create NULL data"; return hsa_ext_image_create(gpu, &d, NULL, HSA_ACCESS_PERMISSION_RW, &img);
  case 18: *what = "create NULL image"; return hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, NULL);
  case 19: *what = "create unsupported format"; d.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565; return hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
  case 20: *what = "create width 16385"; d.width = 16385; return hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
  case 21: *what = "destroy handle 0"; return hsa_ext_image_destroy(gpu, img);
  case 22: *what = "sampler address mode 7"; sd.address_mode = 7; return hsa_ext_sampler_create(gpu, &sd, &smp);
  case 23: *what = "sampler filter mode 2"; sd.filter_mode = 2; return hsa_ext_sampler_create(gpu, &sd, &smp);
  case 24: *what = "sampler coordinate mode 2"; sd.coordinate_mode = 2; return hsa_ext_sampler_create(gpu, &sd, &smp);
  case 25: *what = "sampler NULL descriptor"; return hsa_ext_sampler_create(gpu, NULL, &smp);
  case 26: *what = "sampler NULL out"; return hsa_ext_sampler_create(gpu, &sd, NULL);
  case 27: *what = "sampler destroy handle 0"; return hsa_ext_sampler_destroy(gpu, smp);
  case 28: *what = "create_with_layout row pitch too small"; return hsa_ext_image_create_with_layout(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256 - 256, 64 * 256 + 256, &img);
  case 29: *what = "create_with_layout slice pitch wrong"; return hsa_ext_image_create_with_layout(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 512, 512 * 64 + 256, &img);
  case 30: *what = "data_get_info_with_layout opaque"; return hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, &info);
  case 31: *what = "import NULL source"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s) return s;
    hsa_ext_image_region_t r = {{0, 0, 0}, {64, 64, 1}};
    return hsa_ext_image_import(gpu, NULL, 0, 0, img, &r);
  }
  case 32: *what = "export NULL region"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s) return s;
    return hsa_ext_image_export(gpu, img, host, 0, 0, NULL);
  }
  case 33: *what = "clear NULL data"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s) return s;
    hsa_ext_image_region_t r = {{0, 0, 0}, {64, 64, 1}};
    return hsa_ext_image_clear(gpu, img, NULL, &r);
  }
  case 34: *what = "copy NULL range"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s) return s;
    hsa_dim3_t o = {0, 0, 0};
    return hsa_ext_image_copy(gpu, img, &o, img, &o, NULL);
  }
  case 35: *what = "capability bad agent"; return hsa_ext_image_get_capability(bad, HSA_EXT_IMAGE_GEOMETRY_2D, &f, &cap);
  case 36: *what = "create 1D width 16385"; d.geometry = HSA_EXT_IMAGE_GEOMETRY_1D; d.height = 0; d.width = 16385; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 37: *what = "data_get_info access 0"; return hsa_ext_image_data_get_info(gpu, &d, (hsa_access_permission_t)0, &info);
  case 38: *what = "destroy twice"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s) return s;
    if ((s = hsa_ext_image_destroy(gpu, img)) != HSA_STATUS_SUCCESS) return s;
    return hsa_ext_image_destroy(gpu, img);
  }
  case 39: *what = "sampler destroy twice"; {
    hsa_status_t s = hsa_ext_sampler_create(gpu, &sd, &smp);
    if (s) return s;
    if ((s = hsa_ext_sampler_destroy(gpu, smp)) != HSA_STATUS_SUCCESS) return s;
    return hsa_ext_sampler_destroy(gpu, smp);
  }
  case 40: *what = "create data not aligned"; return hsa_ext_image_create(gpu, &d, (char *)alloc(1 << 20) + 64, HSA_ACCESS_PERMISSION_RW, &img);
  case 41: *what = "amd_image_create data not aligned"; return amd_create((char *)alloc(1 << 20) + 16, 1, 0, &img);
  case 42: *what = "amd_image_create version 2"; return amd_create(alloc(1 << 20), 2, 0, &img);
  case 43: *what = "amd_image_create other device"; return amd_create(alloc(1 << 20), 1, 1, &img);
  case 44: *what = "amd_image_create NULL layout"; return hsa_amd_image_create(gpu, &d, NULL, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
  case 45: *what = "data_get_info 1D height 2"; d.geometry = HSA_EXT_IMAGE_GEOMETRY_1D; d.height = 2; return hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
  case 46: *what = "copy between different texel sizes"; {
    hsa_ext_image_t b;
    hsa_ext_image_descriptor_t d2 = desc2d(64, 64, RGBA, HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT);
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s || (s = hsa_ext_image_create(gpu, &d2, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &b))) return s;
    hsa_dim3_t o = {0, 0, 0}, r = {8, 8, 1};
    return hsa_ext_image_copy(gpu, img, &o, b, &o, &r);
  }
  case 47: *what = "import region outside the image"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s) return s;
    hsa_ext_image_region_t r = {{60, 0, 0}, {8, 8, 1}};
    return hsa_ext_image_import(gpu, alloc(1 << 16), 0, 0, img, &r);
  }
  case 48: *what = "clear destroyed image"; {
    hsa_status_t s = hsa_ext_image_create(gpu, &d, alloc(1 << 20), HSA_ACCESS_PERMISSION_RW, &img);
    if (s || (s = hsa_ext_image_destroy(gpu, img))) return s;
    float v[4] = {0, 0, 0, 0};
    hsa_ext_image_region_t r = {{0, 0, 0}, {8, 8, 1}};
    return hsa_ext_image_clear(gpu, img, v, &r);
  }
  default: return HSA_STATUS_ERROR;
  }
}

#define CASES 49

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2) return 2;
  if (strcmp(argv[1], "list") == 0) {
    printf("%d\n", CASES);
    return 0;
  }
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(find_gpu, &gpu);
  hsa_amd_agent_iterate_memory_pools(gpu, find_pool, &pool);
  for (int i = 1; i < argc; i++) {
    int n = atoi(argv[i]);
    const char *what = "?";
    printf("case %d ", n);
    hsa_status_t st = run(n, &what);
    printf("%s status=%#x\n", what, (unsigned)st);
  }
  hsa_shut_down();
  return 0;
}
