// trap_gfx9.s — the runtime's second-level trap handler for gfx9 (gfx900..gfx90a, and
// gfx940..gfx942 assembled with --defsym IB_STS_IN_TTMP13=1), assembled at build time
// (llvm-mc, once per --mcpu) and installed with SET_TRAP_HANDLER (trap.c). Written from the
// gfx9 ISA and the kernel's first-level CWSR handler, which enters here with:
//   ttmp0:1    the hardware's return state: PC[47:0] of the s_trap (or of the instruction
//              that raised an exception), trap id in ttmp1[23:16], host trap in ttmp1[24]
//   ttmp11     IB_STS[20:15] kept in ttmp11[31:26] (gfx9 up to gfx90a)
//   ttmp13     IB_STS[20:15] kept in ttmp13[31:26] instead on GC 9.4.3 (gfx940..gfx942),
//              whose SPI writes debug data into all of ttmp11
//   ttmp12     STATUS at entry (SCC included)
//   ttmp14:15  our TMA: the runtime's trap table, 1024 entries of 16 bytes by doorbell id
//              (+0 the queue's amd_signal_t *queue_inactive_signal, 0 for none;
//               +8 where a wave stopped: a copy of ttmp0:1)
// Only ttmp2..5 and ttmp14:15 are ours to change; the other ttmps belong to the first level
// and the debugger. What it does:
//   s_trap 3 (llvm.debugtrap) with no debugger: step over it, go on (AMDGPUUsage).
//   any other s_trap (2: llvm.trap, abort, assert), an illegal instruction, or a memory
//   violation that the VM fault interrupt does not report (no XNACK error): store where
//   the wave is, put an error code in the queue's inactive signal (0x80000000 trap,
//   0x40000000 illegal instruction, 0x20000000 memory violation: the codes the runtime's
//   queue error handler reads), write the signal's event id to its mailbox, send the SQ
//   interrupt the driver turns into that event, and halt the wave at the instruction.
//   A memory violation with an XNACK error: halt (the VM fault reports it). Anything else
//   (a masked math exception, a host trap): return.

.include "trap_common.inc"

.set TRAPSTS_MEM_VIOL,      0x100
.set TRAPSTS_ILLEGAL_INST,  0x800
.set TRAPSTS_XNACK_ERROR,   0x10000000
.set STATUS_HALT_BIT,       13

.text
trap_entry:
  s_bfe_u32       ttmp2, ttmp1, 0x80010         // trap id: ttmp1[23:16]
  TRAP_ID_DISPATCH

  // trap id 0: an exception (or a host trap)
  s_getreg_b32    ttmp3, hwreg(HW_REG_TRAPSTS)
  s_mov_b32       ttmp4, CODE_ILLEGAL_INST
  s_bitcmp1_b32   ttmp3, 11                     // ILLEGAL_INST
  s_cbranch_scc1  report
  s_and_b32       ttmp2, ttmp3, TRAPSTS_MEM_VIOL | TRAPSTS_XNACK_ERROR
  s_mov_b32       ttmp4, CODE_MEM_VIOL
  s_cmp_eq_u32    ttmp2, TRAPSTS_MEM_VIOL
  s_cbranch_scc1  report
  s_bitcmp1_b32   ttmp3, 8                      // MEM_VIOL with an XNACK error
  s_cbranch_scc1  halt
  s_branch        leave

report:
  // this wave's queue: the SQ answers MSG_GET_DOORBELL in EXEC_LO and clears bit 31
  s_mov_b32       ttmp2, exec_lo
  s_mov_b32       ttmp3, exec_hi
  s_mov_b32       exec_lo, 0x80000000
  s_sendmsg       sendmsg(MSG_GET_DOORBELL)
wait_doorbell:
  s_nop           7
  s_bitcmp0_b32   exec_lo, 31
  s_cbranch_scc0  wait_doorbell
  s_and_b32       ttmp5, exec_lo, DOORBELL_ID_MASK
  s_mov_b32       exec_lo, ttmp2
  s_mov_b32       exec_hi, ttmp3
  s_lshl_b32      ttmp5, ttmp5, ENTRY_SHIFT
  s_add_u32       ttmp14, ttmp14, ttmp5
  s_addc_u32      ttmp15, ttmp15, 0

  // where it stopped, before the host can see the error
  s_store_dwordx2 ttmp[0:1], ttmp[14:15], 0x8 glc
  s_waitcnt       lgkmcnt(0)
  s_dcache_wb
  s_waitcnt       lgkmcnt(0)

  s_load_dwordx2  ttmp[2:3], ttmp[14:15], 0x0 glc
  s_waitcnt       lgkmcnt(0)
  s_cmp_eq_u64    ttmp[2:3], 0
  s_cbranch_scc1  halt                          // no queue of ours: just stop

  // the code into the signal; a value already there means another wave told the host
  s_mov_b32       ttmp5, 0
  s_atomic_swap_x2 ttmp[4:5], ttmp[2:3], SIGNAL_VALUE glc
  s_waitcnt       lgkmcnt(0)
  s_or_b32        ttmp4, ttmp4, ttmp5
  s_cbranch_scc1  halt

  s_load_dwordx2  ttmp[4:5], ttmp[2:3], SIGNAL_MAILBOX glc
  s_waitcnt       lgkmcnt(0)
  s_cmp_eq_u64    ttmp[4:5], 0
  s_cbranch_scc1  halt
  s_load_dword    ttmp2, ttmp[2:3], SIGNAL_EVENT_ID glc
  s_waitcnt       lgkmcnt(0)
  s_store_dword   ttmp2, ttmp[4:5], 0x0 glc
  s_waitcnt       lgkmcnt(0)
  s_dcache_wb
  s_waitcnt       lgkmcnt(0)

  // the interrupt's data (M0[23:0]) names the event when it can; the driver scans every
  // signaled slot otherwise
  s_cmp_lt_u32    ttmp2, EVENT_ID_DIRECT_LIMIT
  s_cselect_b32   ttmp3, ttmp2, 0
  s_mov_b32       ttmp2, m0
  s_mov_b32       m0, ttmp3
  s_nop           0
  s_sendmsg       sendmsg(MSG_INTERRUPT)
  s_waitcnt       lgkmcnt(0)
  s_mov_b32       m0, ttmp2

halt:
  // the wave stays at the instruction (ttmp0:1) once STATUS is restored with HALT set
  s_bitset1_b32   ttmp12, STATUS_HALT_BIT
  s_branch        leave

step_over:
  s_add_u32       ttmp0, ttmp0, 4
  s_addc_u32      ttmp1, ttmp1, 0

leave:
  // undo the first level: IB_STS from ttmp11[31:26] (ttmp13 on gfx94x), then STATUS (SCC
  // last: every instruction before the s_setreg may change it)
.ifdef IB_STS_IN_TTMP13
  s_lshr_b32      ttmp2, ttmp13, 11
.else
  s_lshr_b32      ttmp2, ttmp11, 11
.endif
  s_and_b32       ttmp2, ttmp2, 0x1f8000
  s_setreg_b32    hwreg(HW_REG_IB_STS), ttmp2
  s_and_b32       ttmp1, ttmp1, 0xffff
  s_and_b64       exec, exec, exec              // STATUS.EXECZ is not s_setreg's to write
  s_and_b64       vcc, vcc, vcc                 // nor is STATUS.VCCZ
  s_setreg_b32    hwreg(HW_REG_STATUS), ttmp12
  s_rfe_b64       ttmp[0:1]
