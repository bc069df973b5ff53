/* SPDX-License-Identifier: MIT */
/* hsa-sim — run a program on a simulated AMD GPU.
 *
 *   hsa-sim [--gpu NAME] [--gpus N] [--vram SIZE] [--kfd-version 1.N] [--threads N]
 *           [--trace[=FILE]] [--fail KIND:N:ERRNO]...
 *           [--] PROGRAM [ARGS...]
 *
 * Preloads libhsa-sim.so into PROGRAM (and, through the environment, its children), hands
 * it the options in HSA_SIM_CONFIG, and keeps the run's private directory (the generated
 * sysfs tree) for as long as PROGRAM runs; the directory is removed when it exits. The exit
 * status is PROGRAM's. */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dev/catalog.h"
#include "os/options.h"
#include "os/tree.h"
#include "os/world.h"
#include "sim.h"

#define SIM_STR2(x) #x
#define SIM_STR(x) SIM_STR2(x)

static const char *prog = "hsa-sim";

static void usage(FILE *f)
{
  fprintf(f,
          "Usage: %s [OPTION]... [--] PROGRAM [ARG]...\n"
          "Run PROGRAM on a simulated AMD GPU (no GPU or amdgpu driver needed).\n"
          "\n"
          "  --gpu NAME          board to simulate (default gfx900; see --list-gpus)\n"
          "  --gpus N            number of GPUs, 1..%d (default 1)\n"
          "  --vram SIZE         VRAM per GPU, e.g. 4G, 512M (default: the board's)\n"
          "  --kfd-version 1.N   answer as a KFD interface 1.11 to 1.18 (default 1.18); ioctls\n"
          "                      newer than that level are unknown (EINVAL)\n"
          "  --threads N         host threads that run work-groups, 1..%d (default: the CPUs\n"
          "                      the program may run on)\n"
          "  --trace[=FILE]      log every KFD/DRM ioctl to stderr or FILE\n"
          "  --fail KIND:N:ERRNO make the Nth ioctl of KIND fail with ERRNO, e.g.\n"
          "                      ALLOC_MEMORY_OF_GPU:3:ENOMEM (repeatable, up to %d)\n"
          "  --interp            run shader code on the reference interpreter only (as\n"
          "                      HSA_SIM_INTERP=1; default: the fast engine)\n"
          "  --list-gpus         list the boards and exit\n"
          "  -h, --help          show this help and exit\n",
          prog, SIM_MAX_GPUS, SIM_MAX_THREADS, SIM_MAX_FAULTS);
}

static _Noreturn void bad(const char *fmt, const char *arg)
{
  fprintf(stderr, "%s: ", prog);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry '%s --help'.\n", prog);
  exit(2);
}

static void list_gpus(void)
{
  printf("%-10s %-24s %-9s %4s %11s\n", "NAME", "BOARD", "PCI ID", "CUs", "VRAM");
  for (unsigned i = 0; sim_catalog_at(i); i++) {
    const struct sim_gpu_model *m = sim_catalog_at(i);
    char vram[32];
    if (m->apu)   /* the APU's memory is the system's */
      snprintf(vram, sizeof vram, "%11s", "system");
    else
      snprintf(vram, sizeof vram, "%7llu MiB", (unsigned long long)(m->default_vram_bytes >> 20));
    printf("%-10s %-24s %04x:%04x %4u %s%s\n", m->name, m->marketing_name, m->vendor_id,
           m->device_id, m->cu_count, vram, i == 0 ? "  (default)" : "");
  }
}

/* "--name VALUE" or "--name=VALUE": the value, advancing *i past it; NULL if argv[*i] is
 * not this option. */
static const char *value_of(int argc, char **argv, int *i, const char *name)
{
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0)
    return NULL;
  if (a[n] == '=')
    return a + n + 1;
  if (a[n] != '\0')
    return NULL;
  if (*i + 1 >= argc)
    bad("option '%s' needs a value", name);
  return argv[++*i];
}

/* libhsa-sim.so: next to the launcher in the build tree (bin/../lib) or installed
 * (bin/../<libdir>/hsa-sim); HSA_SIM_LIBRARY overrides. */
static int find_library(char *out, size_t len)
{
  const char *env = getenv("HSA_SIM_LIBRARY");
  if (env && *env) {
    snprintf(out, len, "%s", env);
    return access(out, R_OK);
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return -1;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return -1;
  *slash = '\0';
  /* build tree; installed with libdir = prefix/lib, prefix/lib64 or a multiarch lib/<triplet> */
  static const char *const rel[] = { "../lib/libhsa-sim.so", "../lib/hsa-sim/libhsa-sim.so",
                                     "../lib64/hsa-sim/libhsa-sim.so",
                                     "../lib/*/hsa-sim/libhsa-sim.so" };
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    char pattern[PATH_MAX + 64];
    snprintf(pattern, sizeof pattern, "%s/%s", exe, rel[i]);
    glob_t g;
    int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0 &&
                access(g.gl_pathv[0], R_OK) == 0 && realpath(g.gl_pathv[0], out);
    globfree(&g);
    if (found)
      return 0;
  }
  return -1;
}

static volatile sig_atomic_t child_pid;

/* Signals meant for the run go to the program; the launcher stays to clean up. */
static void forward(int sig)
{
  if (child_pid > 0)
    kill((pid_t)child_pid, sig);
}

int main(int argc, char **argv)
{
  const char *gpu = "gfx900", *vram = NULL, *trace = NULL, *kfd = NULL;
  unsigned gpus = 1, threads = 0;
  const char *faults[SIM_MAX_FAULTS];
  unsigned nfaults = 0;
  int i = 1;

  for (; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if (a[0] != '-')
      break;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--list-gpus") == 0) {
      list_gpus();
      return 0;
    } else if (strcmp(a, "--interp") == 0) {
      setenv("HSA_SIM_INTERP", "1", 1);   /* read by sim/isa in the program's process */
    } else if (strcmp(a, "--trace") == 0) {
      trace = "stderr";
    } else if (strncmp(a, "--trace=", 8) == 0) {
      trace = a + 8;
      if (!*trace)
        bad("%s", "--trace= needs a file name");
    } else if ((v = value_of(argc, argv, &i, "--gpu"))) {
      if (!sim_catalog_find(v))
        bad("unknown GPU '%s' (see --list-gpus)", v);
      gpu = v;
    } else if ((v = value_of(argc, argv, &i, "--gpus"))) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (!*v || *end || n < 1 || n > SIM_MAX_GPUS)
        bad("--gpus '%s' is not a number from 1 to " SIM_STR(SIM_MAX_GPUS), v);
      gpus = (unsigned)n;
    } else if ((v = value_of(argc, argv, &i, "--threads"))) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (!*v || *end || n < 1 || n > SIM_MAX_THREADS)
        bad("--threads '%s' is not a number from 1 to " SIM_STR(SIM_MAX_THREADS), v);
      threads = (unsigned)n;
    } else if ((v = value_of(argc, argv, &i, "--vram"))) {
      uint64_t bytes;
      if (sim_parse_size(v, &bytes) || bytes < (64u << 20))
        bad("--vram '%s' is not a size of at least 64M (e.g. 4G, 512M)", v);
      vram = v;
    } else if ((v = value_of(argc, argv, &i, "--kfd-version"))) {
      unsigned minor;
      if (sim_parse_kfd_version(v, &minor))
        bad("--kfd-version '%s' is not a KFD interface version from 1.11 to 1.18", v);
      kfd = v;
    } else if ((v = value_of(argc, argv, &i, "--fail"))) {
      struct sim_fault f;
      char why[200];
      if (sim_parse_fault(v, &f, why, sizeof why))
        bad("--fail: %s", why);
      if (nfaults == SIM_MAX_FAULTS)
        bad("%s", "too many --fail options");
      faults[nfaults++] = v;
    } else {
      bad("unknown option '%s'", a);
    }
  }
  if (i >= argc)
    bad("%s", "no program to run");
  char **cmd = argv + i;

  char lib[PATH_MAX];
  if (find_library(lib, sizeof lib)) {
    fprintf(stderr, "%s: cannot find libhsa-sim.so (looked in ../lib and ../lib/hsa-sim next "
                    "to %s; set HSA_SIM_LIBRARY to its path)\n", prog, argv[0]);
    return 2;
  }

  /* The trace file is made empty here; every process of the run appends to it. Relative
   * names are made absolute, since the program may change directory. */
  char trace_path[PATH_MAX + 8];
  if (trace && strcmp(trace, "stderr") != 0) {
    FILE *f = fopen(trace, "w");
    if (!f) {
      fprintf(stderr, "%s: cannot write trace file %s: %s\n", prog, trace, strerror(errno));
      return 2;
    }
    fclose(f);
    char cwd[PATH_MAX];
    if (trace[0] != '/' && getcwd(cwd, sizeof cwd)) {
      snprintf(trace_path, sizeof trace_path, "%s/%s", cwd, trace);
      trace = trace_path;
    }
    if (strchr(trace, ','))
      bad("trace file name '%s' must not contain a comma", trace);
  }

  const char *tmpdir = getenv("TMPDIR");
  char root[PATH_MAX];
  snprintf(root, sizeof root, "%s/hsa-sim.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(root)) {
    fprintf(stderr, "%s: cannot create a directory in %s: %s\n", prog,
            tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
    return 2;
  }

  char config[2 * PATH_MAX + 512];
  int n = snprintf(config, sizeof config, "gpu=%s,gpus=%u,root=%s", gpu, gpus, root);
  if (vram)
    n += snprintf(config + n, sizeof config - (size_t)n, ",vram=%s", vram);
  if (trace)
    n += snprintf(config + n, sizeof config - (size_t)n, ",trace=%s", trace);
  if (kfd)
    n += snprintf(config + n, sizeof config - (size_t)n, ",kfd=%s", kfd);
  if (threads)
    n += snprintf(config + n, sizeof config - (size_t)n, ",threads=%u", threads);
  for (unsigned k = 0; k < nfaults; k++)
    n += snprintf(config + n, sizeof config - (size_t)n, ",fail=%s", faults[k]);
  setenv("HSA_SIM_CONFIG", config, 1);

  /* Build the simulated sysfs now: errors show here, before the program starts. */
  if (!sim_os_tree()) {
    sim_tree_remove(root);
    return 2;
  }

  const char *old = getenv("LD_PRELOAD");
  char *preload = malloc(strlen(lib) + (old ? strlen(old) : 0) + 2);
  if (!preload)
    return 2;
  strcpy(preload, lib);
  if (old && *old) {
    strcat(preload, ":");
    strcat(preload, old);
  }
  setenv("LD_PRELOAD", preload, 1);
  free(preload);   /* setenv copied it (LeakSanitizer reports it otherwise) */

  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
    sim_tree_remove(root);
    return 2;
  }
  if (pid == 0) {
    execvp(cmd[0], cmd);
    int e = errno;
    fprintf(stderr, "%s: cannot run %s: %s\n", prog, cmd[0], strerror(e));
    _exit(e == ENOENT ? 127 : 126);
  }

  child_pid = pid;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
  for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
    sigaction(sigs[k], &sa, NULL);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      status = 1 << 8;
      break;
    }
  }
  int r = sim_tree_remove(root);
  if (r)
    fprintf(stderr, "%s: could not remove %s: %s\n", prog, root, strerror(-r));

  if (WIFSIGNALED(status)) {
    /* Die the same way, so the caller sees what happened to the program. */
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    struct rlimit none = { 0, 0 }; /* the program already dumped core if it was going to */
    setrlimit(RLIMIT_CORE, &none);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
