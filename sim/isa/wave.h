/* SPDX-License-Identifier: MIT */
/* wave.h — what the files of sim/isa share: the predecoded instruction, a wave's registers,
 * the workgroup it belongs to, and the operand helpers every format's semantics use.
 * Encodings and operand numbering follow the "AMD GCN Vega (gfx9) ISA" and LLVM's
 * AMDGPU backend (checked against llvm-objdump --mcpu=gfx900).
 *
 * Layout of the work: decode.c splits an instruction word into its format and calls the
 * format's decoder (decode_sop.c, decode_vop.c, ...), which fills a struct isa_inst and
 * picks its semantics function. exec_*.c hold the semantics, one format family a file. */
#ifndef SIM_ISA_WAVE_H
#define SIM_ISA_WAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"

/* ---- operand codes (9 bits, as in the VOP3 src fields) ------------------------------- */
enum {
  ISA_OP_SGPR_LAST = 101,
  ISA_OP_FLAT_SCR_LO = 102, ISA_OP_FLAT_SCR_HI = 103,
  ISA_OP_XNACK_LO = 104, ISA_OP_XNACK_HI = 105,
  ISA_OP_VCC_LO = 106, ISA_OP_VCC_HI = 107,
  ISA_OP_TTMP0 = 108,                      /* ttmp0..ttmp15: 108..123 */
  ISA_OP_M0 = 124,
  ISA_OP_NULL = 125,                       /* gfx10+'s NULL (their code 124): reads 0, drops writes */
  ISA_OP_EXEC_LO = 126, ISA_OP_EXEC_HI = 127,
  ISA_OP_ZERO = 128,                       /* 129..192: 1..64, 193..208: -1..-16 */
  ISA_OP_SHARED_BASE = 235, ISA_OP_SHARED_LIMIT = 236,
  ISA_OP_PRIVATE_BASE = 237, ISA_OP_PRIVATE_LIMIT = 238,
  ISA_OP_POPS_EXITING_WAVE_ID = 239,
  ISA_OP_F_HALF = 240,                     /* 0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0: 240..247 */
  ISA_OP_INV_2PI = 248,
  ISA_OP_SDWA = 249, ISA_OP_DPP = 250,     /* in VOP src0: the SDWA / DPP extra dword follows */
  ISA_OP_VCCZ = 251, ISA_OP_EXECZ = 252, ISA_OP_SCC = 253,
  ISA_OP_LITERAL = 255,
  ISA_OP_VGPR0 = 256,                      /* 256..511: v0..v255 */
  ISA_OP_AGPR0 = 512,                      /* 512..767: a0..a255 (gfx90a, gfx942; exec_mfma.c) */
};

/* How a source is read: inline float constants depend on the operand's type, and a 32-bit
 * literal in a 64-bit slot is the high half of a double (F64), sign-extended for signed
 * integers (I64, added by the isa core) and zero-extended otherwise (B64). */
enum isa_type { ISA_T_B32, ISA_T_B64, ISA_T_F16, ISA_T_F32, ISA_T_F64, ISA_T_I16, ISA_T_I64 };

/* ---- the predecoded instruction --------------------------------------------------------- */
struct isa_wave;
struct isa_inst;
/* Semantics: returns 0 to go on (the function advanced or set pc), or -1 after filling the
 * wave's fault. */
typedef int isa_exec_fn(struct isa_wave *w, const struct isa_inst *in);

enum isa_fmt {
  ISA_SOP2, ISA_SOPK, ISA_SOP1, ISA_SOPC, ISA_SOPP, ISA_SMEM,
  ISA_VOP2, ISA_VOP1, ISA_VOPC, ISA_VOP3A, ISA_VOP3B, ISA_VOP3P, ISA_VINTRP,
  ISA_DS, ISA_FLAT, ISA_GLOBAL, ISA_SCRATCH, ISA_MUBUF, ISA_MTBUF, ISA_MIMG, ISA_EXP,
};

struct isa_inst {
  isa_exec_fn *exec;
  const char *name;          /* mnemonic, e.g. "v_add_f32" (for faults and traces) */
  uint64_t pc;               /* GPU VA of this instruction */
  uint32_t words[3];         /* the raw dwords (up to 12 bytes incl. literal or extra dword) */
  uint8_t size;              /* bytes: 4, 8 or 12 */
  uint8_t fmt;               /* enum isa_fmt */
  uint16_t op;               /* opcode within the format */

  /* operands: codes as above (scalar-only fields keep their 8-bit code) */
  uint16_t src[3];
  uint16_t dst;              /* SDST / VDST (VGPRs as ISA_OP_VGPR0 + n) */
  uint16_t sdst;             /* VOP3B / VOPC-in-VOP3 scalar destination, SMEM sdata */
  uint32_t literal;          /* when a source is ISA_OP_LITERAL */
  int32_t simm;              /* SOPK/SOPP simm16 (sign-extended), memory offsets */

  /* VOP3 / VOP3P modifiers */
  uint8_t abs, neg, neg_hi;  /* bit per source */
  uint8_t opsel, opsel_hi;
  bool clamp;
  uint8_t omod;

  /* SDWA (gfx9 encoding) */
  bool sdwa;
  uint8_t sdwa_dst_sel, sdwa_dst_unused, sdwa_src_sel[2];
  uint8_t sdwa_sext, sdwa_neg, sdwa_abs;   /* bit per source */
  bool sdwa_src_sgpr[2];     /* gfx9: S0/S1 bits select an SGPR/constant source */
  uint8_t sdwa_omod;
  bool sdwa_clamp, sdwa_sd;  /* sd: VOPC-SDWA writes an SGPR pair (sdst) instead of VCC */

  /* DPP */
  bool dpp;
  uint16_t dpp_ctrl;
  uint8_t dpp_row_mask, dpp_bank_mask;
  bool dpp_bound_ctrl;

  /* memory formats */
  uint16_t addr;             /* VGPR of the address (FLAT/GLOBAL/SCRATCH/DS/MUBUF vaddr) */
  uint16_t data;             /* VGPR of store data (DS data0) */
  uint16_t data1;            /* DS data1 */
  uint16_t saddr;            /* GLOBAL/SCRATCH saddr (0x7f = off), SMEM sbase, MUBUF srsrc */
  uint16_t soffset;          /* MUBUF/MTBUF soffset, SMEM soffset */
  int32_t offset;            /* immediate offset (DS offset0 | offset1 << 8 kept in offset0/1) */
  uint8_t offset0, offset1;  /* DS */
  bool glc, slc, lds, tfe, gds, offen, idxen, addr64;
  bool sc1;                  /* FLAT bit 25, MUBUF bit 15: gfx90a's scc, gfx942's sc1 */
  bool sve;                  /* gfx942 SCRATCH bit 13: the VGPR address is used (else off) */
  uint8_t dfmt, nfmt;        /* MTBUF */
  bool imm_offset;           /* SMEM: offset is an immediate (else soffset holds an SGPR) */

  /* added by the isa core (decode.c fills them after the format decoder) */
  uint16_t vgpr_end;         /* one past the highest VGPR named (checked against vgpr_alloc) */
  uint8_t seg;               /* FLAT: 0 flat, 1 scratch, 2 global */
  bool soe;                  /* SMEM: soffset SGPR added to the immediate offset */
  uint8_t dwords;            /* memory formats: data dwords moved per lane */
  uint8_t dmask;             /* MIMG */

  /* added by the VALU (decode_vop.c): which gfx9 variant decodes, for the few opcodes whose
   * meaning differs (v_mad_mix* vs v_fma_mix*, VOP2 0x04 v_mul_legacy_f32 vs v_fmac_f64) or
   * that exist only on later chips (dot, fmac). decode.c may set it before calling
   * isa_decode_valu; ISA_TARGET_ANY (0) accepts the union, with gfx906 meanings. */
  uint8_t target;            /* enum isa_target */

  /* added by the fast engine (fast.c, filled by isa_decode): specialised semantics run
   * instead of `exec` unless HSA_SIM_INTERP=1; NULL when there are none. They fall back to
   * `exec` themselves for the cases they do not cover. */
  isa_exec_fn *fast;
  /* the following instruction when `fast` runs both as one (isa_fast_fuse: a 64-bit add's
   * v_add_co_u32 + v_addc_co_u32); owned by this one (the code cache frees it) */
  struct isa_inst *pair;
};

enum isa_target { ISA_TARGET_ANY = 0, ISA_TARGET_GFX900, ISA_TARGET_GFX906, ISA_TARGET_GFX90A,
                  ISA_TARGET_GFX942,     /* gfx942: gfx90a's VALU and more */
                  ISA_TARGET_GFX1100,    /* gfx11 (RDNA3): its own encodings (decode_gfx11.c) */
                  ISA_TARGET_GFX1201 };  /* gfx12 (RDNA4) */

/* ---- a wave and its workgroup ------------------------------------------------------------ */
#define ISA_MAX_SGPRS 102
#define ISA_MAX_VGPRS 256

#define ISA_GROUP_PAGES 8
#define ISA_GROUP_TLB 8     /* a power of two */

struct isa_group {           /* the running workgroup, shared by its waves */
  const struct sim_isa_workgroup *wg;
  uint8_t *lds;              /* wg->lds_bytes bytes */
  unsigned waves_at_barrier;
  /* added by the isa core: code pages checked against memory during this run (decode.c) */
  struct isa_code *pages[ISA_GROUP_PAGES];
  unsigned page_count;
  struct isa_wave *waves;    /* wg->wave_count of them */
  /* translation entries shared by the group's waves (memory.c): they run on one thread */
  /* 8 entries: a kernel touching kernarg, dispatch packet and three buffers (vadd) thrashed
   * 4 of them, one VM lookup per wave (sim/isa/README.md, Speed) */
  /* ro: GPU read-only; keep: may outlive the group (a buffer object, not SVM memory). The
   * entries come from the thread's previous group when the VM generation is unchanged
   * (run.c) */
  /* ISA_GROUP_TLB of them, the host thread's own (run.c run_buf), used in place */
  struct isa_tlb_entry { uint64_t va, size; uint8_t *host; bool ro, keep; } *tlb;
  unsigned tlb_next, tlb_last;
  unsigned tlb_drop;         /* entries filled without keep this group (bit e; run.c clears them) */
  /* the entry that last translated an access of each instruction (by its dword address,
   * modulo ISA_TLB_HINTS: 1 KiB of code without two instructions on one slot), checked
   * first (memory.c translate): accesses to several buffers in turn (vadd's kernarg and
   * dispatch-packet loads, two loads and a store) find theirs without scanning the entries.
   * The host thread's table (run.c), never copied: a hint is checked against the entry it
   * names, so a stale one only costs the scan */
#define ISA_TLB_HINTS 256
  uint8_t *tlb_hint;
  uint32_t lds_size;         /* bytes addressable: lds_bytes rounded to the 512-byte granule */
  bool fast;                 /* isa_fast_enabled() read once at the group's start (run.c) */
};

struct isa_code;             /* a predecoded code range (decode.c) */

struct isa_wave {
  struct isa_group *group;
  struct isa_code *code;
  unsigned id;               /* wave index in the workgroup */
  uint64_t pc;
  uint32_t sgpr[ISA_MAX_SGPRS];
  uint32_t ttmp[16];
  uint64_t vcc, exec, flat_scratch, xnack_mask;
  uint32_t m0;
  bool scc;
  uint32_t mode, trapsts;    /* hardware registers s_getreg/s_setreg reach */
  uint32_t (*vgpr)[SIM_ISA_WAVE_SIZE];   /* vgpr[n][lane], ISA_MAX_VGPRS rows */
  unsigned sgpr_alloc, vgpr_alloc;
  uint32_t scratch_wave_offset;
  bool ended, at_barrier;
  bool wave32;               /* wg->wave_size 32: lanes 0..31, VCC/EXEC masks in the low SGPR */
  /* trap state (trap.c): PRIV while in the trap handler; STATUS.HALT, which stops the wave
   * (`halted`) once it is set outside the handler or the handler returns with it */
  bool priv, halt, halted;
  bool no_vgprs;             /* gfx11+: after s_sendmsg MSG_DEALLOC_VGPRS (STATUS.NO_VGPRS) */
  struct sim_isa_fault fault;
  /* one-entry translation cache (superseded by isa_group.tlb; kept for the name) */
  uint64_t tlb_va, tlb_size;
  uint8_t *tlb_host;
  /* added by the isa core: the hardware registers s_getreg reaches, the wave's scratch
   * slice (translation entries are per group: isa_group.tlb) */
  uint32_t hw_id;
  const struct isa_inst *cur;   /* the instruction running (for fault texts) */
  uint64_t scratch_va;       /* wg->scratch_base + scratch_wave_offset */
  /* added for AGPRs (exec_mfma.c): a0 is row acc_base of the unified file, acc_count of them */
  unsigned acc_base, acc_count;
};

/* ---- decoding: the format decoders decode.c calls -------------------------------------
 * Each fills *out from the words at `pc` (`avail` dwords readable), sets out->exec and
 * out->size, and returns 0, or -1 with out->exec = isa_unknown-style text left to the caller
 * for an encoding it does not know (out->name then says what was seen). */
int isa_decode_valu(const uint32_t *words, unsigned avail, uint64_t pc, struct isa_inst *out);
                               /* VOP1, VOP2, VOPC, VOP3A/B, VOP3P incl. SDWA and DPP (decode_vop.c) */

/* ---- helpers (operand.c) ----------------------------------------------------------------- */
/* Scalar operand read/write (SGPRs, VCC, EXEC, M0, inline constants, literal, SCC ...). */
uint32_t isa_read_s32(const struct isa_wave *w, const struct isa_inst *in, unsigned code);
uint64_t isa_read_s64(const struct isa_wave *w, const struct isa_inst *in, unsigned code,
                      enum isa_type t);
void isa_write_s32(struct isa_wave *w, unsigned code, uint32_t v);
void isa_write_s64(struct isa_wave *w, unsigned code, uint64_t v);
/* A VALU source for one lane: VGPRs per lane, everything else uniform. `t` picks the inline
 * constant's encoding (f16/f32/f64 constants differ). Modifiers are not applied here. */
uint32_t isa_read_v32(const struct isa_wave *w, const struct isa_inst *in, unsigned code,
                      unsigned lane, enum isa_type t);
uint64_t isa_read_v64(const struct isa_wave *w, const struct isa_inst *in, unsigned code,
                      unsigned lane, enum isa_type t);

/* ---- memory (memory.c): every GPU access goes through the VM ---------------------------- */
/* Host pointer for [va, va + len) or NULL after recording a memory fault in w->fault. */
void *isa_mem(struct isa_wave *w, uint64_t va, uint32_t len, bool write);
/* isa_mem that only asks: NULL for an access the VM refuses, with no fault and no exception
 * (a fast path that then takes the per-lane path, which raises it for the right lane once). */
void *isa_mem_probe(struct isa_wave *w, uint64_t va, uint32_t len, bool write);

/* Records a fault; returns -1 so semantics can `return isa_fault(...)`. */
int isa_fault(struct isa_wave *w, enum sim_isa_fault_kind kind, uint64_t addr, bool write,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The usual fault for an opcode the model does not implement (names it, with its words). */
int isa_unknown(struct isa_wave *w, const struct isa_inst *in);

#endif
