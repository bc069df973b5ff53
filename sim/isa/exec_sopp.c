/* SPDX-License-Identifier: MIT */
/* exec_sopp.c — program control: branches, s_endpgm, s_barrier, s_trap, s_sethalt,
 * s_sendmsg (trap.c has their trap side), and the SOPP instructions that only matter for
 * timing (s_waitcnt: accesses complete in order here). */
#include "isa/exec.h"

static int branch(struct isa_wave *w, const struct isa_inst *in, bool taken)
{
  w->pc += taken ? 4 + (int64_t)in->simm * 4 : 4;
  return 0;
}

int isa_exec_sopp(struct isa_wave *w, const struct isa_inst *in)
{
  switch (in->op) {
  case 12:   /* s_waitcnt: the wave's earlier accesses are done before its later ones */
    isa_mem_fence();
    break;
  case 0: case 3: case 11: case 14: case 15: case 19: case 20: case 21: case 22:
    break;   /* nop, wakeup, setkill, sleep, setprio, icache_inv, perf, ttrace */
  case 16: case 17:   /* s_sendmsg, s_sendmsghalt */
    isa_sendmsg(w, (unsigned)in->simm);
    w->pc += 4;
    if (in->op == 17)
      isa_set_halt(w, true);
    return 0;
  case 1: case 27: w->ended = true; return 0;   /* s_endpgm, s_endpgm_saved */
  case 2: return branch(w, in, true);
  case 4: return branch(w, in, !w->scc);
  case 5: return branch(w, in, w->scc);
  case 6: return branch(w, in, w->vcc == 0);
  case 7: return branch(w, in, w->vcc != 0);
  case 8: return branch(w, in, w->exec == 0);
  case 9: return branch(w, in, w->exec != 0);
  case 10:   /* s_barrier: the scheduler releases the group when every live wave arrived */
    w->at_barrier = true;
    w->pc += 4;
    return 0;
  case 13:   /* s_sethalt: the wave stops after it (at once, or when its handler returns) */
    w->pc += 4;
    isa_set_halt(w, in->simm & 1);
    return 0;
  case 18:
    return isa_trap(w, (unsigned)in->simm & 0xff);
  case 23: case 24: case 25: case 26:
    return branch(w, in, false);   /* no debugger: the cdbg flags are clear */
  case 28: break;                  /* s_set_gpr_idx_off: indexing is never on here */
  default: return isa_unknown(w, in);
  }
  w->pc += 4;
  return 0;
}

int isa_exec_unknown(struct isa_wave *w, const struct isa_inst *in)
{
  return isa_unknown(w, in);
}
