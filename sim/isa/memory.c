/* SPDX-License-Identifier: MIT */
/* memory.c — every GPU access of a wave goes through the GPU's VM. A few translation
 * entries per workgroup (its waves share one thread) remember whole buffers, so the process lock is taken only when a wave
 * touches a buffer it has not touched lately; each remembers whether the GPU may write there.
 * Buffer-object entries pass on to the thread's next workgroup while the VM generation
 * (sim_vm_generation, bumped by sim/kfd on every unmap, free, ...) is unchanged (run.c).
 * An access the VM refuses (nothing mapped, or a write to a read-only page) is a GPUVM fault
 * as gfx9 with XNACK off has it: the VM raises its fault interrupt (the driver's memory
 * exception event, and the process's queues evicted), and the wave takes a memory-violation
 * exception (TRAPSTS.MEM_VIOL | XNACK_ERROR) into the trap handler, which halts it. Inside a
 * handler (or for misuse the model does not map to an exception) it stays a fault that stops
 * the workgroup. */
#include "isa/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The host address of [va, va + len), or NULL; with `raise`, a refused access is the GPUVM
 * fault and memory-violation exception described above. */
static void *translate(struct isa_wave *w, uint64_t va, uint32_t len, bool write, bool raise)
{
  struct isa_group *g = w->group;
  /* an instruction's accesses mostly go to one buffer: its hint first */
  uint8_t *hint = &g->tlb_hint[isa_tlb_hint_of(w->cur)];
  unsigned h = *hint & (ISA_GROUP_TLB - 1);
  uint64_t dh = va - g->tlb[h].va;
  if (__builtin_expect(dh < g->tlb[h].size && len <= g->tlb[h].size - dh &&
                       !(write && g->tlb[h].ro), 1)) {
    g->tlb_last = h;
    return g->tlb[h].host + dh;
  }
  for (unsigned i = 0; i < ISA_GROUP_TLB; i++) {
    uint64_t d = va - g->tlb[i].va;
    if (d < g->tlb[i].size && len <= g->tlb[i].size - d && !(write && g->tlb[i].ro)) {
      g->tlb_last = i;
      *hint = (uint8_t)i;
      return g->tlb[i].host + d;
    }
  }
  uint64_t lo = 0, hi = 0;
  bool writable = false, keep = false;
  uint8_t *host = sim_vm_lookup_keep(w->group->wg->gpu, va, &lo, &hi, &writable, &keep);
  bool denied = host && write && !writable;
  if (!host || va + len < va || va + len > hi || denied) {
    if (!raise)
      return NULL;
    uint64_t at = host && !denied ? hi : va;
    char what[96] = "";
    if (w->cur && w->cur->pc == w->pc)
      isa_describe_inst(w->cur, what, sizeof what);
    char text[sizeof w->fault.text];
    snprintf(text, sizeof text, "%s (%s) at address 0x%llx%s%s",
             denied ? "permission fault" : "page fault", write ? "write" : "read",
             (unsigned long long)at, what[0] ? " by " : "", what);
    if (isa_exception(w, ISA_TRAPSTS_MEM_VIOL | ISA_TRAPSTS_XNACK_ERROR, text))
      sim_gpu_vm_fault(w->group->wg->gpu, at, write);
    else
      isa_fault(w, SIM_ISA_FAULT_MEMORY, at, write, "%s", text);
    return NULL;
  }
  unsigned e = g->tlb_next++ & (ISA_GROUP_TLB - 1);
  g->tlb[e].va = lo;
  g->tlb[e].size = hi - lo;
  g->tlb[e].host = host - (va - lo);
  g->tlb[e].ro = !writable;
  g->tlb[e].keep = keep;
  g->tlb_drop |= (unsigned)!keep << e;
  g->tlb_last = e;
  *hint = (uint8_t)e;
  return host;
}

void *isa_mem(struct isa_wave *w, uint64_t va, uint32_t len, bool write)
{
  return translate(w, va, len, write, true);
}

void *isa_mem_probe(struct isa_wave *w, uint64_t va, uint32_t len, bool write)
{
  return translate(w, va, len, write, false);
}

int isa_fault(struct isa_wave *w, enum sim_isa_fault_kind kind, uint64_t addr, bool write,
              const char *fmt, ...)
{
  if (w->fault.kind != SIM_ISA_FAULT_NONE)
    return -1;   /* keep the first */
  w->fault.kind = kind;
  w->fault.pc = w->pc;
  w->fault.addr = addr;
  w->fault.write = write;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->fault.text, sizeof w->fault.text, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *const fmt_names[] = {
  [ISA_SOP2] = "SOP2", [ISA_SOPK] = "SOPK", [ISA_SOP1] = "SOP1", [ISA_SOPC] = "SOPC",
  [ISA_SOPP] = "SOPP", [ISA_SMEM] = "SMEM", [ISA_VOP2] = "VOP2", [ISA_VOP1] = "VOP1",
  [ISA_VOPC] = "VOPC", [ISA_VOP3A] = "VOP3A", [ISA_VOP3B] = "VOP3B", [ISA_VOP3P] = "VOP3P",
  [ISA_VINTRP] = "VINTRP", [ISA_DS] = "DS", [ISA_FLAT] = "FLAT", [ISA_GLOBAL] = "GLOBAL",
  [ISA_SCRATCH] = "SCRATCH", [ISA_MUBUF] = "MUBUF", [ISA_MTBUF] = "MTBUF", [ISA_MIMG] = "MIMG",
  [ISA_EXP] = "EXP",
};

int isa_unknown(struct isa_wave *w, const struct isa_inst *in)
{
  char words[40];
  unsigned n = in->size >= 4 && in->size <= 12 ? in->size / 4 : 1;
  int k = 0;
  for (unsigned i = 0; i < n; i++)
    k += snprintf(words + k, sizeof words - (size_t)k, "%s0x%08x", i ? " " : "", in->words[i]);
  const char *f = in->fmt < sizeof fmt_names / sizeof *fmt_names ? fmt_names[in->fmt] : "?";
  /* an encoding the decoder has no instruction for (no name, or its "unknown"/"illegal"
   * text) is one the hardware rejects: an illegal-instruction exception. A named
   * instruction this model does not implement stays a simulator fault. */
  if ((!in->name || !strncmp(in->name, "unknown ", 8) || !strncmp(in->name, "illegal ", 8)) &&
      isa_exception(w, ISA_TRAPSTS_ILLEGAL_INST, in->name ? in->name : words))
    return 0;
  if (in->name && (!strncmp(in->name, "unknown ", 8) || !strncmp(in->name, "illegal ", 8)))
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "%s at 0x%llx: %s", in->name,
                     (unsigned long long)in->pc, words);
  if (in->name && in->name[0])
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "unsupported %s instruction %s at 0x%llx: %s",
                     f, in->name, (unsigned long long)in->pc, words);
  return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "unknown %s opcode 0x%x at 0x%llx: %s", f,
                   in->op, (unsigned long long)in->pc, words);
}
