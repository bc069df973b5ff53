/* SPDX-License-Identifier: MIT */
/* sim_cp_latency.c — how fast the simulated command processor notices a doorbell, and what
 * an idle queue costs. A plain HSA client (so it runs on Debian's ROCR 5.2.3 and on ours,
 * both under hsa-sim): a barrier-AND packet with no dependencies and a completion signal is
 * written, the doorbell rung, and the host spins on the signal; the time from just before
 * the doorbell store to the signal reaching 0 bounds the start latency from above (a
 * barrier is completed as soon as it starts). "hot": the next packet follows at once, while
 * the queue's engine still polls; "cold": 20 ms of idleness first, so the engine has
 * write-protected its doorbell page and sleeps (the store blocks in the kernel until the
 * simulator's watcher thread lets it land and wakes the engine). Idle CPU:
 * user + system time of the whole process (getrusage) over 1 s with the queue idle.
 * Two floors of the cold path on this machine, measured in the same process without the
 * simulator: a futex wake-up, and a store to a write-protected page (userfaultfd) until it
 * lands, with a thread that reads the fault and lifts the protection. */
#include <hsa/hsa.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static hsa_agent_t gpu;
static int have;

static hsa_status_t find(hsa_agent_t a, void *d)
{
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have) {
    gpu = a;
    have = 1;
  }
  return HSA_STATUS_SUCCESS;
}

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double one(hsa_queue_t *q, hsa_signal_t s)
{
  hsa_signal_store_relaxed(s, 1);
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)q->base_address + idx % q->size;
  memset((char *)p + 4, 0, 60);
  p->completion_signal = s;
  uint16_t h = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  __atomic_store_n((uint32_t *)p, h, __ATOMIC_RELEASE);
  double t0 = now_us();
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  while (hsa_signal_load_relaxed(s) != 0)
    ;
  return now_us() - t0;
}

/* The floor of the cold path on this machine: waking a thread asleep on a futex and seeing
 * it run (what the doorbell watcher does, without the fault and the protection). */
static unsigned fx_word, fx_seen;

static void *sleeper(void *arg)
{
  (void)arg;
  for (;;) {
    while (__atomic_load_n(&fx_word, __ATOMIC_ACQUIRE) == 0)
      syscall(SYS_futex, &fx_word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    if (__atomic_load_n(&fx_word, __ATOMIC_ACQUIRE) == 2)
      return NULL;
    __atomic_store_n(&fx_word, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&fx_seen, 1, __ATOMIC_RELEASE);
  }
}

static double futex_wake(void)
{
  __atomic_store_n(&fx_seen, 0, __ATOMIC_RELEASE);
  double t0 = now_us();
  __atomic_store_n(&fx_word, 1, __ATOMIC_RELEASE);
  syscall(SYS_futex, &fx_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
  while (!__atomic_load_n(&fx_seen, __ATOMIC_ACQUIRE))
    ;
  return now_us() - t0;
}

/* The store-to-protected-page floor: what the kernel charges for a write fault reported on
 * a userfaultfd, read by another thread that makes the page writable again (which lets the
 * store land). Raw system calls: hsa-sim interposes ioctl and poll in this process. */
static int uf_fd = -1, uf_stop;   /* uf_stop: the reader may go */

static void *uf_reader(void *arg)
{
  (void)arg;
  struct uffd_msg m;
  struct pollfd pfd = { .fd = uf_fd, .events = POLLIN };
  /* uf_stop is set once the last store landed: nothing is pending after it */
  while (!__atomic_load_n(&uf_stop, __ATOMIC_ACQUIRE)) {
    struct timespec ts = { 0, 100000000 };
    if (syscall(SYS_ppoll, &pfd, 1, &ts, NULL, 0) != 1 ||
        syscall(SYS_read, uf_fd, &m, sizeof m) != (long)sizeof m)
      continue;
    struct uffdio_writeprotect wp = {
      .range = { m.arg.pagefault.address & ~4095ull, 4096 }, .mode = 0 };
    syscall(SYS_ioctl, uf_fd, UFFDIO_WRITEPROTECT, &wp);
  }
  return NULL;
}

static int uf_floor(double *v, int n)
{
  long pg = sysconf(_SC_PAGESIZE);
  int mfd = (int)syscall(SYS_memfd_create, "uf_floor", 0);
  uf_fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
  if (uf_fd < 0 && mfd >= 0)
    uf_fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
  if (mfd < 0 || uf_fd < 0 || ftruncate(mfd, pg) != 0)
    return 0;
  volatile uint64_t *page = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
  struct uffdio_api api = { .api = UFFD_API,
                            .features = UFFD_FEATURE_PAGEFAULT_FLAG_WP |
                                        UFFD_FEATURE_WP_HUGETLBFS_SHMEM };
  struct uffdio_register reg = { .range = { (uintptr_t)page, (uint64_t)pg },
                                 .mode = UFFDIO_REGISTER_MODE_WP };
  pthread_t th;
  if (page == MAP_FAILED || syscall(SYS_ioctl, uf_fd, UFFDIO_API, &api) != 0 ||
      (page[0] = 1, syscall(SYS_ioctl, uf_fd, UFFDIO_REGISTER, &reg) != 0) ||
      pthread_create(&th, NULL, uf_reader, NULL) != 0)
    return 0;
  for (int i = 0; i < n; i++) {
    struct uffdio_writeprotect wp = { .range = { (uintptr_t)page, (uint64_t)pg },
                                      .mode = UFFDIO_WRITEPROTECT_MODE_WP };
    syscall(SYS_ioctl, uf_fd, UFFDIO_WRITEPROTECT, &wp);
    nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    double t0 = now_us();
    page[0] = (uint64_t)i;
    v[i] = now_us() - t0;
  }
  __atomic_store_n(&uf_stop, 1, __ATOMIC_RELEASE);
  pthread_join(th, NULL);
  close(uf_fd);
  munmap((void *)page, (size_t)pg);
  close(mfd);
  return n;
}

static void report(const char *mode, double *v, int n)
{
  qsort(v, (size_t)n, sizeof v[0], cmp);
  printf("{\"mode\": \"%s\", \"n\": %d, \"median_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f}\n",
         mode, n, v[n / 2], v[n * 99 / 100], v[n - 1]);
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 200;
  if (n < 10 || n > 100000)
    n = 200;
  if (hsa_init() != HSA_STATUS_SUCCESS)
    return 2;
  hsa_iterate_agents(find, NULL);
  hsa_queue_t *q;
  hsa_signal_t s;
  if (!have || hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) ||
      hsa_signal_create(1, 0, NULL, &s))
    return 2;
  double *v = calloc((size_t)n, sizeof *v);
  one(q, s);   /* warm-up */
  for (int i = 0; i < n; i++)
    v[i] = one(q, s);
  report("hot", v, n);
  int cold = n < 50 ? n : 50;
  for (int i = 0; i < cold; i++) {
    nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    v[i] = one(q, s);
  }
  report("cold", v, cold);
  pthread_t th;
  pthread_create(&th, NULL, sleeper, NULL);
  for (int i = 0; i < cold; i++) {
    nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    v[i] = futex_wake();
  }
  __atomic_store_n(&fx_word, 2, __ATOMIC_RELEASE);
  syscall(SYS_futex, &fx_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
  pthread_join(th, NULL);
  report("futex_wake_floor", v, cold);
  if (uf_floor(v, cold))
    report("uffd_store_floor", v, cold);
  else
    printf("{\"mode\": \"uffd_store_floor\", \"skipped\": \"no userfaultfd write protection for shared memory here\"}\n");
  nanosleep(&(struct timespec){ 0, 500000000 }, NULL);
  struct rusage a, b;
  getrusage(RUSAGE_SELF, &a);
  double t0 = now_us();
  nanosleep(&(struct timespec){ 1, 0 }, NULL);
  getrusage(RUSAGE_SELF, &b);
  double wall = now_us() - t0;
  double cpu = (b.ru_utime.tv_sec - a.ru_utime.tv_sec) * 1e6 + (b.ru_utime.tv_usec - a.ru_utime.tv_usec) +
               (b.ru_stime.tv_sec - a.ru_stime.tv_sec) * 1e6 + (b.ru_stime.tv_usec - a.ru_stime.tv_usec);
  printf("{\"mode\": \"idle\", \"wall_ms\": %.0f, \"cpu_ms\": %.2f}\n", wall / 1e3, cpu / 1e3);
  free(v);
  hsa_signal_destroy(s);
  hsa_queue_destroy(q);
  hsa_shut_down();
  return 0;
}
