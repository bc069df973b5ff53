/* SPDX-License-Identifier: MIT */
/* options.c — option values: sizes, KFD ioctl names, errno names, fault specs. */
#include "os/options.h"

#include <ctype.h>
#include <errno.h>
#include <kfd_abi/kfd_ioctl_supp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kfd/ioctls.h"

int sim_parse_size(const char *s, uint64_t *bytes)
{
  if (!s || !isdigit((unsigned char)*s))
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return -1;
  unsigned shift = 0;
  switch (toupper((unsigned char)*end)) {
  case '\0': break;
  case 'K': shift = 10; break;
  case 'M': shift = 20; break;
  case 'G': shift = 30; break;
  case 'T': shift = 40; break;
  default: return -1;
  }
  if (*end) {
    end++;
    if (toupper((unsigned char)*end) == 'I') /* "4GiB" */
      end++;
    if (toupper((unsigned char)*end) == 'B')
      end++;
    if (*end)
      return -1;
  }
  if (shift && v > (UINT64_MAX >> shift))
    return -1;
  *bytes = (uint64_t)v << shift;
  return 0;
}

/* The names of the KFD ioctls the driver model implements (sim/kfd/ioctls.h, its one list). */
#define K(c, fn, f) { #c, _IOC_NR(AMDKFD_IOC_##c) },
static const struct { const char *name; unsigned nr; } kfd_ioctls[] = { SIM_KFD_IOCTLS(K) };
#undef K

int sim_parse_kfd_version(const char *s, unsigned *minor)
{
  if (!s || strncmp(s, "1.", 2) != 0 || !isdigit((unsigned char)s[2]))
    return -1;
  char *end;
  unsigned long m = strtoul(s + 2, &end, 10);
  if (*end || m < KFD_SUPP_MINOR_OLDEST || m > KFD_SUPP_MINOR_NEWEST)
    return -1;
  *minor = (unsigned)m;
  return 0;
}

unsigned sim_kfd_ioctl_nr(const char *name)
{
  if (!name)
    return 0;
  if (strncasecmp(name, "AMDKFD_IOC_", 11) == 0)
    name += 11;
  for (size_t i = 0; i < sizeof kfd_ioctls / sizeof kfd_ioctls[0]; i++)
    if (strcasecmp(kfd_ioctls[i].name, name) == 0)
      return kfd_ioctls[i].nr;
  return 0;
}

const char *sim_kfd_ioctl_name(unsigned nr)
{
  for (size_t i = 0; i < sizeof kfd_ioctls / sizeof kfd_ioctls[0]; i++)
    if (kfd_ioctls[i].nr == nr)
      return kfd_ioctls[i].name;
  return NULL;
}

#define E(n) { #n, n }
static const struct { const char *name; int value; } errnos[] = {
  E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(EBADF),
  E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST), E(ENODEV),
  E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY), E(EFBIG), E(ENOSPC), E(ERANGE),
  E(EDEADLK), E(ENOSYS), E(ENODATA), E(ETIME), E(EOVERFLOW), E(EOPNOTSUPP),
  E(ETIMEDOUT), E(ECANCELED), E(EHWPOISON), E(ENOTSUP), E(ERESTART),
};
#undef E

int sim_errno_value(const char *name)
{
  if (!name || !*name)
    return 0;
  if (isdigit((unsigned char)*name)) {
    char *end;
    long v = strtol(name, &end, 10);
    return (*end || v <= 0 || v > 4095) ? 0 : (int)v;
  }
  for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
    if (strcasecmp(errnos[i].name, name) == 0)
      return errnos[i].value;
  return 0;
}

int sim_parse_fault(const char *spec, struct sim_fault *f, char *err, size_t errlen)
{
  char kind[64], nth[32], en[32];
  const char *c1 = spec ? strchr(spec, ':') : NULL;
  const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (!c1 || !c2 || strchr(c2 + 1, ':') || (size_t)(c1 - spec) >= sizeof kind ||
      (size_t)(c2 - c1 - 1) >= sizeof nth || strlen(c2 + 1) >= sizeof en) {
    snprintf(err, errlen, "'%s' is not KIND:N:ERRNO (e.g. ALLOC_MEMORY_OF_GPU:3:ENOMEM)",
             spec ? spec : "");
    return -1;
  }
  memcpy(kind, spec, (size_t)(c1 - spec));
  kind[c1 - spec] = '\0';
  memcpy(nth, c1 + 1, (size_t)(c2 - c1 - 1));
  nth[c2 - c1 - 1] = '\0';
  strcpy(en, c2 + 1);

  unsigned nr = sim_kfd_ioctl_nr(kind);
  if (!nr) { /* every KFD ioctl number is nonzero (AMDKFD_COMMAND_START is 1) */
    snprintf(err, errlen, "unknown KFD ioctl '%s' (a name like ALLOC_MEMORY_OF_GPU)", kind);
    return -1;
  }
  char *end;
  unsigned long n = strtoul(nth, &end, 10);
  if (!isdigit((unsigned char)nth[0]) || *end || n == 0 || n > 0xffffffffu) {
    snprintf(err, errlen, "'%s' is not a call count (1 = the first call)", nth);
    return -1;
  }
  int e = sim_errno_value(en);
  if (!e) {
    snprintf(err, errlen, "unknown errno '%s' (a name like ENOMEM or a number)", en);
    return -1;
  }
  f->ioctl_nr = nr;
  f->nth = (unsigned)n;
  f->err = e;
  return 0;
}
