/* SPDX-License-Identifier: MIT */
/* svm.c — the SVM ioctl and SET_XNACK_MODE. SVM ranges are checked as the kernel checks
 * them (page-aligned nonzero range of mapped user memory with no KFD buffer object mapped on
 * a GPU inside it, known attribute types, GPU ids of this process) and their attributes are
 * kept per range as the kernel keeps them: SET_ATTR splits the ranges it partly covers,
 * creates default ranges in the gaps and applies the attributes to every range inside;
 * GET_ATTR merges the ranges it meets (a location only when all agree, access only where
 * all grant it, flags set in all / clear in all, the smallest granularity) and answers the
 * defaults where there is none. The kernel drops ranges when the user unmaps the memory (MMU
 * notifier): munmap through the interposer drops them at once, and each call first trims
 * the ranges to what is still mapped (libc's own munmaps are not seen).
 *
 * The GPUs see the ranges (svm_range_validate_and_map): a GPU whose bit is set in a range's
 * ACCESS or ACCESS_IN_PLACE map reaches its pages at the CPU's addresses (SVM addresses are
 * the same on both sides), NO_ACCESS or no attribute is a VM fault. With XNACK on, a GPU
 * access nothing maps is a retry fault the driver services (svm_range_restore_pages): it
 * makes a range of the granularity block around the address, clipped to its neighbours and
 * to mapped memory, with the default attributes (every GPU may access), unless a range
 * there denies that GPU. Prefetch migrates (svm_range_trigger_migration): to the prefetch
 * GPU's VRAM unless another GPU that must reach the range is outside its XGMI hive (no
 * simulated GPU is in one), else to system memory; here VRAM and system memory are both
 * host memory, so the bytes stay where they are and only the location is kept (and traced).
 * Pages are mapped read-only on the GPU when the range has KFD_IOCTL_SVM_FLAG_GPU_RO or the
 * CPU mapping is not writable (svm_range_get_pte_flags, and the VMA check of
 * svm_range_validate_and_map): a GPU write there is a permission fault. The CPU mapping's
 * rights are read (/proc/self/maps) when the GPU first reaches a range after SET_ATTR, and
 * again after an mprotect over it (the interposer tells: the kernel's MMU notifier) and at
 * each translation where they were not all writable. Translations a work-group already
 * holds are not revoked (as for access, below).
 * Not modelled: SMI migrate events (the SMI event file never reports anything here) and TLB shootdown of the
 * interpreter's per-workgroup translations when access is revoked mid-dispatch. XNACK:
 * per-process retry is switchable on GC 9.4.2 (gfx90a) and the GC 9.4.3+ parts; older gfx9
 * parts keep it off. */
#include "kfd/kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint32_t sim_kfd_arg_size(void);

#define SVM_DEFAULT_GRANULARITY 9u
#define SVM_MAX_GRANULARITY 0x3fu
#define SVM_DEFAULT_FLAGS (KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT)

struct svm_range {
  uint64_t start, last;        /* pages, inclusive */
  uint32_t preferred_loc, prefetch_loc;
  uint32_t actual_loc;         /* where the pages are: 0 system memory, else a gpu_id */
  uint32_t granularity;
  uint32_t flags;
  uint32_t access, aip;        /* bit per GPU index of the process (pdds[]) */
  int8_t cpu_w;                /* the CPU mapping: 1 all writable, -1 not read yet, -2 not all
                                  writable (then each translation reads it) */
};

/* The ranges of the process that opened /dev/kfd, sorted and disjoint. A new process (a
 * fork's child opening the device) starts with none. */
static pthread_mutex_t svm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_kfd_process *svm_owner;
static struct svm_range *ranges;
static size_t n_ranges, cap_ranges;

static uint32_t all_gpus(struct sim_kfd_process *p)
{
  return p->n_pdds >= 32 ? UINT32_MAX : (1u << p->n_pdds) - 1;
}

static int gpu_index(struct sim_kfd_process *p, uint32_t gpu_id)
{
  struct sim_pdd *pdd = sim_pdd_by_id(p, gpu_id);
  return pdd ? (int)(pdd - p->pdds) : -1;
}

/* svm_lock held: a new process (a fork's child opening the device) starts with no range */
static void own(struct sim_kfd_process *p)
{
  if (svm_owner != p) {
    n_ranges = 0;
    svm_owner = p;
  }
}

static struct svm_range new_range(struct sim_kfd_process *p, uint64_t start, uint64_t last)
{
  struct svm_range r = {
    .start = start, .last = last,
    .preferred_loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED,
    .prefetch_loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED,
    .granularity = SVM_DEFAULT_GRANULARITY, .flags = SVM_DEFAULT_FLAGS,
    .access = p->xnack ? all_gpus(p) : 0, .aip = 0, .cpu_w = -1,
  };
  return r;
}

static int insert_at(size_t i, struct svm_range r)
{
  if (n_ranges == cap_ranges) {
    size_t cap = cap_ranges ? cap_ranges * 2 : 16;
    struct svm_range *n = realloc(ranges, cap * sizeof *n);
    if (!n)
      return -ENOMEM;
    ranges = n;
    cap_ranges = cap;
  }
  memmove(&ranges[i + 1], &ranges[i], (n_ranges - i) * sizeof *ranges);
  ranges[i] = r;
  n_ranges++;
  return 0;
}

static void remove_at(size_t i)
{
  memmove(&ranges[i], &ranges[i + 1], (n_ranges - i - 1) * sizeof *ranges);
  n_ranges--;
}

/* Keeps only the pages of each range that are still mapped (the kernel's unmap notifier). */
static void trim_unmapped(void)
{
  for (size_t i = 0; i < n_ranges;) {
    struct svm_range r = ranges[i];
    if (sim_user_range_mapped(r.start * SIM_PAGE, (r.last - r.start + 1) * SIM_PAGE)) {
      i++;
      continue;
    }
    remove_at(i);
    uint64_t run = UINT64_MAX;   /* first page of the current mapped run */
    for (uint64_t pg = r.start; pg <= r.last + 1; pg++) {
      bool m = pg <= r.last && sim_user_range_mapped(pg * SIM_PAGE, SIM_PAGE);
      if (m && run == UINT64_MAX) {
        run = pg;
      } else if (!m && run != UINT64_MAX) {
        struct svm_range piece = r;
        piece.start = run;
        piece.last = pg - 1;
        if (insert_at(i, piece) == 0)
          i++;
        run = UINT64_MAX;
      }
    }
  }
}

/* Splits the range holding page `pg` (if any starts before it) so that one starts at pg. */
static int split_at(uint64_t pg)
{
  for (size_t i = 0; i < n_ranges; i++)
    if (ranges[i].start < pg && pg <= ranges[i].last) {
      struct svm_range tail = ranges[i];
      tail.start = pg;
      ranges[i].last = pg - 1;
      return insert_at(i + 1, tail);
    }
  return 0;
}

static int check_set_attr(struct sim_kfd_process *p, const struct kfd_ioctl_svm_args *a)
{
  for (uint32_t i = 0; i < a->nattr; i++) {
    uint32_t v = a->attrs[i].value;
    int idx = 0;
    switch (a->attrs[i].type) {
    case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
      if (v != KFD_IOCTL_SVM_LOCATION_SYSMEM && v != KFD_IOCTL_SVM_LOCATION_UNDEFINED)
        idx = gpu_index(p, v);
      break;
    case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
      if (v != KFD_IOCTL_SVM_LOCATION_SYSMEM)
        idx = gpu_index(p, v);
      break;
    case KFD_IOCTL_SVM_ATTR_ACCESS:
    case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
    case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
      idx = gpu_index(p, v);
      break;
    case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
    case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
    case KFD_IOCTL_SVM_ATTR_GRANULARITY:
      break;
    default:
      return -EINVAL;
    }
    if (idx < 0)
      return -EINVAL;
  }
  return 0;
}

/* The kernel refuses SVM attributes on memory a KFD buffer object is mapped at. */
static bool overlaps_mapped_bo(struct sim_kfd_process *p, uint64_t start, uint64_t size)
{
  bool hit = false;
  pthread_mutex_lock(&p->lock);
  for (struct sim_bo *b = p->bos; b && !hit; b = b->next)
    hit = b->mapped && b->va < start + size && start < b->va + b->size;
  pthread_mutex_unlock(&p->lock);
  return hit;
}

static int range_valid(struct sim_kfd_process *p, uint64_t start, uint64_t size)
{
  if (!sim_user_range_mapped(start, size))
    return -EFAULT;
  return overlaps_mapped_bo(p, start, size) ? -EADDRINUSE : 0;
}

static void apply(struct sim_kfd_process *p, struct svm_range *r,
                  const struct kfd_ioctl_svm_args *a)
{
  r->cpu_w = -1;   /* the kernel validates the range again: its rights are read anew */
  for (uint32_t i = 0; i < a->nattr; i++) {
    uint32_t v = a->attrs[i].value;
    uint32_t bit = 0;
    switch (a->attrs[i].type) {
    case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
      r->preferred_loc = v;
      break;
    case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
      r->prefetch_loc = v;
      break;
    case KFD_IOCTL_SVM_ATTR_ACCESS:
    case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
    case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
      bit = 1u << gpu_index(p, v);
      r->access &= ~bit;
      r->aip &= ~bit;
      if (a->attrs[i].type == KFD_IOCTL_SVM_ATTR_ACCESS)
        r->access |= bit;
      else if (a->attrs[i].type == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE)
        r->aip |= bit;
      break;
    case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
      r->flags |= v;
      break;
    case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
      r->flags &= ~v;
      break;
    case KFD_IOCTL_SVM_ATTR_GRANULARITY:
      r->granularity = v < SVM_MAX_GRANULARITY ? v : SVM_MAX_GRANULARITY;
      break;
    }
  }
}

/* The location a prefetch moves the range to: the prefetch GPU's VRAM when every other GPU
 * that maps the range is in its XGMI hive (none is here), else system memory. */
static uint32_t prefetch_target(struct sim_kfd_process *p, const struct svm_range *r)
{
  uint32_t loc = r->prefetch_loc;
  if (loc == KFD_IOCTL_SVM_LOCATION_SYSMEM || loc == KFD_IOCTL_SVM_LOCATION_UNDEFINED)
    return 0;
  int self = gpu_index(p, loc);
  uint32_t users = p->xnack ? r->aip : r->access | r->aip;
  if (self < 0 || (users & ~(1u << self)))
    return 0;
  return loc;
}

static void migrate(struct sim_kfd_process *p, struct svm_range *r)
{
  uint32_t to = prefetch_target(p, r);
  if (to == r->actual_loc)
    return;
  sim_trace("svm: pages 0x%llx-0x%llx migrate to %s 0x%x", (unsigned long long)r->start,
            (unsigned long long)r->last, to ? "the VRAM of gpu" : "system memory", to);
  /* the GPU that migrates tells its SMI clients: the destination's, or the source's */
  int gi = gpu_index(p, to ? to : r->actual_loc);
  struct sim_gpu *g = gi >= 0 ? p->pdds[gi].gpu : NULL;
  uint64_t pages = r->last - r->start + 1;
  if (g)
    sim_smi_migrate(g, r->start, pages, r->actual_loc, to, r->prefetch_loc, r->preferred_loc,
                    false);
  uint32_t from = r->actual_loc;
  r->actual_loc = to;
  if (g)
    sim_smi_migrate(g, r->start, pages, from, to, r->prefetch_loc, r->preferred_loc, true);
}

/* svm_lock held */
static int set_attr(struct sim_kfd_process *p, const struct kfd_ioctl_svm_args *a)
{
  int r = check_set_attr(p, a);
  if (r)
    return r;
  r = range_valid(p, a->start_addr, a->size);
  if (r)
    return r;
  uint64_t first = a->start_addr / SIM_PAGE, last = first + a->size / SIM_PAGE - 1;
  if ((r = split_at(first)) != 0 || (r = split_at(last + 1)) != 0)
    return r;
  /* Fill the gaps with default ranges, then apply to every range inside. */
  uint64_t pg = first;
  size_t i = 0;
  while (i < n_ranges && ranges[i].last < first)
    i++;
  while (pg <= last) {
    if (i < n_ranges && ranges[i].start == pg) {
      pg = ranges[i].last + 1;
      i++;
      continue;
    }
    uint64_t end = i < n_ranges && ranges[i].start <= last ? ranges[i].start - 1 : last;
    if ((r = insert_at(i, new_range(p, pg, end))) != 0)
      return r;
    pg = end + 1;
    i++;
  }
  bool prefetch = false;
  for (uint32_t k = 0; k < a->nattr; k++)
    prefetch |= a->attrs[k].type == KFD_IOCTL_SVM_ATTR_PREFETCH_LOC;
  for (i = 0; i < n_ranges; i++)
    if (ranges[i].start >= first && ranges[i].last <= last) {
      apply(p, &ranges[i], a);
      if (prefetch)
        migrate(p, &ranges[i]);
    }
  return 0;
}

/* svm_lock held */
static int get_attr(struct sim_kfd_process *p, struct kfd_ioctl_svm_args *a)
{
  int r = range_valid(p, a->start_addr, a->size);
  if (r)
    return r;
  for (uint32_t i = 0; i < a->nattr; i++)
    switch (a->attrs[i].type) {
    case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
    case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
    case KFD_IOCTL_SVM_ATTR_ACCESS:
    case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
    case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
    case KFD_IOCTL_SVM_ATTR_GRANULARITY:
      break;
    default:   /* ACCESS_IN_PLACE and NO_ACCESS are answers, not questions */
      return -EINVAL;
    }
  uint64_t first = a->start_addr / SIM_PAGE, last = first + a->size / SIM_PAGE - 1;
  uint32_t loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED, pf = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
  bool want_loc = true, want_pf = true, found = false;
  uint32_t gran = 0xff, f_and = UINT32_MAX, f_or = 0;
  uint32_t access = all_gpus(p), aip = all_gpus(p);
  for (size_t i = 0; i < n_ranges; i++) {
    struct svm_range *g = &ranges[i];
    if (g->last < first || g->start > last)
      continue;
    found = true;
    if (want_loc) {
      if (g->preferred_loc == KFD_IOCTL_SVM_LOCATION_UNDEFINED ||
          (loc != KFD_IOCTL_SVM_LOCATION_UNDEFINED && loc != g->preferred_loc)) {
        loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
        want_loc = false;
      } else {
        loc = g->preferred_loc;
      }
    }
    if (want_pf) {
      if (g->prefetch_loc == KFD_IOCTL_SVM_LOCATION_UNDEFINED ||
          (pf != KFD_IOCTL_SVM_LOCATION_UNDEFINED && pf != g->prefetch_loc)) {
        pf = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
        want_pf = false;
      } else {
        pf = g->prefetch_loc;
      }
    }
    access &= g->access;
    aip &= g->aip;
    f_and &= g->flags;
    f_or |= g->flags;
    if (g->granularity < gran)
      gran = g->granularity;
  }
  if (!found) {
    gran = SVM_DEFAULT_GRANULARITY;
    f_and = f_or = SVM_DEFAULT_FLAGS;
    access = p->xnack ? all_gpus(p) : 0;
    aip = 0;
  }
  for (uint32_t i = 0; i < a->nattr; i++) {
    struct kfd_ioctl_svm_attribute *at = &a->attrs[i];
    int idx;
    switch (at->type) {
    case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
      at->value = loc;
      break;
    case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
      at->value = pf;
      break;
    case KFD_IOCTL_SVM_ATTR_ACCESS:
      idx = gpu_index(p, at->value);
      if (idx < 0)
        return -EINVAL;
      at->type = (access >> idx) & 1 ? KFD_IOCTL_SVM_ATTR_ACCESS
                 : (aip >> idx) & 1  ? KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE
                                     : KFD_IOCTL_SVM_ATTR_NO_ACCESS;
      break;
    case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
      at->value = f_and;
      break;
    case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
      at->value = ~f_or;
      break;
    case KFD_IOCTL_SVM_ATTR_GRANULARITY:
      at->value = gran;
      break;
    }
  }
  return 0;
}

int sim_kfd_svm(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_svm_args *a = data;
  if ((a->start_addr & (SIM_PAGE - 1)) || (a->size & (SIM_PAGE - 1)) || !a->start_addr ||
      !a->size)
    return -EINVAL;
  size_t room = sim_kfd_arg_size() > sizeof *a ? sim_kfd_arg_size() - sizeof *a : 0;
  if ((uint64_t)a->nattr * sizeof a->attrs[0] > room)
    return -EFAULT;   /* attributes beyond what the caller passed */
  if (a->op != KFD_IOCTL_SVM_OP_SET_ATTR && a->op != KFD_IOCTL_SVM_OP_GET_ATTR)
    return EINVAL;    /* sic: the kernel returns a positive EINVAL for an unknown op */
  pthread_mutex_lock(&svm_lock);
  own(p);
  trim_unmapped();
  int r = a->op == KFD_IOCTL_SVM_OP_SET_ATTR ? set_attr(p, a) : get_attr(p, a);
  if (a->op == KFD_IOCTL_SVM_OP_SET_ATTR)
    sim_vm_changed();
  pthread_mutex_unlock(&svm_lock);
  return r;
}

int sim_kfd_set_xnack_mode(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_xnack_mode_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  if (a->xnack_enabled < 0) {
    a->xnack_enabled = p->xnack;
  } else if (p->queues) {
    r = -EBUSY;   /* not while user queues exist */
  } else if ((a->xnack_enabled != 0) != (p->xnack != 0)) {
    if (a->xnack_enabled) {
      for (unsigned i = 0; i < p->n_pdds && !r; i++) {
        /* GC 9.4.2 is gfx90a (target version 90010); GC 9.4.3 on are 90402 and up */
        uint32_t v = p->pdds[i].gpu->model->gfx_target_version;
        if (v != 90010 && (v < 90402 || v >= 100000))
          r = -EPERM;
      }
    }
    if (!r)
      p->xnack = a->xnack_enabled != 0;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}

/* ---- what the GPUs see ------------------------------------------------------------- */

static size_t range_at(uint64_t pg)
{
  for (size_t i = 0; i < n_ranges; i++)
    if (ranges[i].start <= pg && pg <= ranges[i].last)
      return i;
  return SIZE_MAX;
}

/* svm_lock held: the retry-fault path makes a range for page pg (no range holds it) and
 * returns its index, or SIZE_MAX when no memory is mapped there (then the fault stands). */
static size_t unregistered_range(struct sim_kfd_process *p, uint64_t pg)
{
  if (!sim_user_range_mapped(pg * SIM_PAGE, SIM_PAGE))
    return SIZE_MAX;
  uint64_t block = 1ull << SVM_DEFAULT_GRANULARITY;
  uint64_t lo = pg & ~(block - 1), hi = lo + block - 1;
  size_t i = 0;
  while (i < n_ranges && ranges[i].last < pg)
    i++;
  if (i > 0 && ranges[i - 1].last >= lo)
    lo = ranges[i - 1].last + 1;
  if (i < n_ranges && ranges[i].start <= hi)
    hi = ranges[i].start - 1;
  if (!sim_user_range_mapped(lo * SIM_PAGE, (hi - lo + 1) * SIM_PAGE)) {
    uint64_t a = pg, b = pg;   /* only the mapped run around pg */
    while (a > lo && sim_user_range_mapped((a - 1) * SIM_PAGE, SIM_PAGE))
      a--;
    while (b < hi && sim_user_range_mapped((b + 1) * SIM_PAGE, SIM_PAGE))
      b++;
    lo = a;
    hi = b;
  }
  /* never over a buffer object mapped on a GPU (svm_range_check_vm): the fault stands there */
  if (overlaps_mapped_bo(p, lo * SIM_PAGE, (hi - lo + 1) * SIM_PAGE)) {
    if (overlaps_mapped_bo(p, pg * SIM_PAGE, SIM_PAGE))
      return SIZE_MAX;
    lo = hi = pg;
  }
  if (insert_at(i, new_range(p, lo, hi)) != 0)
    return SIZE_MAX;
  sim_trace("svm: retry fault at page 0x%llx: range 0x%llx-0x%llx made", (unsigned long long)pg,
            (unsigned long long)lo, (unsigned long long)hi);
  return i;
}

void *sim_svm_translate(struct sim_kfd_process *p, struct sim_gpu *gpu, uint64_t va, uint64_t len,
                        uint64_t *lo, uint64_t *hi, bool *writable)
{
  int gi = -1;
  for (unsigned i = 0; i < p->n_pdds; i++)
    if (p->pdds[i].gpu == gpu)
      gi = (int)i;
  if (gi < 0 || !len || !sim_access_ok(va, len))
    return NULL;
  uint64_t pg = va / SIM_PAGE, last = (va + len - 1) / SIM_PAGE;
  void *host = NULL;
  pthread_mutex_lock(&svm_lock);
  own(p);
  size_t i = range_at(pg);
  if (i == SIZE_MAX && p->xnack)
    i = unregistered_range(p, pg);
  if (i == SIZE_MAX)
    goto out;
  struct svm_range *r = &ranges[i];
  if (!(((r->access | r->aip) >> gi) & 1) || last > r->last)
    goto out;
  /* a window of the range around va, checked mapped (translations are cached by it) */
  uint64_t block = 1ull << SVM_DEFAULT_GRANULARITY;
  uint64_t a = pg & ~(block - 1), b = (pg | (block - 1));
  if (a < r->start)
    a = r->start;
  if (b > r->last)
    b = r->last;
  if (b < last)
    b = last;
  if (!sim_user_range_mapped(a * SIM_PAGE, (b - a + 1) * SIM_PAGE)) {
    a = pg;
    b = last;
    if (!sim_user_range_mapped(a * SIM_PAGE, (b - a + 1) * SIM_PAGE))
      goto out;   /* freed behind our back: the kernel's notifier would have unmapped it */
  }
  /* read-only on the GPU: GPU_RO, or user memory the CPU may not write either */
  bool w = !(r->flags & KFD_IOCTL_SVM_FLAG_GPU_RO);
  if (w && r->cpu_w == -1)   /* once per validation when the whole range is writable */
    r->cpu_w = sim_user_range_writable(r->start * SIM_PAGE, (r->last - r->start + 1) * SIM_PAGE)
               ? 1 : -2;
  if (w && r->cpu_w != 1 && !sim_user_range_writable(a * SIM_PAGE, (b - a + 1) * SIM_PAGE)) {
    a = pg;   /* the window mixes rights: only the pages asked for */
    b = last;
    w = sim_user_range_writable(a * SIM_PAGE, (b - a + 1) * SIM_PAGE);
  }
  *writable = w;
  *lo = a * SIM_PAGE;
  *hi = (b + 1) * SIM_PAGE;
  host = (void *)(uintptr_t)va;
out:
  pthread_mutex_unlock(&svm_lock);
  return host;
}

void sim_svm_unmapped(uint64_t addr, uint64_t len)
{
  if (!len)
    return;
  uint64_t first = addr / SIM_PAGE, last = (addr + len - 1) / SIM_PAGE;
  pthread_mutex_lock(&svm_lock);
  if (split_at(first) == 0 && split_at(last + 1) == 0) {
    for (size_t i = 0; i < n_ranges;) {
      if (ranges[i].start >= first && ranges[i].last <= last)
        remove_at(i);
      else
        i++;
    }
  }
  sim_vm_changed();
  pthread_mutex_unlock(&svm_lock);
}

void sim_kfd_mprotected(void *addr, size_t len)
{
  if (!len)
    return;
  uint64_t first = (uintptr_t)addr / SIM_PAGE, last = ((uintptr_t)addr + len - 1) / SIM_PAGE;
  pthread_mutex_lock(&svm_lock);
  for (size_t i = 0; i < n_ranges; i++)
    if (ranges[i].start <= last && first <= ranges[i].last)
      ranges[i].cpu_w = -1;   /* read the rights again at the next translation */
  sim_vm_changed();
  pthread_mutex_unlock(&svm_lock);
}
