/* SPDX-License-Identifier: MIT */
/* test_cp_aql.c — the command processor model driven through the KFD ABI as a runtime drives
 * it: an AQL queue whose amd_queue_t, ring and signals live in GTT buffers mapped on the GPU,
 * packets written and the doorbell rung through the runtime's own doorbell mapping. Checks
 * completion signals and their KFD events, the barrier rules, the in-order rule, queue
 * errors in queue_inactive_signal, VM faults as memory exception events, PM4 through the
 * AMD vendor packet, a dispatch that asks for scratch and resumes, the sleep/wake path
 * of an idle queue (with userfaultfd, and polling without it), and doorbells rung out of
 * order by several producers. */
#include "kfd_fixture.h"
#include "cp_fixture.h"

#include <stdio.h>
#include <sys/wait.h>

#define SIG_DONE 0
#define SIG_DEP 64
#define SIG_INACTIVE 128
#define SLOTS 64

struct aqlq {
  struct buf q, ring, sig;
  volatile uint64_t *doorbell;
  uint64_t doorbell_offset;   /* what the queue's creation returned */
  uint32_t queue_id, event_id, inactive_event;
  uint64_t next;
  struct buf evpage;
};

/* Another queue of the same process (after aq_setup). */
static void aq_another(struct aqlq *a)
{
  memset(a, 0, sizeof *a);
  a->q = cpx_gtt(4096);
  a->ring = cpx_gtt(SLOTS * 64);
  a->sig = cpx_gtt(4096);
  for (unsigned i = 0; i < SLOTS; i++)
    *(uint16_t *)(a->ring.host + 64 * i) = 1;   /* INVALID */
  uint64_t slot, slot2;
  a->event_id = cpx_event(&a->evpage, &slot);
  a->inactive_event = cpx_event(&a->evpage, &slot2);
  cpx_signal(&a->sig, SIG_DONE, 1, slot, a->event_id);
  cpx_signal(&a->sig, SIG_DEP, 1, 0, 0);
  cpx_signal(&a->sig, SIG_INACTIVE, 0, slot2, a->inactive_event);
  uint64_t inactive = a->sig.va + SIG_INACTIVE;
  memcpy(a->q.host + 0xc0, &inactive, 8);          /* queue_inactive_signal */
  struct kfd_ioctl_create_queue_args c = {
    .ring_base_address = a->ring.va, .ring_size = SLOTS * 64, .gpu_id = GPU0,
    .read_pointer_address = a->q.va + 0x80, .write_pointer_address = a->q.va + 0x38,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, .queue_percentage = 100, .queue_priority = 7 };
  cpx_create_queue(&c);
  a->queue_id = c.queue_id;
  a->doorbell_offset = c.doorbell_offset;
  a->doorbell = cpx_queue_doorbell(c.doorbell_offset);
}

static void aq_setup(struct aqlq *a)
{
  fx_open();
  aq_another(a);
}

static uint64_t rptr(struct aqlq *a)
{
  return __atomic_load_n((uint64_t *)(a->q.host + 0x80), __ATOMIC_ACQUIRE);
}

/* Reserves a slot as a runtime does (the write index in amd_queue_t first) and writes the
 * packet, header last; does not ring. */
static uint64_t write_pkt(struct aqlq *a, const void *pkt)
{
  uint64_t idx = a->next++;
  __atomic_store_n((uint64_t *)(a->q.host + 0x38), a->next, __ATOMIC_RELEASE);
  uint8_t *s = a->ring.host + (idx % SLOTS) * 64;
  memcpy(s + 2, (const uint8_t *)pkt + 2, 62);
  __atomic_store_n((uint16_t *)s, *(const uint16_t *)pkt, __ATOMIC_RELEASE);
  return idx;
}

/* Writes a packet and rings the doorbell with its index. */
static uint64_t submit(struct aqlq *a, const void *pkt)
{
  uint64_t idx = write_pkt(a, pkt);
  __atomic_store_n(a->doorbell, idx, __ATOMIC_RELEASE);
  return idx;
}

static void barrier_pkt(uint8_t *p, unsigned type, uint64_t dep0, uint64_t dep1, uint64_t done)
{
  memset(p, 0, 64);
  *(uint16_t *)p = (uint16_t)(type | 1 << 8 | 2 << 9 | 2 << 11);
  memcpy(p + 8, &dep0, 8);
  memcpy(p + 16, &dep1, 8);
  memcpy(p + 56, &done, 8);
}

START_TEST(barrier_and_waits_then_completes_with_event)
{
  struct aqlq a;
  aq_setup(&a);
  uint8_t p[64];
  barrier_pkt(p, 3, a.sig.va + SIG_DEP, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 100, NULL), KFD_IOC_WAIT_RESULT_TIMEOUT);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
  ck_assert_uint_eq(rptr(&a), 0);
  __atomic_store_n((int64_t *)(a.sig.host + SIG_DEP + 8), 0, __ATOMIC_RELEASE);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 0);
  ck_assert_uint_eq(rptr(&a), 1);
  ck_assert_uint_eq(*(uint16_t *)a.ring.host & 0xff, 1);   /* slot handed back: INVALID */
  /* the driver consumed the mailbox write: the slot is unsignaled again */
  ck_assert_uint_eq(*(uint64_t *)(a.evpage.host + 8ull * a.event_id), UINT64_MAX);
}
END_TEST

START_TEST(barrier_or_needs_one_dependency)
{
  struct aqlq a;
  aq_setup(&a);
  cpx_signal(&a.sig, 192, 1, 0, 0);
  uint8_t p[64];
  barrier_pkt(p, 5, a.sig.va + SIG_DEP, a.sig.va + 192, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 100, NULL), KFD_IOC_WAIT_RESULT_TIMEOUT);
  __atomic_store_n((int64_t *)(a.sig.host + 192 + 8), 0, __ATOMIC_RELEASE);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 0);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DEP), 1);   /* untouched */
}
END_TEST

START_TEST(packets_complete_in_order)
{
  struct aqlq a;
  aq_setup(&a);
  cpx_signal(&a.sig, SIG_DONE, 3, 0, 0);
  uint8_t p[64];
  barrier_pkt(p, 3, a.sig.va + SIG_DEP, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  submit(&a, p);
  cpx_sleep_ms(100);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 3);   /* nothing overtook the blocked one */
  __atomic_store_n((int64_t *)(a.sig.host + SIG_DEP + 8), 0, __ATOMIC_RELEASE);
  ck_assert(cpx_until64((int64_t *)(a.sig.host + SIG_DONE + 8), 0, 5000));
  ck_assert_uint_eq(rptr(&a), 3);
}
END_TEST

/* An idle queue's engine sleeps with its doorbell page write-protected; a store to it from a
 * thread that blocks every signal (ROCm's OpenCL runtime's workers do) lands and wakes it. */
START_TEST(idle_queue_wakes_on_doorbell_store)
{
  struct aqlq a;
  aq_setup(&a);
  cpx_sleep_ms(300);   /* long enough for the engine to protect the page and sleep */
  ck_assert(cpx_uffd_wp(a.doorbell));   /* armed: the next store will be reported */
  uint8_t p[64];
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DONE);
  uint64_t idx = write_pkt(&a, p);
  cpx_store_signals_blocked(a.doorbell, idx);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(*a.doorbell, 0);
  cpx_sleep_ms(300);
  ck_assert(cpx_uffd_wp(a.doorbell));
  submit(&a, p);
  ck_assert(cpx_until64((int64_t *)(a.sig.host + SIG_DONE + 8), -1, 5000));
}
END_TEST

/* Two queues share a doorbell page. While one is busy (a barrier waiting on memory keeps its
 * engine awake), the idle one does not protect the page, which would stall the busy queue's
 * producer in every doorbell store; it polls, and still sees its own packets. Once both are
 * idle the page is protected again. */
START_TEST(a_busy_sibling_keeps_the_doorbell_page_writable)
{
  struct aqlq a, b;
  aq_setup(&a);
  aq_another(&b);
  ck_assert_uint_eq(a.doorbell_offset / 4096, b.doorbell_offset / 4096);   /* one page */
  uint8_t p[64];
  barrier_pkt(p, 3, a.sig.va + SIG_DEP, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  cpx_sleep_ms(300);   /* b's engine went idle long ago; a's waits on its dependency */
  ck_assert(!cpx_uffd_wp(a.doorbell));
  barrier_pkt(p, 3, 0, 0, b.sig.va + SIG_DONE);
  submit(&b, p);
  ck_assert(cpx_until64((int64_t *)(b.sig.host + SIG_DONE + 8), 0, 5000));
  ck_assert(!cpx_uffd_wp(a.doorbell));
  __atomic_store_n((int64_t *)(a.sig.host + SIG_DEP + 8), 0, __ATOMIC_RELEASE);
  ck_assert(cpx_until64((int64_t *)(a.sig.host + SIG_DONE + 8), 0, 5000));
  bool wp = false;
  for (unsigned i = 0; i < 500 && !(wp = cpx_uffd_wp(a.doorbell)); i++)
    cpx_sleep_ms(10);
  ck_assert_msg(wp, "both queues idle, the page was never protected");
}
END_TEST

/* Where userfaultfd is refused (a seccomp policy, an old kernel), idle engines poll: packets
 * are still noticed, and the simulator says once why. */
START_TEST(without_userfaultfd_an_idle_queue_polls)
{
  FILE *err = tmpfile();
  ck_assert_ptr_nonnull(err);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    dup2(fileno(err), 2);
    cpx_deny_userfaultfd();
    struct aqlq a;
    aq_setup(&a);
    cpx_sleep_ms(100);   /* idle: the engine polls at its slowest */
    uint8_t p[64];
    barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DONE);
    uint64_t idx = write_pkt(&a, p);
    cpx_store_signals_blocked(a.doorbell, idx);
    bool done = cpx_until64((int64_t *)(a.sig.host + SIG_DONE + 8), 0, 5000);
    _exit(done && !cpx_uffd_wp(a.doorbell) ? 0 : 3);
  }
  int st = 0;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status 0x%x", st);
  char text[1024] = "";
  rewind(err);
  size_t n = fread(text, 1, sizeof text - 1, err);
  text[n] = 0;
  const char *said = strstr(text, "cannot watch doorbells with userfaultfd (Operation not permitted)");
  ck_assert_msg(said && !strstr(said + 1, "cannot watch doorbells"), "stderr: %s", text);
  fclose(err);
}
END_TEST

/* Producers sharing a queue ring with their own packet ids, and their stores land in any
 * order (HSA lets a multi-producer queue's doorbell take any value; ROCR does not order them
 * on gfx9): the last value may be lower than one before it. Two packets written, then
 * doorbell 1, then doorbell 0: both run, whether the engine was asleep or polling. */
START_TEST(doorbells_out_of_order_lose_no_packet)
{
  struct aqlq a;
  aq_setup(&a);
  cpx_signal(&a.sig, SIG_DONE, 4, 0, 0);
  uint8_t p[64];
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DONE);
  cpx_sleep_ms(300);   /* asleep: the first store wakes it, it sees only the last */
  write_pkt(&a, p);
  write_pkt(&a, p);
  __atomic_store_n(a.doorbell, 1, __ATOMIC_RELEASE);
  __atomic_store_n(a.doorbell, 0, __ATOMIC_RELEASE);
  ck_assert_msg(cpx_until64((int64_t *)(a.sig.host + SIG_DONE + 8), 2, 5000),
                "after doorbells 1, 0: read index %llu, signal %lld", (unsigned long long)rptr(&a),
                (long long)cpx_value(&a.sig, SIG_DONE));
  write_pkt(&a, p);    /* and again while it still polls */
  write_pkt(&a, p);
  __atomic_store_n(a.doorbell, 3, __ATOMIC_RELEASE);
  __atomic_store_n(a.doorbell, 2, __ATOMIC_RELEASE);
  ck_assert_msg(cpx_until64((int64_t *)(a.sig.host + SIG_DONE + 8), 0, 5000),
                "after doorbells 3, 2: read index %llu", (unsigned long long)rptr(&a));
  ck_assert_uint_eq(rptr(&a), 4);
}
END_TEST

START_TEST(profiling_queue_stamps_the_completion_signal)
{
  struct aqlq a;
  aq_setup(&a);
  uint32_t props = 1u << 3;   /* AMD_QUEUE_PROPERTIES_ENABLE_PROFILING */
  memcpy(a.q.host + 0xb4, &props, 4);
  uint8_t p[64];
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  uint64_t start, end;
  memcpy(&start, a.sig.host + SIG_DONE + 32, 8);
  memcpy(&end, a.sig.host + SIG_DONE + 40, 8);
  ck_assert_uint_ne(start, 0);
  ck_assert_uint_ge(end, start);
  /* without the property the stamps stay as they were */
  props = 0;
  memcpy(a.q.host + 0xb4, &props, 4);
  cpx_signal(&a.sig, SIG_DEP + 128, 1, 0, 0);
  memset(a.sig.host + SIG_DEP + 128 + 32, 0, 16);
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DEP + 128);
  submit(&a, p);
  ck_assert(cpx_until64((int64_t *)(a.sig.host + SIG_DEP + 128 + 8), 0, 5000));
  memcpy(&start, a.sig.host + SIG_DEP + 128 + 32, 8);
  ck_assert_uint_eq(start, 0);
}
END_TEST

START_TEST(undefined_packet_type_is_a_queue_error)
{
  struct aqlq a;
  aq_setup(&a);
  uint8_t p[64];
  barrier_pkt(p, 7, 0, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0x20);   /* invalid packet format */
  cpx_sleep_ms(50);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);   /* the queue stopped there */
  ck_assert_uint_eq(rptr(&a), 0);
}
END_TEST

static void dispatch_pkt(uint8_t *p, uint16_t wgx, uint32_t gridx, uint32_t priv, uint64_t kobj,
                         uint64_t done)
{
  memset(p, 0, 64);
  *(uint16_t *)p = (uint16_t)(2 | 1 << 8 | 2 << 9 | 2 << 11);
  *(uint16_t *)(p + 2) = 1;
  *(uint16_t *)(p + 4) = wgx;
  *(uint16_t *)(p + 6) = 1;
  *(uint16_t *)(p + 8) = 1;
  memcpy(p + 12, &gridx, 4);
  *(uint32_t *)(p + 16) = 1;
  *(uint32_t *)(p + 20) = 1;
  memcpy(p + 24, &priv, 4);
  memcpy(p + 32, &kobj, 8);
  memcpy(p + 56, &done, 8);
}

START_TEST(zero_workgroup_size_is_invalid_dimension)
{
  struct aqlq a;
  aq_setup(&a);
  uint8_t p[64];
  dispatch_pkt(p, 0, 64, 0, a.sig.va + 1024, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 2);
}
END_TEST

/* The first failing check is reported, in the precedence of the error bits: dimension count,
 * sizes, group segment, code object, then work-group size; on every board. */
static const char *const check_boards[] = { "gfx900", "gfx906", "gfx90a", "gfx942", "gfx942-apu",
                                            "gfx1100", "gfx1201" };

START_TEST(dispatch_checks_run_in_error_bit_order)
{
  fx_cfg.gpu_model = check_boards[_i];   /* each iteration is a fresh (forked) process */
  static const struct { uint16_t setup, wgx; uint32_t group; bool no_code; int64_t want; } c[] = {
    { 0, 64, 0, false, 2 },            /* no dimensions */
    { 0, 2048, 1u << 17, true, 2 },    /* no dimensions before everything else */
    { 1, 2048, 1u << 17, false, 4 },   /* group segment before the work-group size */
    { 1, 2048, 0, true, 8 },           /* code object before the work-group size */
    { 1, 2048, 0, false, 0x40 },
  };
  for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
    struct aqlq a;
    aq_setup(&a);
    uint8_t p[64];
    dispatch_pkt(p, c[i].wgx, 4096, 0, c[i].no_code ? 0 : a.sig.va + 1024, a.sig.va + SIG_DONE);
    *(uint16_t *)(p + 2) = c[i].setup;
    memcpy(p + 28, &c[i].group, 4);
    submit(&a, p);
    ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
    ck_assert_msg(cpx_value(&a.sig, SIG_INACTIVE) == c[i].want, "case %u: code 0x%llx", i,
                  (unsigned long long)cpx_value(&a.sig, SIG_INACTIVE));
    struct kfd_ioctl_destroy_queue_args d = { .queue_id = a.queue_id };
    ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  }
}
END_TEST

/* A kernel that is only s_endpgm: descriptor at 0, code at 256. */
/* Submits a dispatch of kobj: `grid` work-items in groups of 64, args its kernarg segment,
 * SIG_DONE its completion signal */
static void submit_kernel(struct aqlq *a, uint64_t kobj, uint32_t grid, const struct buf *args)
{
  uint8_t p[64];
  dispatch_pkt(p, 64, grid, 0, kobj, a->sig.va + SIG_DONE);
  memcpy(p + 40, &args->va, 8);
  submit(a, p);
}

/* Destroys a's queue, which must succeed in under a second (its engine stops at once) */
static void destroy_within_1s(struct aqlq *a)
{
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  struct kfd_ioctl_destroy_queue_args d = { .queue_id = a->queue_id };
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  ck_assert_int_lt((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000, 1000);
}

/* Installs `words` at code + 512 as the second-level trap handler, TMA the queue's inactive
 * signal */
static void set_handler(struct aqlq *a, struct buf *code, const uint32_t *words, size_t size)
{
  memcpy(code->host + 512, words, size);
  struct kfd_ioctl_set_trap_handler_args t = { .tba_addr = code->va + 512,
                                               .tma_addr = a->sig.va + SIG_INACTIVE,
                                               .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_TRAP_HANDLER, &t), 0);
}

static uint64_t endpgm_kernel(struct buf *code)
{
  *code = cpx_gtt(4096);
  int64_t entry = 256;
  memcpy(code->host + 16, &entry, 8);
  uint32_t rsrc2 = 1 | (2u << 1) | (1u << 7);   /* scratch wave offset, 2 user SGPRs, wg id x */
  memcpy(code->host + 52, &rsrc2, 4);
  uint16_t flags = 1u << 3;                      /* kernarg segment ptr */
  memcpy(code->host + 56, &flags, 2);
  uint32_t endpgm = 0xbf810000u;
  memcpy(code->host + 256, &endpgm, 4);
  return code->va;
}

START_TEST(dispatch_asks_for_scratch_then_runs)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf code;
  uint64_t kobj = endpgm_kernel(&code);
  uint8_t p[64];
  dispatch_pkt(p, 64, 200, 16, kobj, a.sig.va + SIG_DONE);   /* 4 groups, the last partial */
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 1);      /* insufficient scratch, wave64 */
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
  /* the runtime's answer: scratch for the queue, then the signal back to 0 */
  struct buf scratch = cpx_gtt(64 * 1024);
  uint32_t tmpring = 4 | (1u << 12);   /* 4 waves of 1 KiB */
  memcpy(a.q.host + 0x8c, &tmpring, 4);
  memcpy(a.q.host + 0xa0, &scratch.va, 8);
  uint32_t lane = 16;
  memcpy(a.q.host + 0xb0, &lane, 4);
  __atomic_store_n((int64_t *)(a.sig.host + SIG_INACTIVE + 8), 0, __ATOMIC_RELEASE);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 0);
  ck_assert_uint_eq(rptr(&a), 1);
}
END_TEST

/* A kernel of the given code words at offset 256, kernarg pointer in s[0:1]. */
static uint64_t code_kernel(struct buf *code, const uint32_t *words, unsigned n)
{
  *code = cpx_gtt(4096);
  int64_t entry = 256;
  memcpy(code->host + 16, &entry, 8);
  uint32_t rsrc1 = 1u << 6, rsrc2 = 2u << 1;   /* 16 SGPRs, 2 user SGPRs */
  memcpy(code->host + 48, &rsrc1, 4);
  memcpy(code->host + 52, &rsrc2, 4);
  uint16_t flags = 1u << 3;
  memcpy(code->host + 56, &flags, 2);
  memcpy(code->host + 256, words, 4 * n);
  return code->va;
}

START_TEST(kernel_memory_fault_raises_memory_event)
{
  struct aqlq a;
  aq_setup(&a);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  struct buf code;
  /* s_load_dword s0, s[0:1], 0x0; s_waitcnt lgkmcnt(0); s_endpgm */
  const uint32_t words[] = { 0xc0020000u, 0, 0xbf8cc07fu, 0xbf810000u };
  uint64_t kobj = code_kernel(&code, words, 4);
  uint8_t p[64];
  dispatch_pkt(p, 64, 64, 0, kobj, a.sig.va + SIG_DONE);
  uint64_t bad = 0x6600000040ull;   /* the kernarg pointer: nothing mapped there */
  memcpy(p + 40, &bad, 8);
  submit(&a, p);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, bad & ~0xfffull);
  ck_assert_uint_eq(d.memory_exception_data.gpu_id, GPU0);
  cpx_sleep_ms(50);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);   /* the dispatch never completes */
}
END_TEST

/* Translations outlive a work-group (a thread keeps its last group's buffer entries while the
 * VM generation is unchanged): a buffer a first dispatch read, unmapped and freed before the
 * second, must fault there, not be read through the kept entry. One host thread, so the
 * same thread runs both dispatches' groups. */
START_TEST(unmap_between_dispatches_still_faults)
{
  fx_cfg.threads = 1;
  struct aqlq a;
  aq_setup(&a);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  struct buf code, x = cpx_gtt(4096);
  /* s_load_dword s0, s[0:1], 0x0; s_waitcnt lgkmcnt(0); s_endpgm */
  const uint32_t words[] = { 0xc0020000u, 0, 0xbf8cc07fu, 0xbf810000u };
  uint64_t kobj = code_kernel(&code, words, 4);
  uint8_t p[64];
  dispatch_pkt(p, 64, 256, 0, kobj, a.sig.va + SIG_DONE);   /* 4 groups read x */
  memcpy(p + 40, &x.va, 8);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 0);
  uint32_t ids[1] = { GPU0 };
  ck_assert_int_eq(fx_map(x.handle, ids, 1, false), 0);
  struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = x.handle };
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), 0);
  __atomic_store_n((int64_t *)(a.sig.host + SIG_DONE + 8), 1, __ATOMIC_RELEASE);
  submit(&a, p);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, x.va);
  cpx_sleep_ms(50);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);   /* the second dispatch never completes */
}
END_TEST

/* An encoding the hardware rejects (0xffffffff: nothing llvm-objdump decodes) raises
 * TRAPSTS.ILLEGAL_INST. With no second-level handler the kernel's first level halts the wave
 * at it and reports nothing: the dispatch never completes, the CP writes no queue error,
 * and the queue can still be destroyed at once. */
/* gfx1201, a wave32 kernel (the descriptor's wave32 bit) over 2x2x3 groups of 64 items (two
 * waves each): every wave finds its work-group id in the architected SGPRs (TTMP9 = X, TTMP7
 * = Y | Z << 16, AMDGPUUsage; clang-19 reads them, not system SGPRs, on gfx12) and runs as
 * wave32 (v_add_co_u32's carry mask is one SGPR, s6, and leaves s7 alone). Each group writes
 * { TTMP7, s7 } at 8 * (X + 2 * Y + 4 * Z) of the kernarg buffer. Words from llvm-mc-19
 * -mcpu=gfx1201: s_and_b32 s3, ttmp7, 0xffff; s_lshr_b32 s4, ttmp7, 16; s_lshl_b32 s3, s3, 1;
 * s_lshl_b32 s4, s4, 2; s_add_co_u32 s2, ttmp9, s3; s_add_co_u32 s2, s2, s4; s_lshl_b32 s2,
 * s2, 3; s_mov_b32 s7, 0x1234; v_add_co_u32 v3, s6, v0, v0; v_mov_b32 v4, ttmp7; v_mov_b32
 * v5, s7; v_mov_b32 v2, s2; global_store_b64 v2, v[4:5], s[0:1]; s_endpgm. */
START_TEST(gfx12_wave32_group_ids_in_ttmp)
{
  fx_cfg.gpu_model = "gfx1201";   /* each test is a fresh (forked) process */
  struct aqlq a;
  aq_setup(&a);
  struct buf code, args = cpx_gtt(4096);
  memset(args.host, 0xee, 4096);
  const uint32_t words[] = {
    0x8b03ff73u, 0x0000ffffu, 0x85049073u, 0x84038103u, 0x84048204u, 0x80020375u, 0x80020402u,
    0x84028302u, 0xbe8700ffu, 0x00001234u, 0xd7000603u, 0x00020100u, 0x7e080273u, 0x7e0a0207u,
    0x7e040202u, 0xee06c000u, 0x02000000u, 0x00000002u, 0xbfb00000u };
  uint64_t kobj = code_kernel(&code, words, sizeof words / sizeof words[0]);
  uint16_t flags = 1u << 3 | 1u << 10;   /* kernarg pointer, wave32 */
  memcpy(code.host + 56, &flags, 2);
  uint8_t p[64];
  dispatch_pkt(p, 64, 128, 0, kobj, a.sig.va + SIG_DONE);
  *(uint16_t *)(p + 2) = 3;
  *(uint32_t *)(p + 16) = 2;
  *(uint32_t *)(p + 20) = 3;
  memcpy(p + 40, &args.va, 8);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 0);
  for (uint32_t z = 0; z < 3; z++)
    for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 2; x++) {
        uint32_t got[2];
        memcpy(got, args.host + 8 * (x + 2 * y + 4 * z), 8);
        ck_assert_uint_eq(got[0], y | z << 16);
        ck_assert_uint_eq(got[1], 0x1234);
      }
}
END_TEST

START_TEST(kernel_illegal_instruction_without_handler_halts)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf code, args = cpx_gtt(4096);
  const uint32_t words[] = { 0xffffffffu, 0xffffffffu, 0xbf810000u };
  uint64_t kobj = code_kernel(&code, words, 3);
  submit_kernel(&a, kobj, 64, &args);
  cpx_sleep_ms(200);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0);
  destroy_within_1s(&a);
}
END_TEST

/* With a second level the illegal instruction enters it with trap id 0, ttmp0:1 at the
 * faulting instruction and TRAPSTS.ILLEGAL_INST set; this handler turns that bit into the
 * runtimes' code (0x40000000) in the queue's inactive signal, raises the interrupt and
 * halts the wave. */
START_TEST(kernel_illegal_instruction_enters_the_handler)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf code, args = cpx_gtt(4096);
  const uint32_t words[] = { 0xffffffffu, 0xffffffffu, 0xbf810000u };
  uint64_t kobj = code_kernel(&code, words, 3);
  const uint32_t handler[] = {
    0xc0471b00u, 0x00000000u,   /* s_store_dwordx2 ttmp[0:1], s[0:1], 0x0 glc */
    0xb8f1f803u,                /* s_getreg_b32 ttmp5, hwreg(HW_REG_TRAPSTS) */
    0x8671ff71u, 0x00000800u,   /* s_and_b32 ttmp5, ttmp5, 0x800 */
    0x8e719371u,                /* s_lshl_b32 ttmp5, ttmp5, 19 */
    0xc0071bbdu, 0x00000010u,   /* s_load_dwordx2 ttmp[2:3], ttmp[14:15], 0x10 glc */
    0xc0031c3du, 0x00000018u,   /* s_load_dword ttmp4, ttmp[14:15], 0x18 glc */
    0xbf8cc07fu,                /* s_waitcnt lgkmcnt(0) */
    0xc0431c37u, 0x00000000u,   /* s_store_dword ttmp4, ttmp[2:3], 0x0 glc */
    0xc0431c7du, 0x00000008u,   /* s_store_dword ttmp5, ttmp[14:15], 0x8 glc */
    0xbf8cc07fu,                /* s_waitcnt lgkmcnt(0) */
    0xbefc0080u,                /* s_mov_b32 m0, 0 */
    0xbf900001u,                /* s_sendmsg sendmsg(MSG_INTERRUPT) */
    0xbef81a8du,                /* s_bitset1_b32 ttmp12, 13 */
    0xb978f802u,                /* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
    0xbe801f6cu,                /* s_rfe_b64 ttmp[0:1] */
  };
  set_handler(&a, &code, handler, sizeof handler);
  submit_kernel(&a, kobj, 64, &args);
  ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0x40000000);
  ck_assert_uint_eq(*(volatile uint64_t *)args.host, code.va + 256);   /* trap id 0, the PC */
  cpx_sleep_ms(50);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
}
END_TEST

/* A wave that halts (s_sethalt here; a trap handler's STATUS.HALT in practice) keeps its
 * dispatch from completing, and the CP goes no further, as hardware does: no completion, no
 * next packet, no queue error; destroying the queue still stops the engine at once. */
START_TEST(halted_wave_leaves_the_dispatch_unfinished)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf code, args = cpx_gtt(4096);
  /* s_mov_b32 s2, 7; s_store_dword s2, s[0:1], 0x0 glc; s_waitcnt lgkmcnt(0); s_sethalt 1;
   * s_endpgm */
  const uint32_t words[] = { 0xbe820087u, 0xc0430080u, 0, 0xbf8cc07fu, 0xbf8d0001u, 0xbf810000u };
  uint64_t kobj = code_kernel(&code, words, 6);
  submit_kernel(&a, kobj, 128, &args);
  uint8_t p[64];
  barrier_pkt(p, 3, 0, 0, a.sig.va + SIG_DEP);
  submit(&a, p);
  ck_assert(cpx_until64((volatile int64_t *)args.host, 7, 5000));   /* the waves ran */
  cpx_sleep_ms(100);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DEP), 1);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0);
  ck_assert_uint_eq(rptr(&a), 0);
  destroy_within_1s(&a);
}
END_TEST

/* With no second-level trap handler the kernel's first level steps over s_trap: the
 * dispatch runs to its end. */
START_TEST(trap_without_handler_completes)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf code, args = cpx_gtt(4096);
  /* s_trap 2; s_mov_b32 s2, 9; s_store_dword s2, s[0:1], 0x0 glc; s_waitcnt lgkmcnt(0);
   * s_endpgm */
  const uint32_t words[] = { 0xbf920002u, 0xbe820089u, 0xc0430080u, 0, 0xbf8cc07fu, 0xbf810000u };
  uint64_t kobj = code_kernel(&code, words, 6);
  submit_kernel(&a, kobj, 64, &args);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 0);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0);
  ck_assert_uint_eq(*(volatile uint32_t *)args.host, 9);
}
END_TEST

/* A second-level handler installed with SET_TRAP_HANDLER is entered with its TMA in
 * ttmp14:15 (here: the queue's inactive signal itself). It writes the signal's value and its
 * event id into the event mailbox, raises the SQ interrupt with M0 = 0 (no event id: the
 * driver scans the signaled slots), and halts the wave: the runtime's event fires with the
 * code in the signal, and the dispatch never completes. */
START_TEST(trap_handler_interrupt_sets_the_event)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf code, args = cpx_gtt(4096);
  const uint32_t words[] = { 0xbf920002u, 0xbf810000u };   /* s_trap 2; s_endpgm */
  uint64_t kobj = code_kernel(&code, words, 2);
  const uint32_t handler[] = {
    0xc0071bbdu, 0x00000010u,   /* s_load_dwordx2 ttmp[2:3], ttmp[14:15], 0x10 glc */
    0xc0031c3du, 0x00000018u,   /* s_load_dword ttmp4, ttmp[14:15], 0x18 glc */
    0xbf8cc07fu,                /* s_waitcnt lgkmcnt(0) */
    0xc0431c37u, 0x00000000u,   /* s_store_dword ttmp4, ttmp[2:3], 0x0 glc */
    0xbef100ffu, 0x80000000u,   /* s_mov_b32 ttmp5, 0x80000000 */
    0xc0431c7du, 0x00000008u,   /* s_store_dword ttmp5, ttmp[14:15], 0x8 glc */
    0xbf8cc07fu,                /* s_waitcnt lgkmcnt(0) */
    0xbefc0080u,                /* s_mov_b32 m0, 0 */
    0xbf900001u,                /* s_sendmsg sendmsg(MSG_INTERRUPT) */
    0xbef81a8du,                /* s_bitset1_b32 ttmp12, 13 */
    0xb978f802u,                /* s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12 */
    0xbe801f6cu,                /* s_rfe_b64 ttmp[0:1] */
  };
  set_handler(&a, &code, handler, sizeof handler);
  submit_kernel(&a, kobj, 64, &args);
  ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0x80000000ll);
  cpx_sleep_ms(50);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
}
END_TEST

START_TEST(unmapped_signal_is_a_vm_fault)
{
  struct aqlq a;
  aq_setup(&a);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  uint8_t p[64];
  uint64_t bad = 0x7000001230ull;
  barrier_pkt(p, 3, bad, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, bad & ~0xfffull);
  ck_assert_uint_eq(d.memory_exception_data.gpu_id, GPU0);
  ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 1);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);
}
END_TEST

static uint32_t pm4(unsigned op, unsigned body)
{
  return 3u << 30 | (body - 1) << 16 | op << 8;
}

static void pm4_ib_pkt(uint8_t *p, uint64_t ib, uint32_t dwords, uint64_t done)
{
  memset(p, 0, 64);
  *(uint16_t *)p = (uint16_t)(0 | 1 << 8);
  p[2] = 1;   /* AMD PM4 IB format */
  uint32_t jump[4] = { pm4(0x3f, 3), (uint32_t)ib & ~3u, (uint32_t)(ib >> 32) & 0xffff,
                       dwords | 1u << 23 };
  memcpy(p + 4, jump, sizeof jump);
  *(uint32_t *)(p + 20) = 10;
  memcpy(p + 56, &done, 8);
}

START_TEST(pm4_indirect_buffer_write_data_and_release_mem)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf ib = cpx_gtt(4096), data = cpx_gtt(4096);
  uint32_t *c = (uint32_t *)ib.host, n = 0;
  c[n++] = pm4(0x58, 6);   /* ACQUIRE_MEM: invalidate everything */
  c[n++] = 1u << 29 | 1u << 27;
  c[n++] = 0xffffffff; c[n++] = 0xff; c[n++] = 0; c[n++] = 0; c[n++] = 10;
  c[n++] = pm4(0x37, 5);   /* WRITE_DATA, memory, two dwords */
  c[n++] = 5u << 8;
  c[n++] = (uint32_t)data.va; c[n++] = (uint32_t)(data.va >> 32);
  c[n++] = 0x11111111; c[n++] = 0x22222222;
  c[n++] = pm4(0x49, 6);   /* RELEASE_MEM: 64-bit data */
  c[n++] = 0;
  c[n++] = 2u << 29;
  c[n++] = (uint32_t)(data.va + 16); c[n++] = (uint32_t)((data.va + 16) >> 32);
  c[n++] = 0x33333333; c[n++] = 0x44444444;
  c[n++] = pm4(0x10, 2); c[n++] = 0; c[n++] = 0;   /* NOP */
  uint8_t p[64];
  pm4_ib_pkt(p, ib.va, n, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  uint32_t want[6] = { 0x11111111, 0x22222222, 0, 0, 0x33333333, 0x44444444 };
  ck_assert_int_eq(memcmp(data.host, want, sizeof want), 0);
  ck_assert_uint_eq(rptr(&a), 1);
}
END_TEST

START_TEST(pm4_unknown_opcode_is_a_vendor_packet_error)
{
  struct aqlq a;
  aq_setup(&a);
  struct buf ib = cpx_gtt(4096);
  uint32_t *c = (uint32_t *)ib.host;
  c[0] = pm4(0x2d, 1);   /* not an opcode a compute queue's firmware takes here */
  c[1] = 0;
  uint8_t p[64];
  pm4_ib_pkt(p, ib.va, 2, a.sig.va + SIG_DONE);
  submit(&a, p);
  ck_assert_uint_eq(cpx_wait_event(a.inactive_event, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_INACTIVE), 0x100);
}
END_TEST

START_TEST(destroy_stops_a_blocked_queue)
{
  struct aqlq a;
  aq_setup(&a);
  uint8_t p[64];
  barrier_pkt(p, 3, a.sig.va + SIG_DEP, 0, a.sig.va + SIG_DONE);
  submit(&a, p);
  cpx_sleep_ms(20);
  struct kfd_ioctl_destroy_queue_args d = { .queue_id = a.queue_id };
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  __atomic_store_n((int64_t *)(a.sig.host + SIG_DEP + 8), 0, __ATOMIC_RELEASE);
  cpx_sleep_ms(50);
  ck_assert_int_eq(cpx_value(&a.sig, SIG_DONE), 1);   /* no engine left to complete it */
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("cp_aql");
  TCase *t = tcase_create("aql");
  tcase_set_timeout(t, 30);
  tcase_add_test(t, barrier_and_waits_then_completes_with_event);
  tcase_add_test(t, barrier_or_needs_one_dependency);
  tcase_add_test(t, packets_complete_in_order);
  tcase_add_test(t, idle_queue_wakes_on_doorbell_store);
  tcase_add_test(t, a_busy_sibling_keeps_the_doorbell_page_writable);
  tcase_add_test(t, without_userfaultfd_an_idle_queue_polls);
  tcase_add_test(t, doorbells_out_of_order_lose_no_packet);
  tcase_add_test(t, profiling_queue_stamps_the_completion_signal);
  tcase_add_test(t, undefined_packet_type_is_a_queue_error);
  tcase_add_test(t, zero_workgroup_size_is_invalid_dimension);
  tcase_add_loop_test(t, dispatch_checks_run_in_error_bit_order, 0,
                      (int)(sizeof check_boards / sizeof check_boards[0]));
  tcase_add_test(t, dispatch_asks_for_scratch_then_runs);
  tcase_add_test(t, unmapped_signal_is_a_vm_fault);
  tcase_add_test(t, kernel_memory_fault_raises_memory_event);
  tcase_add_test(t, unmap_between_dispatches_still_faults);
  tcase_add_test(t, kernel_illegal_instruction_without_handler_halts);
  tcase_add_test(t, gfx12_wave32_group_ids_in_ttmp);
  tcase_add_test(t, kernel_illegal_instruction_enters_the_handler);
  tcase_add_test(t, halted_wave_leaves_the_dispatch_unfinished);
  tcase_add_test(t, trap_without_handler_completes);
  tcase_add_test(t, trap_handler_interrupt_sets_the_event);
  tcase_add_test(t, pm4_indirect_buffer_write_data_and_release_mem);
  tcase_add_test(t, pm4_unknown_opcode_is_a_vendor_packet_error);
  tcase_add_test(t, destroy_stops_a_blocked_queue);
  suite_add_tcase(s, t);
  return s;
}
