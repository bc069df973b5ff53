/* SPDX-License-Identifier: MIT */
/* hostcache.c — describing the host CPU's caches from CPUID when the kernel does not. */
#include "dev/hostcache.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static struct sim_host_cache caches[SIM_HOST_CACHES_MAX];
static unsigned count;
static bool missing;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add(unsigned level, const char *type, unsigned size_kb, unsigned line,
                unsigned ways, unsigned sharing)
{
  if (count < SIM_HOST_CACHES_MAX && size_kb && line)
    caches[count++] = (struct sim_host_cache){ level, type, size_kb, line, ways ? ways : 1, 1,
                                               sharing };
}

#if defined(__x86_64__) || defined(__i386__)
/* Deterministic cache parameters: Intel's leaf 4 and AMD's 0x8000001D share one layout. */
static void from_leaf(unsigned leaf)
{
  for (unsigned i = 0; i < SIM_HOST_CACHES_MAX && count < SIM_HOST_CACHES_MAX; i++) {
    unsigned a, b, c, d;
    __cpuid_count(leaf, i, a, b, c, d);
    (void)d;
    unsigned t = a & 31;
    if (t == 0 || t > 3)
      break;
    unsigned line = (b & 0xfff) + 1, parts = ((b >> 12) & 0x3ff) + 1, ways = (b >> 22) + 1;
    unsigned long long bytes = (unsigned long long)line * parts * ways * (c + 1ull);
    caches[count++] = (struct sim_host_cache){
      (a >> 5) & 7, t == 1 ? "Data" : t == 2 ? "Instruction" : "Unified",
      (unsigned)(bytes / 1024), line, ways, parts, ((a >> 14) & 0xfff) + 1 };
  }
}

/* AMD's older leaves encode L2/L3 associativity as a code. */
static unsigned amd_ways(unsigned code)
{
  static const unsigned ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0 };
  return ways[code & 15] ? ways[code & 15] : 16;
}

static void from_cpuid(void)
{
  unsigned a, b, c, d, max = 0, ext = 0;
  char vendor[13] = { 0 };
  if (!__get_cpuid(0, &max, &b, &c, &d))
    return;
  memcpy(vendor, &b, 4), memcpy(vendor + 4, &d, 4), memcpy(vendor + 8, &c, 4);
  __get_cpuid(0x80000000, &ext, &b, &c, &d);
  if (strcmp(vendor, "GenuineIntel") == 0 && max >= 4) {
    from_leaf(4);
    return;
  }
  if (ext >= 0x8000001d && __get_cpuid(0x80000001, &a, &b, &c, &d) && (c >> 22 & 1)) {
    from_leaf(0x8000001d);   /* TOPOEXT */
    if (count)
      return;
  }
  if (ext >= 0x80000006) {   /* L1 per core, L2 per core, L3 for the package */
    __get_cpuid(0x80000005, &a, &b, &c, &d);
    add(1, "Data", c >> 24, c & 0xff, (c >> 16) & 0xff, 1);
    add(1, "Instruction", d >> 24, d & 0xff, (d >> 16) & 0xff, 1);
    __get_cpuid(0x80000006, &a, &b, &c, &d);
    add(2, "Unified", c >> 16, c & 0xff, amd_ways(c >> 12), 1);
    add(3, "Unified", (d >> 18) * 512, d & 0xff, amd_ways(d >> 12), 0);
  }
}
#endif

static void probe(void)
{
  /* F_OK through faccessat(2) itself: libc's access() is interposed by sim/os. */
  missing = syscall(SYS_faccessat, AT_FDCWD, "/sys/devices/system/cpu/cpu0/cache/index0/level",
                    F_OK) != 0;
#if defined(__x86_64__) || defined(__i386__)
  from_cpuid();
#endif
  if (count == 0) {   /* a typical server core's */
    add(1, "Data", 32, 64, 8, 1);
    add(1, "Instruction", 32, 64, 8, 1);
    add(2, "Unified", 512, 64, 8, 1);
    add(3, "Unified", 16384, 64, 16, 0);
  }
}

bool sim_host_cache_sysfs_missing(void)
{
  pthread_once(&once, probe);
  return missing;
}

unsigned sim_host_caches(const struct sim_host_cache **out)
{
  pthread_once(&once, probe);
  *out = caches;
  return count;
}
