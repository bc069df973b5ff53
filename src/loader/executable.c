/* SPDX-License-Identifier: MIT */
/* executable.c — HSA executables: create, load code objects (agent and program), freeze,
 * destroy, info, external variable definitions, symbol lookup and iteration. One recursive
 * lock guards every loader structure: callbacks from iterations may call back into the API. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"
#include "core/code_name.h"
#include "core/quarantine.h"
#include "loader/internal.h"

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct ldr_executable *executables, *executables_tail;

void ldr_lock(void) { pthread_mutex_lock(&lock); }
void ldr_unlock(void) { pthread_mutex_unlock(&lock); }

void ldr_complain(const char *fmt, ...) {
  const char *quiet = getenv("HSA_LOADER_QUIET");
  if (quiet && quiet[0] == '1') return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  fprintf(stderr, "hsa-runtime64: loader: %s\n", msg);
}

struct ldr_executable *ldr_executable_first(void) { return executables; }
struct ldr_executable *ldr_executable_next(const struct ldr_executable *e) { return e->next; }
struct ldr_lco *ldr_executable_lcos(const struct ldr_executable *e) { return e->lcos; }

hsa_executable_t ldr_executable_handle(const struct ldr_executable *exec) {
  hsa_executable_t h = {(uint64_t)(uintptr_t)exec};
  return h;
}

struct ldr_executable *ldr_executable_find(hsa_executable_t handle) {
  for (struct ldr_executable *e = executables; e; e = e->next)
    if ((uint64_t)(uintptr_t)e == handle.handle) return e;
  return NULL;
}

struct ldr_lco *ldr_lco_find(hsa_loaded_code_object_t handle) {
  for (struct ldr_executable *e = executables; e; e = e->next)
    for (struct ldr_lco *l = e->lcos; l; l = l->next)
      if ((uint64_t)(uintptr_t)l == handle.handle) return l;
  return NULL;
}

/* ---- loading ------------------------------------------------------------------------------ */

struct resolve_ctx {
  struct ldr_executable *exec;
  const hsa_agent_t *agent;
};

/* Undefined symbols in relocations are externals the application defined for this agent (or
 * for the program). */
static uint64_t resolve_external(const char *name, void *p) {
  struct resolve_ctx *c = p;
  struct ldr_symbol *s = c->agent ? ldr_symbol_lookup(c->exec, name, c->agent) : NULL;
  if (!s) s = ldr_symbol_lookup(c->exec, name, NULL);
  return s ? s->address : 0;
}

static void lco_free(struct ldr_lco *l) {
  for (unsigned i = 0; i < l->nsyms; i++) free(l->syms[i].name);
  free(l->syms);
  ldr_segment_free(l->mem);
  free(l->lm.l_name);
  free(l);
}

hsa_status_t ldr_load(struct ldr_executable *exec, const struct core_agent *agent,
                      const void *data, size_t size, const char *uri, struct ldr_lco **out) {
  if (exec->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  core_set_code_namer(ldr_describe_code);   /* fault messages can name kernels from now on */
  struct ldr_image img;
  hsa_status_t st = ldr_image_open(&img, data, size);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (agent && !ldr_target_compatible(&img, agent)) {
    ldr_complain("code object for %s cannot run on agent %s (%s); compile for the agent's "
                 "target ID", img.target, agent->name,
                 agent->isa ? agent->isa->target_id : "no ISA");
    ldr_image_close(&img);
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  }
  struct ldr_layout lay;
  struct ldr_lco *l = NULL;
  st = ldr_layout(&img, &lay);
  if (st != HSA_STATUS_SUCCESS) goto fail;
  l = calloc(1, sizeof(*l));
  if (!l) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    goto fail;
  }
  l->exec = exec;
  l->core_agent = agent;
  if (agent) l->agent = core_agent_handle(agent);
  l->storage = data;
  l->storage_size = size;
  l->mem = ldr_segment_alloc(agent, lay.span, lay.align);
  if (!l->mem) {
    ldr_complain("no memory for a %llu-byte code object (its segments with their "
                 "zero-filled program variables) in %s's memory; make its program-scope "
                 "variables smaller or free memory first", (unsigned long long)lay.span,
                 agent ? agent->name : "system");
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    goto fail;
  }
  /* Segments are host-visible: the host address is the GPU address. */
  uint8_t *host = l->mem;
  uint64_t base = (uint64_t)(uintptr_t)l->mem;
  ldr_copy_segments(&img, &lay, host, false);
  st = ldr_symbols_build(exec, &img, &lay, host, base, agent, &l->syms, &l->nsyms);
  if (st != HSA_STATUS_SUCCESS) goto fail;
  struct resolve_ctx rc = {exec, agent ? &l->agent : NULL};
  st = ldr_relocate(&img, host, base, lay.vbase, lay.span, resolve_external, &rc);
  if (st != HSA_STATUS_SUCCESS) goto fail;
  ldr_segment_flush(agent, l->mem, lay.span);
  l->load_base = base;
  l->load_size = lay.span;
  l->delta = (int64_t)(base - lay.vbase);
  l->lm.l_addr = (ElfW(Addr))l->delta;
  l->lm.l_name = strdup(uri ? uri : "");
  if (!l->lm.l_name) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    goto fail;
  }
  st = ldr_symbol_reserve(exec, l->nsyms);
  if (st != HSA_STATUS_SUCCESS) goto fail;
  for (unsigned i = 0; i < l->nsyms; i++) ldr_symbol_insert(exec, &l->syms[i]);
  if (exec->lcos_tail) exec->lcos_tail->next = l;
  else exec->lcos = l;
  exec->lcos_tail = l;
  ldr_image_close(&img);
  if (out) *out = l;
  return HSA_STATUS_SUCCESS;
fail:
  if (l) lco_free(l);
  ldr_image_close(&img);
  return st;
}

/* ---- lifetime ----------------------------------------------------------------------------- */

static bool valid_rounding(hsa_default_float_rounding_mode_t m) {
  return m == HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT || m == HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO ||
         m == HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
}

hsa_status_t hsa_executable_create_alt(hsa_profile_t profile,
                                       hsa_default_float_rounding_mode_t rounding,
                                       const char *options, hsa_executable_t *executable) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if ((profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) || !valid_rounding(rounding) ||
      !executable)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct ldr_executable *e = calloc(1, sizeof(*e));
  if (!e) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  e->profile = profile;
  e->rounding = rounding;
  e->state = HSA_EXECUTABLE_STATE_UNFROZEN;
  ldr_lock();
  if (executables_tail) executables_tail->next = e;
  else executables = e;
  executables_tail = e;
  ldr_unlock();
  *executable = ldr_executable_handle(e);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t freeze(struct ldr_executable *e) {
  if (e->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  for (struct ldr_lco *l = e->lcos; l; l = l->next)
    ldr_segment_flush(l->core_agent, l->mem, l->load_size);
  e->state = HSA_EXECUTABLE_STATE_FROZEN;
  if (e->lcos) ldr_debug_add(e->lcos);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t state,
                                   const char *options, hsa_executable_t *executable) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (state != HSA_EXECUTABLE_STATE_FROZEN && state != HSA_EXECUTABLE_STATE_UNFROZEN)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                              options, executable);
  if (st != HSA_STATUS_SUCCESS || state != HSA_EXECUTABLE_STATE_FROZEN) return st;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(*executable);
  if (e) freeze(e);
  ldr_unlock();
  return HSA_STATUS_SUCCESS;
}

static void destroy(struct ldr_executable *e) {
  if (e->lcos) ldr_debug_remove(e->lcos);
  struct ldr_executable **pp = &executables, *prev = NULL;
  while (*pp != e) {
    prev = *pp;
    pp = &(*pp)->next;
  }
  *pp = e->next;
  if (executables_tail == e) executables_tail = prev;
  struct ldr_lco *l = e->lcos;
  while (l) {
    struct ldr_lco *next = l->next;
    lco_free(l);
    l = next;
  }
  struct ldr_external *x = e->externals;
  while (x) {
    struct ldr_external *next = x->next;
    free(x->sym.name);
    free(x);
    x = next;
  }
  ldr_symbols_free(e);
  core_free_later(e, sizeof(*e));   /* its address is the handle: not reused for a while */
}

hsa_status_t hsa_executable_destroy(hsa_executable_t executable) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  if (e) destroy(e);
  ldr_unlock();
  return e ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_EXECUTABLE;
}

void ldr_shutdown(void) {
  ldr_lock();
  while (executables) destroy(executables);
  ldr_debug_reset();
  ldr_unlock();
  ldr_readers_destroy_all();
  ldr_code_objects_destroy_all();
}

hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char *options) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  hsa_status_t st = e ? freeze(e) : HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  ldr_unlock();
  return st;
}

hsa_status_t hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                                     void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!e) st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  else if (attribute == HSA_EXECUTABLE_INFO_PROFILE) *(hsa_profile_t *)value = e->profile;
  else if (attribute == HSA_EXECUTABLE_INFO_STATE) *(hsa_executable_state_t *)value = e->state;
  else if (attribute == HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE)
    *(hsa_default_float_rounding_mode_t *)value = e->rounding;
  else st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_unlock();
  return st;
}

hsa_status_t hsa_executable_validate(hsa_executable_t executable, uint32_t *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  ldr_unlock();
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  /* Every load already checked its code object and resolved its references. */
  *result = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_validate_alt(hsa_executable_t executable, const char *options,
                                         uint32_t *result) {
  return hsa_executable_validate(executable, result);
}

/* ---- loading API -------------------------------------------------------------------------- */

static hsa_status_t load_from_reader(hsa_executable_t executable, const hsa_agent_t *agent,
                                     hsa_code_object_reader_t reader,
                                     hsa_loaded_code_object_t *loaded) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = NULL;
  if (agent) {
    a = core_agent_from_handle(*agent);
    if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  struct ldr_reader *r = ldr_reader_find(reader);
  hsa_status_t st;
  if (!e) st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  else if (!r) st = HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  else if (a && a->kind != CORE_AGENT_GPU) st = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  else {
    struct ldr_lco *l = NULL;
    st = ldr_load(e, a, r->data, r->size, r->uri, &l);
    if (st == HSA_STATUS_SUCCESS && loaded) loaded->handle = (uint64_t)(uintptr_t)l;
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                   hsa_code_object_reader_t reader,
                                                   const char *options,
                                                   hsa_loaded_code_object_t *loaded) {
  return load_from_reader(executable, &agent, reader, loaded);
}

hsa_status_t hsa_executable_load_program_code_object(hsa_executable_t executable,
                                                     hsa_code_object_reader_t reader,
                                                     const char *options,
                                                     hsa_loaded_code_object_t *loaded) {
  return load_from_reader(executable, NULL, reader, loaded);
}

/* ---- external variables ------------------------------------------------------------------- */

static hsa_status_t define(hsa_executable_t executable, const hsa_agent_t *agent,
                           hsa_variable_segment_t segment, const char *name, void *address) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!name || !name[0]) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (agent && !core_agent_from_handle(*agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  struct ldr_external *x = NULL;
  if (!e) st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  else if (e->state == HSA_EXECUTABLE_STATE_FROZEN) st = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  else if (ldr_symbol_lookup(e, name, agent)) st = HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
  else if (!(x = calloc(1, sizeof(*x))) || !(x->sym.name = strdup(name)))
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (st == HSA_STATUS_SUCCESS) {
    struct ldr_symbol *s = &x->sym;
    s->exec = e;
    s->kind = HSA_SYMBOL_KIND_VARIABLE;
    s->linkage = HSA_SYMBOL_LINKAGE_PROGRAM;
    s->is_definition = true;
    s->is_loaded = true;
    s->agent_bound = agent != NULL;
    if (agent) s->agent = *agent;
    s->address = (uint64_t)(uintptr_t)address;
    s->allocation = agent ? HSA_VARIABLE_ALLOCATION_AGENT : HSA_VARIABLE_ALLOCATION_PROGRAM;
    s->segment = segment;
    st = ldr_symbol_insert(e, s);
    if (st == HSA_STATUS_SUCCESS) {
      x->next = e->externals;
      e->externals = x;
      x = NULL;
    }
  }
  if (x) {
    free(x->sym.name);
    free(x);
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_executable_global_variable_define(hsa_executable_t executable,
                                                   const char *variable_name, void *address) {
  return define(executable, NULL, HSA_VARIABLE_SEGMENT_GLOBAL, variable_name, address);
}

hsa_status_t hsa_executable_agent_global_variable_define(hsa_executable_t executable,
                                                         hsa_agent_t agent,
                                                         const char *variable_name,
                                                         void *address) {
  return define(executable, &agent, HSA_VARIABLE_SEGMENT_GLOBAL, variable_name, address);
}

hsa_status_t hsa_executable_readonly_variable_define(hsa_executable_t executable,
                                                     hsa_agent_t agent, const char *variable_name,
                                                     void *address) {
  return define(executable, &agent, HSA_VARIABLE_SEGMENT_READONLY, variable_name, address);
}

/* ---- symbols ------------------------------------------------------------------------------ */

hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char *name,
                                               const hsa_agent_t *agent,
                                               hsa_executable_symbol_t *symbol) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  struct ldr_symbol *s = e ? ldr_symbol_lookup(e, name, agent) : NULL;
  ldr_unlock();
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!s) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  *symbol = ldr_symbol_handle(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_symbol(hsa_executable_t executable, const char *module_name,
                                       const char *symbol_name, hsa_agent_t agent,
                                       int32_t call_convention, hsa_executable_symbol_t *symbol) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!symbol_name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!symbol_name[0]) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  char *full = NULL;
  if (module_name && module_name[0]) {
    if (asprintf(&full, "%s::%s", module_name, symbol_name) < 0)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  } else {
    full = strdup(symbol_name);
    if (!full) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  hsa_status_t st;
  if (!e) {
    st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  } else {
    /* Program symbols first, as ROCR: the agent only selects among agent symbols. */
    bool program = ldr_symbol_lookup(e, full, NULL) != NULL;
    st = hsa_executable_get_symbol_by_name(executable, full, program ? NULL : &agent, symbol);
  }
  ldr_unlock();
  free(full);
  return st;
}

hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t symbol,
                                            hsa_executable_symbol_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_symbol *s = ldr_symbol_find(symbol);
  hsa_status_t st = s ? ldr_symbol_info(s, attribute, value) :
                        HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  ldr_unlock();
  return st;
}

/* Calls `fn` on every symbol: program ones first, then agent ones (of `agent` if given). */
typedef hsa_status_t (*visit_fn)(struct ldr_executable *e, struct ldr_symbol *s, void *data);

static hsa_status_t visit(struct ldr_executable *e, int which, const hsa_agent_t *agent,
                          visit_fn fn, void *data) {
  for (int pass = 0; pass < 2; pass++) {
    if ((which == 1 && pass == 1) || (which == 2 && pass == 0)) continue;
    bool want_agent = pass == 1;
    for (struct ldr_lco *l = e->lcos; l; l = l->next)
      for (unsigned i = 0; i < l->nsyms; i++) {
        struct ldr_symbol *s = &l->syms[i];
        if (s->agent_bound != want_agent) continue;
        if (agent && s->agent.handle != agent->handle) continue;
        hsa_status_t st = fn(e, s, data);
        if (st != HSA_STATUS_SUCCESS) return st;
      }
    for (struct ldr_external *x = e->externals; x; x = x->next) {
      if (x->sym.agent_bound != want_agent) continue;
      if (agent && x->sym.agent.handle != agent->handle) continue;
      hsa_status_t st = fn(e, &x->sym, data);
      if (st != HSA_STATUS_SUCCESS) return st;
    }
  }
  return HSA_STATUS_SUCCESS;
}

struct all_cb {
  hsa_status_t (*cb)(hsa_executable_t, hsa_executable_symbol_t, void *);
  void *data;
};
static hsa_status_t call_all(struct ldr_executable *e, struct ldr_symbol *s, void *p) {
  struct all_cb *c = p;
  return c->cb(ldr_executable_handle(e), ldr_symbol_handle(s), c->data);
}

struct agent_cb {
  hsa_status_t (*cb)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *);
  hsa_agent_t agent;
  void *data;
};
static hsa_status_t call_agent(struct ldr_executable *e, struct ldr_symbol *s, void *p) {
  struct agent_cb *c = p;
  return c->cb(ldr_executable_handle(e), c->agent, ldr_symbol_handle(s), c->data);
}

static hsa_status_t iterate(hsa_executable_t executable, int which, const hsa_agent_t *agent,
                            visit_fn fn, void *data) {
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  hsa_status_t st = e ? visit(e, which, agent, fn, data) : HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  ldr_unlock();
  return st;
}

hsa_status_t hsa_executable_iterate_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void *), void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct all_cb c = {callback, data};
  return iterate(executable, 0, NULL, call_all, &c);
}

hsa_status_t hsa_executable_iterate_program_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t, hsa_executable_symbol_t, void *), void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct all_cb c = {callback, data};
  return iterate(executable, 1, NULL, call_all, &c);
}

hsa_status_t hsa_executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *),
    void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  struct agent_cb c = {callback, agent, data};
  return iterate(executable, 2, &agent, call_agent, &c);
}
