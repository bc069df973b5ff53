/* SPDX-License-Identifier: MIT */
/* vm.c — the SDMA engine's memory accesses. Every address goes through the GPU's VM; a range
 * may span buffer objects (then it is walked a page at a time), and an unmapped page (or a
 * write to a read-only one) is a VM fault, raised here, which stops the engine. */
#include "sdma/sdma.h"

#include <string.h>

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
    memmove(d, src, n);
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
    memmove(d, (char *)src + k, step);
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
