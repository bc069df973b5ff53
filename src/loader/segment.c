/* SPDX-License-Identifier: MIT */
/* segment.c — where a code object's PT_LOAD segments go: one GPU-visible allocation covering
 * them all, preserving their relative virtual addresses (code refers to data PC-relatively),
 * aligned to the largest segment alignment (at least 256, the code alignment). */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "loader/internal.h"
#include "mem/mem.h"

#define MIN_ALIGN 256u
#define MAX_ALIGN (64u << 10)       /* larger p_align values only matter to CPU page maps */
/* No code object can span more than a GPU's user address space (47 bits on gfx9 and later);
 * anything below that is for the memory pool to grant or refuse: OpenCL programs may declare
 * program-scope variables of several GiB. */
#define MAX_SPAN (1ull << 47)

hsa_status_t ldr_layout(const struct ldr_image *img, struct ldr_layout *out) {
  memset(out, 0, sizeof(*out));
  uint64_t align = MIN_ALIGN, end = 0;
  for (unsigned i = 0; i < img->nloads; i++) {
    const struct ldr_load_segment *s = &img->loads[i];
    if (s->vaddr > UINT64_MAX - s->memsz) {
      ldr_complain("invalid code object: segment %u wraps the address space", i);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    if (i > 0 && s->vaddr < end) {
      ldr_complain("invalid code object: segment %u overlaps the one before it or is out of "
                   "order", i);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    end = s->vaddr + s->memsz;
    if (s->align > align) align = s->align < MAX_ALIGN ? s->align : MAX_ALIGN;
  }
  uint64_t vbase = img->loads[0].vaddr & ~(align - 1);
  if (end - vbase > MAX_SPAN || end == vbase) {
    ldr_complain("invalid code object: its segments span %llu bytes%s",
                 (unsigned long long)(end - vbase),
                 end == vbase ? "" : ", more than a GPU's 128 TiB address space");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  out->vbase = vbase;
  out->span = end - vbase;
  out->align = align;
  return HSA_STATUS_SUCCESS;
}

void ldr_copy_segments(const struct ldr_image *img, const struct ldr_layout *lay, uint8_t *host,
                       bool zeroed) {
  uint64_t at = 0;   /* offset in the span up to which bytes are in place */
  for (unsigned i = 0; i < img->nloads; i++) {
    const struct ldr_load_segment *s = &img->loads[i];
    uint64_t off = s->vaddr - lay->vbase;
    if (!zeroed && off > at) memset(host + at, 0, off - at);
    if (s->filesz) memcpy(host + off, img->data + s->offset, s->filesz);
    at = off + s->filesz;
    if (!zeroed && s->memsz > s->filesz) memset(host + at, 0, s->memsz - s->filesz);
    at = off + s->memsz;
  }
  if (!zeroed && lay->span > at) memset(host + at, 0, lay->span - at);
}

uint8_t *ldr_host_image(uint64_t span) {
  if (span == 0 || span > SIZE_MAX) return NULL;
  void *p = mmap(NULL, (size_t)span, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void ldr_host_image_free(uint8_t *p, uint64_t span) {
  if (p) munmap(p, (size_t)span);
}

void *ldr_segment_alloc(const struct core_agent *agent, size_t size, size_t align) {
  if (agent && agent->kind == CORE_AGENT_GPU)
    return mem_device(agent, size, align, MEM_F_EXECUTABLE | MEM_F_NO_SUBALLOC);
  /* Program code objects: system memory every GPU reaches. */
  return mem_system(size, align, MEM_F_EXECUTABLE | MEM_F_NO_SUBALLOC);
}

void ldr_segment_free(void *ptr) {
  mem_release(ptr);
}

void ldr_segment_flush(const struct core_agent *agent, void *ptr, size_t size) {
  (void)ptr;
  (void)size;
  /* The CPU wrote the segments through a host mapping (of VRAM behind the BAR, or system
   * memory). A full fence drains the store and write-combining buffers; for VRAM the GPU's
   * HDP (its cache of CPU writes through the BAR) is flushed too, through the MMIO-remap
   * page's HDP_MEM_FLUSH_CNTL. Not done: an instruction-cache invalidate when memory is
   * reused for code (ROCR issues one with its DMA copy at freeze); the AQL dispatch's
   * system-scope acquire covers the data side. */
  atomic_thread_fence(memory_order_seq_cst);
  if (agent && agent->kind == CORE_AGENT_GPU) mem_hdp_flush(agent);
}
