/* SPDX-License-Identifier: MIT */
/* svm_gpu_client.c — SVM memory reached by the GPU, for svm_gpu.sh; runs on our runtime and on
 * ROCR 5.2.3 under hsa-sim. Memory comes from posix_memalign (plain pages the runtime never
 * allocated); kernel svm_rw (svm_gpu.cl) reads a[] and writes b[] and a[]; every result is
 * compared with what the host computes.
 *   access CO    a and b registered with hsa_amd_svm_attributes_set (GPU accessible): the
 *                kernel runs after set-attribute, after hsa_amd_svm_prefetch_async to the GPU
 *                and after one back to the CPU; then SDMA copies (hsa_amd_memory_async_copy)
 *                from a into VRAM and from VRAM into a third SVM range c
 *   xnack CO     (with HSA_XNACK=1 on gfx90a) no attribute at all: the GPU's retry faults are
 *                serviced by the driver, the kernel runs on plain malloc'd memory
 *   readonly CO  a registered GPU accessible and HSA_AMD_SVM_ATTRIB_READ_ONLY; kernel svm_store
 *                writes it: a GPU permission fault. The memory is unchanged, the dispatch never
 *                completes, the system event handler gets a memory fault on a page of a with
 *                READ_ONLY and not PAGE_NOT_PRESENT, and (our runtime) the queue callback
 *                HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION (ROCR 5.2.3 reports VM faults only
 *                through the system event handler)
 *   protread CO  the same on memory the CPU maps PROT_READ (the kernel maps such pages
 *                read-only on the GPU too), registered GPU accessible
 *   noaccess CO  a registered HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS for the GPU: the write is a
 *                fault on a page that is not present (PAGE_NOT_PRESENT, not READ_ONLY)
 * Prints "ok ..." lines; exit 0 pass, 1 fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/client.h"

#define N 5000u   /* items; a little over 19.5 KiB per array: several pages, not page sized */

static hsa_agent_t gpu, cpu;
static hsa_region_t kernarg_region;
static hsa_amd_memory_pool_t vram;
static int have_vram;
static hsa_executable_t exec;
static volatile int errors;

static hsa_status_t pick_pool(hsa_amd_memory_pool_t p, void *d) {
  (void)d;
  hsa_amd_segment_t seg;
  uint32_t f = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  if (seg == HSA_AMD_SEGMENT_GLOBAL && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) &&
      !have_vram)
    vram = p, have_vram = 1;
  return HSA_STATUS_SUCCESS;
}

static volatile hsa_status_t last_error;

static void on_error(hsa_status_t s, hsa_queue_t *q, void *d) {
  (void)q;
  (void)d;
  printf("queue error 0x%x\n", (unsigned)s);
  last_error = s;
  __atomic_add_fetch(&errors, 1, __ATOMIC_SEQ_CST);
}

static volatile int faults;
static volatile uint64_t fault_va;
static volatile uint32_t fault_mask;
static hsa_agent_t fault_agent;

static hsa_status_t on_event(const hsa_amd_event_t *e, void *d) {
  (void)d;
  if (e->event_type != HSA_AMD_GPU_MEMORY_FAULT_EVENT) return HSA_STATUS_ERROR;
  fault_va = e->memory_fault.virtual_address;
  fault_mask = e->memory_fault.fault_reason_mask;
  fault_agent = e->memory_fault.agent;
  __atomic_add_fetch(&faults, 1, __ATOMIC_SEQ_CST);
  return HSA_STATUS_SUCCESS;   /* handled: ROCR would abort the process otherwise */
}

/* Waits for s to reach 0; gives up early when the queue reported an error (a GPU fault). */
static int wait_done(hsa_signal_t s, unsigned seconds) {
  for (unsigned i = 0; i < seconds * 10 && !errors; i++)
    if (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 100000000ull,
                                  HSA_WAIT_STATE_BLOCKED) == 0)
      return 1;
  return 0;
}

static int32_t *svm_array(void) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, N * 4)) FAIL("posix_memalign");
  return p;
}

static void gpu_access(void *p) {
  hsa_amd_svm_attribute_pair_t at = {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu.handle};
  CHECK(hsa_amd_svm_attributes_set(p, N * 4, &at, 1));
}

/* Runs svm_rw over a and b with k; a[i] was `was[i]`: checks b = was * 3 + k, a = was + 1. */
static void run(hsa_queue_t *q, int32_t *a, int32_t *b, int32_t k, const char *when) {
  struct client_kernel kd = client_kernel_named(exec, gpu, "svm_rw");
  uint32_t kernarg_size = kd.kernarg_size;
  struct { int32_t *a, *b; int32_t k; } *args = NULL;
  CHECK(hsa_memory_allocate(kernarg_region, kernarg_size > 24 ? kernarg_size : 24, (void **)&args));
  memset(args, 0, kernarg_size);
  args->a = a, args->b = b, args->k = k;
  int32_t *was = malloc(N * 4);
  memcpy(was, a, N * 4);
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  client_dispatch(q, &kd, args, N, 64, done);
  if (!wait_done(done, 120) || errors) FAIL("%s: the dispatch did not complete (errors %d)", when, errors);
  for (uint32_t i = 0; i < N; i++) {
    if (b[i] != was[i] * 3 + k) FAIL("%s: b[%u] = %d, want %d", when, i, b[i], was[i] * 3 + k);
    if (a[i] != was[i] + 1) FAIL("%s: a[%u] = %d, want %d", when, i, a[i], was[i] + 1);
  }
  printf("ok kernel read and wrote SVM memory %s\n", when);
  free(was);
  hsa_signal_destroy(done);
  hsa_memory_free(args);
}

/* Kernel svm_store writes 77 into dst, memory the GPU may not write: `want` is the fault reason
 * (HSA_AMD_MEMORY_FAULT_READ_ONLY or _PAGE_NOT_PRESENT). */
static void denied_write(hsa_queue_t *q, int32_t *dst, uint32_t want, int ours, const char *what) {
  struct client_kernel kd = client_kernel_named(exec, gpu, "svm_store");
  struct { int32_t *dst; int32_t k; } *args = NULL;
  CHECK(hsa_memory_allocate(kernarg_region, kd.kernarg_size > 16 ? kd.kernarg_size : 16, (void **)&args));
  memset(args, 0, kd.kernarg_size);
  args->dst = dst, args->k = 77;
  int32_t *was = malloc(N * 4);
  memcpy(was, dst, N * 4);
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  client_dispatch(q, &kd, args, N, 64, done);
  /* the fault event, and on ours the queue callback too */
  for (unsigned i = 0; i < 600 && (!faults || (ours && !errors)); i++) usleep(100000);
  if (!faults) FAIL("%s: no memory fault event (queue errors %d)", what, errors);
  printf("ok %s: memory fault event, address 0x%llx, reasons 0x%x\n", what,
         (unsigned long long)fault_va, (unsigned)fault_mask);
  if (fault_agent.handle != gpu.handle) FAIL("%s: the fault names another agent", what);
  uint64_t lo = (uintptr_t)dst & ~4095ull, hi = (uintptr_t)dst + N * 4;
  if (fault_va < lo || fault_va >= hi || (fault_va & 4095))
    FAIL("%s: fault address 0x%llx is not a page of [0x%llx, 0x%llx)", what,
         (unsigned long long)fault_va, (unsigned long long)lo, (unsigned long long)hi);
  uint32_t reasons = HSA_AMD_MEMORY_FAULT_READ_ONLY | HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
  if ((fault_mask & reasons) != want)
    FAIL("%s: fault reasons 0x%x, want 0x%x of 0x%x", what, (unsigned)fault_mask, want, reasons);
  printf("ok %s: the fault is %s\n", what, want == HSA_AMD_MEMORY_FAULT_READ_ONLY ?
         "a write to a read-only page" : "on a page that is not present");
  if (ours) {
    if (!errors) FAIL("%s: no queue error", what);
    if (last_error != HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)
      FAIL("%s: queue error 0x%x, want HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", what,
           (unsigned)last_error);
    printf("ok %s: queue callback HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION\n", what);
  }
  if (hsa_signal_load_scacquire(done) != 1) FAIL("%s: the faulting dispatch completed", what);
  if (memcmp(dst, was, N * 4)) {
    for (uint32_t i = 0; i < N; i++)
      if (dst[i] != was[i]) FAIL("%s: dst[%u] = %d, was %d: the GPU wrote it", what, i, dst[i], was[i]);
  }
  printf("ok %s: the memory is unchanged\n", what);
  free(was);
}

static void prefetch(void *p, hsa_agent_t to) {
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(hsa_amd_svm_prefetch_async(p, N * 4, to, 0, NULL, s));
  if (!wait_done(s, 60)) FAIL("prefetch did not complete");
  hsa_signal_destroy(s);
}

static void copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, const char *what) {
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(hsa_amd_memory_async_copy(dst, da, src, sa, N * 4, 0, NULL, s));
  if (!wait_done(s, 60)) FAIL("%s: the copy did not complete", what);
  hsa_signal_destroy(s);
}

int main(int argc, char **argv) {
  if (argc < 3) FAIL("usage: %s access|xnack CO", argv[0]);
  CHECK(hsa_init());
  struct client_agents ag = {0};
  hsa_iterate_agents(client_pick_agents, &ag);
  gpu = ag.gpu, cpu = ag.cpu;
  if (!gpu.handle || !cpu.handle) FAIL("no GPU or CPU agent");
  struct client_regions rg = {0};
  hsa_agent_iterate_regions(cpu, client_pick_regions, &rg);
  kernarg_region = rg.kernarg;
  hsa_amd_agent_iterate_memory_pools(gpu, pick_pool, NULL);
  if (!kernarg_region.handle || !have_vram) FAIL("no kernarg region or VRAM pool");
  client_load(gpu, argv[2], &exec);
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX, &q));
  int32_t *a = svm_array(), *b = svm_array(), *c = svm_array();
  for (uint32_t i = 0; i < N; i++) a[i] = (int32_t)(i * 7 - 300), b[i] = -1, c[i] = 0;
  if (strcmp(argv[1], "access") == 0) {
    gpu_access(a);
    gpu_access(b);
    gpu_access(c);
    run(q, a, b, 5, "after set-attribute");
    prefetch(a, gpu);
    prefetch(b, gpu);
    run(q, a, b, 9, "after a prefetch to the GPU");
    prefetch(a, cpu);
    prefetch(b, cpu);
    run(q, a, b, -4, "after a prefetch back to the CPU");
    void *dev = NULL;
    CHECK(hsa_amd_memory_pool_allocate(vram, N * 4, 0, &dev));
    CHECK(hsa_amd_agents_allow_access(1, &cpu, NULL, dev));
    copy(dev, gpu, a, cpu, "SVM to VRAM");
    copy(c, cpu, dev, gpu, "VRAM to SVM");
    if (memcmp(c, a, N * 4)) FAIL("SVM -> VRAM -> SVM: bytes differ");
    printf("ok async copies from and to SVM memory\n");
    hsa_amd_memory_pool_free(dev);
  } else if (strcmp(argv[1], "xnack") == 0) {
    run(q, a, b, 11, "with XNACK on and no attribute");
  } else if (!strcmp(argv[1], "readonly") || !strcmp(argv[1], "protread") ||
             !strcmp(argv[1], "noaccess")) {
    /* ROCR 5.2.3 aborts the process on a VM fault unless a system event handler takes it */
    int ours = getenv("SVM_CLIENT_OURS") != NULL;
    CHECK(hsa_amd_register_system_event_handler(on_event, NULL));
    if (!strcmp(argv[1], "readonly")) {
      gpu_access(a);
      hsa_amd_svm_attribute_pair_t ro = {HSA_AMD_SVM_ATTRIB_READ_ONLY, 1};
      CHECK(hsa_amd_svm_attributes_set(a, N * 4, &ro, 1));
      denied_write(q, a, HSA_AMD_MEMORY_FAULT_READ_ONLY, ours, "write to READ_ONLY SVM memory");
    } else if (!strcmp(argv[1], "protread")) {
      size_t bytes = (N * 4 + 4095) & ~4095u;
      int32_t *r = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (r == MAP_FAILED) FAIL("mmap");
      for (uint32_t i = 0; i < N; i++) r[i] = (int32_t)(i ^ 0x5a5a);
      if (mprotect(r, bytes, PROT_READ)) FAIL("mprotect");
      gpu_access(r);
      denied_write(q, r, HSA_AMD_MEMORY_FAULT_READ_ONLY, ours, "write to PROT_READ SVM memory");
    } else {
      hsa_amd_svm_attribute_pair_t na = {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, gpu.handle};
      CHECK(hsa_amd_svm_attributes_set(a, N * 4, &na, 1));
      denied_write(q, a, HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT, ours, "write to NO_ACCESS SVM memory");
    }
    /* the GPU's queues were evicted by the fault: the process ends here */
    printf("ok done\n");
    fflush(stdout);
    _exit(0);
  } else {
    FAIL("unknown mode %s", argv[1]);
  }
  CHECK(hsa_queue_destroy(q));
  hsa_executable_destroy(exec);
  CHECK(hsa_shut_down());
  printf("ok done\n");
  return 0;
}
