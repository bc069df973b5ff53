/* SPDX-License-Identifier: MIT */
/* report.c — a refused kernel call is named once on stderr: which call, the errno, and what
 * that usually means for that call, so a user is not left with a bare status code. Each
 * (call, errno) pair is said once per process; HSA_ENABLE_DRIVER_MESSAGES=0 silences them. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfd/kfd.h"

#define SAID_MAX 64

static struct { const char *call; int err; } said[SAID_MAX];
static unsigned said_count;
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *meaning(const char *call, int err) {
  switch (err) {
  case ENOMEM:
    return "the GPU or the system is out of memory for it";
  case ENOSPC:
    return strstr(call, "QUEUE") ? "the process already has every hardware queue the driver "
                                   "gives it; destroy queues first"
                                 : "a per-process driver limit is reached (event slots, "
                                   "doorbells); free some first";
  case EBUSY:
    return strstr(call, "ACQUIRE_VM") ? "the GPU's address space is bound to another DRM file "
                                        "of this process"
                                      : "the GPU is busy or being reset";
  case EINVAL:
    return "the driver rejected the arguments (a kernel older than this call needs, or a "
           "runtime bug worth reporting)";
  case EFAULT:
    return "an address passed to the driver is not mapped in this process";
  case EPERM:
  case EACCES:
    return "permission denied (is the user in the 'render' group?)";
  case EIO:
  case ENODEV:
    return "the GPU was reset or is gone";
  case ETIMEDOUT:
  case ETIME:
    return "the GPU did not answer in time";
  default:
    return "see the kernel log (dmesg) for the driver's reason";
  }
}

/* Read at each refusal (a rare path), so a program may silence them at any time. */
static bool quiet(void) {
  const char *e = getenv("HSA_ENABLE_DRIVER_MESSAGES");
  return e && strcmp(e, "0") == 0;
}

void kfd_report(const char *call, int rc) {
  if (rc >= 0 || quiet()) return;
  int err = -rc;
  pthread_mutex_lock(&said_lock);
  for (unsigned i = 0; i < said_count; i++)
    if (said[i].err == err && strcmp(said[i].call, call) == 0) {
      pthread_mutex_unlock(&said_lock);
      return;
    }
  if (said_count < SAID_MAX) said[said_count++] = (typeof(said[0])){call, err};
  pthread_mutex_unlock(&said_lock);
  const char *name = strerrorname_np(err);
  fprintf(stderr, "hsa-runtime64: the kernel refused %s: %s (%s): %s.\n", call,
          name ? name : "?", strerror(err), meaning(call, err));
}
