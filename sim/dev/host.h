/* SPDX-License-Identifier: MIT */
/* host.h — what the simulated machine's CPU node says about the real host. */
#ifndef SIM_DEV_HOST_H
#define SIM_DEV_HOST_H

#include <stdint.h>

struct sim_host {
  unsigned cores;          /* online logical CPUs */
  uint64_t mem_bytes;      /* total system memory */
  unsigned max_mhz;        /* highest CPU clock (KFD's max_engine_clk_ccompute) */
};

/* Read once from sysconf, sysinfo, cpufreq or /proc/cpuinfo; never NULL. */
const struct sim_host *sim_host(void);

#endif
