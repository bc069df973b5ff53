/* SPDX-License-Identifier: MIT */
/* real.c — finding the real libc entry points behind the interposers. */
#include "os/real.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *sim_real_sym(const char *name)
{
  void *p = dlsym(RTLD_NEXT, name);
  if (!p) {
    /* No stdio here: it may be what is being resolved. */
    static const char msg[] = "hsa-sim: libc has no symbol ";
    if (write(2, msg, sizeof msg - 1) > 0 && write(2, name, strlen(name)) > 0)
      (void)!write(2, "\n", 1);
    abort();
  }
  return p;
}
