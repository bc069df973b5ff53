/* SPDX-License-Identifier: MIT */
/* decode.c — the code cache and the format split. Code is predecoded lazily, one
 * instruction at a time, into 4 KiB pages kept per GPU and page address. A page holds a
 * snapshot of its bytes (plus the few bytes an instruction may run into the next page);
 * instructions are decoded from the snapshot, and a workgroup compares the snapshot with
 * memory the first time it enters the page, so rewritten code is never run stale. */
#include "isa/exec.h"
#include "isa/fast.h"
#include "isa/gang.h"
#include "isa/gfx11.h"
#include "dev/catalog.h"

#include <fenv.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u
#define TAIL 12u             /* an instruction starting in the page's last dword */
#define BUCKETS 256u

/* A block of the fast engine: the predecoded instructions from one entry point on, in
 * order, to the first that always leaves (s_endpgm, s_branch, ...), the page's end, or
 * BLOCK_MAX of them, each with the semantics the fast engine runs (isa_inst.fast, else
 * .exec) and the pc after it (after both of a fused pair). The checks the plain loop makes
 * per instruction are made once at entry for the whole block (the page, the VGPR extent,
 * floating-point exceptions off); within it, a vector or memory instruction goes on to the
 * next entry unless it returned -1 (a fault or an exception), since those neither move the
 * pc elsewhere nor stop the wave nor change MODE; after any other (scalar formats, a fused
 * pair) the loop checks what the plain loop checks (ended, barrier, halted, pc moved, MODE)
 * and leaves the block when the pc is not the next entry's (a taken branch). */
#define BLOCK_MAX 128
/* ENT_PAIR: a fused pair, which only needs its pc checked (run alone, its first half leaves
 * the pc after itself); ENT_BRANCH: a fast conditional branch (fast.c: only the pc moves),
 * which needs nothing when not taken, and when taken back to its block's own start (a
 * loop's back-edge) the preemption poll and the block again, without leaving it */
enum { ENT_PLAIN, ENT_CHECK, ENT_LAST, ENT_PAIR, ENT_BRANCH };
struct isa_block_ent {
  isa_exec_fn *fn;
  isa_exec_fn *gfn;          /* the gang's merged call: fn, or a fused pair's 64-lane form */
  const struct isa_inst *in;
  uint64_t next;             /* the pc the next entry is at */
  uint8_t kind;              /* ENT_* */
  uint16_t gang;             /* isa_fast_lanewise() of a plain or pair entry (the gang's
                                merged call) */
  /* the gang's (isa_gang_run): */
  uint8_t nsg;               /* a merged call's SGPRs to compare, ... */
  uint8_t sg[8];             /* ... each once (gang_prepare) */
  uint16_t sc;               /* isa_fast_scalar(): run once for both when cin[] hold the same */
  uint16_t cin[2];           /* byte offsets in struct isa_wave of the 32-bit words it reads */
  uint16_t cout;             /* ... of the first of the nout 32-bit words it writes */
  uint8_t nout;
  uint8_t one;               /* GANG_MASKS with one lane mask register `mk` (no v_cmpx): 1 reads
                                it, 2 writes it (gang_one) */
  uint8_t mk;
  uint8_t gop;               /* GOP_*: what the gang does with it (gang_op) */
};
struct isa_block {
  uint16_t vgpr_end;         /* the highest of the entries' isa_inst.vgpr_end */
  uint16_t pair_end;         /* ... and of their fused pairs' second halves (the gang's) */
  uint16_t count;
  struct isa_block_ent e[];
};

struct isa_code {
  struct isa_code *next;     /* hash chain */
  struct sim_gpu *gpu;
  uint64_t va;
  unsigned len;              /* snapshot bytes: PAGE, plus TAIL when the next page is mapped */
  atomic_uint refs;          /* the table's, each running group's and each thread's kept */
  atomic_bool listed;        /* in the table (cleared when unlinked: a kept copy is stale) */
  pthread_mutex_t lock;      /* serializes decoding into slot[] */
  _Atomic(struct isa_inst *) slot[PAGE / 4];
  /* the fast engine's blocks, by the slot they start at (made when first entered) */
  _Atomic(struct isa_block *) block[PAGE / 4];
  uint8_t bytes[PAGE + TAIL];
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct isa_code *table[BUCKETS];

static unsigned bucket(const struct sim_gpu *gpu, uint64_t va)
{
  return (unsigned)(((va >> 12) ^ ((uintptr_t)gpu >> 6)) * 0x9e3779b1u >> 24) % BUCKETS;
}

static void code_unref(struct isa_code *c)
{
  if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1)
    return;
  for (unsigned i = 0; i < PAGE / 4; i++) {
    struct isa_inst *in = atomic_load_explicit(&c->slot[i], memory_order_relaxed);
    if (in)
      free(in->pair);
    free(in);
    free(atomic_load_explicit(&c->block[i], memory_order_relaxed));
  }
  pthread_mutex_destroy(&c->lock);
  free(c);
}

/* Copies the page's current bytes; 0 when the page is not mapped. */
static unsigned snapshot(struct sim_gpu *gpu, uint64_t va, uint8_t *dst)
{
  const void *p = sim_vm_translate(gpu, va, PAGE);
  if (!p)
    return 0;
  memcpy(dst, p, PAGE);
  const void *t = sim_vm_translate(gpu, va + PAGE, TAIL);
  if (!t)
    return PAGE;
  memcpy(dst + PAGE, t, TAIL);
  return PAGE + TAIL;
}

static bool same(struct isa_code *c)
{
  const void *p = sim_vm_translate(c->gpu, c->va, PAGE);
  if (!p || memcmp(p, c->bytes, PAGE))
    return false;
  const void *t = sim_vm_translate(c->gpu, c->va + PAGE, TAIL);
  if (c->len == PAGE)
    return t == NULL;
  return t && !memcmp(t, c->bytes + PAGE, TAIL);
}

/* The current page at `va` with a reference for the caller, or NULL when it is not mapped. */
static struct isa_code *code_page(struct sim_gpu *gpu, uint64_t va)
{
  unsigned b = bucket(gpu, va);
  struct isa_code **pp, *c;
  pthread_mutex_lock(&table_lock);
  for (;;) {
    for (pp = &table[b]; (c = *pp); pp = &c->next)
      if (c->gpu == gpu && c->va == va)
        break;
    if (!c)
      break;
    /* compared with memory outside the table's lock (two VM lookups and 4 KiB): work-groups
     * starting on other host threads do not queue behind it. The reference keeps the page. */
    atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
    pthread_mutex_unlock(&table_lock);
    if (same(c))
      return c;
    pthread_mutex_lock(&table_lock);
    for (pp = &table[b]; *pp && *pp != c; pp = &(*pp)->next)
      ;
    if (*pp) {   /* stale and still listed: unlink it; running groups keep their reference */
      *pp = c->next;
      atomic_store_explicit(&c->listed, false, memory_order_relaxed);
      code_unref(c);
    }
    code_unref(c);   /* ours; then look again: another thread may have put the new page */
  }
  struct isa_code *n = calloc(1, sizeof *n);
  if (n && (n->len = snapshot(gpu, va, n->bytes)) != 0) {
    n->gpu = gpu;
    n->va = va;
    atomic_init(&n->refs, 2);
    atomic_init(&n->listed, true);
    pthread_mutex_init(&n->lock, NULL);
    n->next = table[b];
    table[b] = n;
  } else {
    free(n);
    n = NULL;
  }
  pthread_mutex_unlock(&table_lock);
  return n;
}

/* Per host thread, the code pages of its last workgroup, with their references and where
 * they were in memory (buffer objects only, valid while the VM generation is unchanged): the
 * next workgroup on the thread takes them over after comparing the bytes, without the table's
 * lock and without touching the shared reference count, lines that every workgroup start on
 * every thread would otherwise write (pool threads running short workgroups side by side). */
struct code_at {
  struct isa_code *c;
  const void *p, *t;         /* the page's host bytes and its next page's (NULL: unmapped) */
  uint64_t gen;              /* sim_vm_generation read before looking them up */
  uint64_t dispatch;         /* the dispatch (sim_isa_workgroup.dispatch_seq) whose work-group
                                last compared the bytes with memory; 0 none */
};
struct code_tls {
  struct code_at kept[ISA_GROUP_PAGES];   /* references owned by the thread */
  unsigned kept_count;
  struct code_at seen[ISA_GROUP_PAGES];   /* this group's pages, where they are */
  unsigned seen_count;
  bool keyed;                /* kept_key holds `kept` (its destructor gives them back) */
};
/* one thread-local object whose address each function takes once (`ct`): as four variables
 * of a -fPIC library each access was a __tls_get_addr call, ~10 a work-group */
static __thread struct code_tls code_tls;
static inline struct code_tls *code_tls_get(void)
{
  struct code_tls *ct = &code_tls;
  __asm__("" : "+r"(ct));   /* kept in a register: gcc would otherwise redo the call after calls */
  return ct;
}
static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;

static void kept_free(void *arg)
{
  struct code_tls *ct = code_tls_get();
  (void)arg;
  for (unsigned k = 0; k < ct->kept_count; k++)
    code_unref(ct->kept[k].c);
  ct->kept_count = 0;
  ct->keyed = false;   /* the key's value is NULL now */
}

static void kept_key_init(void)
{
  pthread_key_create(&kept_key, kept_free);
}

/* Where page `c` (compared with memory just now, or being made) is, for keeping it. */
static void seen_add(struct isa_code *c, uint64_t gen, uint64_t dispatch)
{
  struct code_tls *ct = code_tls_get();
  if (ct->seen_count == ISA_GROUP_PAGES)
    return;
  uint64_t lo, hi;
  bool w, keep_p = false, keep_t = false;
  const void *p = sim_vm_lookup_keep(c->gpu, c->va, &lo, &hi, &w, &keep_p);
  if (!p || !keep_p || hi - c->va < PAGE)
    return;
  const void *t = NULL;
  if (c->len > PAGE) {
    t = sim_vm_lookup_keep(c->gpu, c->va + PAGE, &lo, &hi, &w, &keep_t);
    if (!t || !keep_t || hi - (c->va + PAGE) < TAIL)
      return;
  }
  ct->seen[ct->seen_count++] = (struct code_at){ .c = c, .p = p, .t = t, .gen = gen, .dispatch = dispatch };
}

/* The page at `va` from the thread's kept ones, its reference now the caller's, if it is
 * still the table's and its bytes still the memory's; NULL otherwise. */
static struct isa_code *kept_page(struct sim_gpu *gpu, uint64_t va, uint64_t gen,
                                  uint64_t dispatch)
{
  struct code_tls *ct = code_tls_get();
  for (unsigned k = 0; k < ct->kept_count; k++) {
    if (ct->kept[k].c->gpu != gpu || ct->kept[k].c->va != va)
      continue;
    struct code_at a = ct->kept[k];
    ct->kept[k] = ct->kept[--ct->kept_count];
    /* the page's memory still where it was (VM unchanged), listed, and the same bytes;
     * compared once per dispatch on each thread: the instruction cache is not coherent with
     * stores during a dispatch (a kernel or the host rewriting code it runs has it take
     * effect at the next dispatch, whose acquire invalidates the cache), so a page another
     * work-group of this dispatch found unchanged on this thread stays as it is (vadd: a
     * 4 KiB memcmp a work-group, ~2% of its count) */
    if (a.gen == gen && atomic_load_explicit(&a.c->listed, memory_order_relaxed) &&
        ((dispatch && a.dispatch == dispatch) ||
         (!memcmp(a.p, a.c->bytes, PAGE) &&
          (a.c->len == PAGE ? !a.t : !memcmp(a.t, a.c->bytes + PAGE, TAIL))))) {
      a.dispatch = dispatch;
      if (ct->seen_count < ISA_GROUP_PAGES)
        ct->seen[ct->seen_count++] = a;
      return a.c;
    }
    code_unref(a.c);
    return NULL;
  }
  return NULL;
}

/* The page at `va` for a workgroup, with a reference for it. */
static struct isa_code *group_page(struct sim_gpu *gpu, uint64_t va, uint64_t dispatch)
{
  uint64_t gen = sim_vm_generation();   /* before any lookup */
  struct isa_code *c = kept_page(gpu, va, gen, dispatch);
  if (c)
    return c;
  if ((c = code_page(gpu, va)) != NULL)
    seen_add(c, gen, dispatch);
  return c;
}

static void seen_drop(struct isa_code *c)
{
  struct code_tls *ct = code_tls_get();
  for (unsigned k = 0; k < ct->seen_count; k++)
    if (ct->seen[k].c == c) {
      ct->seen[k] = ct->seen[--ct->seen_count];
      return;
    }
}

void sim_isa_invalidate(struct sim_gpu *gpu, uint64_t va, uint64_t size)
{
  pthread_mutex_lock(&table_lock);
  for (unsigned b = 0; b < BUCKETS; b++) {
    struct isa_code **pp = &table[b], *c;
    while ((c = *pp)) {
      bool hit = c->gpu == gpu &&
                 (size == 0 || (c->va < va + size && va < c->va + c->len));
      if (hit) {
        *pp = c->next;
        atomic_store_explicit(&c->listed, false, memory_order_relaxed);
        code_unref(c);
      } else {
        pp = &c->next;
      }
    }
  }
  pthread_mutex_unlock(&table_lock);
}

/* The highest VGPR an instruction names, from the generic fields (a lower bound for wide
 * VALU operands; the register file has slack rows for those). */
static void vgpr_extent(struct isa_inst *in)
{
  unsigned end = 0, n = in->dwords ? in->dwords : 1;
#define USE(code, width)                                                     \
  do {                                                                       \
    if ((code) >= ISA_OP_VGPR0 && (code) < ISA_OP_AGPR0 &&                   \
        (code) - ISA_OP_VGPR0 + (width) > end)                               \
      end = (code) - ISA_OP_VGPR0 + (width);                                 \
  } while (0)
  switch (in->fmt) {
  case ISA_SOP2: case ISA_SOPK: case ISA_SOP1: case ISA_SOPC: case ISA_SOPP: case ISA_SMEM:
    break;
  case ISA_DS: case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: case ISA_MUBUF:
  case ISA_MTBUF: case ISA_MIMG:
    USE(in->addr, in->fmt == ISA_FLAT || (in->fmt == ISA_GLOBAL && in->saddr == 0x7f) ? 2u : 1u);
    USE(in->data, n);
    USE(in->data1, n);
    USE(in->dst, n);
    break;
  default:
    for (unsigned i = 0; i < 3; i++)
      USE(in->src[i], 1u);
    USE(in->dst, 1u);
    break;
  }
#undef USE
  in->vgpr_end = (uint16_t)end;
}

uint8_t isa_target_of(const struct sim_gpu *gpu)
{
  if (!gpu || !gpu->model)
    return ISA_TARGET_ANY;
  switch (gpu->model->gfx_target_version) {
  case 90000: return ISA_TARGET_GFX900;
  case 90006: return ISA_TARGET_GFX906;
  case 90010: return ISA_TARGET_GFX90A;
  case 90402: return ISA_TARGET_GFX942;
  default:
    /* gfx1100..gfx1103 (110000..110003) share the gfx11 encodings */
    if (gpu->model->gfx_target_version / 100 == 1100)
      return ISA_TARGET_GFX1100;
    if (gpu->model->gfx_target_version / 100 == 1200)   /* gfx1200, gfx1201 */
      return ISA_TARGET_GFX1201;
    return ISA_TARGET_ANY;
  }
}

uint8_t isa_target_named(const char *mcpu)
{
  if (!mcpu) return ISA_TARGET_ANY;
  if (!strcmp(mcpu, "gfx900")) return ISA_TARGET_GFX900;
  if (!strcmp(mcpu, "gfx906")) return ISA_TARGET_GFX906;
  if (!strcmp(mcpu, "gfx90a")) return ISA_TARGET_GFX90A;
  if (!strcmp(mcpu, "gfx942")) return ISA_TARGET_GFX942;
  if (!strncmp(mcpu, "gfx110", 6)) return ISA_TARGET_GFX1100;
  if (!strncmp(mcpu, "gfx120", 6)) return ISA_TARGET_GFX1201;
  return ISA_TARGET_ANY;
}

void isa_decode(const uint32_t *w, unsigned avail, uint64_t pc, uint8_t target,
                struct isa_inst *in)
{
  memset(in, 0, sizeof *in);
  in->pc = pc;
  in->target = target;
  uint32_t w0 = w[0];
  unsigned top6 = w0 >> 26;
  int r;
  if (target >= ISA_TARGET_GFX1100)
    r = isa_decode_gfx11(w, avail, pc, in);        /* RDNA3: its own encodings */
  else if ((w0 >> 30) == 2 || top6 == 0x30)
    r = isa_decode_sop(w, avail, pc, in);          /* SOP*, SMEM */
  else if (!(w0 >> 31) || top6 == 0x34)
    r = isa_decode_valu(w, avail, pc, in);         /* VOP1/2/C, VOP3A/B/P */
  else
    r = isa_decode_mem(w, avail, pc, in);          /* VINTRP, DS, FLAT, MUBUF, MTBUF, MIMG, EXP */
  if (!in->size || in->size / 4 > avail)
    in->size = 4;
  for (unsigned i = 0; i < in->size / 4 && i < 3; i++)
    in->words[i] = w[i];
  in->pc = pc;
  if (r || !in->exec)
    in->exec = isa_exec_unknown;
  vgpr_extent(in);
  in->fast = isa_fast_select(in);
}

/* Predecoded instruction at `pc` in page `c`. NULL only on allocation failure. */
static const struct isa_inst *code_inst(struct isa_code *c, uint64_t pc)
{
  unsigned i = (unsigned)(pc - c->va) / 4;
  struct isa_inst *in = atomic_load_explicit(&c->slot[i], memory_order_acquire);
  if (in)
    return in;
  pthread_mutex_lock(&c->lock);
  in = atomic_load_explicit(&c->slot[i], memory_order_relaxed);
  if (!in && (in = malloc(sizeof *in)) != NULL) {
    uint8_t target = isa_target_of(c->gpu);
    isa_decode((const uint32_t *)(c->bytes + i * 4), (c->len - i * 4) / 4, pc, target, in);
    /* a pair the fast engine runs as one: only with the second wholly in this page */
    unsigned at = i * 4 + in->size;
    if (in->exec == g11_exec_vopd)   /* VOPD: its two halves (fast.c) */
      isa_fast_fuse(in, NULL, 0, 0, target);
    else if (at < c->len && at < PAGE)
      isa_fast_fuse(in, (const uint32_t *)(c->bytes + at), (c->len - at) / 4, PAGE - at,
                    target);
    atomic_store_explicit(&c->slot[i], in, memory_order_release);
  }
  pthread_mutex_unlock(&c->lock);
  return in;
}

/* The page at `page` (holding w->pc) for the group, from the table or the thread's kept
 * ones, made current for the wave; NULL after recording a fault. */
static __attribute__((noinline)) struct isa_code *page_new(struct isa_wave *w, uint64_t page)
{
  struct isa_group *g = w->group;
  uint64_t pc = w->pc;
  if (pc & 3) {
    isa_fault(w, SIM_ISA_FAULT_MEMORY, pc, false, "misaligned pc 0x%llx", (unsigned long long)pc);
    return NULL;
  }
  struct isa_code *c = group_page(g->wg->gpu, page, g->wg->dispatch_seq);
  if (!c) {
    isa_fault(w, SIM_ISA_FAULT_MEMORY, pc, false, "instruction fetch from unmapped address 0x%llx",
              (unsigned long long)pc);
    return NULL;
  }
  if (g->page_count == ISA_GROUP_PAGES) {   /* rare: more code pages than slots */
    struct isa_code *old = g->pages[0];
    memmove(g->pages, g->pages + 1, (ISA_GROUP_PAGES - 1) * sizeof *g->pages);
    g->page_count--;
    for (unsigned k = 0; k < g->wg->wave_count; k++)
      if (g->waves[k].code == old)
        g->waves[k].code = NULL;
    seen_drop(old);
    code_unref(old);
  }
  g->pages[g->page_count++] = c;
  w->code = c;
  return c;
}

/* The page holding w->pc, made current for the wave; NULL after recording a fault. Inline
 * for the group's pages (each wave's start: issue 24, ~50 host instructions a wave as a
 * call), the rest out of line. */
static inline struct isa_code *page_for(struct isa_wave *w)
{
  uint64_t pc = w->pc, page = pc & ~(uint64_t)(PAGE - 1);
  struct isa_group *g = w->group;
  if (__builtin_expect(!(pc & 3), 1))
    for (unsigned k = 0; k < g->page_count; k++)
      if (g->pages[k]->va == page)
        return w->code = g->pages[k];
  return page_new(w, page);
}

/* A preemption request reaches the wave at a backward branch: every loop takes one, so a
 * wave that never ends still stops there, and straight-line code pays nothing. */
static int preempt_fault(struct isa_wave *w)
{
  return isa_fault(w, SIM_ISA_FAULT_PREEMPTED, 0, false, "preempted at 0x%llx",
                   (unsigned long long)w->pc);
}
static inline int preempted(struct isa_wave *w)
{
  const _Atomic(bool) *flag = w->group->wg->preempt;
  if (!flag || !atomic_load_explicit(flag, memory_order_relaxed))
    return 0;
  return preempt_fault(w);
}

/* A conditional branch with fast semantics that only move the pc (fast.c sopp_select:
 * s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz, gfx9 and gfx11/gfx12 alike). */
static bool fast_cbranch(const struct isa_inst *in)
{
  return in->fmt == ISA_SOPP && in->fast && in->size == 4 && in->op >= 4 && in->op <= 9;
}

/* Whether a block ends after `in`: the instructions that always leave the straight line
 * (and an instruction that does not decode, whose following bytes may be data). */
static bool block_ends(const struct isa_inst *in)
{
  if (in->exec == isa_exec_unknown || in->pair)
    return in->exec == isa_exec_unknown;
  if (in->fmt != ISA_SOPP && in->fmt != ISA_SOP1)
    return false;
  const char *n = in->name ? in->name : "";
  return !strncmp(n, "s_endpgm", 8) || !strcmp(n, "s_branch") || !strcmp(n, "s_setpc_b64") ||
         !strcmp(n, "s_swappc_b64") || !strcmp(n, "s_rfe_b64") || !strcmp(n, "s_trap") ||
         !strcmp(n, "s_sethalt") || !strcmp(n, "s_call_b64");
}

static bool prefixed(const char *n, const char *const *list)
{
  for (; *list; list++)
    if (!strncmp(n, *list, strlen(*list)))
      return true;
  return false;
}

/* Whether `in`, returning 0, always goes on at the next instruction with the wave running
 * and MODE unchanged, so that a block needs no check after it: every vector and memory
 * instruction (they leave the straight line only by an exception, which returns -1), and
 * the scalar ones that only compute into SGPRs, SCC, VCC, EXEC or M0 or wait. The others
 * (branches, s_setpc, s_setreg, s_sethalt, s_sendmsg, s_barrier, s_endpgm, gfx11's
 * s_round_mode, ...) and any unknown name are checked. */
static bool plain(const struct isa_inst *in)
{
  static const char *const sop1[] = { "s_mov_", "s_cmov_", "s_not_", "s_brev_", "s_bcnt",
                                      "s_ff", "s_flbit", "s_sext_", "s_abs_", "s_wqm_",
                                      "s_quadmask", "s_getpc_", "s_bitset", NULL };
  static const char *const sopk[] = { "s_movk_", "s_cmovk_", "s_cmpk_", "s_addk_", "s_mulk_",
                                      "s_getreg_", NULL };
  static const char *const sopp[] = { "s_nop", "s_wait", "s_delay_alu", "s_clause",
                                      "s_set_inst_prefetch_distance", NULL };
  const char *n = in->name ? in->name : "";
  if (in->exec == isa_exec_unknown)
    return false;
  switch (in->fmt) {
  case ISA_SMEM: case ISA_SOPC: return true;
  case ISA_SOP2: return strcmp(n, "s_rfe_restore_b64") && strcmp(n, "s_cbranch_g_fork");
  case ISA_SOP1: return strstr(n, "saveexec") || prefixed(n, sop1);
  case ISA_SOPK: return prefixed(n, sopk);
  case ISA_SOPP: return prefixed(n, sopp);
  default: return true;
  }
}

#define GANG_MASKS (ISA_GANG_MASK | ISA_GANG_EXEC | ISA_GANG_PAIR | ISA_GANG_MASKIN)
/* isa_block_ent.sc: inputs to compare (else none: a hint, a wait, s_branch) */
#define GANG_CMP 0x8000u
/* isa_block_ent.gop, what the gang does with an entry: GOP_VEC (no SGPR source to compare),
 * GOP_VEC_SG, GOP_ONE, GOP_MASKS, GOP_GLOBAL a merged call (isa_block_ent.gang: plain, with
 * one mask register, with masks, a global access) when both waves have every lane on;
 * GOP_NOP and GOP_WAIT only move both pcs (GOP_WAIT after a fence); GOP_SCALAR once on a when
 * its inputs hold the same in b; the rest runs for a, then for b: GOP_ALONE, or GOP_ALONE_XM
 * when it may change EXEC or MODE (the gang's every-lane-on test is then made again) */
enum { GOP_ALONE, GOP_ALONE_XM, GOP_VEC, GOP_VEC_SG, GOP_ONE, GOP_MASKS, GOP_GLOBAL, GOP_NOP,
       GOP_WAIT, GOP_SCALAR, GOP_COUNT };

/* byte offset in struct isa_wave of the 32-bit scalar register `code` of a wave32 (an SGPR,
 * VCC_LO or EXEC_LO: the low halves, the host being little-endian); of `group` (the same in
 * both waves of a gang) for a constant */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "VCC_LO/EXEC_LO as the low halves");
static uint16_t gang_off(unsigned code)
{
  if (code <= ISA_OP_SGPR_LAST)
    return (uint16_t)(offsetof(struct isa_wave, sgpr) + 4 * code);
  if (code == ISA_OP_VCC_LO)
    return offsetof(struct isa_wave, vcc);
  if (code == ISA_OP_EXEC_LO)
    return offsetof(struct isa_wave, exec);
  return offsetof(struct isa_wave, group);
}

/* the gang's view of entry `e` (isa_gang_run): the SGPR pairs a merged vector call reads,
 * and for a scalar instruction (isa_fast_scalar) the words it reads and writes */
static void gang_prepare(struct isa_block_ent *e)
{
  const struct isa_inst *in = e->in, *hi = in->pair;
  if (e->gang & ISA_GANG_SGPR) {
    bool pair = e->gang & ISA_GANG_PAIR;
    const uint16_t src[4] = { in->src[0], in->src[1], pair ? hi->src[0] : in->src[2],
                              pair ? hi->src[1] : 0 };
    /* a fused pair's halves read 32-bit sources; other forms may read an SGPR pair */
    for (unsigned k = 0; k < 4; k++)
      if (e->gang & ISA_GANG_SRC0 << k)
        for (unsigned c = src[k]; c <= src[k] + (pair ? 0u : 1u); c++) {
          unsigned j = 0;
          while (j < e->nsg && e->sg[j] != c)
            j++;
          if (j == e->nsg)
            e->sg[e->nsg++] = (uint8_t)c;
        }
    /* padded to 4 or 8 with the first, which gang_merge then compares again */
    for (unsigned j = e->nsg; e->nsg && j < (e->nsg <= 4 ? 4u : 8u); j++)
      e->sg[j] = e->sg[0];
  }
  /* one lane-mask register read or written (not v_cmpx's EXEC): gang_one */
  if ((e->gang & GANG_MASKS) && !(e->gang & ISA_GANG_EXEC)) {
    bool pair = e->gang & ISA_GANG_PAIR, maskin = e->gang & ISA_GANG_MASKIN;
    unsigned k0 = (e->gang & ISA_GANG_MASK) ? in->sdst : ISA_OP_NULL,
             k1 = pair ? hi->sdst : ISA_OP_NULL, k = k0 != ISA_OP_NULL ? k0 : k1;
    if (k == ISA_OP_NULL && maskin)
      k = in->src[2];
    if ((k0 == ISA_OP_NULL || k0 == k) && (k1 == ISA_OP_NULL || k1 == k) &&
        (!maskin || in->src[2] == k) && (k == ISA_OP_VCC_LO || k < ISA_OP_SGPR_LAST)) {
      e->one = k0 != ISA_OP_NULL || k1 != ISA_OP_NULL ? 2 : 1;
      e->mk = (uint8_t)k;
    }
  }
  /* merged: the scalar loads (the second wave's own load is the costly part), the hints
   * and waits, and the branches (two `after` checks otherwise); the SALU forms that compute
   * into SGPRs cost less run again than compared and copied */
  unsigned sc = isa_fast_scalar(in);
  e->cin[0] = e->cin[1] = e->cout = offsetof(struct isa_wave, group);
  if (!sc)
    return;
  e->sc = (uint16_t)sc;
  if (sc & ISA_GSC_SADDR) {   /* s_load: the base pair, the dwords loaded */
    e->cin[0] = gang_off(in->saddr);
    e->cin[1] = gang_off(in->saddr + 1u);
    e->cout = gang_off(in->sdst);
    e->nout = in->dwords;
  } else if (sc & ISA_GSC_VCC_IN) {
    e->cin[0] = gang_off(ISA_OP_VCC_LO);
  } else if (sc & ISA_GSC_EXEC_IN) {
    e->cin[0] = gang_off(ISA_OP_EXEC_LO);
  }
  if (sc & (ISA_GSC_SADDR | ISA_GSC_VCC_IN | ISA_GSC_EXEC_IN | ISA_GSC_SCC_IN))
    e->sc |= GANG_CMP;
}

/* Whether `in`, run by each wave of a gang for itself, leaves EXEC and MODE as they were
 * (false when it may not: then the gang tests again that every lane of both is on). The
 * memory formats write VGPRs (SMEM: SGPRs below EXEC), SOPC only SCC; a scalar ALU form
 * whose destination is not EXEC (nor, 64 bits wide, the NULL below it) and whose name
 * speaks of neither EXEC nor MODE (saveexec, setreg, movrel's computed destination, ...) */
static bool keeps_exec_mode(const struct isa_inst *in)
{
  const char *n = in->name ? in->name : "";
  if (in->exec == isa_exec_unknown)
    return false;
  switch (in->fmt) {
  case ISA_SMEM:
    return in->sdst + (in->dwords ? in->dwords : 1u) <= ISA_OP_NULL;
  case ISA_DS: case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: case ISA_MUBUF:
  case ISA_MTBUF: case ISA_MIMG:
    return true;
  case ISA_SOPC:
  case ISA_SOP1: case ISA_SOP2: case ISA_SOPK:
    return (in->fmt == ISA_SOPC || in->dst < ISA_OP_NULL) && !strstr(n, "exec") &&
           !strstr(n, "setreg") && !strstr(n, "movrel") && !strstr(n, "mode") &&
           !strstr(n, "gpr_idx") && !strstr(n, "vskip");
  default:
    return false;
  }
}

/* isa_block_ent.gop of `e` (its kind and gang final) */
static uint8_t gang_op(const struct isa_block_ent *e)
{
  if (e->gang & ISA_GANG_GLOBAL)
    return GOP_GLOBAL;
  if (e->gang)
    return !(e->gang & GANG_MASKS) ? (e->nsg ? GOP_VEC_SG : GOP_VEC)
           : e->one                ? GOP_ONE
                                   : GOP_MASKS;
  if (e->kind == ENT_PLAIN && (e->sc & ISA_GSC_NOP))   /* s_nop, s_delay_alu, ... */
    return GOP_NOP;
  /* also the cache invalidates and write-backs the model has no cache for (buffer_gl0_inv,
   * ...: a fence, of any size) */
  if (e->kind == ENT_PLAIN && ((e->sc & ISA_GSC_WAIT) || e->fn == g11_exec_nop))
    return GOP_WAIT;
  if (e->sc)
    return GOP_SCALAR;
  return keeps_exec_mode(e->in) ? GOP_ALONE : GOP_ALONE_XM;
}

/* Makes and publishes the block starting at slot `i` (pc `pc`) of page `c`; NULL only on
 * allocation failure. Two threads may make the same block: the first published stays. */
static __attribute__((noinline)) const struct isa_block *make_block(struct isa_code *c,
                                                                    uint64_t pc, unsigned i)
{
  struct isa_block *b = malloc(sizeof *b + BLOCK_MAX * sizeof b->e[0]);
  if (!b)
    return NULL;
  unsigned n = 0, vend = 0;
  unsigned pend = 0;
  uint64_t at = pc;
  for (;;) {
    const struct isa_inst *in = code_inst(c, at);
    if (!in)
      break;
    /* past a fused pair's second half (and an s_delay_alu between them, fast.c) */
    uint64_t next = in->pair && in->pair->size ? in->pair->pc + in->pair->size : at + in->size;
    /* a fused add pair is checked (its first half may run alone); VOPD's halves (the first
     * of size 0) are plain vector instructions */
    uint8_t kind = in->pair && in->pair->size ? ENT_PAIR
                   : fast_cbranch(in)           ? ENT_BRANCH
                   : !plain(in)                 ? ENT_CHECK
                                                : ENT_PLAIN;
    b->e[n] = (struct isa_block_ent){ .fn = in->fast ? in->fast : in->exec, .in = in, .next = next,
                                      .kind = kind,
                                      .gang = kind == ENT_PLAIN || kind == ENT_PAIR
                                                ? (uint16_t)isa_fast_lanewise(in) : 0 };
    b->e[n].gfn = b->e[n].gang & ISA_GANG_PAIR ? isa_fast_add64_wide() : b->e[n].fn;
    gang_prepare(&b->e[n]);
    if (in->vgpr_end > vend)
      vend = in->vgpr_end;
    if (in->pair && in->pair->vgpr_end > pend)
      pend = in->pair->vgpr_end;
    n++;
    at = next;
    if (block_ends(in) || n == BLOCK_MAX || at - c->va >= PAGE)
      break;
  }
  if (!n) {
    free(b);
    return NULL;
  }
  b->e[n - 1].kind = ENT_LAST;   /* also when decoding the next ran out of memory */
  b->e[n - 1].gang = 0;          /* the gang's merged call goes on to the next entry */
  for (unsigned k = 0; k < n; k++)
    b->e[k].gop = gang_op(&b->e[k]);
  struct isa_block *fit = realloc(b, sizeof *b + n * sizeof b->e[0]);
  if (fit)
    b = fit;
  b->count = (uint16_t)n;
  b->vgpr_end = (uint16_t)vend;
  b->pair_end = (uint16_t)(pend > vend ? pend : vend);
  struct isa_block *none = NULL;
  if (!atomic_compare_exchange_strong_explicit(&c->block[i], &none, b, memory_order_acq_rel,
                                               memory_order_acquire)) {
    free(b);
    b = none;
  }
  return b;
}

/* The block starting at `pc` in page `c` (made on first use); NULL only on allocation
 * failure */
static inline const struct isa_block *code_block(struct isa_code *c, uint64_t pc)
{
  unsigned i = (unsigned)(pc - c->va) / 4;
  const struct isa_block *b = atomic_load_explicit(&c->block[i], memory_order_acquire);
  return b ? b : make_block(c, pc, i);
}

/* After an instruction at `pc` returned rc: -1 to return -1, 0 to return 0 (the wave
 * stopped: ended, at a barrier, halted), 1 to go on (at w->pc). */
static inline int after(struct isa_wave *w, uint64_t pc, int rc)
{
  /* -1 with no fault recorded: the instruction raised an exception (a memory violation)
   * and the wave is in the trap handler now, or halted */
  if (__builtin_expect(rc, 0) &&
      (w->fault.kind != SIM_ISA_FAULT_NONE || (!w->halted && w->pc == pc)))
    return -1;
  if (__builtin_expect(w->ended | w->at_barrier | w->halted, 0))
    return 0;
  if (__builtin_expect(w->pc <= pc, 0) && preempted(w))
    return -1;
  return 1;
}

/* One instruction the plain way: fetch from the current page's predecoded slots, check the
 * VGPR extent, run the semantics (the fast ones when `fast`, unless floating-point
 * exceptions are enabled). Returns as after(). */
static int step(struct isa_wave *w, struct isa_code *c, bool fast)
{
  uint64_t pc = w->pc;
  const struct isa_inst *in =
    atomic_load_explicit(&c->slot[(pc - c->va) >> 2], memory_order_acquire);
  if (__builtin_expect(!in, 0) && !(in = code_inst(c, pc)))
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, pc, false, "out of memory decoding at 0x%llx",
                     (unsigned long long)pc);
  if (__builtin_expect(in->vgpr_end > w->vgpr_alloc, 0))
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false,
                     "%s at 0x%llx uses v%u beyond the %u VGPRs allocated",
                     in->name ? in->name : "instruction", (unsigned long long)pc,
                     in->vgpr_end - 1u, w->vgpr_alloc);
  w->cur = in;
  /* floating-point exceptions enabled in MODE: the host's flags of this VALU instruction */
  const bool fpx = __builtin_expect((w->mode & ISA_MODE_EXCP_FP) != 0, 0) &&
                   in->fmt >= ISA_VOP2 && in->fmt <= ISA_VOP3P;
  if (fpx)
    feclearexcept(FE_ALL_EXCEPT);
  isa_exec_fn *fn = fast && in->fast && !fpx ? in->fast : in->exec;
  int rc = fn(w, in);
  if (rc && (w->fault.kind != SIM_ISA_FAULT_NONE || (!w->halted && w->pc == pc)))
    return -1;
  if (fpx)
    isa_fp_exceptions(w);
  return after(w, pc, 0);
}

/* The interpreter's loop. The reference engine (and the fast one while floating-point
 * exceptions are enabled, or a block names VGPRs beyond the allocation) steps one
 * instruction at a time; the fast engine otherwise runs blocks (struct isa_block). */
int isa_wave_run(struct isa_wave *w)
{
  struct isa_code *c = w->code;
  const bool fast = w->group->fast;
  for (;;) {
    uint64_t pc = w->pc;
    if (__builtin_expect(!c || pc - c->va >= PAGE || (pc & 3), 0))
      if (!(c = page_for(w)))
        return -1;
    const struct isa_block *b;
    if (__builtin_expect(!fast || (w->mode & ISA_MODE_EXCP_FP), 0) ||
        !(b = code_block(c, pc)) ||
        __builtin_expect(b->vgpr_end > w->vgpr_alloc, 0)) {
      int r = step(w, c, fast);
      if (r <= 0)
        return r;
      c = w->code;   /* page_for may have evicted it (then NULL) */
      continue;
    }
    const uint64_t start = b->e[0].in->pc;
    for (const struct isa_block_ent *e = b->e;;) {
      w->cur = e->in;
      int rc = e->fn(w, e->in);
      if (__builtin_expect(!rc && e->kind == ENT_PLAIN, 1)) {   /* w->pc == e->next */
        e++;
        continue;
      }
      if (!rc && (e->kind == ENT_PAIR || e->kind == ENT_BRANCH)) {
        if (w->pc == e->next) {   /* the pair as one; the branch not taken */
          e++;
          continue;
        }
        if (e->kind == ENT_BRANCH && w->pc == start) {   /* a loop's back-edge */
          if (preempted(w))
            return -1;
          e = b->e;
          continue;
        }
      }
      int r = after(w, e->in->pc, rc);
      if (r <= 0)
        return r;
      if (e->kind == ENT_LAST || rc || w->pc != e->next ||
          __builtin_expect((w->mode & ISA_MODE_EXCP_FP) != 0, 0))
        break;
      e++;
    }
    c = w->code;
  }
}

/* whether every lane of both waves is on and their MODEs are the same (the float forms'
 * default-mode test): a merged call's condition (besides its SGPR sources) */
static inline bool gang_full(const struct isa_wave *a, const struct isa_wave *b)
{
  return (a->exec & b->exec) == 0xffffffffull && a->mode == b->mode;
}

/* whether a merged call of entry `e` computes what a's and b's own calls would (gang_full
 * holding, and every pair's second within the VGPRs: isa_block.pair_end): the same SGPR
 * sources (a pair's second's too) */
static inline bool gang_merge(const struct isa_wave *a, const struct isa_wave *b,
                              const struct isa_block_ent *e)
{
  if (!e->nsg)
    return true;
  /* four (or eight) words without a branch each: sg[] is padded (gang_prepare) */
  const uint8_t *g = e->sg;
  uint32_t d = (a->sgpr[g[0]] ^ b->sgpr[g[0]]) | (a->sgpr[g[1]] ^ b->sgpr[g[1]]) |
               (a->sgpr[g[2]] ^ b->sgpr[g[2]]) | (a->sgpr[g[3]] ^ b->sgpr[g[3]]);
  if (__builtin_expect(e->nsg > 4, 0))
    d |= (a->sgpr[g[4]] ^ b->sgpr[g[4]]) | (a->sgpr[g[5]] ^ b->sgpr[g[5]]) |
         (a->sgpr[g[6]] ^ b->sgpr[g[6]]) | (a->sgpr[g[7]] ^ b->sgpr[g[7]]);
  return !d;
}

/* what a wave32's own write of a lane mask to `k` (VCC_LO or an SGPR) leaves of the register
 * above it, before a merged call writes both */
static inline uint32_t gang_keep(const struct isa_wave *a, unsigned k)
{
  return k == ISA_OP_VCC_LO ? (uint32_t)(a->vcc >> 32) : a->sgpr[k + 1];
}

/* the register above lane mask `k` of a (VCC_HI or s[k + 1]) set to `v` */
static inline void gang_put(struct isa_wave *a, unsigned k, uint32_t v)
{
  if (k == ISA_OP_VCC_LO)
    a->vcc = (uint64_t)v << 32 | (uint32_t)a->vcc;
  else
    a->sgpr[k + 1] = v;
}

/* before a merged call reads lane mask `k` of a as 64 bits: b's mask above a's */
static inline void gang_join(struct isa_wave *a, const struct isa_wave *b, unsigned k)
{
  gang_put(a, k, k == ISA_OP_VCC_LO ? (uint32_t)b->vcc : b->sgpr[k]);
}

/* after a merged call wrote a 64-bit mask to k (and k + 1) of a: lanes 32..63 are b's */
static inline void gang_split(struct isa_wave *a, struct isa_wave *b, unsigned k, uint32_t keep)
{
  if (k == ISA_OP_VCC_LO) {
    uint64_t m = a->vcc;
    a->vcc = (uint64_t)keep << 32 | (uint32_t)m;
    b->vcc = (b->vcc & ~0xffffffffull) | m >> 32;
  } else {
    b->sgpr[k] = a->sgpr[k + 1];
    a->sgpr[k + 1] = keep;
  }
}

/* The merged call of an entry that reads or writes lane masks (GANG_MASKS): a mask read is
 * joined into the wave64 form before, the masks (and a v_cmpx's EXEC) written are split
 * after, each wave keeping its own upper register. */
static __attribute__((noinline)) int gang_masks(struct isa_wave *a, struct isa_wave *b,
                                                const struct isa_block_ent *e)
{
  const struct isa_inst *hi = e->in->pair;
  unsigned k0 = e->in->sdst, k1 = (e->gang & ISA_GANG_PAIR) ? hi->sdst : ISA_OP_NULL;
  bool w0 = (e->gang & ISA_GANG_MASK) && k0 != ISA_OP_NULL && k0 != k1,
       w1 = k1 != ISA_OP_NULL;
  uint32_t keep0 = w0 ? gang_keep(a, k0) : 0, keep1 = w1 ? gang_keep(a, k1) : 0;
  unsigned kin = e->in->src[2];
  uint32_t keepin = 0;
  if (e->gang & ISA_GANG_MASKIN) {   /* S2's mask as a wave64's: b's above a's */
    keepin = gang_keep(a, kin);
    gang_join(a, b, kin);
  }
  a->wave32 = false;
  a->exec = ~0ull;
  int rc = e->gfn(a, e->in);
  uint64_t x = a->exec;
  a->wave32 = true;
  a->exec = 0xffffffffull;
  if (e->gang & ISA_GANG_EXEC) {   /* v_cmpx */
    a->exec = (uint32_t)x;
    b->exec = x >> 32;
  }
  b->pc = a->pc;
  if ((e->gang & ISA_GANG_MASKIN) && !(w0 && k0 == kin))   /* unless written over */
    gang_put(a, kin, keepin);
  if (w0)
    gang_split(a, b, k0, keep0);
  if (w1)
    gang_split(a, b, k1, keep1);
  return rc;
}

static inline uint32_t gang_word(const struct isa_wave *w, unsigned off)
{
  uint32_t v;
  memcpy(&v, (const char *)w + off, 4);
  return v;
}

/* whether scalar entry `e` (isa_fast_scalar) reads the same in a and b, so that its effect on
 * a is its effect on b */
static inline bool gang_same(const struct isa_wave *a, const struct isa_wave *b,
                             const struct isa_block_ent *e)
{
  if (!(e->sc & GANG_CMP))
    return true;
  return gang_word(a, e->cin[0]) == gang_word(b, e->cin[0]) &&
         gang_word(a, e->cin[1]) == gang_word(b, e->cin[1]) &&
         (!(e->sc & ISA_GSC_SCC_IN) || a->scc == b->scc);
}

/* gang_masks for an entry with one lane mask register (isa_block_ent.one, mk: VCC_LO or an
 * SGPR), a wide already (gang_wide): b's joined above a's for the call when read, lanes
 * 32..63 of what the call wrote split into b's, a's upper register put back */
static inline __attribute__((always_inline)) int gang_one(struct isa_wave *a, struct isa_wave *b,
                                                          const struct isa_block_ent *e)
{
  unsigned k = e->mk;
  bool vcc = k == ISA_OP_VCC_LO;
  uint32_t keep = gang_keep(a, k);
  if (e->gang & ISA_GANG_MASKIN)
    gang_join(a, b, k);
  int rc = e->gfn(a, e->in);
  if (e->one == 2) {
    gang_split(a, b, k, keep);
  } else if (vcc) {
    a->vcc = (uint64_t)keep << 32 | (uint32_t)a->vcc;
  } else {
    a->sgpr[k + 1] = keep;
  }
  return rc;
}

/* a merged call returned nonzero (never for these: lane by lane, no exceptions) */
static __attribute__((noinline)) int gang_failed(struct isa_wave *a, const struct isa_block_ent *e)
{
  if (a->fault.kind != SIM_ISA_FAULT_NONE)
    return -1;
  return isa_fault(a, SIM_ISA_FAULT_ILLEGAL, e->in->pc, false, "%s at 0x%llx failed in a gang",
                   e->in->name ? e->in->name : "instruction", (unsigned long long)e->in->pc);
}

/* a's rows as 64 lanes (b's the upper 32: run.c) for merged calls, and back */
static inline void gang_wide(struct isa_wave *a)
{
  a->wave32 = false;
  a->exec = ~0ull;
}
static inline void gang_narrow(struct isa_wave *a, struct isa_wave *b)
{
  a->wave32 = true;
  a->exec = 0xffffffffull;
  b->pc = a->pc;
}
/* the first wave narrowed if the walk had left it wide (`*wide`) */
static inline __attribute__((always_inline)) void gang_narrowed(struct isa_wave *a,
                                                               struct isa_wave *b, bool *wide)
{
  if (*wide) {
    gang_narrow(a, b);
    *wide = false;
  }
}

/* The gang's walk is threaded: each entry's handler ends by jumping to the next entry's
 * (labels as values, gcc and clang). Consecutive merged plain calls and calls with one mask
 * register (GOP_VEC, GOP_VEC_SG, GOP_ONE), and the hints and waits between them, keep a
 * wide (`wide`); every other handler narrows it first. */
int isa_gang_run(struct isa_wave *a, struct isa_wave *b, struct isa_wave **who)
{
  static const void *const op[GOP_COUNT] = {
    [GOP_ALONE] = &&alone, [GOP_ALONE_XM] = &&alone, [GOP_VEC] = &&vec,
    [GOP_VEC_SG] = &&vec_sg, [GOP_ONE] = &&one, [GOP_MASKS] = &&masks, [GOP_GLOBAL] = &&global,
    [GOP_NOP] = &&nop, [GOP_WAIT] = &&wait, [GOP_SCALAR] = &&scalar,
  };
  *who = a;
  if (!a->group->fast || !a->wave32 || !b->wave32 || a->group != b->group ||
      a->vgpr_alloc != b->vgpr_alloc)
    return 0;
  for (;;) {
    uint64_t pc = a->pc;
    if (pc != b->pc || ((a->mode | b->mode) & ISA_MODE_EXCP_FP) || a->ended | a->at_barrier |
        a->halted | b->ended | b->at_barrier | b->halted)
      return 0;
    struct isa_code *c = a->code;
    if (!c || pc - c->va >= PAGE || (pc & 3))
      if (!(c = page_for(a)))
        return -1;
    b->code = c;
    const struct isa_block *blk = code_block(c, pc);
    if (!blk || blk->pair_end > a->vgpr_alloc)
      return 0;
    /* gang_full, kept up to date: only a v_cmpx and GOP_ALONE_XM change EXEC or MODE */
    bool full = gang_full(a, b), wide = false;
    const struct isa_block_ent *e = blk->e;
    int ra, rc;
    goto *op[e->gop];

  vec_sg:
    if (!gang_merge(a, b, e))
      goto alone;
    /* fall through: vec tests `full` */
  vec:   /* once for both */
    if (!full)
      goto alone;
    if (!wide) {
      gang_wide(a);
      wide = true;
    }
    a->cur = e->in;
    if (__builtin_expect(e->fn(a, e->in), 0)) {
      gang_narrow(a, b);
      return gang_failed(a, e);
    }
    e++;
    goto *op[e->gop];

  one:   /* in a wide run too: the masks are split whichever way a's EXEC reads */
    if (!full || !gang_merge(a, b, e))
      goto alone;
    if (!wide) {
      gang_wide(a);
      wide = true;
    }
    a->cur = e->in;
    if (__builtin_expect(gang_one(a, b, e), 0)) {
      gang_narrow(a, b);
      return gang_failed(a, e);
    }
    e++;
    goto *op[e->gop];

  masks:
    gang_narrowed(a, b, &wide);
    if (!full || !gang_merge(a, b, e))
      goto alone;
    a->cur = e->in;
    if (__builtin_expect(gang_masks(a, b, e), 0))
      return gang_failed(a, e);
    if (e->gang & ISA_GANG_EXEC)
      full = gang_full(a, b);
    e++;
    goto *op[e->gop];

  global:
    gang_narrowed(a, b, &wide);
    /* every translation checked first: on a refusal (or saddr differing) nothing moved, and
     * each runs alone below, so a fault is raised by its own wave */
    a->cur = e->in;
    if (!full || isa_fast_global_gang(a, b, e->in))
      goto alone;
    b->pc = a->pc;
    e++;
    goto *op[e->gop];

  wait:
    isa_mem_fence();
    /* fall through */
  nop:   /* nothing read but the pc: a wide run goes on across it (matmul_tiled's waits and
          * s_delay_alu sit between its LDS reads and FMAs) */
    a->pc = b->pc = e->next;
    e++;
    goto *op[e->gop];

  scalar:
    gang_narrowed(a, b, &wide);
    if (!gang_same(a, b, e))
      goto alone;
    /* a scalar instruction on the same inputs: once, its results copied into b */
    a->cur = e->in;
    ra = e->fn(a, e->in);
    if (__builtin_expect(ra, 0))   /* a fault or exception on a: b runs it itself */
      goto ran;
    /* s_load's dwords: a fixed-size copy each (no loop, no call to memcpy) */
    switch (e->nout) {
    case 0: break;
    case 1: memcpy((char *)b + e->cout, (const char *)a + e->cout, 4); break;
    case 2: memcpy((char *)b + e->cout, (const char *)a + e->cout, 8); break;
    case 4: memcpy((char *)b + e->cout, (const char *)a + e->cout, 16); break;
    case 8: memcpy((char *)b + e->cout, (const char *)a + e->cout, 32); break;
    default: memcpy((char *)b + e->cout, (const char *)a + e->cout, 4 * (size_t)e->nout); break;
    }
    b->pc = a->pc;
    if (__builtin_expect(e->kind == ENT_PLAIN, 1)) {
      e++;
      goto *op[e->gop];
    }
    /* a branch (or a checked hint): a moves on, b with it */
    rc = after(a, e->in->pc, 0);
    if (rc <= 0)
      return rc;
    if (e->kind == ENT_LAST || a->pc != e->next)
      continue;   /* the next block */
    e++;
    goto *op[e->gop];

  alone:
    gang_narrowed(a, b, &wide);
    a->cur = e->in;
    ra = e->fn(a, e->in);
  ran:
    b->cur = e->in;
    if (__builtin_expect(!ra && e->kind == ENT_PLAIN, 1)) {
      int rb = e->fn(b, e->in);
      if (__builtin_expect(rb, 0)) {
        *who = b;
        return after(b, e->in->pc, rb) < 0 ? -1 : 0;   /* b raised an exception: alone now */
      }
      /* what may have changed EXEC or MODE: a GOP_ALONE_XM entry, or a v_cmpx (GOP_MASKS)
       * that ran per wave because its SGPR sources differ */
      if (e->gop == GOP_ALONE_XM || e->gop == GOP_MASKS)
        full = gang_full(a, b);
      e++;
      goto *op[e->gop];
    }
    rc = after(a, e->in->pc, ra);
    if (rc < 0)
      return -1;
    int rb = e->fn(b, e->in), r2 = after(b, e->in->pc, rb);
    if (r2 < 0) {
      *who = b;
      return -1;
    }
    if (!rc || !r2 || a->pc != b->pc)   /* stopped (barrier, end, halt) or diverged */
      return 0;
    if (e->kind == ENT_LAST || ra || rb || a->pc != e->next ||
        __builtin_expect(((a->mode | b->mode) & ISA_MODE_EXCP_FP) != 0, 0))
      continue;   /* the next block */
    full = gang_full(a, b);
    e++;
    goto *op[e->gop];
  }
}

void isa_group_release(struct isa_group *g)
{
  struct code_tls *ct = code_tls_get();
  /* the thread keeps this group's pages (its references) for its next group; the pages it
   * kept before and this group did not take over go */
  for (unsigned k = 0; k < ct->kept_count; k++)
    code_unref(ct->kept[k].c);
  ct->kept_count = 0;
  for (unsigned k = 0; k < g->page_count; k++) {
    struct isa_code *c = g->pages[k];
    unsigned i = 0;
    while (i < ct->seen_count && ct->seen[i].c != c)
      i++;
    if (i < ct->seen_count) {
      ct->kept[ct->kept_count++] = ct->seen[i];
    } else {
      code_unref(c);
    }
  }
  g->page_count = 0;
  ct->seen_count = 0;
  if (__builtin_expect(ct->kept_count && !ct->keyed, 0)) {
    /* a thread that ends gives its kept pages back */
    pthread_once(&kept_once, kept_key_init);
    ct->keyed = !pthread_setspecific(kept_key, ct->kept);
  }
}

int isa_decode_at(struct sim_gpu *gpu, uint64_t va, struct isa_inst *in)
{
  uint32_t words[3];
  const void *p = sim_vm_translate(gpu, va, 4);
  if (!p || (va & 3))
    return -1;
  memcpy(words, p, 4);
  unsigned avail = 1;
  for (; avail < 3; avail++) {
    const void *q = sim_vm_translate(gpu, va + 4 * avail, 4);
    if (!q)
      break;
    memcpy(&words[avail], q, 4);
  }
  isa_decode(words, avail, va, isa_target_of(gpu), in);
  return 0;
}
