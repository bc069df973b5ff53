/* SPDX-License-Identifier: MIT */
/* table.c — the images extension's function table (hsa_system_get_(major_)extension_table):
 * version 1.00 (the first ten functions) and 1 (with the *_with_layout three), provided to
 * core's registry by the lifetime. */
#include <string.h>

#include "image/image.h"
#include "image/internal.h"

static size_t images_table_size(uint16_t version_major, uint16_t version_minor) {
  if (version_major != 1) return 0;
  return version_minor == 0 ? sizeof(hsa_ext_images_1_00_pfn_t) : 0;
}

static hsa_status_t images_table(uint16_t version_major, size_t length, void *table) {
  if (version_major != 1) return HSA_STATUS_ERROR;
  hsa_ext_images_1_pfn_t t;
  t.hsa_ext_image_get_capability = hsa_ext_image_get_capability;
  t.hsa_ext_image_data_get_info = hsa_ext_image_data_get_info;
  t.hsa_ext_image_create = hsa_ext_image_create;
  t.hsa_ext_image_destroy = hsa_ext_image_destroy;
  t.hsa_ext_image_copy = hsa_ext_image_copy;
  t.hsa_ext_image_import = hsa_ext_image_import;
  t.hsa_ext_image_export = hsa_ext_image_export;
  t.hsa_ext_image_clear = hsa_ext_image_clear;
  t.hsa_ext_sampler_create = hsa_ext_sampler_create;
  t.hsa_ext_sampler_destroy = hsa_ext_sampler_destroy;
  t.hsa_ext_image_get_capability_with_layout = hsa_ext_image_get_capability_with_layout;
  t.hsa_ext_image_data_get_info_with_layout = hsa_ext_image_data_get_info_with_layout;
  t.hsa_ext_image_create_with_layout = hsa_ext_image_create_with_layout;
  /* A caller of the 1.00 table asks for its prefix. */
  memcpy(table, &t, length < sizeof(t) ? length : sizeof(t));
  return HSA_STATUS_SUCCESS;
}

const struct core_extension img_images_extension = {HSA_EXTENSION_IMAGES, images_table_size,
                                                    images_table};
