/* SPDX-License-Identifier: MIT */
/* hostmem.h — loads and stores of GPU data in host memory, which other waves (other host
 * threads) and the program's own threads read and write at the same time. As on hardware,
 * a naturally aligned access of 1, 2, 4 or 8 bytes is single-copy atomic: one relaxed host
 * atomic of that width, never two halves (rocPRIM's look-back scan publishes flag and
 * prefix with one dwordx2 store and polls them with a dwordx2 load). Wider accesses are
 * atomic per aligned 8-byte piece only: nothing promises more (LLVM's AMDGPU backend
 * supports atomics of at most 64 bits). A dwordx2 that is only 4-byte aligned is two atomic
 * dwords; misaligned dwords are copied bytewise (no guarantee). The may_alias types keep
 * these typed accesses to untyped buffers out of strict-aliasing reasoning. */
#ifndef SIM_ISA_HOSTMEM_H
#define SIM_ISA_HOSTMEM_H

#include <stdint.h>
#include <string.h>

#include "isa/isa.h"

/* GPU memory is little-endian; the dword halves below assume the host is too */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "hsa-sim needs a little-endian host");

typedef uint16_t __attribute__((may_alias)) isa_u16_alias;
typedef uint32_t __attribute__((may_alias)) isa_u32_alias;
typedef uint64_t __attribute__((may_alias)) isa_u64_alias;

static inline uint32_t isa_ld32(const void *p)
{
  uint32_t v;
  if (__builtin_expect(((uintptr_t)p & 3) == 0, 1))
    return __atomic_load_n((const isa_u32_alias *)p, __ATOMIC_RELAXED);
  memcpy(&v, p, 4);
  return v;
}

static inline void isa_st32(void *p, uint32_t v)
{
  if (__builtin_expect(((uintptr_t)p & 3) == 0, 1))
    __atomic_store_n((isa_u32_alias *)p, v, __ATOMIC_RELAXED);
  else
    memcpy(p, &v, 4);
}

/* 1, 2 or 4 bytes, zero-extended; 3 bytes (or misaligned) bytewise */
static inline uint32_t isa_ld_small(const void *p, unsigned len)
{
  uint32_t v = 0;
  if (len == 1)
    return __atomic_load_n((const uint8_t *)p, __ATOMIC_RELAXED);
  if (len == 2 && ((uintptr_t)p & 1) == 0)
    return __atomic_load_n((const isa_u16_alias *)p, __ATOMIC_RELAXED);
  if (len == 4)
    return isa_ld32(p);
  memcpy(&v, p, len);
  return v;
}

static inline void isa_st_small(void *p, uint32_t v, unsigned len)
{
  if (len == 1)
    __atomic_store_n((uint8_t *)p, (uint8_t)v, __ATOMIC_RELAXED);
  else if (len == 2 && ((uintptr_t)p & 1) == 0)
    __atomic_store_n((isa_u16_alias *)p, (uint16_t)v, __ATOMIC_RELAXED);
  else if (len == 4)
    isa_st32(p, v);
  else
    memcpy(p, &v, len);
}

/* `n` (>= 1) consecutive dwords at p to or from lane `l` of registers reg[0..n-1]: each
 * aligned 8-byte piece with one 64-bit access, the dwords outside such pieces with
 * 32-bit ones. */
static inline void isa_ld_lane(const void *p, uint32_t (*reg)[SIM_ISA_WAVE_SIZE], unsigned l,
                               unsigned n)
{
  const uint8_t *b = p;
  unsigned i = 0;
  if (__builtin_expect((uintptr_t)b & 7, 0)) {
    if ((uintptr_t)b & 3) {
      for (; i < n; i++)
        memcpy(&reg[i][l], b + 4 * i, 4);
      return;
    }
    reg[0][l] = isa_ld32(b);
    i = 1;
  }
  for (; i + 2 <= n; i += 2) {
    uint64_t v = __atomic_load_n((const isa_u64_alias *)(b + 4 * i), __ATOMIC_RELAXED);
    reg[i][l] = (uint32_t)v;
    reg[i + 1][l] = (uint32_t)(v >> 32);
  }
  if (i < n)
    reg[i][l] = isa_ld32(b + 4 * i);
}

static inline void isa_st_lane(void *p, uint32_t (*reg)[SIM_ISA_WAVE_SIZE], unsigned l,
                               unsigned n)
{
  uint8_t *b = p;
  unsigned i = 0;
  if (__builtin_expect((uintptr_t)b & 7, 0)) {
    if ((uintptr_t)b & 3) {
      for (; i < n; i++)
        memcpy(b + 4 * i, &reg[i][l], 4);
      return;
    }
    isa_st32(b, reg[0][l]);
    i = 1;
  }
  for (; i + 2 <= n; i += 2)
    __atomic_store_n((isa_u64_alias *)(b + 4 * i), reg[i][l] | (uint64_t)reg[i + 1][l] << 32,
                     __ATOMIC_RELAXED);
  if (i < n)
    isa_st32(b + 4 * i, reg[i][l]);
}

/* The same for contiguous registers (a wave's block of 64 dwords, scalar loads), where it
 * stands in for memcpy (which promises no access width): 8-byte register moves. */
static inline void isa_ld_dwords(const void *p, uint32_t *out, unsigned n)
{
  const uint8_t *b = p;
  unsigned i = 0;
  if (__builtin_expect((uintptr_t)b & 7, 0)) {
    if ((uintptr_t)b & 3) {
      memcpy(out, b, 4 * (size_t)n);
      return;
    }
    out[i++] = isa_ld32(b);
  }
#pragma GCC unroll 8
  for (; i + 2 <= n; i += 2) {
    uint64_t v = __atomic_load_n((const isa_u64_alias *)(b + 4 * i), __ATOMIC_RELAXED);
    memcpy(&out[i], &v, 8);
  }
  if (i < n)
    out[i] = isa_ld32(b + 4 * i);
}

static inline void isa_st_dwords(void *p, const uint32_t *in, unsigned n)
{
  uint8_t *b = p;
  unsigned i = 0;
  if (__builtin_expect((uintptr_t)b & 7, 0)) {
    if ((uintptr_t)b & 3) {
      memcpy(b, in, 4 * (size_t)n);
      return;
    }
    isa_st32(b, in[i++]);
  }
#pragma GCC unroll 8
  for (; i + 2 <= n; i += 2) {
    uint64_t v;
    memcpy(&v, &in[i], 8);
    __atomic_store_n((isa_u64_alias *)(b + 4 * i), v, __ATOMIC_RELAXED);
  }
  if (i < n)
    isa_st32(b + 4 * i, in[i]);
}

#endif
