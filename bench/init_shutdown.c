/* SPDX-License-Identifier: MIT */
/* init_shutdown.c — one hsa_init + hsa_shut_down, timed inside the process (so the hsa-sim
 * launcher's and the simulator's own set-up are left out), then the memory the process
 * reached. Links only libhsa-runtime64.so.1: the same binary runs on our runtime and on
 * ROCR (pick with LD_LIBRARY_PATH). Prints one line:
 *   init_us=.. shutdown_us=.. agents=.. rss_before_kib=.. maxrss_kib=.. hwm_kib=..
 * rss_before is VmRSS at main (the simulator and the runtime's libraries already loaded),
 * maxrss is getrusage's ru_maxrss after hsa_shut_down and hwm the kernel's VmHWM: the peak.
 * Built with -DINIT_SHUTDOWN_FLOOR it neither links nor calls a runtime: the floor (hsa-sim,
 * libc, this program) that both runtimes pay alike.
 *   init_shutdown --time PROGRAM [ARG]...
 * runs PROGRAM as a child and prints "process_us=.." (fork to reaped exit): run under hsa-sim,
 * the child inherits the simulator, and the launcher's own set-up (the simulated sysfs it
 * writes and removes) stays outside the figure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib.h"

static int time_child(char **argv) {
  fflush(NULL);
  double t0 = now_us();
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return 1;
  double t1 = now_us();
  printf("process_us=%.1f\n", t1 - t0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

#ifdef INIT_SHUTDOWN_FLOOR
static int run(double *init_us, double *shutdown_us, int *agents) {
  *init_us = *shutdown_us = 0;
  *agents = 0;
  return 0;
}
#else
#include <hsa.h>

static hsa_status_t count(hsa_agent_t a, void *d) {
  (void)a;
  ++*(int *)d;
  return HSA_STATUS_SUCCESS;
}

static int run(double *init_us, double *shutdown_us, int *agents) {
  double t0 = now_us();
  hsa_status_t st = hsa_init();
  double t1 = now_us();
  if (st != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "hsa_init: %d\n", (int)st);
    return 1;
  }
  /* What every program does first, so a lazy runtime cannot skip all of its work. */
  *agents = 0;
  hsa_iterate_agents(count, agents);
  double t2 = now_us();
  st = hsa_shut_down();
  double t3 = now_us();
  if (st != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "hsa_shut_down: %d\n", (int)st);
    return 1;
  }
  *init_us = t1 - t0;
  *shutdown_us = t3 - t2;
  return 0;
}
#endif

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "--time")) return time_child(argv + 2);
  long before = status_kib("VmRSS");
  double init_us, shutdown_us;
  int agents;
  if (run(&init_us, &shutdown_us, &agents)) return 1;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("init_us=%.1f shutdown_us=%.1f agents=%d rss_before_kib=%ld maxrss_kib=%ld hwm_kib=%ld\n",
         init_us, shutdown_us, agents, before, ru.ru_maxrss, status_kib("VmHWM"));
  return 0;
}
