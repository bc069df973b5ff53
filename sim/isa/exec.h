/* SPDX-License-Identifier: MIT */
/* exec.h — the semantics functions of the non-VALU formats, shared between the format
 * decoders (decode_*.c) and their exec_*.c files; helpers the memory formats share. */
#ifndef SIM_ISA_EXEC_H
#define SIM_ISA_EXEC_H

#include <stdatomic.h>

#include "isa/wave.h"

isa_exec_fn isa_exec_sop2, isa_exec_sopk, isa_exec_sop1, isa_exec_sopc, isa_exec_sopp;
isa_exec_fn isa_exec_smem, isa_exec_ds, isa_exec_flat, isa_exec_mubuf;
isa_exec_fn isa_exec_unknown;
isa_exec_fn isa_exec_mimg;   /* image instructions: exec_mimg.c */
isa_exec_fn isa_exec_agpr;   /* memory instructions on AGPRs (acc bit): exec_mfma.c */
/* exec_mfma.c: an MFMA's dwords per lane of D, A, B and C (v_smfmac: C is D, and the
 * fourth operand the index VGPR, 1), and whether its BLGP field is NEG (describe.c). */
bool isa_mai_shape(const struct isa_inst *in, unsigned dw[4], bool *neg);

/* Traps (trap.c): STATUS as s_getreg reads it and the bits s_setreg may change; s_trap
 * (the hardware and the kernel's first-level handler); s_rfe_b64; STATUS.HALT; s_sendmsg. */
uint32_t isa_status_read(const struct isa_wave *w);
void isa_status_write(struct isa_wave *w, uint32_t v, uint32_t mask);
int isa_trap(struct isa_wave *w, unsigned id);
/* A wave exception at w->pc: sets `trapsts` in TRAPSTS and enters the trap handler (id 0),
 * or halts the wave with no second level, as the first level does. false (nothing done)
 * inside a handler. */
#define ISA_TRAPSTS_MEM_VIOL 0x100u
#define ISA_TRAPSTS_ILLEGAL_INST 0x800u
#define ISA_TRAPSTS_XNACK_ERROR 0x10000000u   /* with MEM_VIOL: a GPUVM fault (XNACK off) */
bool isa_exception(struct isa_wave *w, uint32_t trapsts, const char *what);
/* MODE.EXCP_EN (bits 20:12, the launch takes them from COMPUTE_PGM_RSRC2.EXCP_EN and
 * EXCP_EN_MSB) in TRAPSTS.EXCP order: invalid, input denormal, divide by zero, overflow,
 * underflow, inexact, integer divide by zero, address watch, memory violation. */
#define ISA_MODE_EXCP_SHIFT 12
#define ISA_MODE_EXCP_FP (0x3fu << ISA_MODE_EXCP_SHIFT)   /* the floating-point ones */
/* After a VALU instruction run with the host's floating-point flags cleared (only while
 * MODE enables a floating-point exception): the flags it raised go into TRAPSTS.EXCP, and an
 * enabled one enters the trap handler at the next instruction. true: a trap was taken. */
bool isa_fp_exceptions(struct isa_wave *w);
void isa_rfe(struct isa_wave *w, uint64_t pc);
void isa_set_halt(struct isa_wave *w, bool on);
void isa_sendmsg(struct isa_wave *w, unsigned simm);
/* gfx12's hardware registers of the trap state (STATE_PRIV, EXCP_FLAG_PRIV/USER, TRAP_CTRL,
 * and its STATUS), which s_getreg/s_setreg reach there: true when `id` is one of them. */
bool isa_trap_hwreg_read(const struct isa_wave *w, unsigned id, uint32_t *v);
bool isa_trap_hwreg_write(struct isa_wave *w, unsigned id, uint32_t v, uint32_t mask);

/* Decoders of this core's formats (decode_sop.c, decode_mem.c). Same contract as
 * isa_decode_valu. */
int isa_decode_sop(const uint32_t *w, unsigned avail, uint64_t pc, struct isa_inst *in);
int isa_decode_mem(const uint32_t *w, unsigned avail, uint64_t pc, struct isa_inst *in);
/* Splits by format and calls the format's decoder; never fails: unknown encodings get
 * isa_exec_unknown (with a size that keeps the following words in step where it can).
 * `target` (enum isa_target) picks the chip's meaning of the opcodes gfx9 chips disagree on. */
void isa_decode(const uint32_t *w, unsigned avail, uint64_t pc, uint8_t target,
                struct isa_inst *in);
/* The enum isa_target of a GPU (ISA_TARGET_ANY when unknown), and of a name like "gfx906". */
uint8_t isa_target_of(const struct sim_gpu *gpu);
uint8_t isa_target_named(const char *mcpu);

/* The code cache (decode.c): running a wave until it ends, reaches s_barrier, halts (0) or faults
 * (-1); dropping a group's page references when it ends; decoding one instruction at `va`
 * from memory for describe (0, or -1 when unreadable). */
int isa_wave_run(struct isa_wave *w);
void isa_group_release(struct isa_group *g);
int isa_decode_at(struct sim_gpu *gpu, uint64_t va, struct isa_inst *in);

/* Disassembly-like text (describe.c): of a decoded instruction, or of the words at `pc`
 * (`avail` dwords readable). Return the instruction's size in bytes. */
unsigned isa_describe_inst(const struct isa_inst *in, char *buf, unsigned size);
/* Whether that text spells the operands exactly as llvm-objdump does (scalar, memory, 32-bit
 * VALU encodings and VOP3 without op_sel; not SDWA, DPP, VOP3P or 16-bit VOP3). */
bool isa_describe_exact(const struct isa_inst *in);

/* Memory atomics on host memory (atomic.c), atomic with respect to host threads. `op` is the
 * FLAT/MUBUF atomic opcode's low 5 bits (0 swap, 1 cmpswap, 2 add, 3 sub, 4 smin, 5 umin,
 * 6 smax, 7 umax, 8 and, 9 or, 10 xor, 11 inc, 12 dec, 13 add_f32, 14 pk_add_f16,
 * 15 add_f64, 16 min_f64, 17 max_f64). Return the old value. */
enum { ISA_AT_SWAP, ISA_AT_CMPSWAP, ISA_AT_ADD, ISA_AT_SUB, ISA_AT_SMIN, ISA_AT_UMIN,
       ISA_AT_SMAX, ISA_AT_UMAX, ISA_AT_AND, ISA_AT_OR, ISA_AT_XOR, ISA_AT_INC, ISA_AT_DEC,
       ISA_AT_ADD_F32, ISA_AT_PK_ADD_F16, ISA_AT_ADD_F64, ISA_AT_MIN_F64, ISA_AT_MAX_F64,
       /* LDS-only */
       ISA_AT_RSUB, ISA_AT_MIN_F32, ISA_AT_MAX_F32, ISA_AT_MSKOR, ISA_AT_CMPST_F32,
       ISA_AT_CMPST_F64, ISA_AT_WRAP };
uint32_t isa_atomic32(unsigned op, uint32_t *p, uint32_t src, uint32_t cmp);
uint64_t isa_atomic64(unsigned op, uint64_t *p, uint64_t src, uint64_t cmp);

/* The address of private (scratch) byte `off` of `lane`: gfx9 interleaves dwords of the
 * 64 lanes (element size 4, index stride 64) from the wave's FLAT_SCRATCH base; AMDGPUUsage's
 * private-address-wavefront = (lane address / 4) * 64 * 4 + lane * 4 + lane address % 4. */
static inline uint64_t isa_scratch_addr(const struct isa_wave *w, uint32_t off, unsigned lane)
{
  return w->flat_scratch + (uint64_t)(off >> 2) * (w->wave32 ? 128u : 256u) + lane * 4u + (off & 3);
}

/* The host address from the entry `e` of the group's translations, or NULL. */
static inline void *isa_tlb_hit(const struct isa_group *g, unsigned e, uint64_t va,
                                uint32_t len, bool write)
{
  const struct isa_tlb_entry *t = &g->tlb[e & (ISA_GROUP_TLB - 1)];
  uint64_t d = va - t->va;
  if (__builtin_expect(d < t->size && len <= t->size - d && !(write && t->ro), 1))
    return t->host + d;
  return NULL;
}

/* The hint slot of the instruction `in` (memory.c translate keeps it). */
static inline unsigned isa_tlb_hint_of(const struct isa_inst *in)
{
  return in ? (unsigned)(in->pc >> 2) & (ISA_TLB_HINTS - 1) : 0;
}

/* isa_mem with the entry that hit last checked inline first. */
static inline void *isa_mem_fast(struct isa_wave *w, uint64_t va, uint32_t len, bool write)
{
  void *h = isa_tlb_hit(w->group, w->group->tlb_last, va, len, write);
  return h ? h : isa_mem(w, va, len, write);
}

/* isa_mem with the instruction's hinted entry checked inline first (w->cur is `in`) */
static inline void *isa_mem_hinted(struct isa_wave *w, const struct isa_inst *in, uint64_t va,
                                   uint32_t len, bool write)
{
  void *h = isa_tlb_hit(w->group, w->group->tlb_hint[isa_tlb_hint_of(in)], va, len, write);
  return h ? h : isa_mem(w, va, len, write);
}

/* isa_mem_probe with the instruction's hinted entry checked inline first (w->cur is `in`) */
static inline void *isa_mem_probe_fast(struct isa_wave *w, const struct isa_inst *in,
                                       uint64_t va, uint32_t len, bool write)
{
  void *h = isa_tlb_hit(w->group, w->group->tlb_hint[isa_tlb_hint_of(in)], va, len, write);
  return h ? h : isa_mem_probe(w, va, len, write);
}

/* Scalar operand access with the common case (an SGPR) inline. */
static inline uint32_t isa_sread(const struct isa_wave *w, const struct isa_inst *in, unsigned code)
{
  return code <= ISA_OP_SGPR_LAST ? w->sgpr[code] : isa_read_s32(w, in, code);
}

static inline void isa_swrite(struct isa_wave *w, unsigned code, uint32_t v)
{
  if (code <= ISA_OP_SGPR_LAST)
    w->sgpr[code] = v;
  else
    isa_write_s32(w, code, v);
}

/* s_waitcnt and the cache-maintenance instructions (buffer_wbinvl1*, buffer_wbl2/invl2,
 * buffer_inv, s_dcache_*, gfx11/12's buffer_gl*_inv, global_inv/wb): the memory model's
 * release/acquire points. Caches are coherent here, so all they do is order the wave's
 * earlier accesses before its later ones for the other host threads (a fence between relaxed
 * host atomics: free on x86-64, a barrier on weaker hosts). */
static inline void isa_mem_fence(void)
{
  atomic_thread_fence(memory_order_acq_rel);
}

/* s_*_saveexec / s_*_wrexec (the gfx9 SOP1 opcodes 32..39, 51..54; gfx11's _b32 forms take
 * the low halves): exec's new value from the source s and exec e into *n; false for another op */
static inline bool isa_saveexec(unsigned op, uint64_t s, uint64_t e, uint64_t *n)
{
  switch (op) {
  case 32: *n = s & e; return true;
  case 33: *n = s | e; return true;
  case 34: *n = s ^ e; return true;
  case 35: case 54: *n = s & ~e; return true;   /* 54: andn2_wrexec */
  case 36: *n = s | ~e; return true;
  case 37: *n = ~(s & e); return true;
  case 38: *n = ~(s | e); return true;
  case 39: *n = ~(s ^ e); return true;
  case 51: case 53: *n = ~s & e; return true;
  case 52: *n = ~s | e; return true;
  default: return false;
  }
}

/* Iterate over the set lanes of `mask`. */
#define ISA_FOR_LANES(mask, l)                                                             \
  for (uint64_t _m = (mask), l; _m && ((l = (uint64_t)__builtin_ctzll(_m)), 1); _m &= _m - 1)

#endif
