/* SPDX-License-Identifier: MIT */
/* Common helpers shared by the AMD GPU ABI headers (amd_hsa_*.h). */

#ifndef AMD_HSA_COMMON_H
#define AMD_HSA_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* ABI revision string these definitions follow. */
#define AMD_HSA_ABI_VERSION "AMD GPU Architecture v0.35 (June 25, 2015)"

/* Minimum-alignment attribute for types. */
#if defined(__GNUC__)
#  define __ALIGNED__(x) __attribute__((aligned(x)))
#elif defined(_MSC_VER)
#  define __ALIGNED__(x) __declspec(align(x))
#elif defined(RC_INVOKED)
#  define __ALIGNED__(x)
#else
#  error "amd_hsa_common.h: no alignment attribute for this compiler"
#endif

/* Bit-field enumerators: NAME_SHIFT, NAME_WIDTH and the mask NAME. */
#define AMD_HSA_BITS_CREATE_ENUM_ENTRIES(name, shift, width)                   \
  name##_SHIFT = (shift),                                                      \
  name##_WIDTH = (width),                                                      \
  name = (((1 << (width)) - 1) << (shift))                                     \

/* Read / write a field of a packed word using those enumerators. */
#define AMD_HSA_BITS_GET(src, mask)                                            \
  ((src & mask) >> mask ## _SHIFT)                                             \

#define AMD_HSA_BITS_SET(dst, mask, val)                                       \
  dst &= (~(1 << mask##_SHIFT) & ~mask);                                       \
  dst |= (((val) << mask##_SHIFT) & mask)                                      \

#endif /* AMD_HSA_COMMON_H */
