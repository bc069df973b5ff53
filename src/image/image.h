/* SPDX-License-Identifier: MIT */
/* image.h — what the lifetime (src/runtime.c) needs from src/image: the images extension's
 * function table, provided to core's registry, and the shutdown that frees live objects. */
#ifndef IMAGE_IMAGE_H
#define IMAGE_IMAGE_H

#include "core/extension.h"

extern const struct core_extension img_images_extension;

/* Frees the image and sampler objects still alive (hsa_shut_down). */
void img_shutdown(void);

#endif
