/* SPDX-License-Identifier: MIT */
/* config.c — sim_config(): the run's configuration, parsed once from HSA_SIM_CONFIG. */
#include "os/config.h"

#include <fcntl.h>
#include <kfd_abi/kfd_ioctl_supp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/catalog.h"
#include "os/options.h"
#include "os/real.h"

void sim_config_defaults(struct sim_config *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  cfg->gpu_model = "gfx900";
  cfg->gpu_count = 1;
  cfg->trace_fd = -1;
  cfg->kfd_minor = KFD_SUPP_MINOR_NEWEST;   /* what today's kernels answer (Linux 6.17: 1.18) */
}

int sim_config_parse(char *text, struct sim_config *cfg, const char **trace, char *err,
                     size_t errlen)
{
  sim_config_defaults(cfg);
  *trace = NULL;
  char *save = NULL;
  for (char *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    char *val = strchr(item, '=');
    if (!val) {
      snprintf(err, errlen, "'%s' is not key=value", item);
      return -1;
    }
    *val++ = '\0';
    if (strcmp(item, "gpu") == 0) {
      if (!sim_catalog_find(val)) {
        snprintf(err, errlen, "unknown GPU '%s'", val);
        return -1;
      }
      cfg->gpu_model = val;
    } else if (strcmp(item, "gpus") == 0) {
      char *end;
      unsigned long n = strtoul(val, &end, 10);
      if (*end || !*val || n < 1 || n > SIM_MAX_GPUS) {
        snprintf(err, errlen, "gpus=%s is not 1..%d", val, SIM_MAX_GPUS);
        return -1;
      }
      cfg->gpu_count = (unsigned)n;
    } else if (strcmp(item, "vram") == 0) {
      if (sim_parse_size(val, &cfg->vram_bytes) || cfg->vram_bytes == 0) {
        snprintf(err, errlen, "vram=%s is not a size like 4G", val);
        return -1;
      }
    } else if (strcmp(item, "trace") == 0) {
      *trace = val;
    } else if (strcmp(item, "fail") == 0) {
      if (cfg->fault_count == SIM_MAX_FAULTS) {
        snprintf(err, errlen, "more than %d fail= items", SIM_MAX_FAULTS);
        return -1;
      }
      char why[160];
      if (sim_parse_fault(val, &cfg->faults[cfg->fault_count], why, sizeof why)) {
        snprintf(err, errlen, "fail=%s: %s", val, why);
        return -1;
      }
      cfg->fault_count++;
    } else if (strcmp(item, "kfd") == 0) {
      if (sim_parse_kfd_version(val, &cfg->kfd_minor)) {
        snprintf(err, errlen, "kfd=%s is not a KFD version 1.11 to 1.18", val);
        return -1;
      }
    } else if (strcmp(item, "threads") == 0) {
      char *end;
      unsigned long n = strtoul(val, &end, 10);
      if (*end || !*val || n < 1 || n > SIM_MAX_THREADS) {
        snprintf(err, errlen, "threads=%s is not 1..%d", val, SIM_MAX_THREADS);
        return -1;
      }
      cfg->threads = (unsigned)n;
    } else if (strcmp(item, "root") == 0) {
      cfg->root = val;
    } else {
      snprintf(err, errlen, "unknown key '%s'", item);
      return -1;
    }
  }
  return 0;
}

static struct sim_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

/* A trace file is opened in append mode: every process of the run adds its lines (the
 * launcher truncated it). The fd is moved out of the low numbers programs expect to own. */
static int trace_open(const char *spec)
{
  if (strcmp(spec, "stderr") == 0 || strcmp(spec, "2") == 0)
    return 2;
  int fd = SIM_REAL(open)(spec, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    dprintf(2, "hsa-sim: cannot open trace file %s; tracing to stderr\n", spec);
    return 2;
  }
  int high = SIM_REAL(fcntl)(fd, F_DUPFD_CLOEXEC, 200);
  if (high >= 0) {
    SIM_REAL(close)(fd);
    fd = high;
  }
  return fd;
}

/* The configuration's strings point into this copy of HSA_SIM_CONFIG, kept for the
 * process's life. External linkage (hidden) so the compiler keeps the store and leak
 * checkers see the copy referenced; a static that is never read may be optimised away. */
char *sim_config_text;

static void config_init(void)
{
  const char *env = getenv("HSA_SIM_CONFIG");
  char *text = sim_config_text = strdup(env ? env : "");
  const char *trace = NULL;
  char err[256];
  if (!text || sim_config_parse(text, &config, &trace, err, sizeof err)) {
    dprintf(2, "hsa-sim: HSA_SIM_CONFIG: %s; the rest of it is ignored\n",
            text ? err : "out of memory");
  }
  if (trace)
    config.trace_fd = trace_open(trace);
}

const struct sim_config *sim_config(void)
{
  pthread_once(&config_once, config_init);
  return &config;
}
