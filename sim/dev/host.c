/* SPDX-License-Identifier: MIT */
/* host.c — the CPU node describes the machine the simulator runs on, as KFD does. */
#include "dev/host.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static struct sim_host host;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

/* KFD reports cpufreq's maximum; without cpufreq (VMs) fall back to cpuinfo's clock. */
static unsigned host_max_mhz(void)
{
  unsigned mhz = 0;
  FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "re");
  if (f) {
    unsigned long khz = 0;
    if (fscanf(f, "%lu", &khz) == 1)
      mhz = (unsigned)(khz / 1000);
    fclose(f);
  }
  if (mhz)
    return mhz;
  f = fopen("/proc/cpuinfo", "re");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f)) {
      double v;
      if (strncmp(line, "cpu MHz", 7) == 0 && sscanf(strchr(line, ':') ? strchr(line, ':') + 1 : "",
                                                     "%lf", &v) == 1) {
        mhz = (unsigned)(v + 0.5);
        break;
      }
    }
    fclose(f);
  }
  return mhz ? mhz : 2000;
}

static void host_init(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  host.cores = n > 0 ? (unsigned)n : 1;
  struct sysinfo si;
  if (sysinfo(&si) == 0)
    host.mem_bytes = (uint64_t)si.totalram * si.mem_unit;
  if (!host.mem_bytes)
    host.mem_bytes = 1ull << 30;
  host.max_mhz = host_max_mhz();
}

const struct sim_host *sim_host(void)
{
  pthread_once(&host_once, host_init);
  return &host;
}
