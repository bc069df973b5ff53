// SPDX-License-Identifier: MIT
// trap_gfx11.s — the runtime's second-level trap handler for gfx11 (RDNA3, assembled for
// gfx1100) and gfx12 (RDNA4, assembled for gfx1201 with --defsym GFX12=1), installed with
// SET_TRAP_HANDLER (trap.c) and reporting through the same trap table as trap_gfx9.s.
// Written from the RDNA3/RDNA4 ISA and the kernel's first-level CWSR handler
// (cwsr_trap_handler_gfx10.asm built for gfx11, cwsr_trap_handler_gfx12.asm), which enters
// here with:
//   ttmp0:1    PC[47:0] of the s_trap (or of the instruction an exception stopped at); the
//              trap id in ttmp1[23:16] on gfx11, in ttmp1[31:28] on gfx12
//   ttmp2:3    the address it jumped through (ours to change)
//   ttmp11     its feature flags from bit 23 up (debug trap ...; not ours to change)
//   ttmp12     STATUS at entry (gfx11), STATE_PRIV (gfx12: SCC bit 9, HALT bit 14)
//   ttmp14:15  our TMA: the trap table (trap.c), 1024 entries of 16 bytes by doorbell id
// No HALT is set for us: a wave that is to stop is halted here. Only ttmp2..5 and ttmp14:15
// are ours (on gfx12 ttmp7 and ttmp9 hold the work-group ids).
//
// gfx11 and gfx12 have no scalar stores or scalar atomics, so the report goes through vector
// memory with lane 0 alone (EXEC kept in ttmp2:3); v0..v2 (lane 0) of a wave that is reported
// are the handler's afterwards: such a wave never runs again (its queue is stopped).
// What it does (as trap_gfx9.s):
//   s_trap 3 (llvm.debugtrap) with no debugger: step over it, go on.
//   any other s_trap (2: llvm.trap, abort, assert), an illegal instruction, a memory violation
//   (no XNACK on these chips: a GPUVM fault is a memory violation too, which the VM fault
//   interrupt also reports): store where the wave is, swap the error code into the queue's
//   inactive signal (0x80000000 trap, 0x40000000 illegal instruction, 0x20000000 memory
//   violation), write the signal's event id into its mailbox, send the SQ interrupt, and halt.
//   Anything else (a masked math exception): return.

.include "trap_common.inc"

.ifdef GFX12
.set HALT_BIT,              14          // STATE_PRIV
.set ILLEGAL_INST_BIT,      6           // EXCP_FLAG_PRIV
.set MEM_VIOL_BIT,          4
.macro WAIT_SMEM
  s_wait_kmcnt    0
.endm
.macro WAIT_STORE
  s_wait_storecnt 0
.endm
.macro WAIT_LOAD
  s_wait_loadcnt  0
.endm
.macro SLOAD op, dst, base, off                 // a scalar load past the caches
  \op \dst, \base, \off scope:SCOPE_SYS
.endm
.else
.set HALT_BIT,              13          // STATUS
.set ILLEGAL_INST_BIT,      11          // TRAPSTS
.set MEM_VIOL_BIT,          8
.macro WAIT_SMEM
  s_waitcnt       lgkmcnt(0)
.endm
.macro WAIT_STORE
  s_waitcnt_vscnt null, 0
.endm
.macro WAIT_LOAD
  s_waitcnt       vmcnt(0)
.endm
.macro SLOAD op, dst, base, off
  \op \dst, \base, \off glc
.endm
.endif

.text
trap_entry:
.ifdef GFX12
  s_lshr_b32      ttmp2, ttmp1, 28              // trap id: ttmp1[31:28]
.else
  s_bfe_u32       ttmp2, ttmp1, 0x80010         // trap id: ttmp1[23:16]
.endif
  TRAP_ID_DISPATCH

  // trap id 0: an exception
.ifdef GFX12
  s_getreg_b32    ttmp3, hwreg(HW_REG_EXCP_FLAG_PRIV)
.else
  s_getreg_b32    ttmp3, hwreg(HW_REG_TRAPSTS)
.endif
  s_mov_b32       ttmp4, CODE_ILLEGAL_INST
  s_bitcmp1_b32   ttmp3, ILLEGAL_INST_BIT
  s_cbranch_scc1  report
  s_mov_b32       ttmp4, CODE_MEM_VIOL
  s_bitcmp1_b32   ttmp3, MEM_VIOL_BIT
  s_cbranch_scc1  report
  s_branch        leave

report:
  // this wave's entry of the table
  s_sendmsg_rtn_b32 ttmp5, sendmsg(MSG_RTN_GET_DOORBELL)
  WAIT_SMEM
  s_and_b32       ttmp5, ttmp5, DOORBELL_ID_MASK
  s_lshl_b32      ttmp5, ttmp5, ENTRY_SHIFT
  s_add_u32       ttmp14, ttmp14, ttmp5
  s_addc_u32      ttmp15, ttmp15, 0

  // lane 0 alone from here
  s_mov_b32       ttmp2, exec_lo
  s_mov_b32       ttmp3, exec_hi
  s_mov_b32       exec_lo, 1
  s_mov_b32       exec_hi, 0

  // where it stopped (the trap id in bits 23:16 of the high word on both chips), before the
  // host can see the error
  v_mov_b32       v0, 0
  v_mov_b32       v1, ttmp0
.ifdef GFX12
  s_lshr_b32      ttmp5, ttmp1, 28
  s_lshl_b32      ttmp5, ttmp5, 16
  s_and_b32       ttmp1, ttmp1, 0xffff
  s_or_b32        ttmp5, ttmp5, ttmp1
  v_mov_b32       v2, ttmp5
.else
  v_mov_b32       v2, ttmp1
.endif
  global_store_b64 v0, v[1:2], ttmp[14:15] offset:8
  WAIT_STORE

  SLOAD s_load_b64, ttmp[14:15], ttmp[14:15], 0x0
  WAIT_SMEM
  s_cmp_eq_u64    ttmp[14:15], 0
  s_cbranch_scc1  halt                          // no queue of ours: just stop

  // the code into the signal; a value already there means another wave told the host
  v_mov_b32       v1, ttmp4
  v_mov_b32       v2, 0
.ifdef GFX12
  global_atomic_swap_b64 v[1:2], v0, v[1:2], ttmp[14:15] offset:SIGNAL_VALUE th:TH_ATOMIC_RETURN
.else
  global_atomic_swap_b64 v[1:2], v0, v[1:2], ttmp[14:15] offset:SIGNAL_VALUE glc
.endif
  WAIT_LOAD
  v_or_b32        v1, v1, v2
  v_readfirstlane_b32 ttmp5, v1
  s_cmp_lg_u32    ttmp5, 0
  s_cbranch_scc1  halt

  SLOAD s_load_b32, ttmp4, ttmp[14:15], SIGNAL_EVENT_ID
  SLOAD s_load_b64, ttmp[14:15], ttmp[14:15], SIGNAL_MAILBOX
  WAIT_SMEM
  s_cmp_eq_u64    ttmp[14:15], 0
  s_cbranch_scc1  halt
  v_mov_b32       v1, ttmp4
  global_store_b32 v0, v1, ttmp[14:15]
  WAIT_STORE

  // the interrupt's data (M0[23:0]) names the event when it can; the driver scans every
  // signaled slot otherwise
  s_cmp_lt_u32    ttmp4, EVENT_ID_DIRECT_LIMIT
  s_cselect_b32   ttmp5, ttmp4, 0
  s_mov_b32       ttmp4, m0
  s_mov_b32       m0, ttmp5
  s_sendmsg       sendmsg(MSG_INTERRUPT)
  s_mov_b32       m0, ttmp4

halt:
  // the wave stays at the instruction (ttmp0:1) once its state is restored with HALT set
  s_mov_b32       exec_lo, ttmp2
  s_mov_b32       exec_hi, ttmp3
  s_bitset1_b32   ttmp12, HALT_BIT
  s_branch        leave

step_over:
  s_add_u32       ttmp0, ttmp0, 4
  s_addc_u32      ttmp1, ttmp1, 0

leave:
  // undo the first level: SCC last (every instruction before the s_setreg may change it)
  s_and_b32       ttmp1, ttmp1, 0xffff
  s_and_b64       exec, exec, exec              // STATUS.EXECZ is not s_setreg's to write
  s_and_b64       vcc, vcc, vcc                 // nor is STATUS.VCCZ
.ifdef GFX12
  s_lshr_b32      ttmp12, ttmp12, 9
  s_setreg_b32    hwreg(HW_REG_STATE_PRIV, 9, 7), ttmp12
.else
  s_setreg_b32    hwreg(HW_REG_STATUS), ttmp12
.endif
  s_rfe_b64       ttmp[0:1]
