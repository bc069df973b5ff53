/* SPDX-License-Identifier: MIT */
/* atomic.c — GPU atomics on host memory. The buffers are shared with host threads (and
 * other workgroups running on other threads), so every read-modify-write is one host
 * atomic operation: a builtin where one exists, otherwise a compare-exchange loop. */
#include "isa/exec.h"
#include "isa/fp.h"

#include <string.h>

static float f32(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
static uint32_t u32(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }
static double f64(uint64_t v) { double f; memcpy(&f, &v, 8); return f; }
static uint64_t u64(double f) { uint64_t v; memcpy(&v, &f, 8); return v; }

/* binary32 has 24 >= 2*11 + 2 significand bits, so adding two halves in f32 and rounding
 * once to f16 is the correctly rounded f16 sum (and clang-14 has no x86 _Float16). */
static uint16_t f16_add(uint16_t a, uint16_t b)
{
  return (uint16_t)fp_f32_to_f16(fp_f16_to_f32(a) + fp_f16_to_f32(b));
}

/* The integer operations, alike at both widths (S: the width's signed type) */
#define INT_OPS(S)                                                   \
  case ISA_AT_SWAP: return src;                                      \
  case ISA_AT_CMPSWAP: return old == cmp ? src : old;                \
  case ISA_AT_ADD: return old + src;                                 \
  case ISA_AT_SUB: return old - src;                                 \
  case ISA_AT_RSUB: return src - old;                                \
  case ISA_AT_SMIN: return (S)src < (S)old ? src : old;              \
  case ISA_AT_UMIN: return src < old ? src : old;                    \
  case ISA_AT_SMAX: return (S)src > (S)old ? src : old;              \
  case ISA_AT_UMAX: return src > old ? src : old;                    \
  case ISA_AT_AND: return old & src;                                 \
  case ISA_AT_OR: return old | src;                                  \
  case ISA_AT_XOR: return old ^ src;                                 \
  case ISA_AT_INC: return old >= src ? 0 : old + 1;                  \
  case ISA_AT_DEC: return old == 0 || old > src ? src : old - 1;     \
  case ISA_AT_MSKOR: return (old & ~cmp) | src;   /* cmp holds the mask */

static uint32_t op32(unsigned op, uint32_t old, uint32_t src, uint32_t cmp)
{
  switch (op) {
  INT_OPS(int32_t)
  case ISA_AT_ADD_F32: return u32(f32(old) + f32(src));
  case ISA_AT_MIN_F32: return f32(src) < f32(old) ? src : old;
  case ISA_AT_MAX_F32: return f32(src) > f32(old) ? src : old;
  case ISA_AT_PK_ADD_F16:
    return f16_add((uint16_t)old, (uint16_t)src) |
           (uint32_t)f16_add((uint16_t)(old >> 16), (uint16_t)(src >> 16)) << 16;
  case ISA_AT_CMPST_F32: return f32(old) == f32(cmp) ? src : old;
  case ISA_AT_WRAP: return old >= src ? old - src : old + cmp;
  default: return old;
  }
}

static uint64_t op64(unsigned op, uint64_t old, uint64_t src, uint64_t cmp)
{
  switch (op) {
  INT_OPS(int64_t)
  case ISA_AT_ADD_F64: return u64(f64(old) + f64(src));
  case ISA_AT_MIN_F64: return f64(src) < f64(old) ? src : old;
  case ISA_AT_MAX_F64: return f64(src) > f64(old) ? src : old;
  case ISA_AT_CMPST_F64: return f64(old) == f64(cmp) ? src : old;
  default: return old;
  }
}

/* isa_atomic32/64: a builtin where one exists, else a compare-exchange loop over opfn */
#define ATOMIC_RMW(name, T, opfn)                                                           \
  T name(unsigned op, T *p, T src, T cmp)                                                   \
  {                                                                                         \
    switch (op) {                                                                           \
    case ISA_AT_SWAP: return __atomic_exchange_n(p, src, __ATOMIC_SEQ_CST);                \
    case ISA_AT_ADD: return __atomic_fetch_add(p, src, __ATOMIC_SEQ_CST);                  \
    case ISA_AT_SUB: return __atomic_fetch_sub(p, src, __ATOMIC_SEQ_CST);                  \
    case ISA_AT_AND: return __atomic_fetch_and(p, src, __ATOMIC_SEQ_CST);                  \
    case ISA_AT_OR: return __atomic_fetch_or(p, src, __ATOMIC_SEQ_CST);                    \
    case ISA_AT_XOR: return __atomic_fetch_xor(p, src, __ATOMIC_SEQ_CST);                  \
    default: break;                                                                         \
    }                                                                                       \
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                           \
    while (!__atomic_compare_exchange_n(p, &old, opfn(op, old, src, cmp), false,           \
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))                \
      ;                                                                                     \
    return old;                                                                             \
  }

ATOMIC_RMW(isa_atomic32, uint32_t, op32)
ATOMIC_RMW(isa_atomic64, uint64_t, op64)
