/* SPDX-License-Identifier: MIT */
/* debug.c — _amdgpu_r_debug: the list of loaded GPU code objects that debuggers (rocgdb
 * through amd-dbgapi) find by symbol name, shaped like the dynamic linker's r_debug. Each
 * entry's l_name is the code object's URI and l_addr its load delta. r_brk is the address of a
 * function the debugger puts a breakpoint on: it is called with r_state RT_ADD or RT_DELETE
 * before the list changes and again with RT_CONSISTENT after. Entries are added when an
 * executable is frozen and removed when it is destroyed (as ROCR does). */
#include <link.h>
#include <stdatomic.h>
#include <string.h>

#include "hsa.h"
#include "loader/internal.h"

HSA_API struct r_debug _amdgpu_r_debug = {
  .r_version = 1,
  .r_map = NULL,
  .r_brk = 0,
  .r_state = RT_CONSISTENT,
  .r_ldbase = 0,
};

static struct link_map *tail;

/* The breakpoint: must stay a real call with a side effect, never inlined or merged. */
__attribute__((noinline, used)) void ldr_debug_breakpoint(void);
__attribute__((noinline, used)) void ldr_debug_breakpoint(void) {
  /* An opaque instruction-less barrier: the call cannot be dropped or folded away. */
  __asm__ volatile("" ::: "memory");
}

/* r_brk is valid from the moment the library is loaded: a debugger may attach before any
 * code object is. */
__attribute__((constructor)) static void set_brk(void) {
  _amdgpu_r_debug.r_brk = (ElfW(Addr))(uintptr_t)ldr_debug_breakpoint;
}

static void set_state(int state) {
  atomic_thread_fence(memory_order_seq_cst);
  _amdgpu_r_debug.r_state = state;
  atomic_thread_fence(memory_order_seq_cst);
  ldr_debug_breakpoint();
}

void ldr_debug_add(struct ldr_lco *first) {
  set_state(RT_ADD);
  for (struct ldr_lco *l = first; l; l = l->next) {
    if (l->listed) continue;
    l->lm.l_next = NULL;
    l->lm.l_prev = tail;
    if (tail) tail->l_next = &l->lm;
    else _amdgpu_r_debug.r_map = &l->lm;
    tail = &l->lm;
    l->listed = true;
  }
  set_state(RT_CONSISTENT);
}

void ldr_debug_remove(struct ldr_lco *first) {
  set_state(RT_DELETE);
  for (struct ldr_lco *l = first; l; l = l->next) {
    if (!l->listed) continue;
    struct link_map *m = &l->lm;
    if (m->l_prev) m->l_prev->l_next = m->l_next;
    else _amdgpu_r_debug.r_map = m->l_next;
    if (m->l_next) m->l_next->l_prev = m->l_prev;
    else tail = m->l_prev;
    m->l_next = m->l_prev = NULL;
    l->listed = false;
  }
  set_state(RT_CONSISTENT);
}

void ldr_debug_reset(void) {
  _amdgpu_r_debug.r_map = NULL;
  tail = NULL;
  _amdgpu_r_debug.r_state = RT_CONSISTENT;
}

uint64_t ldr_debug_list_address(void) { return (uint64_t)(uintptr_t)&_amdgpu_r_debug; }
