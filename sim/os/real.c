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
    ssize_t r = write(2, msg, sizeof msg - 1);
    r = write(2, name, strlen(name));
    r = write(2, "\n", 1);
    (void)r;
    abort();
  }
  return p;
}
