/* SPDX-License-Identifier: MIT */
/* stale.c — what the calls without a status do with a handle that is not a live signal: a
 * destroyed one (its slot is quarantined, see internal.h), one from before hsa_shut_down, or
 * one that was never a signal. The first use of each handle is named on stderr; stores and
 * read-modify-writes are dropped; loads, exchanges and CAS return SIG_STALE_VALUE; waits
 * return at once with a value their condition rejects, so a client waiting for its work to
 * finish is not told it did. */
#include "signals/internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>

/* Handles outside the arena have no record to remember the report in: the last few do. */
#define FOREIGN_SAID 32u
static pthread_mutex_t foreign_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t foreign_said[FOREIGN_SAID];
static uint32_t foreign_next;

static bool first_report(hsa_signal_t s, const char **what)
{
  struct sig_obj *o = sig_obj_any(s);
  if (o) {
    uint32_t g = atomic_load_explicit(&o->gen, memory_order_relaxed);
    *what = g ? "was destroyed" : "is not a signal";
    return atomic_exchange(&o->said, g + 1) != g + 1;
  }
  *what = "is not a signal (never was, or from before hsa_shut_down)";
  pthread_mutex_lock(&foreign_lock);
  bool first = true;
  for (uint32_t i = 0; i < FOREIGN_SAID && first; i++)
    first = foreign_said[i] != s.handle;
  if (first)
    foreign_said[foreign_next++ % FOREIGN_SAID] = s.handle;
  pthread_mutex_unlock(&foreign_lock);
  return first;
}

__attribute__((cold, noinline)) void sig_stale(const char *op, hsa_signal_t s)
{
  const char *what;
  if (first_report(s, &what))
    fprintf(stderr, "hsa-runtime64: %s: signal 0x%" PRIx64 " %s; the call does nothing (a load "
                    "returns INT64_MAX, a wait returns at once with a value failing its "
                    "condition). Said once per handle.\n", op, s.handle, what);
}

__attribute__((cold, noinline)) hsa_signal_value_t sig_stale_value(const char *op,
                                                                   hsa_signal_t s)
{
  sig_stale(op, s);
  return SIG_STALE_VALUE;
}

hsa_signal_value_t sig_unmet(hsa_signal_condition_t cond, hsa_signal_value_t cmp)
{
  uint64_t c = (uint64_t)cmp;
  switch (cond) {
  case HSA_SIGNAL_CONDITION_EQ: return (hsa_signal_value_t)(c + 1);
  case HSA_SIGNAL_CONDITION_GTE: return (hsa_signal_value_t)(c - 1);   /* wraps for INT64_MIN */
  case HSA_SIGNAL_CONDITION_NE:
  case HSA_SIGNAL_CONDITION_LT: return cmp;
  }
  return cmp;
}
