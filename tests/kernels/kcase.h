/* SPDX-License-Identifier: MIT */
/* kcase.h — one test case of the kernel corpus, shared by the HSA harness (harness.c), the
 * OpenCL-on-CPU runner (pocl_run.c) and the host references (*_ref.c next to each kernel
 * source). A case names a kernel in a source file, its grid, its buffers (inputs generated
 * from a seed, so every runner sees the same bytes) and its arguments in kernel order; the
 * host reference computes the expected outputs in plain C. */
#ifndef KCASE_H
#define KCASE_H

#include <stddef.h>
#include <stdint.h>

enum kc_type { KC_U32, KC_I32, KC_U64, KC_I64, KC_F32, KC_F64 };

enum kc_init {
  KC_ZERO,       /* all bytes 0 */
  KC_RAND,       /* uniform bits (integers) or uniform in [lo, hi) (floats) */
  KC_RANGE,      /* integers uniform in [lo, hi] */
  KC_IOTA,       /* 0, 1, 2, ... */
};

struct kc_buf {
  enum kc_type type;
  size_t count;          /* elements */
  enum kc_init init;
  double lo, hi;         /* for KC_RAND floats and KC_RANGE */
  int out;               /* 1: an output, written by the kernel, compared */
  unsigned ulp;          /* float outputs: allowed distance from the host reference in ulp
                            (0 = bitwise). Between two devices twice that is allowed. */
};

enum kc_arg_kind { KC_ARG_BUF, KC_ARG_U32, KC_ARG_U64, KC_ARG_F32 };

struct kc_arg {
  enum kc_arg_kind kind;
  unsigned buf;          /* KC_ARG_BUF: index into bufs */
  uint64_t u;            /* KC_ARG_U32 / KC_ARG_U64 */
  float f;               /* KC_ARG_F32 */
};

#define KC_MAX_BUFS 6
#define KC_MAX_ARGS 8

struct kcase {
  const char *name;
  const char *source;    /* file in tests/kernels, e.g. "int_ops.cl" or "wave.hip" */
  const char *kernel;    /* kernel name (symbol "<kernel>.kd") */
  unsigned dims;
  uint32_t grid[3];      /* work-items per dimension (need not be a multiple of wg) */
  uint16_t wg[3];
  unsigned nbufs;
  struct kc_buf bufs[KC_MAX_BUFS];
  unsigned nargs;
  struct kc_arg args[KC_MAX_ARGS];
  /* Fills the outputs in `b` (inputs already generated) with what the kernel must produce. */
  void (*ref)(const struct kcase *c, void *const *b);
  /* Optional: fix up generated inputs (e.g. avoid division by zero). */
  void (*fixup)(const struct kcase *c, void *const *b);
  uint64_t seed;
  int bench;             /* 1: a benchmark workload, not part of the corpus run */
};

/* Lanes per wave (a sub-group) of the code object being run: 64 unless the runner is told
 * (harness --wave 32 for a wave32 RDNA code object); references of wave-level operations
 * read it. */
extern unsigned kc_wave_size;

/* Registry: each *_ref.c registers its cases from a constructor. */
void kc_register(const struct kcase *cases, size_t n);
const struct kcase *kc_find(const char *name);
size_t kc_count(void);
const struct kcase *kc_at(size_t i);

size_t kc_type_size(enum kc_type t);
size_t kc_buf_bytes(const struct kc_buf *b);
/* Generates every buffer's initial contents (outputs zeroed) into b[i] (kc_buf_bytes each). */
void kc_generate(const struct kcase *c, void *const *b);
/* Compares the outputs `got` with `want`; ulp_scale multiplies each buffer's tolerance.
 * Prints the first mismatch of each output (buffer, element, expected, got) to stderr with
 * `what` as the prefix; returns the number of wrong elements. */
size_t kc_compare(const struct kcase *c, void *const *want, void *const *got, unsigned ulp_scale,
                  const char *what);
/* Output file: the output buffers, in buffer order, raw. */
int kc_write_outputs(const struct kcase *c, void *const *b, const char *path);
int kc_read_outputs(const struct kcase *c, void *const *b, const char *path);
/* Allocates and generates the buffers of a case with malloc; kc_free releases them. */
void **kc_alloc(const struct kcase *c);
void kc_free(const struct kcase *c, void **b);

/* Shared command-line behaviour: --list, --compare CASE A B. Returns -1 when argv is none of
 * these, else the exit status. */
int kc_common_main(int argc, char **argv);

/* Case-definition helpers. */
#define KC_IN(t, n, init_, lo_, hi_) { .type = (t), .count = (n), .init = (init_), .lo = (lo_), .hi = (hi_) }
#define KC_OUT(t, n, ulp_) { .type = (t), .count = (n), .init = KC_ZERO, .out = 1, .ulp = (ulp_) }
#define KC_BUF(i) { .kind = KC_ARG_BUF, .buf = (i) }
#define KC_U32(v) { .kind = KC_ARG_U32, .u = (v) }
#define KC_U64(v) { .kind = KC_ARG_U64, .u = (v) }
#define KC_F32(v) { .kind = KC_ARG_F32, .f = (v) }
#define KC_REGISTER(arr) \
  __attribute__((constructor)) static void kc_register_##arr(void) { \
    kc_register(arr, sizeof(arr) / sizeof((arr)[0])); }

#endif
