/* SPDX-License-Identifier: MIT */
/* batch.c — hsa_amd_memory_async_batch_copy: a list of copy operations, each described by
 * an hsa_amd_memory_copy_op_t (linear, linear to many, broadcast, swap, and copies whose
 * source or destination address is read from memory when the copy starts), each with an
 * optional wait before it and an optional 64-bit atomic after it.
 *
 * Every operation is checked before any is queued (ROCR's statuses: INVALID_ARGUMENT for a
 * bad descriptor, INVALID_AGENT, INVALID_SIGNAL). Each becomes one job of the CPU engine
 * that waits for the batch's dependencies, then moves its bytes: with the CPU where it
 * reaches both sides and neither is VRAM, else on the SDMA engine of a GPU that maps both
 * (mem_sdma_copy), and decrements the shared completion signal once, so a caller who set
 * it to num_copy_ops sees 0 when all are done. The caller's arrays are copied: they may go
 * once the call returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy/internal.h"
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"
#include "mem/sdma.h"
#include "signals/signal.h"

#define MAX_ENTRIES 1024u

struct batch_ctx {
  hsa_amd_memory_copy_op_t op;
  unsigned n;          /* entries (1 for single forms) */
  void **src, **dst;   /* n each */
  size_t *size;        /* n */
};

/* Exchanges [a, a+size) and [b, b+size) through a bounce buffer mapped on every GPU. */
static hsa_status_t swap(void *a, void *b, size_t size) {
  if (!size) return HSA_STATUS_SUCCESS;
  void *tmp = mem_system(size, 4096, 0);
  if (!tmp) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  hsa_status_t st = copy_move(tmp, a, size);
  if (st == HSA_STATUS_SUCCESS) st = copy_move(a, b, size);
  if (st == HSA_STATUS_SUCCESS) st = copy_move(b, tmp, size);
  mem_release(tmp);
  return st;
}

static bool wait_met(uint16_t fn, uint64_t v, uint64_t ref) {
  switch (fn) {
  case HSA_AMD_MEMORY_COPY_WAIT_LT: return v < ref;
  case HSA_AMD_MEMORY_COPY_WAIT_LE: return v <= ref;
  case HSA_AMD_MEMORY_COPY_WAIT_EQ: return v == ref;
  case HSA_AMD_MEMORY_COPY_WAIT_NE: return v != ref;
  case HSA_AMD_MEMORY_COPY_WAIT_GE: return v >= ref;
  case HSA_AMD_MEMORY_COPY_WAIT_GT: return v > ref;
  default: return true;
  }
}

/* The poll an SDMA engine would do before the copy: (*addr & mask) against value. */
static void wait_before(const hsa_amd_memory_copy_op_t *op) {
  if (op->wait.function == HSA_AMD_MEMORY_COPY_WAIT_ALWAYS) return;
  _Atomic uint64_t *p = mem_cpu_ptr(op->wait.addr, 8);
  struct timespec nap = {0, 20000};
  while (!wait_met(op->wait.function, atomic_load(p) & op->wait.mask, op->wait.value))
    nanosleep(&nap, NULL);
}

static void signal_after(const hsa_amd_memory_copy_op_t *op) {
  if (op->signal.operation == HSA_AMD_MEMORY_COPY_SIGNAL_NONE) return;
  _Atomic uint64_t *p = mem_cpu_ptr(op->signal.addr, 8);
  switch (op->signal.operation) {
  case HSA_AMD_MEMORY_COPY_SIGNAL_WRITE: atomic_store(p, op->signal.data); break;
  case HSA_AMD_MEMORY_COPY_SIGNAL_ADD: atomic_fetch_add(p, op->signal.data); break;
  case HSA_AMD_MEMORY_COPY_SIGNAL_SUB: atomic_fetch_sub(p, op->signal.data); break;
  default: break;
  }
}

/* An address read from memory at the time of the copy (the INDIRECT forms). */
static void *indirect(void *pp) {
  void **p = mem_cpu_ptr(pp, sizeof(void *));
  return p ? __atomic_load_n(p, __ATOMIC_ACQUIRE) : NULL;
}

static hsa_status_t op_batch(struct copy_job *j) {
  struct batch_ctx *c = j->ctx;
  hsa_amd_memory_copy_op_t *op = &c->op;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  wait_before(op);
  for (unsigned i = 0; i < c->n && st == HSA_STATUS_SUCCESS; i++) {
    void *src = c->src[i], *dst = c->dst[i];
    if (op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC ||
        op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST)
      src = indirect(src);
    if (op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_DST ||
        op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST)
      dst = indirect(dst);
    if (!src || !dst) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    else if (op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP) st = swap(src, dst, c->size[i]);
    else st = copy_move(dst, src, c->size[i]);
  }
  if (st == HSA_STATUS_SUCCESS) signal_after(op);
  else
    fprintf(stderr, "hsa-runtime64: a batch copy operation (type %u) failed (status 0x%x); "
                    "the batch's completion signal is not decremented for it\n",
            (unsigned)op->type, (unsigned)st);
  free(c->src);
  free(c->dst);
  free(c->size);
  free(c);
  j->ctx = NULL;
  return st;
}

static bool agent_ok(hsa_agent_t a) { return core_agent_from_handle(a) != NULL; }

/* Checks one descriptor and copies what it points at into a context. */
static hsa_status_t prepare(const hsa_amd_memory_copy_op_t *op, struct batch_ctx **out) {
  *out = NULL;
  if (op->version != HSA_AMD_MEMORY_COPY_OP_VERSION || op->reserved1[0] || op->wait.reserved ||
      op->signal.reserved || op->type > HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST ||
      op->num_entries > MAX_ENTRIES || op->wait.function > HSA_AMD_MEMORY_COPY_WAIT_GT ||
      op->signal.operation > HSA_AMD_MEMORY_COPY_SIGNAL_SUB)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (op->wait.function != HSA_AMD_MEMORY_COPY_WAIT_ALWAYS && !mem_cpu_ptr(op->wait.addr, 8))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (op->signal.operation != HSA_AMD_MEMORY_COPY_SIGNAL_NONE && !mem_cpu_ptr(op->signal.addr, 8))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool multi = op->num_entries > 0;
  bool indirect_form = op->type >= HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC;
  if (op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST && !multi)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (indirect_form && multi) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* the addresses an indirect copy reads when it starts must be readable then */
  bool ind_src = op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC ||
                 op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST;
  bool ind_dst = op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_DST ||
                 op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST;
  if ((ind_src && !mem_cpu_ptr(op->src, sizeof(void *))) ||
      (ind_dst && !mem_cpu_ptr(op->dst, sizeof(void *))))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  unsigned n = multi ? op->num_entries : 1;
  struct batch_ctx *c = calloc(1, sizeof(*c));
  if (!c) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  c->op = *op;
  c->n = n;
  c->src = calloc(n, sizeof(void *));
  c->dst = calloc(n, sizeof(void *));
  c->size = calloc(n, sizeof(size_t));
  hsa_status_t st = c->src && c->dst && c->size ? HSA_STATUS_SUCCESS
                                                : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (st == HSA_STATUS_SUCCESS && !agent_ok(op->src_agent)) st = HSA_STATUS_ERROR_INVALID_AGENT;
  if (st == HSA_STATUS_SUCCESS && !multi) {
    if (!agent_ok(op->dst_agent)) st = HSA_STATUS_ERROR_INVALID_AGENT;
    else if (!op->src || !op->dst) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    else if (op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP && op->src_size != op->dst_size)
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* the two regions must be the same length */
    else if (op->type != HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP && op->unused_size)
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    c->src[0] = op->src;
    c->dst[0] = op->dst;
    c->size[0] = op->size;
  } else if (st == HSA_STATUS_SUCCESS) {
    bool bcast = op->type == HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST;
    if (!op->dst_list || !op->dst_agent_list || (bcast ? !op->src : !op->src_list) ||
        (bcast ? op->unused_size != 0 : (!op->size_list || op->reserved0 != 0)))
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    for (unsigned i = 0; st == HSA_STATUS_SUCCESS && i < n; i++) {
      c->src[i] = bcast ? op->src : op->src_list[i];
      c->dst[i] = op->dst_list[i];
      c->size[i] = bcast ? op->size : op->size_list[i];
      if (!c->src[i] || !c->dst[i]) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      else if (!agent_ok(op->dst_agent_list[i])) st = HSA_STATUS_ERROR_INVALID_AGENT;
    }
  }
  if (st != HSA_STATUS_SUCCESS) {
    free(c->src);
    free(c->dst);
    free(c->size);
    free(c);
    return st;
  }
  *out = c;
  return HSA_STATUS_SUCCESS;
}

static void drop(struct batch_ctx *c) {
  if (!c) return;
  free(c->src);
  free(c->dst);
  free(c->size);
  free(c);
}

hsa_status_t hsa_amd_memory_async_batch_copy(const hsa_amd_memory_copy_op_t *copy_ops,
                                             uint32_t num_copy_ops, uint32_t num_dep_signals,
                                             const hsa_signal_t *dep_signals) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!copy_ops || !num_copy_ops) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_dep_signals; i++) {
    if (!dep_signals[i].handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    if (!sig_from_handle(dep_signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  }
  hsa_signal_t done = copy_ops[0].completion_signal;
  if (!done.handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!sig_from_handle(done)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  struct batch_ctx **ctx = calloc(num_copy_ops, sizeof(*ctx));
  struct copy_job **jobs = calloc(num_copy_ops, sizeof(*jobs));
  hsa_status_t st = ctx && jobs ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  for (uint32_t i = 0; st == HSA_STATUS_SUCCESS && i < num_copy_ops; i++) {
    /* one completion signal for the whole batch, as ROCR documents */
    if (copy_ops[i].completion_signal.handle != done.handle) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      break;
    }
    st = prepare(&copy_ops[i], &ctx[i]);
    if (st == HSA_STATUS_SUCCESS) {
      jobs[i] = copy_job_new(num_dep_signals, dep_signals, done);
      if (!jobs[i]) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  if (st != HSA_STATUS_SUCCESS) {
    for (uint32_t i = 0; ctx && jobs && i < num_copy_ops; i++) {
      drop(ctx[i]);
      free(jobs[i]);
    }
    free(ctx);
    free(jobs);
    return st;
  }
  for (uint32_t i = 0; i < num_copy_ops; i++) {
    jobs[i]->op = op_batch;
    jobs[i]->ctx = ctx[i];
    hsa_status_t s = copy_submit_cpu(jobs[i]);
    if (s != HSA_STATUS_SUCCESS && st == HSA_STATUS_SUCCESS) st = s;
  }
  free(ctx);
  free(jobs);
  return st;
}
