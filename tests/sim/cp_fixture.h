/* SPDX-License-Identifier: MIT */
/* cp_fixture.h — what the command processor and SDMA tests share: GTT buffers mapped on the
 * GPU (a GPU address and the CPU's view of the same bytes), a user event page, signals laid
 * out as amd_signal_t, and a doorbell mapped as a runtime maps it (mmap of /dev/kfd), so a
 * store to it takes the same path as a real program's. Include after kfd_fixture.h. */
#ifndef TESTS_SIM_CP_FIXTURE_H
#define TESTS_SIM_CP_FIXTURE_H

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <time.h>

#include "kfd/kfd.h"

struct buf {
  uint64_t va;
  uint8_t *host;
  uint64_t handle;
};

static uint64_t cpx_next_va = 0x100000000ull;

/* GTT memory with the given KFD_IOC_ALLOC_MEM_FLAGS_* (cpx_gtt: GTT_RW) */
static __attribute__((unused)) struct buf cpx_gtt_flags(uint64_t size, uint32_t flags)
{
  struct buf b;
  size = (size + 4095) & ~4095ull;
  struct kfd_ioctl_alloc_memory_of_gpu_args a = { .va_addr = cpx_next_va, .size = size,
                                                  .gpu_id = GPU0, .flags = flags };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
  cpx_next_va += size + 0x10000;
  int err = 0;
  void *h = sim_drm_mmap(sim_gpu(0), NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                         (off_t)a.mmap_offset, &err);
  ck_assert_ptr_ne(h, MAP_FAILED);
  uint32_t ids[1] = { GPU0 };
  ck_assert_int_eq(fx_map(a.handle, ids, 1, true), 0);
  b.va = a.va_addr;
  b.host = h;
  b.handle = a.handle;
  memset(b.host, 0, size);
  return b;
}

/* An event page of the runtime's own (the first CREATE_EVENT hands it over) and one signal
 * event in it; returns the event id and the GPU address of its slot. */
static __attribute__((unused)) struct buf cpx_gtt(uint64_t size)
{
  return cpx_gtt_flags(size, GTT_RW);
}

static __attribute__((unused)) uint32_t cpx_event(struct buf *page, uint64_t *slot_va)
{
  static bool have;
  static struct buf pg;
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_SIGNAL };
  if (!have) {
    pg = cpx_gtt(KFD_SIGNAL_EVENT_LIMIT * 8);
    memset(pg.host, 0xff, KFD_SIGNAL_EVENT_LIMIT * 8);
    e.event_page_offset = pg.handle;
    have = true;
  }
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  *page = pg;
  *slot_va = pg.va + 8ull * e.event_slot_index;
  return e.event_id;
}

/* amd_signal_t at b + off: kind user, the value, optionally an event mailbox. */
static __attribute__((unused)) void cpx_signal(struct buf *b, uint64_t off, int64_t value,
                                               uint64_t mailbox, uint32_t event_id)
{
  int64_t kind = 1;
  memcpy(b->host + off, &kind, 8);
  memcpy(b->host + off + 8, &value, 8);
  memcpy(b->host + off + 16, &mailbox, 8);
  memcpy(b->host + off + 24, &event_id, 4);
}

static __attribute__((unused)) int64_t cpx_value(struct buf *b, uint64_t off)
{
  return __atomic_load_n((int64_t *)(b->host + off + 8), __ATOMIC_ACQUIRE);
}

/* Waits for one event (at most `ms`): the KFD wait result. */
static __attribute__((unused)) uint32_t cpx_wait_event(uint32_t id, uint32_t ms,
                                                       struct kfd_event_data *out)
{
  struct kfd_event_data d;
  memset(&d, 0, sizeof d);
  d.event_id = id;
  struct kfd_ioctl_wait_events_args w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
                                          .wait_for_all = 1, .timeout = ms };
  ck_assert_int_eq(kio(AMDKFD_IOC_WAIT_EVENTS, &w), 0);
  if (out)
    *out = d;
  return w.wait_result;
}

/* The doorbell slice of GPU0 mapped as a runtime maps it. */
static __attribute__((unused)) volatile uint64_t *cpx_doorbells(uint64_t doorbell_offset)
{
  int err = 0;
  void *m = sim_kfd_mmap(NULL, SIM_DOORBELL_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED,
                         (off_t)(doorbell_offset & ~(uint64_t)(SIM_DOORBELL_SLICE - 1)), &err);
  ck_assert_ptr_ne(m, MAP_FAILED);
  return m;
}

/* Creates the queue c describes, with the context save area the node's kernel wants (models
 * with queue_buffer_checks), and asserts it succeeds; c gets its id and doorbell offset. */
static __attribute__((unused)) void cpx_create_queue(struct kfd_ioctl_create_queue_args *c)
{
  const struct sim_gpu_model *m = sim_gpu(0)->model;
  if (m->queue_buffer_checks) {
    struct sim_queue_sizes qs;
    sim_model_queue_sizes(m, &qs);
    struct buf save = cpx_gtt(qs.cwsr_total);
    c->ctx_save_restore_address = save.va;
    c->ctx_save_restore_size = qs.cwsr_size;
    c->ctl_stack_size = qs.ctl_stack_size;
  }
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, c), 0);
}

/* The doorbell of the queue at doorbell_offset, in its slice mapped as a runtime maps it. */
static __attribute__((unused)) volatile uint64_t *cpx_queue_doorbell(uint64_t doorbell_offset)
{
  return cpx_doorbells(doorbell_offset) + (doorbell_offset & (SIM_DOORBELL_SLICE - 1)) / 8;
}

/* Polls `*p == want` for at most `ms` (a bound for a hung model, not a timing assertion). */
static __attribute__((unused)) bool cpx_until64(volatile int64_t *p, int64_t want, unsigned ms)
{
  for (unsigned i = 0; i < ms; i++) {
    if (__atomic_load_n(p, __ATOMIC_ACQUIRE) == want)
      return true;
    nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
  }
  return __atomic_load_n(p, __ATOMIC_ACQUIRE) == want;
}

/* Whether the page holding `addr` is write-protected through userfaultfd right now
 * (/proc/self/pagemap bit 57; the mapping's own permissions do not change). */
static __attribute__((unused)) bool cpx_uffd_wp(const volatile void *addr)
{
  int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  ck_assert_int_ge(fd, 0);
  uint64_t e = 0;
  ck_assert_int_eq(pread(fd, &e, 8, (off_t)((uintptr_t)addr / 4096 * 8)), 8);
  close(fd);
  return (e >> 57) & 1;
}

/* A 64-bit store from a new thread that blocks every signal, as the workers of ROCm's
 * OpenCL runtime do; returns once the store has completed. */
struct cpx_store {
  volatile uint64_t *at;
  uint64_t value;
};

static void *cpx_store_main(void *arg)
{
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, NULL);
  struct cpx_store *s = arg;
  __atomic_store_n(s->at, s->value, __ATOMIC_RELEASE);
  return NULL;
}

static __attribute__((unused)) void cpx_store_signals_blocked(volatile uint64_t *at, uint64_t v)
{
  struct cpx_store s = { at, v };
  pthread_t t;
  ck_assert_int_eq(pthread_create(&t, NULL, cpx_store_main, &s), 0);
  ck_assert_int_eq(pthread_join(t, NULL), 0);
}

/* What a container's seccomp policy may do: userfaultfd(2) fails with EPERM from now on in
 * this process and its children (call in a forked child). */
static __attribute__((unused)) void cpx_deny_userfaultfd(void)
{
  struct sock_filter f[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_userfaultfd, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { (unsigned short)(sizeof f / sizeof f[0]), f };
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
    _exit(90);
}

static __attribute__((unused)) void cpx_sleep_ms(unsigned ms)
{
  nanosleep(&(struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000L }, NULL);
}

#endif
