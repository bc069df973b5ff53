/* SPDX-License-Identifier: MIT */
/* metadata.c — the code object v3+ metadata: a msgpack map in the "AMDGPU" NT_AMDGPU_METADATA
 * note (AMDGPUUsage "Code Object V3+ Metadata"), read with msgpack-c. We keep what the
 * runtime and tools use: per kernel its name, symbol, kernarg/group/private sizes, wavefront
 * size, register counts, dynamic stack, uniform work-group size and the arguments. */
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "loader/internal.h"

static bool key_is(const msgpack_object *k, const char *name) {
  size_t n = strlen(name);
  return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
         memcmp(k->via.str.ptr, name, n) == 0;
}

static bool get_u32(const msgpack_object *v, uint32_t *out) {
  if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= UINT32_MAX) {
    *out = (uint32_t)v->via.u64;
    return true;
  }
  return false;
}

static bool get_bool(const msgpack_object *v, bool *out) {
  if (v->type == MSGPACK_OBJECT_BOOLEAN) {
    *out = v->via.boolean;
    return true;
  }
  return false;
}

static bool get_str(const msgpack_object *v, char **out) {
  if (v->type != MSGPACK_OBJECT_STR) return false;
  char *s = malloc(v->via.str.size + 1);
  if (!s) return false;
  memcpy(s, v->via.str.ptr, v->via.str.size);
  s[v->via.str.size] = 0;
  free(*out);
  *out = s;
  return true;
}

static bool parse_arg(const msgpack_object *o, struct ldr_arg_md *a) {
  if (o->type != MSGPACK_OBJECT_MAP) return false;
  for (uint32_t i = 0; i < o->via.map.size; i++) {
    const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
    bool ok = true;
    if (key_is(k, ".name")) ok = get_str(v, &a->name);
    else if (key_is(k, ".type_name")) ok = get_str(v, &a->type_name);
    else if (key_is(k, ".value_kind")) ok = get_str(v, &a->value_kind);
    else if (key_is(k, ".address_space")) ok = get_str(v, &a->address_space);
    else if (key_is(k, ".size")) ok = get_u32(v, &a->size);
    else if (key_is(k, ".offset")) ok = get_u32(v, &a->offset);
    else if (key_is(k, ".pointee_align")) ok = get_u32(v, &a->pointee_align);
    if (!ok) return false;
  }
  /* .size, .offset and .value_kind are required. */
  return a->value_kind != NULL;
}

static bool parse_kernel(const msgpack_object *o, struct ldr_kernel_md *kmd) {
  if (o->type != MSGPACK_OBJECT_MAP) return false;
  kmd->wavefront_size = 64;
  for (uint32_t i = 0; i < o->via.map.size; i++) {
    const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
    bool ok = true;
    if (key_is(k, ".name")) ok = get_str(v, &kmd->name);
    else if (key_is(k, ".symbol")) ok = get_str(v, &kmd->symbol);
    else if (key_is(k, ".kernarg_segment_size")) ok = get_u32(v, &kmd->kernarg_size);
    else if (key_is(k, ".kernarg_segment_align")) ok = get_u32(v, &kmd->kernarg_align);
    else if (key_is(k, ".group_segment_fixed_size")) ok = get_u32(v, &kmd->group_fixed);
    else if (key_is(k, ".private_segment_fixed_size")) ok = get_u32(v, &kmd->private_fixed);
    else if (key_is(k, ".wavefront_size")) ok = get_u32(v, &kmd->wavefront_size);
    else if (key_is(k, ".sgpr_count")) ok = get_u32(v, &kmd->sgpr_count);
    else if (key_is(k, ".vgpr_count")) ok = get_u32(v, &kmd->vgpr_count);
    else if (key_is(k, ".max_flat_workgroup_size")) ok = get_u32(v, &kmd->max_flat_workgroup_size);
    else if (key_is(k, ".uses_dynamic_stack")) ok = get_bool(v, &kmd->uses_dynamic_stack);
    else if (key_is(k, ".uniform_work_group_size")) {
      /* An integer (1) in the metadata, though it reads like a flag. */
      uint32_t u = 0;
      bool b = false;
      ok = get_u32(v, &u) || get_bool(v, &b);
      kmd->uniform_work_group_size = u != 0 || b;
    } else if (key_is(k, ".args")) {
      if (v->type != MSGPACK_OBJECT_ARRAY || kmd->args) return false;
      uint32_t n = v->via.array.size;
      kmd->args = calloc(n ? n : 1, sizeof(*kmd->args));
      if (!kmd->args) return false;
      kmd->nargs = n;
      for (uint32_t j = 0; j < n; j++)
        if (!parse_arg(&v->via.array.ptr[j], &kmd->args[j])) return false;
    }
    if (!ok) return false;
  }
  if (!kmd->name || !kmd->symbol) return false;
  if (kmd->kernarg_align && (kmd->kernarg_align & (kmd->kernarg_align - 1))) return false;
  return kmd->wavefront_size == 32 || kmd->wavefront_size == 64;
}

static bool parse_root(const msgpack_object *root, struct ldr_metadata *md) {
  if (root->type != MSGPACK_OBJECT_MAP) return false;
  for (uint32_t i = 0; i < root->via.map.size; i++) {
    const msgpack_object *k = &root->via.map.ptr[i].key, *v = &root->via.map.ptr[i].val;
    if (key_is(k, "amdhsa.version")) {
      if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size < 2 ||
          !get_u32(&v->via.array.ptr[0], &md->version[0]) ||
          !get_u32(&v->via.array.ptr[1], &md->version[1]))
        return false;
    } else if (key_is(k, "amdhsa.target")) {
      if (!get_str(v, &md->target)) return false;
    } else if (key_is(k, "amdhsa.kernels")) {
      if (v->type != MSGPACK_OBJECT_ARRAY || md->kernels) return false;
      uint32_t n = v->via.array.size;
      md->kernels = calloc(n ? n : 1, sizeof(*md->kernels));
      if (!md->kernels) return false;
      md->nkernels = n;
      for (uint32_t j = 0; j < n; j++)
        if (!parse_kernel(&v->via.array.ptr[j], &md->kernels[j])) return false;
    }
  }
  return true;
}

/* msgpack-c allocates a container's elements from its declared count before reading them:
 * five bytes claiming 2^32 entries would cost it tens of GiB. Walk the encoding first and
 * refuse counts that the remaining bytes cannot hold (every element takes a byte at least). */
static bool sane(const uint8_t *p, size_t n) {
  uint64_t pending = 1;
  size_t i = 0;
  while (pending) {
    if (i >= n) return false;
    uint8_t b = p[i++];
    pending--;
    uint64_t len = 0, count = 0;
    unsigned width = 0;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) continue;
    if (b >= 0x80 && b <= 0x8f) count = 2u * (b & 0xf);
    else if (b >= 0x90 && b <= 0x9f) count = b & 0xf;
    else if (b >= 0xa0 && b <= 0xbf) len = b & 0x1f;
    else {
      switch (b) {
      case 0xc4: case 0xd9: width = 1; break;        /* bin8, str8 */
      case 0xc5: case 0xda: width = 2; break;
      case 0xc6: case 0xdb: width = 4; break;
      case 0xc7: width = 1; len = 1; break;          /* ext: length, then a type byte */
      case 0xc8: width = 2; len = 1; break;
      case 0xc9: width = 4; len = 1; break;
      case 0xca: len = 4; break;
      case 0xcb: len = 8; break;
      case 0xcc: case 0xd0: len = 1; break;
      case 0xcd: case 0xd1: len = 2; break;
      case 0xce: case 0xd2: len = 4; break;
      case 0xcf: case 0xd3: len = 8; break;
      case 0xd4: len = 2; break;
      case 0xd5: len = 3; break;
      case 0xd6: len = 5; break;
      case 0xd7: len = 9; break;
      case 0xd8: len = 17; break;
      case 0xdc: case 0xde: width = 2; break;
      case 0xdd: case 0xdf: width = 4; break;
      default: return false;                          /* 0xc1 */
      }
      if (width) {
        if (n - i < width) return false;
        uint64_t v = 0;
        for (unsigned k = 0; k < width; k++) v = v << 8 | p[i + k];
        i += width;
        if (b >= 0xdc) count = b >= 0xde ? 2 * v : v;
        else len += v;
      }
    }
    if (len > n - i) return false;
    i += (size_t)len;
    pending += count;
    if (pending > n - i) return false;
  }
  return true;
}

bool ldr_metadata_sane(const void *desc, size_t size) {
  const uint8_t *p = desc;
  return size > 0 && ((p[0] & 0xf0) == 0x80 || p[0] == 0xde || p[0] == 0xdf) && sane(p, size);
}

hsa_status_t ldr_metadata_parse(const void *desc, size_t size, struct ldr_metadata **out) {
  *out = NULL;
  if (!sane(desc, size)) {
    ldr_complain("invalid code object: malformed AMDGPU metadata note");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  struct ldr_metadata *md = calloc(1, sizeof(*md));
  if (!md) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  size_t off = 0;
  bool ok = msgpack_unpack_next(&u, (const char *)desc, size, &off) == MSGPACK_UNPACK_SUCCESS &&
            parse_root(&u.data, md);
  msgpack_unpacked_destroy(&u);
  if (!ok) {
    ldr_metadata_free(md);
    ldr_complain("invalid code object: malformed AMDGPU metadata note");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  *out = md;
  return HSA_STATUS_SUCCESS;
}

void ldr_metadata_free(struct ldr_metadata *md) {
  if (!md) return;
  for (unsigned i = 0; i < md->nkernels; i++) {
    struct ldr_kernel_md *k = &md->kernels[i];
    for (unsigned j = 0; j < k->nargs; j++) {
      free(k->args[j].name);
      free(k->args[j].type_name);
      free(k->args[j].value_kind);
      free(k->args[j].address_space);
    }
    free(k->args);
    free(k->name);
    free(k->symbol);
  }
  free(md->kernels);
  free(md->target);
  free(md);
}

const struct ldr_kernel_md *ldr_metadata_kernel(const struct ldr_metadata *md,
                                                const char *symbol) {
  if (!md) return NULL;
  for (unsigned i = 0; i < md->nkernels; i++)
    if (strcmp(md->kernels[i].symbol, symbol) == 0) return &md->kernels[i];
  return NULL;
}
