/* SPDX-License-Identifier: MIT */
/* image_dump.c — prints, for the first GPU agent, every answer of the image extension's
 * query functions: the agent's image limits, hsa_ext_image_get_capability(_with_layout) for
 * each geometry x channel order x channel type x layout, and hsa_ext_image_data_get_info
 * (_with_layout) for each supported format on a set of sizes per geometry, with read-only and
 * read-write access, in opaque and linear layout (explicit pitches); the descriptor words of
 * a linear image of every supported format and geometry and of every sampler; sizes in the
 * dimensions a geometry does not use. One line per answer, so image_vs_rocr.sh can diff the
 * output of two runtimes line by line. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_image.h"

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (type == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_amd_memory_pool_t srd_pool;

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_AMD_SEGMENT_GLOBAL && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)) {
    *(hsa_amd_memory_pool_t *)data = p;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static const char *const geo_name[] = {"1D", "2D", "3D", "1DA", "2DA", "1DB", "2DDEPTH", "2DADEPTH"};

/* Sizes tried per geometry: width, height, depth, array_size. */
static const size_t sizes[][4] = {
    {1, 1, 1, 1}, {7, 3, 2, 2}, {64, 64, 4, 3}, {100, 37, 5, 6}, {257, 129, 17, 9}, {1024, 768, 8, 4},
};

static void dims(unsigned g, const size_t s[4], hsa_ext_image_descriptor_t *d) {
  d->width = s[0];
  d->height = d->depth = d->array_size = 0;
  switch (g) {
  case HSA_EXT_IMAGE_GEOMETRY_2D:
  case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
    d->height = s[1];
    break;
  case HSA_EXT_IMAGE_GEOMETRY_3D:
    d->height = s[1];
    d->depth = s[2];
    break;
  case HSA_EXT_IMAGE_GEOMETRY_1DA:
    d->array_size = s[3];
    break;
  case HSA_EXT_IMAGE_GEOMETRY_2DA:
  case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
    d->height = s[1];
    d->array_size = s[3];
    break;
  default:
    break;
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "hsa_init failed\n");
    return 1;
  }
  hsa_agent_t gpu = {0};
  hsa_iterate_agents(find_gpu, &gpu);
  if (!gpu.handle) {
    fprintf(stderr, "no GPU agent\n");
    return 1;
  }
  hsa_amd_agent_iterate_memory_pools(gpu, find_pool, &srd_pool);
  char name[64] = {0};
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name);
  printf("agent %s\n", name);

  bool sup = false;
  hsa_status_t st = hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &sup);
  printf("system_extension_supported images status=%d result=%d\n", st, sup);
  /* the function table, and a call through it */
  hsa_ext_images_1_pfn_t table;
  memset(&table, 0, sizeof(table));
  st = hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(table), &table);
  uint32_t via = 0xdead;
  hsa_ext_image_format_t rgba8 = {HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA};
  if (st == HSA_STATUS_SUCCESS && table.hsa_ext_image_get_capability_with_layout)
    table.hsa_ext_image_get_capability_with_layout(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &rgba8,
                                                   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &via);
  printf("extension table status=%d linear 2D rgba8 through it=%#x\n", st, via);
  uint8_t ext[128];
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_EXTENSIONS, ext);
  printf("agent extensions images bit=%d\n", (ext[HSA_EXTENSION_IMAGES / 8] >> (HSA_EXTENSION_IMAGES % 8)) & 1);

  static const struct { const char *name; unsigned attr, n; } limits[] = {
      {"IMAGE_1D_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS, 1},
      {"IMAGE_1DA_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS, 1},
      {"IMAGE_1DB_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS, 1},
      {"IMAGE_2D_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, 2},
      {"IMAGE_2DA_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS, 2},
      {"IMAGE_2DDEPTH_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS, 2},
      {"IMAGE_2DADEPTH_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS, 2},
      {"IMAGE_3D_MAX_ELEMENTS", HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, 3},
      {"IMAGE_ARRAY_MAX_LAYERS", HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS, 1},
      {"MAX_IMAGE_RD_HANDLES", HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES, 1},
      {"MAX_IMAGE_RORW_HANDLES", HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES, 1},
  };
  for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
    uint32_t v[3] = {0, 0, 0};
    st = hsa_agent_get_info(gpu, (hsa_agent_info_t)limits[i].attr, v);
    printf("agent_info %s status=%d value=%u", limits[i].name, st, v[0]);
    for (unsigned k = 1; k < limits[i].n; k++) printf(",%u", v[k]);
    printf("\n");
    uint32_t w[3] = {0, 0, 0};
    st = hsa_amd_image_get_info_max_dim(gpu, (hsa_agent_info_t)limits[i].attr, w);
    printf("max_dim %s status=%d value=%u", limits[i].name, st, w[0]);
    for (unsigned k = 1; k < limits[i].n; k++) printf(",%u", w[k]);
    printf("\n");
  }

  for (unsigned g = 0; g < 8; g++)
    for (unsigned o = 0; o < 20; o++)
      for (unsigned t = 0; t < 16; t++) {
        hsa_ext_image_format_t f = {t, o};
        uint32_t cap = 0xdead, capo = 0xdead, capl = 0xdead;
        hsa_status_t s0 = hsa_ext_image_get_capability(gpu, (hsa_ext_image_geometry_t)g, &f, &cap);
        hsa_status_t s1 = hsa_ext_image_get_capability_with_layout(
            gpu, (hsa_ext_image_geometry_t)g, &f, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, &capo);
        hsa_status_t s2 = hsa_ext_image_get_capability_with_layout(
            gpu, (hsa_ext_image_geometry_t)g, &f, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &capl);
        printf("cap %s o=%u t=%u status=%d,%d,%d mask=%#x,%#x,%#x\n", geo_name[g], o, t, s0, s1, s2,
               s0 ? 0 : cap, s1 ? 0 : capo, s2 ? 0 : capl);
        if (s0 != HSA_STATUS_SUCCESS || cap == 0) continue;
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
          if (quick && k != 3) continue;
          hsa_ext_image_descriptor_t d;
          memset(&d, 0, sizeof(d));
          d.geometry = (hsa_ext_image_geometry_t)g;
          d.format = f;
          dims(g, sizes[k], &d);
          for (unsigned acc = HSA_ACCESS_PERMISSION_RO; acc <= HSA_ACCESS_PERMISSION_RW; acc += 2) {
            hsa_ext_image_data_info_t info = {0, 0};
            st = hsa_ext_image_data_get_info(gpu, &d, (hsa_access_permission_t)acc, &info);
            printf("info %s o=%u t=%u %zux%zux%zux%zu acc=%u opaque status=%d size=%zu align=%zu\n",
                   geo_name[g], o, t, d.width, d.height, d.depth, d.array_size, acc, st,
                   st ? 0 : info.size, st ? 0 : info.alignment);
            if (capl == 0) continue;
            /* Not with row pitch 0: ROCR 5.2.3 aborts (an addrlib assertion) on it. */
            /* explicit pitches: a generous row pitch (multiple of 256) and a slice pitch */
            size_t row = (d.width * 16 + 255) / 256 * 256 + 256;
            size_t h = d.height ? d.height : 1;
            size_t slice = (g == HSA_EXT_IMAGE_GEOMETRY_1DA) ? row : row * h;
            info.size = info.alignment = 0;
            st = hsa_ext_image_data_get_info_with_layout(gpu, &d, (hsa_access_permission_t)acc,
                                                         HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, slice,
                                                         &info);
            printf("info %s o=%u t=%u %zux%zux%zux%zu acc=%u linear %zu/%zu status=%d size=%zu align=%zu\n",
                   geo_name[g], o, t, d.width, d.height, d.depth, d.array_size, acc, row, slice, st,
                   st ? 0 : info.size, st ? 0 : info.alignment);
          }
        }
      }
  /* The descriptor words of a linear image of every supported format and geometry (the
   * address words masked): 8 dwords at the handle, then the sampler's 4 for every mode. */
  if (srd_pool.handle) {
    void *mem = NULL;
    if (hsa_amd_memory_pool_allocate(srd_pool, 1 << 22, 0, &mem) == HSA_STATUS_SUCCESS) {
      hsa_amd_agents_allow_access(1, &gpu, NULL, mem);
      for (unsigned g = 0; g < 8; g++)
        for (unsigned o = 0; o < 20; o++)
          for (unsigned t = 0; t < 16; t++) {
            hsa_ext_image_format_t f = {t, o};
            uint32_t cap = 0;
            if (hsa_ext_image_get_capability(gpu, (hsa_ext_image_geometry_t)g, &f, &cap) || !cap) continue;
            hsa_ext_image_descriptor_t d;
            memset(&d, 0, sizeof(d));
            d.geometry = (hsa_ext_image_geometry_t)g;
            d.format = f;
            static const size_t sz[4] = {20, 6, 3, 4};
            dims(g, sz, &d);
            hsa_ext_image_t img;
            st = hsa_ext_image_create_with_layout(gpu, &d, mem, HSA_ACCESS_PERMISSION_RW,
                                                  HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 512, 0, &img);
            printf("srd %s o=%u t=%u status=%d", geo_name[g], o, t, st);
            if (st == HSA_STATUS_SUCCESS) {
              const uint32_t *w = (const uint32_t *)(uintptr_t)img.handle;
              /* Masked, besides the address: fields where the runtimes knowingly differ
               * (README): the HEIGHT of 1D kinds (ROCR writes height - 1 = 0x3fff for height
               * 0; the hardware does not read it), a 1DB V#'s NUM_RECORDS (ROCR: bytes; ours:
               * records, as the ISA counts them when STRIDE != 0) and INDEX_STRIDE (ROCR: the
               * texel size cut to 2 bits; read only for swizzled buffers). */
              bool one_d = g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA;
              bool buf = g == HSA_EXT_IMAGE_GEOMETRY_1DB;
              printf(" %08x %08x %08x %08x %08x %08x %08x %08x | %u %u %u", 0u,
                     w[1] & (buf ? 0xffff0000u : 0xffffff00u),
                     buf ? 0u : one_d ? w[2] & ~(0x3fffu << 14) : w[2],
                     buf ? w[3] & ~(3u << 21) : w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10]);
              hsa_ext_image_destroy(gpu, img);
            }
            printf("\n");
            /* the OPAQUE layout's T# (gfx9: the tiled SW_MODE and PITCH ROCR's addrlib picks),
             * at a 64 KiB boundary, in two sizes */
            static const size_t big[4] = {100, 37, 5, 3};
            for (unsigned k = 0; k < 2; k++) {
              memset(&d, 0, sizeof(d));
              d.geometry = (hsa_ext_image_geometry_t)g;
              d.format = f;
              dims(g, k ? big : sz, &d);
              void *at = (void *)(((uintptr_t)mem + 0xffff) & ~(uintptr_t)0xffff);
              st = hsa_ext_image_create(gpu, &d, at, HSA_ACCESS_PERMISSION_RW, &img);
              printf("srdo %s o=%u t=%u k=%u status=%d", geo_name[g], o, t, k, st);
              if (st == HSA_STATUS_SUCCESS) {
                const uint32_t *w = (const uint32_t *)(uintptr_t)img.handle;
                bool one_d = g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA;
                bool buf = g == HSA_EXT_IMAGE_GEOMETRY_1DB;
                printf(" %08x %08x %08x %08x %08x %08x %08x %08x", 0u,
                       w[1] & (buf ? 0xffff0000u : 0xffffff00u),
                       buf ? 0u : one_d ? w[2] & ~(0x3fffu << 14) : w[2],
                       buf ? w[3] & ~(3u << 21) : w[3], w[4], w[5], w[6], w[7]);
                hsa_ext_image_destroy(gpu, img);
              }
              printf("\n");
            }
          }
      hsa_amd_memory_pool_free(mem);
    }
  }
  for (unsigned c = 0; c < 2; c++)
    for (unsigned fm = 0; fm < 2; fm++)
      for (unsigned am = 0; am < 5; am++) {
        hsa_ext_sampler_descriptor_t sd = {c, fm, am};
        hsa_ext_sampler_t smp;
        st = hsa_ext_sampler_create(gpu, &sd, &smp);
        printf("sampler coord=%u filter=%u address=%u status=%d", c, fm, am, st);
        if (st == HSA_STATUS_SUCCESS) {
          const uint32_t *w = (const uint32_t *)(uintptr_t)smp.handle;
          printf(" %08x %08x %08x %08x", w[0], w[1], w[2], w[3]);
          hsa_ext_sampler_destroy(gpu, smp);
        }
        printf("\n");
      }

  /* Sizes in the dimensions a geometry does not use (height of 1D, depth of 2D, ...): which
   * ROCR accepts, and the size it then gives. */
  for (unsigned g = 0; g < 8; g++)
    for (unsigned dim = 1; dim < 4; dim++)
      for (size_t v = 1; v <= 5; v += 4) {
        hsa_ext_image_descriptor_t d;
        memset(&d, 0, sizeof(d));
        d.geometry = (hsa_ext_image_geometry_t)g;
        d.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16;
        d.format.channel_order = g >= HSA_EXT_IMAGE_GEOMETRY_2DDEPTH ? HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH
                                                                   : HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA;
        static const size_t base[4] = {16, 8, 4, 3};
        dims(g, base, &d);
        size_t *field = dim == 1 ? &d.height : dim == 2 ? &d.depth : &d.array_size;
        if (*field) continue; /* a dimension the geometry uses */
        *field = v;
        hsa_ext_image_data_info_t info = {0, 0};
        st = hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info);
        printf("extra %s %zux%zux%zux%zu opaque status=%d size=%zu align=%zu\n", geo_name[g], d.width,
               d.height, d.depth, d.array_size, st, st ? 0 : info.size, st ? 0 : info.alignment);
        size_t row = 256, slice = g == HSA_EXT_IMAGE_GEOMETRY_1DA ? row : row * (d.height ? d.height : 1);
        info.size = info.alignment = 0;
        st = hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
                                                     HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, slice, &info);
        printf("extra %s %zux%zux%zux%zu linear %zu/%zu status=%d size=%zu align=%zu\n", geo_name[g],
               d.width, d.height, d.depth, d.array_size, row, slice, st, st ? 0 : info.size,
               st ? 0 : info.alignment);
      }
  hsa_shut_down();
  return 0;
}
