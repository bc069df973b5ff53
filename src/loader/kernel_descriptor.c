/* SPDX-License-Identifier: MIT */
/* kernel_descriptor.c — what a kernel symbol's object says: the 64-byte kernel descriptor of
 * code object v3+ (AMDGPUUsage "Kernel Descriptor") and the 256-byte amd_kernel_code_t of v2.
 * Reserved fields must be zero and sizes plausible: the command processor trusts these bytes. */
#include <string.h>

#include "amd_hsa_kernel_code.h"
#include "loader/internal.h"

/* Byte offsets in the v3+ descriptor. */
enum {
  KD_GROUP_SIZE = 0, KD_PRIVATE_SIZE = 4, KD_KERNARG_SIZE = 8, KD_RESERVED0 = 12,
  KD_ENTRY = 16, KD_RESERVED1 = 24, KD_RSRC3 = 44, KD_RSRC1 = 48, KD_RSRC2 = 52,
  KD_PROPERTIES = 56, KD_PRELOAD = 58, KD_RESERVED2 = 60, KD_SIZE = 64,
};
#define KD_PROP_WAVE32 (1u << 10)
#define KD_PROP_DYNAMIC_STACK (1u << 11)
#define KD_PROP_RESERVED 0xf380u   /* bits 7-9 and 12-15 */

/* Far above any LDS or scratch a wave can have: larger is garbage, not a kernel. */
#define PLAUSIBLE_SEGMENT (64u << 20)

static uint32_t rd32(const uint8_t *p, unsigned off) {
  uint32_t v;
  memcpy(&v, p + off, 4);
  return v;
}

static bool all_zero(const uint8_t *p, unsigned off, unsigned len) {
  for (unsigned i = 0; i < len; i++)
    if (p[off + i]) return false;
  return true;
}

bool ldr_kd_read(const void *kd, struct ldr_kernel_info *out) {
  const uint8_t *p = kd;
  memset(out, 0, sizeof(*out));
  if (!all_zero(p, KD_RESERVED0, 4) || !all_zero(p, KD_RESERVED1, KD_RSRC3 - KD_RESERVED1) ||
      !all_zero(p, KD_RESERVED2, KD_SIZE - KD_RESERVED2))
    return false;
  uint16_t props;
  memcpy(&props, p + KD_PROPERTIES, 2);
  if (props & KD_PROP_RESERVED) return false;
  out->group_size = rd32(p, KD_GROUP_SIZE);
  out->private_size = rd32(p, KD_PRIVATE_SIZE);
  out->kernarg_size = rd32(p, KD_KERNARG_SIZE);
  if (out->group_size > PLAUSIBLE_SEGMENT || out->private_size > PLAUSIBLE_SEGMENT ||
      out->kernarg_size > PLAUSIBLE_SEGMENT)
    return false;
  memcpy(&out->entry_offset, p + KD_ENTRY, 8);
  /* Code starts 256-byte aligned; the descriptor is 64-byte aligned. */
  if (out->entry_offset == 0 || out->entry_offset % 64 != 0) return false;
  /* ROCR reports 16: the minimum the HSA runtime aligns kernarg segments to. */
  out->kernarg_align = 16;
  out->wavefront_size = props & KD_PROP_WAVE32 ? 32 : 64;
  out->dynamic_callstack = (props & KD_PROP_DYNAMIC_STACK) != 0;
  out->object_size = KD_SIZE;
  out->object_align = 64;
  return true;
}

bool ldr_akc_read(const void *akc, struct ldr_kernel_info *out) {
  amd_kernel_code_t k;
  memcpy(&k, akc, sizeof(k));
  memset(out, 0, sizeof(*out));
  if (k.amd_kernel_code_version_major != AMD_KERNEL_CODE_VERSION_MAJOR ||
      k.amd_machine_kind != AMD_MACHINE_KIND_AMDGPU)
    return false;
  if (k.kernel_code_entry_byte_offset < (int64_t)sizeof(k) ||
      k.kernel_code_entry_byte_offset % 256 != 0)
    return false;
  if (k.kernarg_segment_alignment > 16 || k.wavefront_size < 5 || k.wavefront_size > 6)
    return false;
  if (k.kernarg_segment_byte_size > PLAUSIBLE_SEGMENT ||
      k.workgroup_group_segment_byte_size > PLAUSIBLE_SEGMENT ||
      k.workitem_private_segment_byte_size > PLAUSIBLE_SEGMENT)
    return false;
  out->kernarg_size = (uint32_t)k.kernarg_segment_byte_size;
  out->kernarg_align = 1u << k.kernarg_segment_alignment;
  out->group_size = k.workgroup_group_segment_byte_size;
  out->private_size = k.workitem_private_segment_byte_size;
  out->wavefront_size = 1u << k.wavefront_size;
  out->dynamic_callstack =
      (k.kernel_code_properties & AMD_KERNEL_CODE_PROPERTIES_IS_DYNAMIC_CALLSTACK) != 0;
  out->entry_offset = k.kernel_code_entry_byte_offset;
  out->object_size = sizeof(k);
  out->object_align = 256;
  return true;
}
