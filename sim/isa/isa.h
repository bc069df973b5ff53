/* SPDX-License-Identifier: MIT */
/* isa.h — the shader array as the command processor (sim/cp) sees it: run one workgroup of
 * a dispatch to completion. The CP does the dispatch set-up (kernel descriptor, initial SGPR
 * and VGPR values per AMDGPUUsage "Initial Kernel Execution State", exec masks of partial
 * workgroups); sim/isa decodes the kernel's code (once per code range) and interprets the
 * waves, with every memory access going through the GPU's VM (sim_vm_translate). */
#ifndef SIM_ISA_ISA_H
#define SIM_ISA_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

#define SIM_ISA_WAVE_SIZE 64             /* lanes of the register file; wave32 uses 0..31 */
/* The chip comes from the GPU model's gfx_target_version: gfx9 (gfx900..gfx942), gfx11
 * (RDNA3) and gfx12 (RDNA4) encodings, gfx10+ in wave32 (wave_size 32) and wave64. */
#define SIM_ISA_MAX_WAVES_PER_GROUP 32   /* 1024 work-items in wave32 */
#define SIM_ISA_MAX_INIT_SGPRS 32        /* 16 user SGPRs + the system SGPRs */
#define SIM_ISA_MAX_INIT_VGPRS 3         /* work-item ids x, y, z (or one packed VGPR) */

/* The initial state of one wave, filled by the CP. */
struct sim_isa_wave_init {
  uint32_t sgpr[SIM_ISA_MAX_INIT_SGPRS];  /* s0, s1, ... in the kernel descriptor's order */
  unsigned sgpr_count;
  uint64_t exec;                          /* lanes that hold a work-item */
  uint32_t vgpr[SIM_ISA_MAX_INIT_VGPRS][SIM_ISA_WAVE_SIZE];  /* v0..v2 per lane (a wave32's
                                                               lanes 0..31: the rest unread) */
  unsigned vgpr_count;
  uint32_t scratch_wave_offset;           /* bytes from the queue's scratch base to this wave's
                                             slice (also in an SGPR when the kernel asks) */
  /* gfx12's architected SGPRs (the CP writes them for every wave; compilers for gfx12 read
   * the work-group id from them, not from the system SGPRs): TTMP9 = work-group id X,
   * TTMP7 = id Y in [15:0], id Z in [31:16]. 0 elsewhere. */
  uint32_t ttmp7, ttmp9;
};

/* One workgroup of a dispatch. */
struct sim_isa_workgroup {
  struct sim_gpu *gpu;
  uint64_t code_entry;       /* GPU VA of the kernel's first instruction */
  unsigned wave_count;       /* 1..SIM_ISA_MAX_WAVES_PER_GROUP */
  unsigned wave_size;        /* 32 or 64 lanes (gfx10+: the kernel descriptor's wave32 bit) */
  const struct sim_isa_wave_init *waves;
  unsigned sgpr_alloc;       /* SGPRs each wave may use (from the descriptor's granulated count,
                                not counting VCC/FLAT_SCRATCH/XNACK_MASK) */
  unsigned vgpr_alloc;       /* VGPRs each wave may use */
  uint32_t lds_bytes;        /* group segment: static + dynamic, 0 = no LDS */
  uint32_t rsrc1, rsrc2;     /* COMPUTE_PGM_RSRC1/2: float modes, DX10 clamp, IEEE, trap bits */
  /* The process's apertures on this GPU, for FLAT addressing of LDS and private memory. */
  uint64_t shared_base, shared_limit, private_base, private_limit;
  /* Where the queue's scratch lives (GPU VA) and how much each wave may use. */
  uint64_t scratch_base;
  uint32_t scratch_per_wave; /* bytes; 0 = the kernel uses no scratch */
  /* The second-level trap handler SET_TRAP_HANDLER installed (0 = none) and its TMA: the
   * kernel's first-level handler jumps there (trap.c models the first level). */
  uint64_t tba, tma;
  uint32_t doorbell_id;      /* the queue's doorbell, what s_sendmsg(MSG_GET_DOORBELL) answers */
  /* added for preemption and placement (sim/cp): */
  const _Atomic(bool) *preempt;  /* set = stop the waves at their next backward branch
                                    (SIM_ISA_FAULT_PREEMPTED); NULL = never */
  uint32_t hw_id;            /* HW_REG_HW_ID of the group's first wave: the CU, SH, SE, VM,
                                queue, pipe and ME fields; run.c adds each wave's WAVE_ID and
                                SIMD_ID */
  uint32_t rsrc3;            /* COMPUTE_PGM_RSRC3 (gfx90a, gfx942: ACCUM_OFFSET, where the AGPRs
                                start in the unified VGPR file) */
  uint32_t xcc_id;           /* HW_REG_XCC_ID (gfx942): the XCC the group runs on */
  uint32_t hw_id2;           /* gfx11+: HW_REG_HW_ID2 (queue, pipe, ME, VMID); hw_id is then
                                HW_REG_HW_ID1's SE, SA and WGP fields */
  uint64_t dispatch_seq;     /* nonzero: the dispatch's number, unique in the process (the
                                CP's count): a host thread compares a code page with memory
                                once per dispatch, not at every work-group (decode.c); 0: at
                                every work-group */
};

enum sim_isa_fault_kind {
  SIM_ISA_FAULT_NONE = 0,
  SIM_ISA_FAULT_MEMORY,      /* an address not mapped on this GPU (or misused): page fault */
  SIM_ISA_FAULT_ILLEGAL,     /* an instruction the model does not implement (an encoding no
                                chip has is an illegal-instruction exception: the trap handler,
                                or SIM_ISA_HALTED; a fault only inside a handler) */
  SIM_ISA_HALTED,            /* not a fault: a wave halted (s_sethalt, or STATUS.HALT set by a
                                trap handler), so the workgroup can never finish */
  SIM_ISA_FAULT_PREEMPTED,   /* not a fault: wg->preempt was set, the waves were stopped */
};

struct sim_isa_fault {
  enum sim_isa_fault_kind kind;
  uint64_t pc;               /* GPU VA of the faulting instruction */
  uint64_t addr;             /* faulting address for memory faults */
  bool write;
  char text[160];            /* "unknown VOP3A opcode 0x1f0 at 0x...: 0xd1f00000 0x00020100" */
};

/* Runs the workgroup until every wave ended (s_endpgm). Returns 0, or -1 with *fault filled
 * (the first fault stops the whole workgroup; SIM_ISA_HALTED when the waves left are halted
 * or wait at a barrier a halted wave will never reach). Thread-safe: several workgroups may run at
 * once on different threads. */
int sim_isa_run_workgroup(const struct sim_isa_workgroup *wg, struct sim_isa_fault *fault);

/* Drops predecoded code that overlaps [va, va + size) on `gpu` (memory freed or rewritten;
 * the CP calls it for instruction-cache invalidations too). size 0 = everything. */
void sim_isa_invalidate(struct sim_gpu *gpu, uint64_t va, uint64_t size);

/* Disassembly-like text of the instruction at `va` for traces and fault messages. Returns the
 * instruction's size in bytes, 0 if it cannot be read or decoded. */
unsigned sim_isa_describe(struct sim_gpu *gpu, uint64_t va, char *buf, unsigned size);

#endif
