/* SPDX-License-Identifier: MIT */
/* test_sim_os.c — sim/os without interposing anything: option and HSA_SIM_CONFIG parsing,
 * path classification and redirection, the device fd table, and the generated tree. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev/host.h"
#include "dev/hostcache.h"
#include "os/config.h"
#include "os/fdtable.h"
#include "os/options.h"
#include "os/paths.h"
#include "os/tree.h"
#include "sim.h"

START_TEST(sizes)
{
  uint64_t b;
  ck_assert_int_eq(sim_parse_size("4G", &b), 0);
  ck_assert_uint_eq(b, 4ull << 30);
  ck_assert_int_eq(sim_parse_size("512M", &b), 0);
  ck_assert_uint_eq(b, 512ull << 20);
  ck_assert_int_eq(sim_parse_size("16GiB", &b), 0);
  ck_assert_uint_eq(b, 16ull << 30);
  ck_assert_int_eq(sim_parse_size("1k", &b), 0);
  ck_assert_uint_eq(b, 1024);
  ck_assert_int_eq(sim_parse_size("123", &b), 0);
  ck_assert_uint_eq(b, 123);
  ck_assert_int_eq(sim_parse_size("", &b), -1);
  ck_assert_int_eq(sim_parse_size("G", &b), -1);
  ck_assert_int_eq(sim_parse_size("4X", &b), -1);
  ck_assert_int_eq(sim_parse_size("4GG", &b), -1);
  ck_assert_int_eq(sim_parse_size("-4G", &b), -1);
  ck_assert_int_eq(sim_parse_size("99999999999T", &b), -1); /* overflows 64 bits */
}
END_TEST

START_TEST(faults)
{
  struct sim_fault f;
  char err[200];
  ck_assert_int_eq(sim_parse_fault("ALLOC_MEMORY_OF_GPU:3:ENOMEM", &f, err, sizeof err), 0);
  ck_assert_uint_eq(f.ioctl_nr, _IOC_NR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU));
  ck_assert_uint_eq(f.nth, 3);
  ck_assert_int_eq(f.err, ENOMEM);
  ck_assert_int_eq(sim_parse_fault("amdkfd_ioc_create_queue:1:22", &f, err, sizeof err), 0);
  ck_assert_uint_eq(f.ioctl_nr, _IOC_NR(AMDKFD_IOC_CREATE_QUEUE));
  ck_assert_int_eq(f.err, EINVAL);
  ck_assert_int_eq(sim_parse_fault("GET_VERSION:1:EPERM", &f, err, sizeof err), 0);
  ck_assert_uint_eq(f.ioctl_nr, _IOC_NR(AMDKFD_IOC_GET_VERSION));
  ck_assert_int_eq(sim_parse_fault("NOPE:1:ENOMEM", &f, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "NOPE"));
  ck_assert_int_eq(sim_parse_fault("CREATE_QUEUE:0:ENOMEM", &f, err, sizeof err), -1);
  ck_assert_int_eq(sim_parse_fault("CREATE_QUEUE:x:ENOMEM", &f, err, sizeof err), -1);
  ck_assert_int_eq(sim_parse_fault("CREATE_QUEUE:1:EWHAT", &f, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "EWHAT"));
  ck_assert_int_eq(sim_parse_fault("CREATE_QUEUE:1", &f, err, sizeof err), -1);
  ck_assert_int_eq(sim_parse_fault("CREATE_QUEUE:1:ENOMEM:9", &f, err, sizeof err), -1);
  ck_assert_str_eq(sim_kfd_ioctl_name(_IOC_NR(AMDKFD_IOC_MAP_MEMORY_TO_GPU)), "MAP_MEMORY_TO_GPU");
  ck_assert_ptr_null(sim_kfd_ioctl_name(0));
  ck_assert_int_eq(sim_errno_value("ETIMEDOUT"), ETIMEDOUT);
  ck_assert_int_eq(sim_errno_value("0"), 0);
}
END_TEST

/* One list names the ioctls: every one the driver model dispatches can be named in a fault
 * spec, the deprecated debugger ioctls (answered with an error, as the kernel does) too. */
START_TEST(fault_names_cover_driver_ioctls)
{
  ck_assert_uint_eq(sim_kfd_ioctl_nr("DBG_WAVE_CONTROL_DEPRECATED"),
                    _IOC_NR(AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED));
  ck_assert_str_eq(sim_kfd_ioctl_name(_IOC_NR(AMDKFD_IOC_DBG_REGISTER_DEPRECATED)),
                   "DBG_REGISTER_DEPRECATED");
  ck_assert_str_eq(sim_kfd_ioctl_name(_IOC_NR(AMDKFD_IOC_AVAILABLE_MEMORY)), "AVAILABLE_MEMORY");
}
END_TEST

START_TEST(config_text)
{
  struct sim_config c;
  const char *trace;
  char err[256];
  char t1[] = "gpu=gfx906,gpus=3,vram=2G,trace=/tmp/x.log,fail=CREATE_QUEUE:2:ENOSPC,"
              "fail=SVM:1:EINVAL,root=/tmp/r";
  ck_assert_int_eq(sim_config_parse(t1, &c, &trace, err, sizeof err), 0);
  ck_assert_str_eq(c.gpu_model, "gfx906");
  ck_assert_uint_eq(c.gpu_count, 3);
  ck_assert_uint_eq(c.vram_bytes, 2ull << 30);
  ck_assert_str_eq(trace, "/tmp/x.log");
  ck_assert_uint_eq(c.fault_count, 2);
  ck_assert_uint_eq(c.faults[1].ioctl_nr, _IOC_NR(AMDKFD_IOC_SVM));
  ck_assert_str_eq(c.root, "/tmp/r");
  ck_assert_int_eq(c.trace_fd, -1); /* parsing opens nothing */

  char t2[] = "";
  ck_assert_int_eq(sim_config_parse(t2, &c, &trace, err, sizeof err), 0);
  ck_assert_str_eq(c.gpu_model, "gfx900");
  ck_assert_uint_eq(c.gpu_count, 1);
  ck_assert_ptr_null(trace);
  ck_assert_ptr_null(c.root);

  char t3[] = "gpu=gfx999";
  ck_assert_int_eq(sim_config_parse(t3, &c, &trace, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "gfx999"));
  char t4[] = "gpus=9";
  ck_assert_int_eq(sim_config_parse(t4, &c, &trace, err, sizeof err), -1);
  char t5[] = "colour=blue";
  ck_assert_int_eq(sim_config_parse(t5, &c, &trace, err, sizeof err), -1);
  char t6[] = "gpus";
  ck_assert_int_eq(sim_config_parse(t6, &c, &trace, err, sizeof err), -1);

  /* threads=N (hsa-sim --threads): 1..SIM_MAX_THREADS, 0 (unset) = the CPUs */
  ck_assert_uint_eq(c.threads, 0);
  char t7[] = "threads=3";
  ck_assert_int_eq(sim_config_parse(t7, &c, &trace, err, sizeof err), 0);
  ck_assert_uint_eq(c.threads, 3);
  char t8[] = "threads=0";
  ck_assert_int_eq(sim_config_parse(t8, &c, &trace, err, sizeof err), -1);
  ck_assert_ptr_nonnull(strstr(err, "threads=0"));
  char t9[] = "threads=257";
  ck_assert_int_eq(sim_config_parse(t9, &c, &trace, err, sizeof err), -1);
  char t10[] = "threads=2x";
  ck_assert_int_eq(sim_config_parse(t10, &c, &trace, err, sizeof err), -1);
}
END_TEST

static const char *fake_tree(void)
{
  return "/T";
}

static enum sim_path_kind map(const char *path, char *out, struct sim_devnode *d)
{
  return sim_path_map(fake_tree, path, out, PATH_MAX, d);
}

START_TEST(paths_two_gpus)
{
  setenv("HSA_SIM_CONFIG", "gpus=2", 1);
  char out[PATH_MAX];
  struct sim_devnode d;
  ck_assert_int_eq(map("/dev/kfd", out, &d), SIM_PATH_DEVICE);
  ck_assert_int_eq(d.type, SIM_DEV_KFD);
  ck_assert_uint_eq(d.major, SIM_KFD_MAJOR);
  ck_assert_int_eq(map("/dev/dri/renderD129", out, &d), SIM_PATH_DEVICE);
  ck_assert_int_eq(d.type, SIM_DEV_RENDER);
  ck_assert_uint_eq(d.minor, 129);
  ck_assert_ptr_eq(d.gpu, sim_gpu(1));
  ck_assert_int_eq(map("/dev/dri/card1", out, &d), SIM_PATH_DEVICE);
  ck_assert_int_eq(d.type, SIM_DEV_CARD);
  ck_assert_uint_eq(d.minor, 1);
  ck_assert_int_eq(map("//dev//kfd", out, &d), SIM_PATH_DEVICE);
  /* Nodes of GPUs that do not exist are simply absent from the tree. */
  ck_assert_int_eq(map("/dev/dri/renderD130", out, &d), SIM_PATH_REDIRECT);
  ck_assert_str_eq(out, "/T/dev/dri/renderD130");
  ck_assert_int_eq(map("/dev/dri/renderD128x", out, &d), SIM_PATH_REDIRECT);

  ck_assert_int_eq(map("/sys/class/kfd/kfd/topology/nodes/1/properties", out, &d),
                   SIM_PATH_REDIRECT);
  ck_assert_str_eq(out, "/T/sys/class/kfd/kfd/topology/nodes/1/properties");
  ck_assert_int_eq(map("/sys/devices/virtual/kfd/kfd/topology/generation_id", out, &d),
                   SIM_PATH_REDIRECT);
  ck_assert_int_eq(map("/sys/dev/char/226:128/device/drm", out, &d), SIM_PATH_REDIRECT);
  ck_assert_int_eq(map("/sys/module/amdgpu", out, &d), SIM_PATH_REDIRECT);
  ck_assert_int_eq(map("/proc/modules", out, &d), SIM_PATH_REDIRECT);
  ck_assert_str_eq(out, "/T/proc/modules");
  ck_assert_int_eq(map("/sys/bus/pci/devices/0000:64:00.0/vendor", out, &d), SIM_PATH_REDIRECT);
  ck_assert_int_eq(map("/sys/devices/pci0000:60/0000:60:04.1/0000:64:00.0", out, &d),
                   SIM_PATH_REDIRECT);
  ck_assert_int_eq(map("/sys/class/kfd/kfd/topology/nodes/../nodes/0/gpu_id", out, &d),
                   SIM_PATH_REDIRECT);
  ck_assert_str_eq(out, "/T/sys/class/kfd/kfd/topology/nodes/0/gpu_id");

  /* Everything else is the host's, untouched. */
  static const char *const host[] = {
    "/sys/devices/system/node/node0/meminfo", "/proc/cpuinfo", "/proc/self/maps",
    "/dev/null", "/dev/shm/hsakmt_shared_mem", "/sys/dev/char/1:3", "/sys/bus/pci/devices/0000:00:01.0",
    "/sys/devices/pci0000:00", "/sys/module/kvm", "/sys/class/kfdx", "/dev/kfd0", "/dev/dri2",
    "relative/dev/kfd", "dev/kfd", "/etc/passwd", "/proc/modulesx",
  };
  for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
    ck_assert_msg(map(host[i], out, &d) == SIM_PATH_PASS, "%s is not ours", host[i]);
  ck_assert_int_eq(sim_path_map(fake_tree, NULL, out, sizeof out, &d), SIM_PATH_PASS);
  /* Leaving a simulated directory by ".." lands on the host's path, cleaned. */
  ck_assert_int_eq(map("/dev/dri/..", out, &d), SIM_PATH_REDIRECT);
  ck_assert_str_eq(out, "/dev");
  /* Too small an output buffer: never overrun, just not redirected. */
  char tiny[8];
  ck_assert_int_eq(sim_path_map(fake_tree, "/proc/modules", tiny, sizeof tiny, &d), SIM_PATH_PASS);

  char name[64];
  sim_path_devnode_name(SIM_DEV_RENDER, sim_gpu(1), name, sizeof name);
  ck_assert_str_eq(name, "/dev/dri/renderD129");
  sim_path_gpu_slot(sim_gpu(1), name, sizeof name);
  ck_assert_str_eq(name, "0000:64:00.0");
}
END_TEST

START_TEST(fd_table)
{
  sim_fd_reset();
  setenv("HSA_SIM_CONFIG", "gpus=2", 1);
  struct sim_fd e;
  int last;
  ck_assert_uint_eq(sim_fd_count(), 0);
  ck_assert_int_eq(sim_fd_lookup(5, &e), 0);
  ck_assert_int_eq(sim_fd_add(5, SIM_DEV_KFD, NULL), 0);
  ck_assert_int_eq(sim_fd_add(7, SIM_DEV_RENDER, sim_gpu(1)), 0);
  ck_assert_int_eq(sim_fd_lookup(7, &e), 1);
  ck_assert_int_eq(e.type, SIM_DEV_RENDER);
  ck_assert_ptr_eq(sim_os_gpu_of_fd(7), sim_gpu(1));
  ck_assert_ptr_null(sim_os_gpu_of_fd(5));
  ck_assert_ptr_null(sim_os_gpu_of_fd(6));

  /* dup of /dev/kfd: closing one copy is not the last. */
  ck_assert_int_eq(sim_fd_dup(5, 9, NULL, NULL), 1);
  ck_assert_int_eq(sim_fd_remove(5, &last), SIM_DEV_KFD);
  ck_assert_int_eq(last, 0);
  ck_assert_int_eq(sim_fd_remove(9, &last), SIM_DEV_KFD);
  ck_assert_int_eq(last, 1);
  ck_assert_int_eq(sim_fd_remove(9, &last), SIM_DEV_NONE);

  /* dup2 of an untracked fd onto a tracked one forgets it. */
  enum sim_dev_type t;
  ck_assert_int_eq(sim_fd_add(5, SIM_DEV_KFD, NULL), 0);
  ck_assert_int_eq(sim_fd_dup(3, 5, &t, &last), 0);
  ck_assert_int_eq(t, SIM_DEV_KFD);
  ck_assert_int_eq(last, 1);
  ck_assert_int_eq(sim_fd_lookup(5, &e), 0);
  /* dup2 of a render node onto a tracked fd replaces it. */
  ck_assert_int_eq(sim_fd_add(11, SIM_DEV_KFD, NULL), 0);
  ck_assert_int_eq(sim_fd_dup(7, 11, &t, &last), 1);
  ck_assert_int_eq(t, SIM_DEV_KFD);
  ck_assert_int_eq(last, 1);
  ck_assert_ptr_eq(sim_os_gpu_of_fd(11), sim_gpu(1));
  ck_assert_int_eq(sim_fd_dup(7, 7, &t, &last), 0); /* onto itself: nothing happens */
  ck_assert_int_eq(sim_fd_lookup(7, &e), 1);

  /* The table is bounded: the next open fails like a full fd table. */
  sim_fd_reset();
  for (int i = 0; i < SIM_FD_MAX; i++)
    ck_assert_int_eq(sim_fd_add(100 + i, SIM_DEV_CARD, sim_gpu(0)), 0);
  ck_assert_int_eq(sim_fd_add(99, SIM_DEV_CARD, sim_gpu(0)), -EMFILE);
  sim_fd_reset();
}
END_TEST

/* ROCR opens, dups and closes from several threads: the table stays exact. */
static void *churn(void *arg)
{
  int base = (int)(intptr_t)arg;
  for (int round = 0; round < 2000; round++) {
    for (int k = 0; k < 8; k++)
      if (sim_fd_add(base + k, k ? SIM_DEV_RENDER : SIM_DEV_KFD, k ? sim_gpu(0) : NULL))
        return (void *)1;
    struct sim_fd e;
    for (int k = 0; k < 8; k++)
      if (!sim_fd_lookup(base + k, &e) || e.fd != base + k)
        return (void *)1;
    for (int k = 0; k < 8; k++)
      if (sim_fd_remove(base + k, NULL) == SIM_DEV_NONE)
        return (void *)1;
  }
  return NULL;
}

START_TEST(fd_table_threads)
{
  sim_fd_reset();
  pthread_t t[8];
  for (int i = 0; i < 8; i++)
    pthread_create(&t[i], NULL, churn, (void *)(intptr_t)(1000 + 16 * i));
  for (int i = 0; i < 8; i++) {
    void *r;
    pthread_join(t[i], &r);
    ck_assert_ptr_null(r);
  }
  ck_assert_uint_eq(sim_fd_count(), 0);
}
END_TEST

static int exists(const char *root, const char *rel, mode_t type)
{
  char p[PATH_MAX + 128];
  struct stat st;
  snprintf(p, sizeof p, "%s%s", root, rel);
  return stat(p, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

START_TEST(tree_build_and_remove)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx906,gpus=2", 1);
  char dir[] = "/tmp/test_sim_os.XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char root[64];
  snprintf(root, sizeof root, "%s/tree", dir);
  ck_assert_int_eq(sim_tree_build(root), 0);
  ck_assert_int_eq(sim_tree_build(root), -EEXIST);
  static const char *const files[] = {
    "/sys/devices/virtual/kfd/kfd/topology/generation_id",
    "/sys/devices/virtual/kfd/kfd/topology/system_properties",
    "/sys/class/kfd/kfd/topology/nodes/2/properties",
    "/sys/class/kfd/kfd/topology/nodes/2/gpu_id",
    "/sys/class/kfd/kfd/topology/nodes/2/name",
    "/sys/class/kfd/kfd/topology/nodes/1/mem_banks/0/properties",
    "/sys/class/kfd/kfd/topology/nodes/1/caches/0/properties",
    "/sys/class/kfd/kfd/topology/nodes/1/io_links/0/properties",
    "/sys/class/kfd/kfd/topology/nodes/1/p2p_links/0/properties",
    "/sys/class/kfd/kfd/topology/nodes/0/io_links/1/properties",
    "/sys/dev/char/226:129/device/vendor", "/sys/dev/char/226:129/device/uevent",
    "/sys/dev/char/226:1/dev", "/sys/class/drm/renderD128/device/device",
    "/sys/bus/pci/devices/0000:64:00.0/revision", "/proc/modules",
    "/sys/module/amdgpu/refcnt", "/dev/dri/renderD129", "/dev/dri/card1",
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    ck_assert_msg(exists(root, files[i], S_IFREG), "%s missing", files[i]);
  ck_assert(exists(root, "/sys/dev/char/226:128/device/drm/card0", S_IFDIR));
  ck_assert(exists(root, "/sys/module/amdgpu/holders", S_IFDIR));
  ck_assert(!exists(root, "/sys/class/kfd/kfd/topology/nodes/3", S_IFDIR));

  char p[PATH_MAX], buf[256];
  snprintf(p, sizeof p, "%s/sys/dev/char/226:128/device/subsystem", root);
  ssize_t n = readlink(p, buf, sizeof buf - 1);
  ck_assert_int_gt(n, 0);
  buf[n] = '\0';
  ck_assert_str_eq(strrchr(buf, '/'), "/pci"); /* libdrm's bus type test */
  snprintf(p, sizeof p, "%s/sys/dev/char/226:129/device", root);
  char *real = realpath(p, NULL);
  ck_assert_ptr_nonnull(real);
  ck_assert_str_eq(real + strlen(root), "/sys/devices/pci0000:60/0000:60:04.1/0000:64:00.0");
  free(real);
  snprintf(p, sizeof p, "%s/sys/dev/char/226:129/device/device", root);
  FILE *f = fopen(p, "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
  fclose(f);
  ck_assert_str_eq(buf, "0x66af\n");
  snprintf(p, sizeof p, "%s/proc/modules", root);
  f = fopen(p, "r");
  ck_assert_ptr_nonnull(f);
  int amdgpu = 0;
  while (fgets(buf, sizeof buf, f))
    amdgpu += strncmp(buf, "amdgpu ", 7) == 0;
  fclose(f);
  ck_assert_int_eq(amdgpu, 1);

  ck_assert_int_eq(sim_tree_remove(dir), 0);
  ck_assert_int_ne(access(dir, F_OK), 0);
}
END_TEST

/* A host kernel without cacheinfo (small VMs) gets the caches described from CPUID, under
 * both paths ROCR's thunk and our runtime read; a host that has them keeps its own. */
static const char *cache_root;
static const char *cache_tree(void)
{
  return cache_root;
}

START_TEST(cpu_caches_when_host_has_none)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx900", 1);
  char dir[] = "/tmp/test_sim_os.XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char root[64];
  snprintf(root, sizeof root, "%s/tree", dir);
  ck_assert_int_eq(sim_tree_build(root), 0);
  cache_root = root;
  char out[PATH_MAX];
  struct sim_devnode dev;
  const char *node_path = "/sys/devices/system/node/node0/cpu0/cache/index0/level";
  enum sim_path_kind k = sim_path_map(cache_tree, node_path, out, sizeof out, &dev);
  if (!sim_host_cache_sysfs_missing()) {
    ck_assert_int_eq(k, SIM_PATH_PASS);
    ck_assert(!exists(root, "/sys/devices/system/cpu/cpu0/cache", S_IFDIR));
  } else {
    ck_assert_int_eq(k, SIM_PATH_REDIRECT);
    char want[PATH_MAX];
    snprintf(want, sizeof want, "%s/sys/devices/system/cpu/cpu0/cache/index0/level", root);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(sim_path_map(cache_tree, "/sys/devices/system/cpu/cpu0/cache", out,
                                  sizeof out, &dev), SIM_PATH_REDIRECT);
    ck_assert_int_eq(sim_path_map(cache_tree, "/sys/devices/system/cpu/cpu0/cachex", out,
                                  sizeof out, &dev), SIM_PATH_PASS);
    const struct sim_host_cache *c;
    unsigned n = sim_host_caches(&c), cpus = sim_host()->cores, data_l1 = 0;
    ck_assert_uint_gt(n, 0);
    for (unsigned cpu = 0; cpu < cpus; cpu++)
      for (unsigned i = 0; i < n; i++) {
        char p[PATH_MAX], buf[64];
        snprintf(p, sizeof p, "%s/sys/devices/system/cpu/cpu%u/cache/index%u/size", root, cpu, i);
        FILE *f = fopen(p, "r");
        ck_assert_msg(f != NULL, "%s missing", p);
        ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
        fclose(f);
        ck_assert_uint_eq(strtoul(buf, NULL, 10), c[i].size_kb);
        snprintf(p, sizeof p, "%s/sys/devices/system/cpu/cpu%u/cache/index%u/shared_cpu_list",
                 root, cpu, i);
        f = fopen(p, "r");
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
        fclose(f);
        unsigned first = (unsigned)strtoul(buf, NULL, 10);
        ck_assert_uint_le(first, cpu);   /* the thunk lists a cache at its first CPU */
        if (c[i].sharing == 1)
          ck_assert_uint_eq(first, cpu);
        data_l1 += cpu == 0 && c[i].level == 1 && strcmp(c[i].type, "Data") == 0;
      }
    ck_assert_uint_eq(data_l1, 1);
  }
  ck_assert_int_eq(sim_tree_remove(dir), 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("sim_os");
  TCase *tc = tcase_create("os");
  tcase_add_test(tc, sizes);
  tcase_add_test(tc, faults);
  tcase_add_test(tc, fault_names_cover_driver_ioctls);
  tcase_add_test(tc, config_text);
  tcase_add_test(tc, paths_two_gpus);
  tcase_add_test(tc, fd_table);
  tcase_add_test(tc, fd_table_threads);
  tcase_add_test(tc, tree_build_and_remove);
  tcase_add_test(tc, cpu_caches_when_host_has_none);
  suite_add_tcase(s, tc);
  return s;
}
