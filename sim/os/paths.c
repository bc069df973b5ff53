/* SPDX-License-Identifier: MIT */
/* paths.c — path classification and redirection into the generated tree. */
#include "os/paths.h"

#include "dev/hostcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_path_gpu_slot(const struct sim_gpu *gpu, char *out, size_t outlen)
{
  snprintf(out, outlen, "%04x:%02x:%02x.%x", gpu->domain, gpu->location_id >> 8,
           (gpu->location_id >> 3) & 0x1f, gpu->location_id & 7);
}

/* The boards hang off their own root complex, pci0000:60, one root port each (0000:60:<3+i>.1),
 * as GPUs do on an EPYC host; a root complex of its own keeps the host's PCI tree visible
 * and untouched. */
void sim_path_gpu_pci_dir(const struct sim_gpu *gpu, char *out, size_t outlen)
{
  char slot[32];
  sim_path_gpu_slot(gpu, slot, sizeof slot);
  snprintf(out, outlen, "%s/%04x:60:%02x.1/%s", SIM_PCI_ROOT, gpu->domain, 3 + gpu->index, slot);
}

void sim_path_devnode_name(enum sim_dev_type type, const struct sim_gpu *gpu, char *out,
                           size_t outlen)
{
  if (type == SIM_DEV_KFD || !gpu)
    snprintf(out, outlen, "/dev/kfd");
  else if (type == SIM_DEV_RENDER)
    snprintf(out, outlen, "/dev/dri/renderD%u", gpu->render_minor);
  else
    snprintf(out, outlen, "/dev/dri/card%u", gpu->card_minor);
}

/* Lexical clean-up of an absolute path: "//", "/./" and "/../" (sysfs paths are built by
 * string pasting and sometimes carry them). Returns 0, or -1 when it does not fit. */
static int normalize(const char *path, char *out, size_t outlen)
{
  size_t n = 0;
  const char *p = path;
  while (*p) {
    while (*p == '/')
      p++;
    const char *e = p;
    while (*e && *e != '/')
      e++;
    size_t len = (size_t)(e - p);
    if (len == 0)
      break;
    if (len == 1 && p[0] == '.') {
      /* skip */
    } else if (len == 2 && p[0] == '.' && p[1] == '.') {
      while (n > 0 && out[n - 1] != '/')
        n--;
      if (n > 0)
        n--;
    } else {
      if (n + 1 + len + 1 > outlen)
        return -1;
      out[n++] = '/';
      memcpy(out + n, p, len);
      n += len;
    }
    p = e;
  }
  if (n == 0) {
    if (outlen < 2)
      return -1;
    out[n++] = '/';
  }
  out[n] = '\0';
  return 0;
}

/* Does path equal prefix or continue it with '/'? */
static int under(const char *path, const char *prefix)
{
  size_t n = strlen(prefix);
  return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* "renderD128" style: name followed by a decimal number and nothing else. */
static int numbered(const char *s, const char *name, unsigned *num)
{
  size_t n = strlen(name);
  if (strncmp(s, name, n) != 0 || s[n] < '0' || s[n] > '9')
    return 0;
  char *end;
  unsigned long v = strtoul(s + n, &end, 10);
  if (*end || v > 0xfffff)
    return 0;
  *num = (unsigned)v;
  return 1;
}

static int is_simulated(const char *p)
{
  static const char *const fixed[] = {
    "/sys/devices/virtual/kfd", "/sys/class/kfd", "/sys/class/drm", "/sys/module/amdgpu",
    "/sys/bus/pci/drivers/amdgpu", "/dev/dri", "/proc/modules", SIM_PCI_ROOT,
  };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (under(p, fixed[i]))
      return 1;
  if (strncmp(p, "/sys/dev/char/", 14) == 0) {
    char kfd[32];
    snprintf(kfd, sizeof kfd, "/sys/dev/char/%u:0", SIM_KFD_MAJOR);
    return strncmp(p + 14, "226:", 4) == 0 || under(p, kfd);
  }
  if (strncmp(p, "/sys/bus/pci/devices/", 21) == 0) {
    for (unsigned i = 0; i < sim_gpu_count(); i++) {
      char dir[128], slot[32];
      sim_path_gpu_slot(sim_gpu(i), slot, sizeof slot);
      snprintf(dir, sizeof dir, "/sys/bus/pci/devices/%s", slot);
      if (under(p, dir))
        return 1;
    }
  }
  return 0;
}

/* "/sys/devices/system/node/nodeN/cpuM/cache..." and "/sys/devices/system/cpu/cpuM/cache..."
 * of a host whose kernel lists no caches: the generated "/sys/devices/system/cpu/cpuM/cache...".
 * Returns 0 when the path is not one of them. */
static int cpu_cache_path(const char *p, char *out, size_t outlen)
{
  const char *rest = NULL;
  unsigned node, cpu;
  int n = 0;
  if (sscanf(p, "/sys/devices/system/node/node%u/cpu%u/cache%n", &node, &cpu, &n) == 2 && n)
    rest = p + n;
  else if (sscanf(p, "/sys/devices/system/cpu/cpu%u/cache%n", &cpu, &n) == 1 && n)
    rest = p + n;
  if (!rest || (*rest && *rest != '/') || !sim_host_cache_sysfs_missing())
    return 0;
  int w = snprintf(out, outlen, "/sys/devices/system/cpu/cpu%u/cache%s", cpu, rest);
  return w > 0 && (size_t)w < outlen;
}

enum sim_path_kind sim_path_map(const char *(*tree)(void), const char *path, char *out,
                                size_t outlen, struct sim_devnode *dev)
{
  if (!path || path[0] != '/')
    return SIM_PATH_PASS;
  /* Cheap rejection of everything outside /sys, /dev and /proc (and their // spellings). */
  const char *q = path;
  while (q[1] == '/')
    q++;
  if (strncmp(q, "/sys/", 5) != 0 && strncmp(q, "/dev/", 5) != 0 && strncmp(q, "/proc/", 6) != 0)
    return SIM_PATH_PASS;

  char norm[4096];
  const char *p = path;
  if (strstr(path, "//") || strstr(path, "/.")) {
    if (normalize(path, norm, sizeof norm))
      return SIM_PATH_PASS;
    p = norm;
  }

  unsigned num;
  if (strcmp(p, "/dev/kfd") == 0) {
    *dev = (struct sim_devnode){ SIM_DEV_KFD, SIM_KFD_MAJOR, 0, NULL };
    return SIM_PATH_DEVICE;
  }
  if (numbered(p, "/dev/dri/renderD", &num) && sim_gpu_by_minor(num)) {
    *dev = (struct sim_devnode){ SIM_DEV_RENDER, SIM_DRM_MAJOR, num, sim_gpu_by_minor(num) };
    return SIM_PATH_DEVICE;
  }
  if (numbered(p, "/dev/dri/card", &num) && num < sim_gpu_count()) {
    *dev = (struct sim_devnode){ SIM_DEV_CARD, SIM_DRM_MAJOR, num, sim_gpu(num) };
    return SIM_PATH_DEVICE;
  }
  char cache[256];
  if (cpu_cache_path(p, cache, sizeof cache))
    p = cache;
  else if (!is_simulated(p)) {
    /* "/dev/dri/.." names the real /dev: it must not reach the kernel through /dev/dri,
     * which does not exist there. Pass the clean path instead. */
    if (p == norm && is_simulated(path) && strlen(norm) < outlen) {
      strcpy(out, norm);
      return SIM_PATH_REDIRECT;
    }
    return SIM_PATH_PASS;
  }
  const char *root = tree();
  if (!root)
    return SIM_PATH_PASS;
  int n = snprintf(out, outlen, "%s%s", root, p);
  if (n < 0 || (size_t)n >= outlen)
    return SIM_PATH_PASS;
  return SIM_PATH_REDIRECT;
}
