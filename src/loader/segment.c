/* segment.c — where a code object's PT_LOAD segments go: one GPU-visible allocation covering
 * them all, preserving their relative virtual addresses (code refers to data PC-relatively),
 * aligned to the largest segment alignment (at least 256, the code alignment). */
#include <stdatomic.h>
#include <string.h>

#include "loader/loader.h"
#include "mem/mem.h"

#define MIN_ALIGN 256u
#define MAX_ALIGN (64u << 10)       /* larger p_align values only matter to CPU page maps */
#define MAX_SPAN (1ull << 30)       /* a code object spanning more than 1 GiB is not sane */

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
    ldr_complain("invalid code object: segments span %llu bytes",
                 (unsigned long long)(end - vbase));
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  out->vbase = vbase;
  out->span = end - vbase;
  out->align = align;
  return HSA_STATUS_SUCCESS;
}

void ldr_copy_segments(const struct ldr_image *img, const struct ldr_layout *lay, uint8_t *host) {
  memset(host, 0, lay->span);
  for (unsigned i = 0; i < img->nloads; i++) {
    const struct ldr_load_segment *s = &img->loads[i];
    if (s->filesz) memcpy(host + (s->vaddr - lay->vbase), img->data + s->offset, s->filesz);
  }
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
