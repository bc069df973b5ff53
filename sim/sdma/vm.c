/* SPDX-License-Identifier: MIT */
/* vm.c — the SDMA engine's memory accesses. Every address goes through the GPU's VM; a range
 * may span buffer objects (then it is walked a page at a time), and an unmapped page (or a
 * write to a read-only one) is a VM fault, raised here, which stops the engine. */
#include "sdma/sdma.h"

#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <stdatomic.h>
#endif

/* The engine's bulk moves. On x86-64 CPUs with fast string moves (ERMS or FSRM in CPUID leaf
 * 7), `rep movsb` moved 1-16 MiB 10-25% faster than glibc 2.36's memcpy on the 2-vCPU EPYC
 * this was measured on (bench/README.md, copy_bandwidth): a copy engine is the one place
 * where that is the whole cost. Overlapping ranges keep memmove's semantics; sanitizer builds
 * keep memmove so that ASan still checks every byte. */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
static bool fast_strings(void)
{
  static atomic_int known;   /* 0 unknown, 1 no, 2 yes: every thread computes the same */
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (!k) {
    unsigned a, b, c, d;
    k = __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 9 & 1) || (d >> 4 & 1)) ? 2 : 1;
    atomic_store_explicit(&known, k, memory_order_relaxed);
  }
  return k == 2;
}

static void host_move(void *d, const void *s, size_t n)
{
  uintptr_t dp = (uintptr_t)d, sp = (uintptr_t)s;
  if (n >= 2048 && (dp + n <= sp || sp + n <= dp) && fast_strings()) {
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
    return;
  }
  memmove(d, s, n);
}
#else
#define host_move memmove
#endif

/* Calls fn on the host bytes of [va, va + n), in one piece when one buffer holds them. */
typedef bool (*chunk_fn)(void *host, uint64_t off, uint64_t n, void *arg);

static bool for_chunks(struct sim_gpu *gpu, uint64_t va, uint64_t n, bool write, chunk_fn fn,
                       void *arg)
{
  void *h = write ? sim_vm_translate_write(gpu, va, n) : sim_vm_translate(gpu, va, n);
  if (h)
    return fn(h, 0, n, arg);
  for (uint64_t off = 0; off < n;) {
    uint64_t step = SIM_PAGE - ((va + off) & (SIM_PAGE - 1));
    if (step > n - off)
      step = n - off;
    h = write ? sim_vm_translate_write(gpu, va + off, step) : sim_vm_translate(gpu, va + off, step);
    if (!h) {
      sim_cp_vm_fault(gpu, va + off, write);
      return false;
    }
    if (!fn(h, off, step, arg))
      return false;
    off += step;
  }
  return true;
}

struct move {
  struct sim_gpu *gpu;
  uint64_t dst;
};

static bool to_dst(void *src, uint64_t off, uint64_t n, void *arg)
{
  struct move *m = arg;
  void *d = sim_vm_translate_write(m->gpu, m->dst + off, n);
  if (d) {
    host_move(d, src, n);
    return true;
  }
  for (uint64_t k = 0; k < n;) {   /* the destination spans buffers: page by page */
    uint64_t step = SIM_PAGE - ((m->dst + off + k) & (SIM_PAGE - 1));
    if (step > n - k)
      step = n - k;
    d = sim_vm_translate_write(m->gpu, m->dst + off + k, step);
    if (!d) {
      sim_cp_vm_fault(m->gpu, m->dst + off + k, true);
      return false;
    }
    host_move(d, (char *)src + k, step);
    k += step;
  }
  return true;
}

bool sdma_move(struct sim_gpu *gpu, uint64_t dst, uint64_t src, uint64_t n)
{
  struct move m = { gpu, dst };
  return for_chunks(gpu, src, n, false, to_dst, &m);
}

struct fill {
  const uint8_t *pattern;
  unsigned size;
};

static bool fill_chunk(void *host, uint64_t off, uint64_t n, void *arg)
{
  struct fill *f = arg;
  uint8_t *d = host;
  for (uint64_t i = 0; i < n; i++)
    d[i] = f->pattern[(off + i) % f->size];
  return true;
}

bool sdma_fill(struct sim_gpu *gpu, uint64_t dst, uint64_t n, const uint8_t *pattern,
               unsigned psize)
{
  struct fill f = { pattern, psize };
  return for_chunks(gpu, dst, n, true, fill_chunk, &f);
}

bool sdma_store32(struct sim_gpu *gpu, uint64_t va, uint32_t v)
{
  uint32_t *m = sim_vm_translate_write(gpu, va, 4);
  if (!m || (va & 3)) {
    sim_cp_vm_fault(gpu, va, true);
    return false;
  }
  __atomic_store_n(m, v, __ATOMIC_RELEASE);
  return true;
}

bool sdma_store64(struct sim_gpu *gpu, uint64_t va, uint64_t v)
{
  uint64_t *m = sim_vm_translate_write(gpu, va, 8);
  if (!m || (va & 7)) {
    sim_cp_vm_fault(gpu, va, true);
    return false;
  }
  __atomic_store_n(m, v, __ATOMIC_RELEASE);
  return true;
}
