/* SPDX-License-Identifier: MIT */
/* Large per-thread work areas of the instruction engine, allocated on first use.
 *
 * Static thread-local arrays of this size would be in the library's static TLS block, which
 * glibc zeroes for every thread the program creates, whether or not it ever runs a wave:
 * about 100 KiB and 28 page faults per pthread_create of the client, paid by every runtime
 * under hsa-sim. Here a thread that never needs a block never pays for it. */
#include "isa/thread_block.h"

#include "isa/wave.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int key_ok;

static void drop(void *p) {
  void **blocks = p;
  for (unsigned i = 0; i < ISA_TB_COUNT; i++) free(blocks[i]);
  free(blocks);
}

static void make_key(void) { key_ok = pthread_key_create(&key, drop) == 0; }

static __thread void **mine;   /* this thread's table (also held by the key, for its exit) */

void *isa_thread_block(enum isa_thread_block_id id, size_t bytes) {
  if (__builtin_expect(mine && mine[id], 1)) return mine[id];
  if (!mine) {
    pthread_once(&once, make_key);
    void **t = calloc(ISA_TB_COUNT, sizeof *t);
    if (!t) return NULL;
    if (!key_ok || pthread_setspecific(key, t)) {
      free(t);
      return NULL;
    }
    mine = t;
  }
  /* zeroed, as the static storage it replaces was at a thread's start */
  return mine[id] = calloc(1, bytes);
}

int isa_thread_block_lost(struct isa_wave *w, const struct isa_inst *in) {
  return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false,
                   "%s at 0x%llx: the host has no memory left for the instruction's work area",
                   in->name, (unsigned long long)in->pc);
}
