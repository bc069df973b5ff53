/* SPDX-License-Identifier: MIT */
/* trap.c — the runtime's second-level trap handler (trap_gfx9.s, embedded at build time) on
 * each GPU before its first queue, and the trap table it reads.
 *
 * The kernel's first-level (CWSR) handler jumps to the code SET_TRAP_HANDLER gave it, with
 * the TMA in ttmp14:15. Our TMA is a table of 1024 entries, one per doorbell of the process
 * on that GPU (a wave learns its queue's doorbell with s_sendmsg(MSG_GET_DOORBELL)):
 *   +0  the queue's inactive signal (amd_signal_t *, 0 = none): the handler swaps an error
 *       code into its value and raises its event, as the CP does for packet errors
 *   +8  the handler's copy of ttmp0:1 (PC[47:0], trap id in bits 55:48) of a stopped wave
 * Without a second level an s_trap is stepped over and a device assert would go unreported.
 *
 * Families: gfx9 (gfx900..gfx909, gfx90c, gfx908) and gfx90a (CDNA2) take the handler
 * assembled for gfx900 and gfx90a; gfx940..gfx942 (CDNA3, GC 9.4.3, whose first level keeps
 * IB_STS in ttmp13) the one assembled for gfx942, when the build had an llvm-mc that knows
 * it (the blob is empty otherwise); gfx11 (RDNA3: gfx1100..gfx1103, gfx115x) and gfx12 (RDNA4)
 * take trap_gfx11.s assembled for gfx1100 and gfx1201, when the build had an llvm-mc 18+.
 * That handler reports through the same table with vector stores (gfx11+ have no scalar
 * stores), so it needs nothing of the kernel beyond SET_TRAP_HANDLER: no KFD 1.13 exception
 * interface, which ROCR's gfx11+ handler depends on (it installs none without it). Others get
 * none, and say so once. */
#include "aql/internal.h"
#include "core/runtime.h"
#include "mem/mem.h"

#include <stdio.h>
#include <string.h>

extern const uint8_t aql_trap_code_gfx900[], aql_trap_code_gfx900_end[];
extern const uint8_t aql_trap_code_gfx90a[], aql_trap_code_gfx90a_end[];
extern const uint8_t aql_trap_code_gfx942[], aql_trap_code_gfx942_end[];
extern const uint8_t aql_trap_code_gfx1100[], aql_trap_code_gfx1100_end[];
extern const uint8_t aql_trap_code_gfx1201[], aql_trap_code_gfx1201_end[];

#define TRAP_ENTRIES 1024u   /* doorbells per process and GPU */
#define TRAP_MAX_GPUS 64u

struct trap_entry {
  uint64_t signal;
  uint64_t where;
};

struct gpu_trap {
  uint32_t gpu_id;
  bool tried;
  void *code;
  struct trap_entry *table;   /* NULL: no handler on this GPU */
};

static struct gpu_trap gpus[TRAP_MAX_GPUS];
static unsigned gpu_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* false, with *why set, when this agent gets no handler */
static bool code_for(const struct core_agent *a, const uint8_t **code, size_t *size,
                     const char **why) {
  const struct core_isa *isa = a->isa;
  const uint8_t *b = NULL, *e = NULL;
  *why = "no trap handler is written for it";
  if (isa && isa->major == 9 && isa->minor == 0) {
    b = isa->stepping == 10 ? aql_trap_code_gfx90a : aql_trap_code_gfx900;
    e = isa->stepping == 10 ? aql_trap_code_gfx90a_end : aql_trap_code_gfx900_end;
  } else if (isa && (isa->major == 11 || isa->major == 12)) {
    b = isa->major == 11 ? aql_trap_code_gfx1100 : aql_trap_code_gfx1201;
    e = isa->major == 11 ? aql_trap_code_gfx1100_end : aql_trap_code_gfx1201_end;
    *why = "this library was built without an assembler for gfx11/gfx12, LLVM 18 or later";
  } else if (isa && isa->major == 9 && isa->minor == 4) {
    b = aql_trap_code_gfx942;
    e = aql_trap_code_gfx942_end;
    *why = "this library was built without an assembler for gfx942, LLVM 17 or later";
  }
  if (!b || e == b) return false;
  *code = b;
  *size = (size_t)(e - b);
  return true;
}

static struct gpu_trap *find(uint32_t gpu_id) {
  for (unsigned i = 0; i < gpu_count; i++)
    if (gpus[i].gpu_id == gpu_id) return &gpus[i];
  return NULL;
}

void aql_trap_install(const struct core_agent *agent) {
  struct core_runtime *rt = core_rt();
  if (!rt) return;
  pthread_mutex_lock(&lock);
  struct gpu_trap *t = find(agent->gpu_id);
  if (!t && gpu_count < TRAP_MAX_GPUS) {
    t = &gpus[gpu_count++];
    memset(t, 0, sizeof(*t));
    t->gpu_id = agent->gpu_id;
  }
  if (!t || t->tried) goto out;
  t->tried = true;
  const uint8_t *code;
  size_t size;
  const char *why;
  if (!code_for(agent, &code, &size, &why)) {
    fprintf(stderr, "hsa-runtime64: no trap handler for %s (%s): a device trap or assert in a "
                    "kernel on GPU node %u is not reported to the queue's callback.\n",
            agent->name, why, agent->node_id);
    goto out;
  }
  t->code = mem_system(size, 4096, MEM_F_EXECUTABLE | MEM_F_NO_SUBALLOC);
  t->table = mem_system(TRAP_ENTRIES * sizeof(struct trap_entry), 4096,
                        MEM_F_UNCACHED | MEM_F_NO_SUBALLOC | MEM_F_ZERO);
  if (t->code && t->table) {
    memcpy(t->code, code, size);
    memset(t->table, 0, TRAP_ENTRIES * sizeof(struct trap_entry));
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (kfd_set_trap_handler(&rt->kfd, agent->gpu_id, (uint64_t)(uintptr_t)t->code,
                             (uint64_t)(uintptr_t)t->table) == 0)
      goto out;
  } else {
    fprintf(stderr, "hsa-runtime64: no memory for the trap handler of GPU node %u: device traps "
                    "there are not reported.\n", agent->node_id);
  }
  mem_release(t->code);
  mem_release(t->table);
  t->code = NULL;
  t->table = NULL;
out:
  pthread_mutex_unlock(&lock);
}

static struct trap_entry *entry_of(const struct aql_queue *q) {
  struct gpu_trap *t = find(q->agent->gpu_id);
  if (!t || !t->table || q->kq.doorbell_index >= TRAP_ENTRIES) return NULL;
  return &t->table[q->kq.doorbell_index];
}

void aql_trap_bind(struct aql_queue *q) {
  pthread_mutex_lock(&lock);
  struct trap_entry *e = entry_of(q);
  if (e) {
    __atomic_store_n(&e->where, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->signal, q->inactive.handle, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
}

void aql_trap_unbind(struct aql_queue *q) {
  pthread_mutex_lock(&lock);
  struct trap_entry *e = entry_of(q);
  if (e && __atomic_load_n(&e->signal, __ATOMIC_RELAXED) == q->inactive.handle)
    __atomic_store_n(&e->signal, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&lock);
}

bool aql_trap_where(const struct aql_queue *q, uint64_t *pc, unsigned *trap_id) {
  pthread_mutex_lock(&lock);
  const struct trap_entry *e = entry_of(q);
  uint64_t w = e ? __atomic_load_n(&e->where, __ATOMIC_ACQUIRE) : 0;
  pthread_mutex_unlock(&lock);
  if (!w) return false;
  *pc = w & 0xffffffffffffull;
  *trap_id = (unsigned)(w >> 48) & 0xff;
  return true;
}

void aql_trap_shutdown(void) {
  /* the driver keeps TBA/TMA for the process: point it at nothing before the memory goes (a
   * new runtime installs fresh ones) */
  struct core_runtime *rt = core_rt();
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < gpu_count; i++) {
    if (gpus[i].table && rt && rt->kfd.fd >= 0)
      kfd_set_trap_handler(&rt->kfd, gpus[i].gpu_id, 0, 0);
    mem_release(gpus[i].code);
    mem_release(gpus[i].table);
  }
  gpu_count = 0;
  pthread_mutex_unlock(&lock);
}
