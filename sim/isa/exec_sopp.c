/* SPDX-License-Identifier: MIT */
/* exec_sopp.c — program control: branches, s_endpgm, s_barrier, s_trap, and the SOPP
 * instructions that only matter for timing (s_waitcnt: accesses complete in order here). */
#include "isa/exec.h"

static int branch(struct isa_wave *w, const struct isa_inst *in, bool taken)
{
  w->pc += taken ? 4 + (int64_t)in->simm * 4 : 4;
  return 0;
}

int isa_exec_sopp(struct isa_wave *w, const struct isa_inst *in)
{
  switch (in->op) {
  case 0: case 3: case 11: case 12: case 14: case 15: case 16: case 17: case 19: case 20:
  case 21: case 22:
    break;   /* nop, wakeup, setkill, waitcnt, sleep, setprio, sendmsg(halt), icache_inv, perf, ttrace */
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
  case 13:
    if (in->simm & 1)
      return isa_fault(w, SIM_ISA_FAULT_TRAP, 0, false, "wave halted by s_sethalt at 0x%llx",
                       (unsigned long long)w->pc);
    break;
  case 18: {
    unsigned id = (unsigned)in->simm & 0xff;
    uint64_t tba = w->group->wg->tba;
    if (!tba) {
      w->fault.trap_id = id;
      return isa_fault(w, SIM_ISA_FAULT_TRAP, 0, false, "s_trap %u at 0x%llx with no trap handler",
                       id, (unsigned long long)w->pc);
    }
    /* enter the trap handler: ttmp0/1 hold the return pc and the trap id */
    uint64_t ret = w->pc + 4;
    w->ttmp[0] = (uint32_t)ret;
    w->ttmp[1] = (uint32_t)(ret >> 32) & 0xffff;
    w->ttmp[1] |= id << 16;
    w->pc = tba;
    return 0;
  }
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

int isa_exec_agpr(struct isa_wave *w, const struct isa_inst *in)
{
  return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false,
                   "%s at 0x%llx moves AGPRs (acc), which the model does not have: 0x%08x 0x%08x",
                   in->name ? in->name : "instruction", (unsigned long long)in->pc, in->words[0],
                   in->words[1]);
}
