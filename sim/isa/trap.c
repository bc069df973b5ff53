/* SPDX-License-Identifier: MIT */
/* trap.c — traps as a KFD process's waves see them: the hardware's trap entry, the kernel's
 * first-level (CWSR) trap handler, STATUS.PRIV/HALT, s_rfe_b64 and s_sendmsg.
 *
 * The kernel points every wave's TBA at its first-level handler (cwsr_trap_handler_gfx9.asm).
 * For a trap that is not a context save it keeps STATUS in ttmp12 and IB_STS's replay bits in
 * ttmp11[31:26], then reads the second-level TBA/TMA that SET_TRAP_HANDLER stored in its TMA
 * page. With a second level it jumps there with that TMA in ttmp14:15 (ttmp2:3 still hold
 * the TBA it jumped through); without one it steps over an s_trap and returns. The first
 * level is the kernel's code, not the process's: it is modelled here, not interpreted.
 * ttmp0:1 hold what the hardware saved: the s_trap's own PC, its trap id in ttmp1[23:16].
 * GC 9.4.3 (gfx940..gfx942), whose SPI fills all of ttmp11 with debug data, has the first
 * level keep IB_STS in ttmp13[31:26] instead. Both keep the debugger's "debug trap enabled"
 * flag in bit 23 of that register: 0 here, as no debugger is modelled.
 * A wave exception (an encoding the hardware rejects: TRAPSTS.ILLEGAL_INST; a GPUVM fault:
 * MEM_VIOL with XNACK_ERROR, memory.c) enters the same way with trap id 0 and ttmp0:1 at the
 * faulting instruction, and the first level sets HALT in the STATUS it keeps in ttmp12, so
 * the wave stays halted once a handler restores it; with no second level the first level
 * halts the wave there and nothing is reported (the kernel's SQ interrupt only signals
 * events). Not modelled: the first level's 8-byte PC rewind for those two (which debuggers
 * undo). A floating-point exception MODE enables (from COMPUTE_PGM_RSRC2.EXCP_EN at launch,
 * or s_setreg) sets TRAPSTS.EXCP and enters with ttmp0:1 at the next instruction; with no
 * second level the wave goes on. The flags come from the host's floating-point environment
 * around the VALU instruction (invalid, divide by zero, overflow, underflow, inexact; not
 * input denormal, nor the integer divide by zero no gfx9 instruction raises).
 *
 * gfx11 and gfx12 (the kernel's cwsr_trap_handler_gfx10.asm built for gfx11, and
 * cwsr_trap_handler_gfx12.asm) differ:
 * - the hardware puts the trap id in ttmp1[23:16] on gfx11 but in ttmp1[31:28] on gfx12;
 * - the first level keeps STATUS in ttmp12 on gfx11, and on gfx12 STATE_PRIV (SCC in bit 9,
 *   HALT in bit 14), restoring its bits 15:9 on return; it clears the feature flags it copies
 *   from its TMA page into ttmp11 (bit 23 debug trap on gfx11; 25:23 debug, host and
 *   stochastic trap on gfx12: none here); no IB_STS is kept (no XNACK replay on these chips,
 *   so a GPUVM fault is TRAPSTS.MEM_VIOL without XNACK_ERROR);
 * - it sets no HALT before entering a second level: the second level halts the wave itself;
 * - with no second level an s_trap is stepped over, and any other entry (illegal instruction,
 *   memory violation, an enabled math exception) halts the wave with its PC moved back 8
 *   bytes (so that a halted wave never points at an s_endpgm, which context save would fail).
 * gfx12's trap registers: STATE_PRIV (4), EXCP_FLAG_PRIV (17: MEM_VIOL 0x10, ILLEGAL_INST
 * 0x40), EXCP_FLAG_USER (18: the math exception flags), TRAP_CTRL (19: their enables, which
 * MODE holds on gfx9/gfx11) and STATUS (2: IN_WG 11, NO_VGPRS 24, WAVE64 29); TRAPSTS (3) is
 * gone. s_sendmsg on gfx11+: MSG_INTERRUPT (1) and MSG_DEALLOC_VGPRS (3, STATUS.NO_VGPRS);
 * the doorbell, TMA and TBA are s_sendmsg_rtn's (exec_gfx11.c). The interrupt carries PRIV
 * when sent from a trap handler, which the driver model reads as the kernel does (a trap code
 * above the doorbell id: the KFD 1.13 exception path, sim/kfd/debug.c). */
#include "isa/exec.h"

#include <fenv.h>
#include <stdio.h>

#define STATUS_SCC 0x1u
#define STATUS_PRIV 0x20u
#define STATUS_EXECZ 0x200u
#define STATUS_VCCZ 0x400u
#define STATUS_IN_TG 0x800u
#define STATUS_HALT 0x2000u
#define TTMP_IB_STS_SAVE 0xfc000000u   /* where the first level keeps IB_STS[20:15] */
#define TTMP_DEBUG_TRAP_ENABLED 0x800000u
#define TTMP11_FEATURES_GFX12 0x3800000u   /* debug, host, stochastic trap enabled */
#define STATUS_NO_VGPRS 0x1000000u         /* gfx11+ */
#define STATUS12_IN_WG 0x800u
#define STATUS12_WAVE64 0x20000000u
#define STATE_PRIV_SCC 0x200u              /* gfx12 */
#define STATE_PRIV_HALT 0x4000u
#define EXCP_PRIV_MEM_VIOL 0x10u
#define EXCP_PRIV_ILLEGAL_INST 0x40u
#define EXCP_USER_MASK 0x7fu               /* gfx12's EXCP_FLAG_USER and TRAP_CTRL bits kept */
#define PC_REWIND 8u                       /* gfx11+ first level, halting without a second level */

/* 9, 11 or 12: whose first level and trap registers */
static unsigned family(const struct isa_wave *w)
{
  switch (isa_target_of(w->group->wg->gpu)) {
  case ISA_TARGET_GFX1100: return 11;
  case ISA_TARGET_GFX1201: return 12;
  default: return 9;
  }
}

/* gfx12's EXCP_FLAG_PRIV from the wave's TRAPSTS bits */
static uint32_t excp_flag_priv(const struct isa_wave *w)
{
  return (w->trapsts & ISA_TRAPSTS_MEM_VIOL ? EXCP_PRIV_MEM_VIOL : 0) |
         (w->trapsts & ISA_TRAPSTS_ILLEGAL_INST ? EXCP_PRIV_ILLEGAL_INST : 0);
}

static uint32_t state_priv_read(const struct isa_wave *w)
{
  return (w->scc ? STATE_PRIV_SCC : 0) | (w->halt ? STATE_PRIV_HALT : 0);
}

uint32_t isa_status_read(const struct isa_wave *w)
{
  return (w->scc ? STATUS_SCC : 0) | (w->priv ? STATUS_PRIV : 0) |
         (w->exec == 0 ? STATUS_EXECZ : 0) | (w->vcc == 0 ? STATUS_VCCZ : 0) |
         (w->group->wg->wave_count > 1 ? STATUS_IN_TG : 0) | (w->halt ? STATUS_HALT : 0) |
         (w->no_vgprs ? STATUS_NO_VGPRS : 0);
}

bool isa_trap_hwreg_read(const struct isa_wave *w, unsigned id, uint32_t *v)
{
  if (family(w) >= 11 && (id == 23 || id == 24)) {
    /* HW_ID1: where the wave runs (the work-group's SE, SA and WGP; run.c put the wave's slot
     * in bits 3:0 and its SIMD in 5:4, which HW_ID1 has at 4:0 and 9:8); HW_ID2: its queue */
    uint32_t h = w->hw_id;
    *v = id == 24 ? w->group->wg->hw_id2 : (h & ~0x3ffu) | (h & 0xf) | (h >> 4 & 3) << 8;
    return true;
  }
  if (family(w) != 12)
    return false;
  switch (id) {
  case 1: *v = w->mode & ~(0x1ffu << ISA_MODE_EXCP_SHIFT); return true;   /* MODE: no EXCP_EN */
  case 2:
    *v = (w->group->wg->wave_count > 1 ? STATUS12_IN_WG : 0) |
         (w->no_vgprs ? STATUS_NO_VGPRS : 0) | (w->wave32 ? 0 : STATUS12_WAVE64);
    return true;
  case 3: *v = 0; return true;   /* no TRAPSTS on gfx12 */
  case 4: *v = state_priv_read(w); return true;
  case 17: *v = excp_flag_priv(w); return true;
  case 18: *v = w->trapsts & EXCP_USER_MASK; return true;
  case 19: *v = (w->mode >> ISA_MODE_EXCP_SHIFT) & EXCP_USER_MASK; return true;
  default: return false;
  }
}

bool isa_trap_hwreg_write(struct isa_wave *w, unsigned id, uint32_t v, uint32_t mask)
{
  if (family(w) != 12)
    return false;
  switch (id) {
  case 2: case 3: return true;   /* read-only / absent */
  case 4:   /* the trap handler's to restore: SCC and HALT */
    if (!w->priv)
      return true;
    if (mask & STATE_PRIV_SCC)
      w->scc = v & STATE_PRIV_SCC;
    if (mask & STATE_PRIV_HALT)
      isa_set_halt(w, v & STATE_PRIV_HALT);
    return true;
  case 17: {
    uint32_t n = (excp_flag_priv(w) & ~mask) | (v & mask);
    w->trapsts = (w->trapsts & ~(ISA_TRAPSTS_MEM_VIOL | ISA_TRAPSTS_ILLEGAL_INST)) |
                 (n & EXCP_PRIV_MEM_VIOL ? ISA_TRAPSTS_MEM_VIOL : 0) |
                 (n & EXCP_PRIV_ILLEGAL_INST ? ISA_TRAPSTS_ILLEGAL_INST : 0);
    return true;
  }
  case 18:
    mask &= EXCP_USER_MASK;
    w->trapsts = (w->trapsts & ~mask) | (v & mask);
    return true;
  case 19:
    mask &= EXCP_USER_MASK;
    w->mode = (w->mode & ~(mask << ISA_MODE_EXCP_SHIFT)) | (v & mask) << ISA_MODE_EXCP_SHIFT;
    return true;
  default: return false;
  }
}

void isa_set_halt(struct isa_wave *w, bool on)
{
  w->halt = on;
  w->halted = on && !w->priv;   /* inside the handler HALT waits for s_rfe */
}

void isa_status_write(struct isa_wave *w, uint32_t v, uint32_t mask)
{
  /* SCC and HALT are what a handler restores or sets; EXECZ/VCCZ follow EXEC/VCC */
  if (mask & STATUS_SCC)
    w->scc = v & STATUS_SCC;
  if (mask & STATUS_HALT)
    isa_set_halt(w, v & STATUS_HALT);
}

/* What the hardware and the first level do on any entry: ttmp0:1 = the PC (the s_trap's, or
 * that of the instruction that raised the exception) and the trap id, STATUS into ttmp12. */
static void trap_enter(struct isa_wave *w, unsigned id)
{
  const struct sim_isa_workgroup *wg = w->group->wg;
  unsigned fam = family(w);
  w->ttmp[0] = (uint32_t)w->pc;
  w->ttmp[1] = (uint32_t)(w->pc >> 32) & 0xffff;
  w->ttmp[1] |= fam == 12 ? (id & 0xf) << 28 : (id & 0xff) << 16;
  w->priv = true;
  /* the first level: STATUS (STATE_PRIV on gfx12), as s_getreg reads it in the handler; no
   * debugger, no host or stochastic traps; no replay state in this model */
  if (fam == 12) {
    w->ttmp[12] = state_priv_read(w);
    w->ttmp[11] &= ~TTMP11_FEATURES_GFX12;
  } else {
    w->ttmp[12] = isa_status_read(w);
    if (fam == 11)
      w->ttmp[11] &= ~TTMP_DEBUG_TRAP_ENABLED;
    else {
      unsigned save = isa_target_of(wg->gpu) == ISA_TARGET_GFX942 ? 13 : 11;
      w->ttmp[save] &= ~(TTMP_IB_STS_SAVE | TTMP_DEBUG_TRAP_ENABLED);
    }
  }
}

/* The first level's jump to the second level SET_TRAP_HANDLER installed. */
static void trap_second_level(struct isa_wave *w)
{
  const struct sim_isa_workgroup *wg = w->group->wg;
  w->ttmp[2] = (uint32_t)wg->tba;
  w->ttmp[3] = (uint32_t)(wg->tba >> 32);
  w->ttmp[14] = (uint32_t)wg->tma;
  w->ttmp[15] = (uint32_t)(wg->tma >> 32);
  w->pc = wg->tba;
}

int isa_trap(struct isa_wave *w, unsigned id)
{
  const struct sim_isa_workgroup *wg = w->group->wg;
  trap_enter(w, id);
  sim_trace("isa: s_trap %u at 0x%llx: %s", id & 0xff, (unsigned long long)w->pc,
            wg->tba ? "second-level handler" : "no second-level handler, stepped over");
  if (!wg->tba) {
    /* no second level: an s_trap is stepped over, STATUS as it was */
    w->priv = false;
    w->pc += 4;
    return 0;
  }
  trap_second_level(w);
  return 0;
}

bool isa_exception(struct isa_wave *w, uint32_t trapsts, const char *what)
{
  if (w->priv)
    return false;   /* raised inside a handler: left to the caller's fault */
  const struct sim_isa_workgroup *wg = w->group->wg;
  unsigned fam = family(w);
  if (fam != 9)
    trapsts &= ~ISA_TRAPSTS_XNACK_ERROR;   /* no XNACK on gfx10.3+ */
  w->trapsts |= trapsts;
  trap_enter(w, 0);
  /* gfx9's first level halts a wave with an illegal instruction or a memory violation (STATUS
   * saved in ttmp12 gets HALT), so that returning does not raise it again */
  if (fam == 9 && (trapsts & (ISA_TRAPSTS_ILLEGAL_INST | ISA_TRAPSTS_MEM_VIOL)))
    w->ttmp[12] |= STATUS_HALT;
  sim_trace("isa: exception (TRAPSTS 0x%x) at 0x%llx, %s: %s", w->trapsts,
            (unsigned long long)w->pc,
            wg->tba ? "second-level handler" : "no second-level handler, wave halted", what);
  if (wg->tba) {
    trap_second_level(w);
    return true;
  }
  w->priv = false;
  if (fam != 9) {
    /* gfx11+: any entry that is not an s_trap halts the wave, its PC moved back 8 bytes */
    w->pc -= PC_REWIND;
    isa_set_halt(w, true);
    return true;
  }
  /* no second level: the first level returns with the STATUS it kept, so a wave with an
   * illegal instruction or a memory violation stays halted at it until its queue goes (and
   * nothing is reported); after a math exception the wave goes on */
  isa_set_halt(w, (w->ttmp[12] & STATUS_HALT) != 0);
  return true;
}

bool isa_fp_exceptions(struct isa_wave *w)
{
  int f = fetestexcept(FE_ALL_EXCEPT);
  if (!f)
    return false;
  uint32_t excp = (f & FE_INVALID ? 1u << 0 : 0) | (f & FE_DIVBYZERO ? 1u << 2 : 0) |
                  (f & FE_OVERFLOW ? 1u << 3 : 0) | (f & FE_UNDERFLOW ? 1u << 4 : 0) |
                  (f & FE_INEXACT ? 1u << 5 : 0);
  feclearexcept(FE_ALL_EXCEPT);
  uint32_t enabled = (w->mode >> ISA_MODE_EXCP_SHIFT) & excp;
  w->trapsts |= excp;   /* sticky, whether enabled or not */
  if (!enabled || w->priv)
    return false;
  char what[48];
  snprintf(what, sizeof what, "floating-point exception 0x%x", enabled);
  return isa_exception(w, 0, what);   /* ttmp0:1 = the next instruction */
}

void isa_rfe(struct isa_wave *w, uint64_t pc)
{
  w->pc = pc & 0xffffffffffffull;   /* ttmp1's trap id and flags above PC[47:32] are ignored */
  w->priv = false;
  isa_set_halt(w, w->halt);
}

enum { MSG_INTERRUPT = 1, MSG_GET_DOORBELL = 10, MSG_DEALLOC_VGPRS_GFX11 = 3 };

void isa_sendmsg(struct isa_wave *w, unsigned simm)
{
  if (family(w) != 9) {   /* gfx11+: an 8-bit id; the doorbell is s_sendmsg_rtn's */
    if ((simm & 0xff) == MSG_DEALLOC_VGPRS_GFX11)
      w->no_vgprs = true;   /* the wave frees its VGPRs before it ends */
    if ((simm & 0xff) != MSG_INTERRUPT)
      return;
    simm = MSG_INTERRUPT;
  }
  switch (simm & 0xf) {
  case MSG_INTERRUPT:
    /* the SQ interrupt carries M0[23:0] and PRIV; the driver takes it for an event id (and
     * looks at every signaled event slot when it names none), or for a trap handler's
     * exception report (sim_kfd_wave_interrupt) */
    sim_trace("isa: SQ interrupt, data 0x%x%s", w->m0 & 0xffffff,
              w->priv ? " (trap handler)" : "");
    sim_kfd_wave_interrupt(w->group->wg->gpu, w->m0 & 0xffffff, w->priv);
    break;
  case MSG_GET_DOORBELL:
    /* the answer replaces EXEC_LO, whose bit 31 a handler set and waits to see cleared */
    w->exec = (w->exec & ~0xffffffffull) | (w->group->wg->doorbell_id & 0x3ff);
    break;
  default:   /* GS messages, SAVEWAVE, SYSMSG: nothing a compute wave here waits on */
    break;
  }
}
