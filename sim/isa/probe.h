/* SPDX-License-Identifier: MIT */
/* probe.h — for tests only: run a one-wave workgroup from a complete register state and read
 * back the state the wave ended (or faulted) in. The CP never uses it; tests that check what
 * an instruction may write (tests/sim/test_isa_wset.c) need the whole register file, which
 * sim_isa_wave_init only partly sets and nothing reads back. */
#ifndef SIM_ISA_PROBE_H
#define SIM_ISA_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"

#define SIM_ISA_PROBE_SGPRS 102
#define SIM_ISA_PROBE_VGPRS 256

struct sim_isa_probe {
  uint64_t pc;               /* out only: the instruction the wave ended (or faulted) at */
  uint32_t sgpr[SIM_ISA_PROBE_SGPRS];
  uint32_t ttmp[16];
  uint64_t vcc, exec, flat_scratch, xnack_mask;
  uint32_t m0;
  bool scc;
  uint32_t mode, trapsts;
  uint32_t vgpr[SIM_ISA_PROBE_VGPRS][SIM_ISA_WAVE_SIZE];
  uint8_t *lds;              /* in and out: wg->lds_bytes bytes of LDS, or NULL to leave it */
};

/* sim_isa_run_workgroup for a workgroup of one wave whose registers (in)
 * replace what wg->waves[0] would set; on return (also after a fault) *p holds the wave's
 * registers and LDS as they were at the end. */
int sim_isa_run_probe(const struct sim_isa_workgroup *wg, struct sim_isa_probe *p,
                      struct sim_isa_fault *fault);

/* Which engine runs instructions from now on, process-wide: the reference interpreter
 * (true; what HSA_SIM_INTERP=1 chooses) or the fast engine (false, the default). For the
 * differential test (tests/sim/test_isa_diff.c). */
void sim_isa_probe_engine(bool reference);

#endif
