/* SPDX-License-Identifier: MIT */
/* tree.c — writing the simulated sysfs, /dev/dri and /proc/modules into a directory. */
#include "os/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev/catalog.h"
#include "dev/hostcache.h"
#include "dev/host.h"
#include "dev/topology.h"
#include "os/modparams.h"
#include "os/paths.h"
#include "sim.h"

#define PATH_LEN 512

struct builder {
  const char *root;
  int err;               /* first failure, as -errno */
};

/* The tree path of a sysfs-style path: the tree's root followed by the formatted path. */
__attribute__((format(printf, 3, 0))) static void vpath_of(const struct builder *b, char *out,
                                                           const char *fmt, va_list ap)
{
  size_t n = (size_t)snprintf(out, PATH_LEN, "%s", b->root);
  vsnprintf(out + n, PATH_LEN - n, fmt, ap);
}

__attribute__((format(printf, 3, 4))) static void path_of(const struct builder *b, char *out,
                                                          const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vpath_of(b, out, fmt, ap);
  va_end(ap);
}

static void fail(struct builder *b)
{
  if (!b->err)
    b->err = -errno;
}

/* mkdir -p of the directory part of a path inside the tree. */
static void mkdirs(struct builder *b, char *path, int last_too)
{
  size_t skip = strlen(b->root);
  for (char *s = path + skip + 1; *s; s++) {
    if (*s != '/')
      continue;
    *s = '\0';
    if (mkdir(path, 0755) && errno != EEXIST)
      fail(b);
    *s = '/';
  }
  if (last_too && mkdir(path, 0755) && errno != EEXIST)
    fail(b);
}

__attribute__((format(printf, 4, 5))) static void put(struct builder *b, const char *body,
                                                      size_t len, const char *fmt, ...)
{
  char path[PATH_LEN];
  va_list ap;
  va_start(ap, fmt);
  vpath_of(b, path, fmt, ap);
  va_end(ap);
  mkdirs(b, path, 0);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
  if (fd < 0) {
    fail(b);
    return;
  }
  if (write(fd, body, len) != (ssize_t)len)
    fail(b);
  close(fd);
}

#define PUTS(b, text, ...) put(b, text, strlen(text), __VA_ARGS__)

__attribute__((format(printf, 2, 3))) static void dir(struct builder *b, const char *fmt, ...)
{
  char path[PATH_LEN];
  va_list ap;
  va_start(ap, fmt);
  vpath_of(b, path, fmt, ap);
  va_end(ap);
  mkdirs(b, path, 1);
}

/* A symlink at tree path `at` with a relative target, as sysfs has them. */
static void link_rel(struct builder *b, const char *target, const char *at)
{
  char path[PATH_LEN];
  path_of(b, path, "%s", at);
  mkdirs(b, path, 0);
  if (symlink(target, path) && errno != EEXIST)
    fail(b);
}

/* "../" once per '/' in a path relative to /sys ending in a dummy last component: the way
 * from that path's directory back up to /sys. */
static void ups(const char *dirpath, char *out, size_t outlen)
{
  out[0] = '\0';
  for (const char *s = dirpath; *s; s++)
    if (*s == '/' && strlen(out) + 3 < outlen)
      strcat(out, "../");
}

static void topology(struct builder *b, const char *base)
{
  char text[SIM_TOPO_PAGE];
  size_t n;
  n = sim_topo_generation_text(text, sizeof text);
  put(b, text, n, "%s/generation_id", base);
  n = sim_topo_system_text(text, sizeof text);
  put(b, text, n, "%s/system_properties", base);
  for (unsigned node = 0; node < sim_topo_node_count(); node++) {
    n = sim_topo_node_text(node, text, sizeof text);
    put(b, text, n, "%s/nodes/%u/properties", base, node);
    n = sim_topo_gpu_id_text(node, text, sizeof text);
    put(b, text, n, "%s/nodes/%u/gpu_id", base, node);
    n = sim_topo_name_text(node, text, sizeof text);
    put(b, text, n, "%s/nodes/%u/name", base, node);
    n = sim_topo_mem_bank_text(node, 0, text, sizeof text);
    put(b, text, n, "%s/nodes/%u/mem_banks/0/properties", base, node);
    if (node > 0)
      PUTS(b, "0\n", "%s/nodes/%u/mem_banks/0/used_memory", base, node);
    dir(b, "%s/nodes/%u/caches", base, node);
    for (unsigned c = 0; c < sim_topo_cache_count(node); c++) {
      n = sim_topo_cache_text(node, c, text, sizeof text);
      put(b, text, n, "%s/nodes/%u/caches/%u/properties", base, node, c);
    }
    dir(b, "%s/nodes/%u/io_links", base, node);
    for (unsigned l = 0; l < sim_topo_io_link_count(node); l++) {
      n = sim_topo_io_link_text(node, l, text, sizeof text);
      put(b, text, n, "%s/nodes/%u/io_links/%u/properties", base, node, l);
    }
    dir(b, "%s/nodes/%u/p2p_links", base, node);
    for (unsigned l = 0; l < sim_topo_p2p_link_count(node); l++) {
      n = sim_topo_p2p_link_text(node, l, text, sizeof text);
      put(b, text, n, "%s/nodes/%u/p2p_links/%u/properties", base, node, l);
    }
  }
}

static void kfd_device(struct builder *b)
{
  char text[256];
  const char *kdir = "/sys/devices/virtual/kfd/kfd";
  snprintf(text, sizeof text, "%u:0\n", SIM_KFD_MAJOR);
  PUTS(b, text, "%s/dev", kdir);
  snprintf(text, sizeof text, "MAJOR=%u\nMINOR=0\nDEVNAME=kfd\n", SIM_KFD_MAJOR);
  PUTS(b, text, "%s/uevent", kdir);
  link_rel(b, "../../../../class/kfd", "/sys/devices/virtual/kfd/kfd/subsystem");
  topology(b, "/sys/devices/virtual/kfd/kfd/topology");
  link_rel(b, "../../devices/virtual/kfd/kfd", "/sys/class/kfd/kfd");
  char at[64];
  snprintf(at, sizeof at, "/sys/dev/char/%u:0", SIM_KFD_MAJOR);
  link_rel(b, "../../devices/virtual/kfd/kfd", at);
}

/* One DRM minor (card or render node) of a board, as drm_sysfs registers it. */
static void drm_minor(struct builder *b, const char *pcidir, const char *slot, const char *name,
                      unsigned minor)
{
  char text[256], at[PATH_LEN], target[PATH_LEN], up[128];
  snprintf(text, sizeof text, "%u:%u\n", SIM_DRM_MAJOR, minor);
  PUTS(b, text, "%s/drm/%s/dev", pcidir, name);
  snprintf(text, sizeof text, "MAJOR=%u\nMINOR=%u\nDEVNAME=dri/%s\nDEVTYPE=drm_minor\n",
           SIM_DRM_MAJOR, minor, name);
  PUTS(b, text, "%s/drm/%s/uevent", pcidir, name);
  snprintf(target, sizeof target, "../../../%s", slot);
  snprintf(at, sizeof at, "%s/drm/%s/device", pcidir, name);
  link_rel(b, target, at);
  snprintf(at, sizeof at, "%s/drm/%s/x", pcidir, name);
  ups(at + 5, up, sizeof up); /* from the minor's directory back to /sys */
  snprintf(target, sizeof target, "%sclass/drm", up);
  snprintf(at, sizeof at, "%s/drm/%s/subsystem", pcidir, name);
  link_rel(b, target, at);
  snprintf(target, sizeof target, "../..%s/drm/%s", pcidir + 4, name);
  snprintf(at, sizeof at, "/sys/dev/char/%u:%u", SIM_DRM_MAJOR, minor);
  link_rel(b, target, at);
  snprintf(target, sizeof target, "../..%s/drm/%s", pcidir + 4, name);
  snprintf(at, sizeof at, "/sys/class/drm/%s", name);
  link_rel(b, target, at);
  /* /dev/dri lists the node; opening or stat'ing /dev/dri/NAME is answered by sim/os. */
  PUTS(b, "", "/dev/dri/%s", name);
}

/* The RAS directory amdgpu makes on boards with a RAS context: the enabled feature mask and
 * an error count (uncorrectable, correctable) per enabled block, all zero. */
static void ras(struct builder *b, const char *pcidir, const struct sim_gpu_model *m)
{
  static const char *const blocks[] = { "umc", "sdma", "gfx", "mmhub", "athub", "pcie_bif",
                                        "hdp", "xgmi_wafl", "df", "smn", "sem", "mp0", "mp1",
                                        "fuse" };
  if (!m->ras_enabled)
    return;
  char text[64];
  snprintf(text, sizeof text, "feature mask: 0x%x\n", m->ras_features);
  PUTS(b, text, "%s/ras/features", pcidir);
  for (unsigned i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    if (m->ras_features >> i & 1)
      PUTS(b, "ue: 0\nce: 0\n", "%s/ras/%s_err_count", pcidir, blocks[i]);
}

static void pci_device(struct builder *b, const struct sim_gpu *g)
{
  const struct sim_gpu_model *m = g->model;
  char pcidir[128], slot[32], text[512], target[PATH_LEN], at[PATH_LEN], up[128];
  sim_path_gpu_pci_dir(g, pcidir, sizeof pcidir);
  sim_path_gpu_slot(g, slot, sizeof slot);

  snprintf(text, sizeof text, "0x%04x\n", m->vendor_id);
  PUTS(b, text, "%s/vendor", pcidir);
  snprintf(text, sizeof text, "0x%04x\n", m->device_id);
  PUTS(b, text, "%s/device", pcidir);
  snprintf(text, sizeof text, "0x%04x\n", m->subsystem_vendor_id);
  PUTS(b, text, "%s/subsystem_vendor", pcidir);
  snprintf(text, sizeof text, "0x%04x\n", m->subsystem_device_id);
  PUTS(b, text, "%s/subsystem_device", pcidir);
  snprintf(text, sizeof text, "0x%02x\n", m->pci_revision);
  PUTS(b, text, "%s/revision", pcidir);
  PUTS(b, "0x030000\n", "%s/class", pcidir);
  PUTS(b, "-1\n", "%s/numa_node", pcidir);
  PUTS(b, "1\n", "%s/enable", pcidir);
  PUTS(b, "0\n", "%s/boot_vga", pcidir);
  snprintf(text, sizeof text,
           "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\n"
           "PCI_SLOT_NAME=%s\nMODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc03sc00i00\n",
           m->vendor_id, m->device_id, m->subsystem_vendor_id, m->subsystem_device_id, slot,
           m->vendor_id, m->device_id, m->subsystem_vendor_id, m->subsystem_device_id);
  PUTS(b, text, "%s/uevent", pcidir);

  snprintf(at, sizeof at, "%s/x", pcidir);
  ups(at + 5, up, sizeof up); /* back to /sys */
  snprintf(target, sizeof target, "%sbus/pci", up);
  snprintf(at, sizeof at, "%s/subsystem", pcidir);
  link_rel(b, target, at);
  snprintf(target, sizeof target, "%sbus/pci/drivers/amdgpu", up);
  snprintf(at, sizeof at, "%s/driver", pcidir);
  link_rel(b, target, at);

  snprintf(target, sizeof target, "../../..%s", pcidir + 4);
  snprintf(at, sizeof at, "/sys/bus/pci/devices/%s", slot);
  link_rel(b, target, at);
  snprintf(target, sizeof target, "../../../..%s", pcidir + 4);
  snprintf(at, sizeof at, "/sys/bus/pci/drivers/amdgpu/%s", slot);
  link_rel(b, target, at);

  ras(b, pcidir, m);

  char name[32];
  snprintf(name, sizeof name, "card%u", g->card_minor);
  drm_minor(b, pcidir, slot, name, g->card_minor);
  snprintf(name, sizeof name, "renderD%u", g->render_minor);
  drm_minor(b, pcidir, slot, name, g->render_minor);
}

/* lsmod reads /proc/modules and /sys/module/NAME; rocminfo greps its output for amdgpu.
 * The host's own modules stay listed. */
static void modules(struct builder *b)
{
  static const char amdgpu[] = "amdgpu 9670656 0 - Live 0x0000000000000000\n";
  char host[65536];
  size_t n = 0;
  int fd = open("/proc/modules", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t r;
    while (n < sizeof host - 1 && (r = read(fd, host + n, sizeof host - 1 - n)) > 0)
      n += (size_t)r;
    close(fd);
  }
  host[n] = '\0';
  int has = strncmp(host, "amdgpu ", 7) == 0 || strstr(host, "\namdgpu ");
  if (!has && n + sizeof amdgpu <= sizeof host) {
    memcpy(host + n, amdgpu, sizeof amdgpu);
    n += sizeof amdgpu - 1;
  }
  put(b, host, n, "/proc/modules");
  PUTS(b, "live\n", "/sys/module/amdgpu/initstate");
  PUTS(b, "0\n", "/sys/module/amdgpu/refcnt");
  PUTS(b, "9670656\n", "/sys/module/amdgpu/coresize");
  dir(b, "/sys/module/amdgpu/holders");
  for (unsigned i = 0; i < sim_modparam_count; i++) {
    char text[64];
    snprintf(text, sizeof text, "%s\n", sim_modparams[i].value);
    PUTS(b, text, "/sys/module/amdgpu/parameters/%s", sim_modparams[i].name);
  }
}

/* The kernel's cacheinfo entries of every CPU, written only when the host kernel has none
 * (small VMs): ROCR's thunk reads /sys/devices/system/node/nodeN/cpuM/cache and refuses
 * the whole topology when a CPU node lists no cache. sim/os/paths.c sends both spellings
 * of the path here. */
static void cpu_caches(struct builder *b)
{
  if (!sim_host_cache_sysfs_missing())
    return;
  const struct sim_host_cache *c;
  unsigned n = sim_host_caches(&c), cpus = sim_host()->cores;
  for (unsigned cpu = 0; cpu < cpus; cpu++) {
    for (unsigned i = 0; i < n; i++) {
      unsigned share = c[i].sharing && c[i].sharing < cpus ? c[i].sharing : cpus;
      unsigned first = cpu / share * share, last = first + share - 1;
      if (last >= cpus)
        last = cpus - 1;
      char text[64], list[32], map[1024];
      const char *base = "/sys/devices/system/cpu/cpu%u/cache/index%u/%s";
      snprintf(text, sizeof text, "%u\n", c[i].level);
      PUTS(b, text, base, cpu, i, "level");
      snprintf(text, sizeof text, "%s\n", c[i].type);
      PUTS(b, text, base, cpu, i, "type");
      snprintf(text, sizeof text, "%uK\n", c[i].size_kb);
      PUTS(b, text, base, cpu, i, "size");
      snprintf(text, sizeof text, "%u\n", c[i].line);
      PUTS(b, text, base, cpu, i, "coherency_line_size");
      snprintf(text, sizeof text, "%u\n", c[i].ways);
      PUTS(b, text, base, cpu, i, "ways_of_associativity");
      snprintf(text, sizeof text, "%u\n", c[i].partitions);
      PUTS(b, text, base, cpu, i, "physical_line_partition");
      unsigned long long sets = (unsigned long long)c[i].size_kb * 1024 /
                                ((unsigned long long)c[i].line * c[i].ways * c[i].partitions);
      snprintf(text, sizeof text, "%llu\n", sets);
      PUTS(b, text, base, cpu, i, "number_of_sets");
      snprintf(text, sizeof text, "%u\n", cpu / share);
      PUTS(b, text, base, cpu, i, "id");
      if (first == last)
        snprintf(list, sizeof list, "%u\n", first);
      else
        snprintf(list, sizeof list, "%u-%u\n", first, last);
      PUTS(b, list, base, cpu, i, "shared_cpu_list");
      /* "%*pb": hex words of 32 CPUs, most significant first, separated by commas. */
      size_t len = 0;
      for (int w = (int)((cpus - 1) / 32); w >= 0 && len + 10 < sizeof map; w--) {
        uint32_t bits = 0;
        for (unsigned k = 0; k < 32; k++) {
          unsigned id = (unsigned)w * 32 + k;
          if (id >= first && id <= last)
            bits |= 1u << k;
        }
        len += (size_t)snprintf(map + len, sizeof map - len, w == (int)((cpus - 1) / 32) ?
                                "%x" : ",%08x", bits);
      }
      snprintf(map + len, sizeof map - len, "\n");
      PUTS(b, map, base, cpu, i, "shared_cpu_map");
    }
  }
}

int sim_tree_build(const char *root)
{
  struct builder b = { root, 0 };
  if (mkdir(root, 0755))
    return -errno;
  kfd_device(&b);
  for (unsigned i = 0; i < sim_gpu_count(); i++)
    pci_device(&b, sim_gpu(i));
  PUTS(&b, "drm 1.1.0 20060810\n", "/sys/class/drm/version");
  dir(&b, "/dev/dri");
  modules(&b);
  cpu_caches(&b);
  return b.err;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st, (void)flag, (void)ftw;
  return remove(path) ? -1 : 0;
}

int sim_tree_remove(const char *path)
{
  if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS))
    return -errno;
  return 0;
}
