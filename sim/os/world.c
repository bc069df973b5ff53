/* SPDX-License-Identifier: MIT */
/* world.c — the run's generated tree (shared by all processes of a launcher run, or private
 * to a process preloaded without the launcher) and path mapping against it. */
#include "os/world.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/tree.h"
#include "sim.h"

__thread int sim_os_busy;

static char own_dir[PATH_MAX]; /* a directory this process made and must remove */
static char tree[PATH_MAX + 16];
static const char *tree_ready;
static pid_t own_pid;
static pthread_once_t tree_once = PTHREAD_ONCE_INIT;

/* Processes of one run race to build the shared tree: each builds a private copy and
 * renames it into place; losers remove theirs. */
static int shared_tree(const char *root)
{
  snprintf(tree, sizeof tree, "%s/tree", root);
  if (access(tree, F_OK) == 0)
    return 0;
  char tmp[PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s/tree.%ld", root, (long)getpid());
  int r = sim_tree_build(tmp);
  if (r == 0 && rename(tmp, tree) == 0)
    return 0;
  sim_tree_remove(tmp);
  if (access(tree, F_OK) == 0)
    return 0;
  return r ? r : -errno;
}

/* Without the launcher: a directory of our own, removed when this process exits. */
static int private_tree(void)
{
  const char *tmpdir = getenv("TMPDIR");
  snprintf(own_dir, sizeof own_dir, "%s/hsa-sim.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(own_dir)) {
    own_dir[0] = '\0';
    return -errno;
  }
  own_pid = getpid();
  snprintf(tree, sizeof tree, "%s/tree", own_dir);
  return sim_tree_build(tree);
}

static void tree_init(void)
{
  sim_os_busy++;
  const struct sim_config *cfg = sim_config();
  int r = cfg->root ? shared_tree(cfg->root) : private_tree();
  if (r == 0)
    tree_ready = tree;
  else
    dprintf(2, "hsa-sim: cannot create the simulated sysfs tree under %s: %s\n",
            cfg->root ? cfg->root : own_dir, strerror(-r));
  sim_os_busy--;
}

const char *sim_os_tree(void)
{
  pthread_once(&tree_once, tree_init);
  return tree_ready;
}

__attribute__((destructor)) static void world_fini(void)
{
  if (own_dir[0] && own_pid == getpid()) {
    sim_os_busy++;
    sim_tree_remove(own_dir);
    own_dir[0] = '\0';
    sim_os_busy--;
  }
}

enum sim_path_kind sim_os_map(const char *path, char *out, size_t outlen,
                              struct sim_devnode *dev)
{
  if (sim_os_busy || !path || path[0] != '/')
    return SIM_PATH_PASS;
  /* Only paths in /sys, /dev and /proc can be ours: decide that before any set-up. */
  if (strncmp(path, "/sys/", 5) && strncmp(path, "/dev/", 5) && strncmp(path, "/proc/", 6) &&
      strncmp(path, "//", 2))
    return SIM_PATH_PASS;
  return sim_path_map(sim_os_tree, path, out, outlen, dev);
}
