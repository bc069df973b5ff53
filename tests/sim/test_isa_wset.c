/* SPDX-License-Identifier: MIT */
/* test_isa_wset.c — every instruction sim/isa's decoder knows writes exactly the
 * destinations LLVM gives it, and nothing else: no other SGPR, VGPR or lane outside EXEC, no
 * VCC/EXEC/SCC/M0/MODE it does not define, no memory outside its footprint, no pc other
 * than the next instruction unless it branches. The opcodes come from the decoder's tables
 * (wset_forms.h), the destinations from llvm-objdump's text of each encoding plus a table
 * of implicit definitions (wset_rules.h); each form runs on random registers with random,
 * full and empty EXEC (wset_run.h). A faulting form must write nothing; faults and what
 * cannot be formed are listed with the reason, not failed. The forms and opcodes that run
 * clean are pinned per chip: a drop fails. WSET_VERBOSE=1 prints every form, WSET_SEED=n
 * runs another seed. */
#include "kfd_fixture.h"
#include "isa_fixture.h"
#include "isa/exec.h"
#include "wset_forms.h"
#include "wset_llvm.h"
#include "wset_run.h"

#include <stdlib.h>
#include <time.h>

struct wset_family {
  const char *mcpu;          /* hsa-sim's GPU model and LLVM's -mcpu */
  const char *llvm_bin;      /* the LLVM tools' directory (NULL: WSET_LLVM_BIN, LLVM 15) */
  unsigned valu_bit;         /* VALU_GFX*: the chip's VALU table entries */
  uint64_t seed;
  unsigned pinned_forms;     /* coverage floors: forms that run clean, */
  unsigned pinned_ops;       /* and opcodes with at least one such form */
  void (*forms)(struct wset_list *, unsigned valu_bit);
};

/* Later chips (gfx942, gfx1100, gfx1201) add a row here, with their own forms function
 * where the encodings differ (and LLVM tools that know them). */
static const struct wset_family wset_families[] = {
  { "gfx900", NULL, VALU_GFX900, 0x7e57900ull, 3638, 1001, wset_gfx9_forms },
  { "gfx906", NULL, VALU_GFX906, 0x7e57906ull, 3656, 1010, wset_gfx9_forms },
  { "gfx90a", NULL, VALU_GFX90A, 0x7e5790aull, 3870, 1067, wset_gfx9_forms },
  /* gfx942's additions and its matrix core, with LLVM 19 (LLVM 15's gfx940 names some MFMA
   * encodings with gfx908's AGPR-only profile) */
  { "gfx942", "/usr/lib/llvm-19/bin/", VALU_GFX942, 0x7e57942ull, 154, 59, wset_gfx942_forms },
};

/* Known write-set bugs in files another engineer is changing (sim/isa/memory.c, exec_flat.c,
 * exec_mubuf.c, exec_smem.c): "mcpu:name/variant" (wset_glob patterns, mcpu "*" for every
 * chip) and what goes wrong. They are reported as XFAIL; one that runs clean fails the test
 * (XPASS: remove its entry with the fix). */
static const struct { const char *form, *wrong; } wset_expected_failures[] = {
  { NULL, NULL },
};

static const char *wset_expected(const char *mcpu, const struct wset_form *f)
{
  char key[96];
  snprintf(key, sizeof key, "%s:%s/%s", mcpu, f->ours, f->variant);
  for (unsigned i = 0; wset_expected_failures[i].form; i++) {
    const char *e = wset_expected_failures[i].form;
    if (wset_glob(e, key))
      return wset_expected_failures[i].wrong;
  }
  return NULL;
}

/* VOP3: a VOP3b instruction (carry-out, div_scale, mad_u64_u32) takes the candidate with its
 * sdst in bits 14:8, every other one the candidate without. */
static bool wset_pick(const struct wset_form *f, unsigned c, const char *text)
{
  if (f->kind != WK_VOP3)
    return true;
  struct wset_text t;
  wset_parse(text, &t);
  return f->cand_sdst[c] == (wset_explicit_defs(f->kind, &t) == 2);
}

/* Whether our decoder takes the form's encoding (chosen candidate, else the first). */
static bool wset_decoder_knows(const struct wset_family *fam, const struct wset_form *f,
                               unsigned *size)
{
  unsigned c = f->chosen >= 0 ? (unsigned)f->chosen : 0;
  uint32_t w[3] = { f->cand[c][0], f->cand[c][1], f->cand[c][2] };
  if (f->cand_nw[c] < 3)
    w[f->cand_nw[c]] = WSET_ENDPGM;   /* what follows it in the image */
  struct isa_inst in;
  isa_decode(w, 3, 0, isa_target_named(fam->mcpu), &in);
  *size = in.size;
  return in.exec != isa_exec_unknown;
}

/* Forms the decoder takes but LLVM has no instruction for, one line per format and variant. */
struct wset_nollvm {
  char key[32];
  char names[2048];
  unsigned n;
};

static void wset_nollvm_add(struct wset_nollvm *g, unsigned *ng, const struct wset_form *f)
{
  char key[32];
  snprintf(key, sizeof key, "%s %s", wset_kind_name[f->kind], f->variant);
  unsigned i = 0;
  while (i < *ng && strcmp(g[i].key, key))
    i++;
  if (i == *ng) {
    snprintf(g[i].key, sizeof g[i].key, "%s", key);
    (*ng)++;
  }
  size_t k = strlen(g[i].names);
  if (k + strlen(f->ours) + 2 < sizeof g[i].names)
    snprintf(g[i].names + k, sizeof g[i].names - k, " %s", f->ours);
  g[i].n++;
}

/* Runs form f (both passes) and prints what is not clean; returns 'c' clean, 'f' fault,
 * 'b' bad, 'x' expected failure, 'p' expected failure that ran clean. */
static char wset_one(const struct wset_family *fam, struct wset_env *e, struct wset_form *f,
                     unsigned i, char *fault, size_t fsize)
{
  unsigned dsize;
  bool known = wset_decoder_knows(fam, f, &dsize);
  struct wset_allow a;
  const char *why = wset_allowed(f, &a);
  if (why) {
    fprintf(stderr, "  RULES %s/%s \"%s\": %s\n", f->ours, f->variant, f->text, why);
    return 'b';
  }
  struct wset_result r;
  for (unsigned pass = 0; pass < WSET_PASSES; pass++) {
    struct wset_allow ap = a;
    wset_run(e, f, i, pass, &ap, &r);
    if (r.bad[0] || r.fault) {
      if (r.bad[0])
        snprintf(r.bad + strlen(r.bad), sizeof r.bad - strlen(r.bad), " (pass %u)", pass);
      break;
    }
  }
  if (known && dsize != f->size)
    snprintf(r.bad + strlen(r.bad), sizeof r.bad - strlen(r.bad), " size(decoder %u, LLVM %u)",
             dsize, f->size);
  struct wset_text t;   /* the write set is LLVM's instruction's: it must be ours too */
  wset_parse(f->text, &t);
  if (strcmp(t.base, f->ours))
    snprintf(r.bad + strlen(r.bad), sizeof r.bad - strlen(r.bad), " name(LLVM: %s)", t.base);
  char *at = strstr(r.fault_text, " at 0x");   /* addresses differ from run to run */
  if (at)
    *at = 0;
  snprintf(fault, fsize, "%s", r.fault_text);
  const char *exp = wset_expected(fam->mcpu, f);
  if (getenv("WSET_VERBOSE"))
    fprintf(stderr, "  form %s/%s \"%s\" {%s}%s%s: %s%s\n", f->ours, f->variant, f->text,
            a.defs, a.source ? " + implicit, " : "", a.source ? a.source : "",
            r.bad[0] ? r.bad : r.fault ? "fault: " : "clean", r.bad[0] ? "" : r.fault_text);
  if (r.bad[0] && exp) {
    fprintf(stderr, "  XFAIL %s/%s \"%s\" wrote %s\n", f->ours, f->variant, f->text, r.bad);
    return 'x';
  }
  if (r.bad[0]) {
    fprintf(stderr, "  FAIL %s/%s \"%s\" may write {%s}%s%s, wrote %s%s%s\n", f->ours,
            f->variant, f->text, a.defs, a.source ? " + implicit, " : "",
            a.source ? a.source : "", r.bad, r.fault ? "; then faulted: " : "", r.fault_text);
    return 'b';
  }
  if (exp && !r.fault) {
    fprintf(stderr, "  XPASS %s/%s: runs clean, remove its wset_expected_failures entry\n",
            f->ours, f->variant);
    return 'p';
  }
  if (r.fault && !exp)
    fprintf(stderr, "  FAULT %s/%s \"%s\": %s\n", f->ours, f->variant, f->text, r.fault_text);
  return r.fault ? 'f' : 'c';
}

/* Opcodes that no form ran clean, grouped by why. */
struct wset_why {
  char why[160];
  char names[3072];
  unsigned n;
};

static void wset_why_add(struct wset_why *g, unsigned *ng, unsigned max, const char *why,
                         const char *name)
{
  unsigned i = 0;
  while (i < *ng && strcmp(g[i].why, why))
    i++;
  if (i == max)
    return;
  if (i == *ng) {
    snprintf(g[i].why, sizeof g[i].why, "%s", why);
    (*ng)++;
  }
  size_t k = strlen(g[i].names);
  if (k + strlen(name) + 2 < sizeof g[i].names)
    snprintf(g[i].names + k, sizeof g[i].names - k, " %s", name);
  g[i].n++;
}

/* What became of one opcode's forms. */
struct wset_op {
  const char *name;
  bool clean, expected, bad, nollvm;
  char fault[160];
};

static void wset_op_done(const struct wset_op *o, const char *mcpu, struct wset_why *g,
                         unsigned *ng, unsigned max, unsigned *clean)
{
  char why[160];
  if (!o->name)
    return;
  if (o->clean) {
    (*clean)++;
    return;
  }
  if (o->bad)
    snprintf(why, sizeof why, "write outside their set (FAIL above)");
  else if (o->expected)
    snprintf(why, sizeof why, "known write-set bugs (XFAIL above)");
  else if (o->fault[0]) {   /* the fault text with the opcode's name taken out */
    const char *n = strstr(o->fault, o->name);
    snprintf(why, sizeof why, "fault: %.*s%s", n ? (int)(n - o->fault) : (int)strlen(o->fault),
             o->fault, n ? n + strlen(o->name) : "");
  } else if (o->nollvm)
    snprintf(why, sizeof why, "llvm-objdump --mcpu=%s decodes none of their encodings", mcpu);
  else
    snprintf(why, sizeof why, "no form LLVM and the decoder both take");
  wset_why_add(g, ng, max, why, o->name);
}

static void wset_family(const struct wset_family *fam)
{
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  fx_cfg.gpu_model = fam->mcpu;   /* each test is a fresh (forked) process */
  fx_open();
  ck_assert_str_eq(sim_gpu(0)->model->name, fam->mcpu);
  struct wset_list l;
  memset(&l, 0, sizeof l);
  fam->forms(&l, fam->valu_bit);
  struct wset_dis *dis = calloc(l.slots, sizeof *dis);
  uint8_t *bin;
  size_t len;
  ck_assert_ptr_nonnull(dis);
  if (wset_llvm(&l, fam->llvm_bin ? fam->llvm_bin : WSET_LLVM_BIN, fam->mcpu, dis, &bin, &len)) {
    fprintf(stderr, "llvm-mc or llvm-objdump missing: skipped\n");
    free(dis);
    free(l.f);
    return;
  }
  wset_choose(&l, dis, wset_pick);
  free(dis);
  struct wset_env e;
  const char *seed_env = getenv("WSET_SEED");   /* other seeds, to explore by hand */
  uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : fam->seed;
  wset_env_init(&e, bin, len, seed);
  free(bin);
  fprintf(stderr, "%s: seed 0x%llx, %u forms of the decoder's table entries\n", fam->mcpu,
          (unsigned long long)seed, l.n);

  unsigned cnt[128] = {0}, ops = 0, ops_clean = 0, ng = 0, nw = 0;
  static struct wset_nollvm groups[64];
  static struct wset_why whys[48];
  memset(groups, 0, sizeof groups);
  memset(whys, 0, sizeof whys);
  const unsigned maxw = sizeof whys / sizeof whys[0];
  struct wset_op op = {0};
  for (unsigned i = 0; i < l.n; i++) {
    struct wset_form *f = &l.f[i];
    /* an opcode's forms are consecutive */
    if (i == 0 || f->ours != l.f[i - 1].ours ||
        wset_is_valu(f->kind) != wset_is_valu(l.f[i - 1].kind)) {
      wset_op_done(&op, fam->mcpu, whys, &nw, maxw, &ops_clean);
      memset(&op, 0, sizeof op);
      op.name = f->ours;
      ops++;
    }
    unsigned dsize;
    bool known = wset_decoder_knows(fam, f, &dsize);
    if (f->shows && (f->chosen < 0 || !strstr(f->text, f->shows))) {
      cnt['o']++;   /* an optional variant LLVM rejects or does not print */
      continue;
    }
    if (f->chosen < 0) {
      if (known && ng < sizeof groups / sizeof groups[0])
        wset_nollvm_add(groups, &ng, f);
      cnt[known ? 'n' : 'o']++;
      op.nollvm = true;
      continue;
    }
    char fault[160];
    char c = wset_one(fam, &e, f, i, fault, sizeof fault);
    cnt[(unsigned char)c]++;
    op.clean |= c == 'c';
    op.bad |= c == 'b' || c == 'p';
    op.expected |= c == 'x';
    if (c == 'f' && !op.fault[0])
      snprintf(op.fault, sizeof op.fault, "%s", fault);
  }
  wset_op_done(&op, fam->mcpu, whys, &nw, maxw, &ops_clean);
  for (unsigned g = 0; g < ng; g++)
    fprintf(stderr, "  NO-LLVM %s (%u forms): the decoder takes them, llvm-objdump --mcpu=%s "
            "decodes none of their encodings:%s\n", groups[g].key, groups[g].n, fam->mcpu,
            groups[g].names);
  for (unsigned w = 0; w < nw; w++)
    fprintf(stderr, "  NOT RUN CLEAN (%u opcodes): %s:%s\n", whys[w].n, whys[w].why,
            whys[w].names);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  fprintf(stderr, "%s: %.1f s\n", fam->mcpu,
          (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
  fprintf(stderr, "%s: %u of the %u opcodes in the decoder's tables run clean in some form; "
          "forms: %u clean, %u fault (listed), %u write outside their set, %u expected "
          "failures, %u the decoder takes but LLVM does not, %u LLVM and the decoder both "
          "refuse (pinned: %u forms, %u opcodes)\n", fam->mcpu, ops_clean, ops, cnt['c'],
          cnt['f'], cnt['b'], cnt['x'], cnt['n'], cnt['o'], fam->pinned_forms, fam->pinned_ops);
  ck_assert_msg(cnt['b'] == 0, "%s: %u forms write outside their set", fam->mcpu, cnt['b']);
  ck_assert_msg(cnt['p'] == 0, "%s: %u expected failures run clean", fam->mcpu, cnt['p']);
  ck_assert_msg(cnt['c'] >= fam->pinned_forms, "%s: coverage dropped to %u clean forms "
                "(pinned %u)", fam->mcpu, cnt['c'], fam->pinned_forms);
  ck_assert_msg(ops_clean >= fam->pinned_ops, "%s: coverage dropped to %u opcodes (pinned %u)",
                fam->mcpu, ops_clean, fam->pinned_ops);
  wset_env_free(&e);
  free(l.f);
}

START_TEST(wset) { wset_family(&wset_families[_i]); }
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_wset");
  TCase *t = tcase_create("wset");
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, wset, 0, (int)(sizeof wset_families / sizeof wset_families[0]));
  suite_add_tcase(s, t);
  return s;
}
