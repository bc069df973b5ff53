/* SPDX-License-Identifier: MIT */
/* code_object.c — the deprecated hsa_code_object_* API (HSA 1.0 code objects): deserialize
 * copies the bytes, symbols are read without loading, hsa_executable_load_code_object loads
 * them like a memory reader. Only code objects made by deserialize are accepted as handles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"
#include "core/quarantine.h"
#include "loader/internal.h"

struct code_object {
  struct code_object *next;
  void *data;
  size_t size;
  struct ldr_image img;       /* parsed at deserialize: a bad code object is refused there */
  struct ldr_executable scratch;   /* empty: the symbols' owner, never listed */
  struct ldr_symbol *syms;
  unsigned nsyms;
};

static struct code_object *objects;   /* loader lock */

static struct code_object *find(hsa_code_object_t h) {
  for (struct code_object *c = objects; c; c = c->next)
    if ((uint64_t)(uintptr_t)c->data == h.handle) return c;
  return NULL;
}

static void co_free(struct code_object *c) {
  for (unsigned i = 0; i < c->nsyms; i++) free(c->syms[i].name);
  free(c->syms);
  ldr_image_close(&c->img);
  core_free_later(c->data, c->size);   /* the handle: not reused for a while */
  free(c);
}

hsa_status_t hsa_code_object_deserialize(void *serialized, size_t size, const char *options,
                                         hsa_code_object_t *code_object) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!serialized || !code_object || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct code_object *c = calloc(1, sizeof(*c));
  if (!c || !(c->data = malloc(size))) {
    free(c);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  memcpy(c->data, serialized, size);
  c->size = size;
  hsa_status_t st = ldr_image_open(&c->img, c->data, size);
  struct ldr_layout lay;
  if (st == HSA_STATUS_SUCCESS) st = ldr_layout(&c->img, &lay);
  uint8_t *host = NULL;
  if (st == HSA_STATUS_SUCCESS && !(host = ldr_host_image(lay.span))) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (st == HSA_STATUS_SUCCESS) {
    /* Symbols as they would be at address 0, marked not loaded. */
    ldr_copy_segments(&c->img, &lay, host, true);
    st = ldr_symbols_build(&c->scratch, &c->img, &lay, host, 0, NULL, &c->syms, &c->nsyms);
    if (st == HSA_STATUS_ERROR_VARIABLE_UNDEFINED) st = HSA_STATUS_SUCCESS;   /* resolved at load */
    for (unsigned i = 0; i < c->nsyms; i++) c->syms[i].is_loaded = false;
  }
  if (host) ldr_host_image_free(host, lay.span);
  if (st != HSA_STATUS_SUCCESS) {
    co_free(c);
    return st;
  }
  ldr_lock();
  c->next = objects;
  objects = c;
  ldr_unlock();
  code_object->handle = (uint64_t)(uintptr_t)c->data;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_serialize(
    hsa_code_object_t code_object,
    hsa_status_t (*alloc_callback)(size_t, hsa_callback_data_t, void **),
    hsa_callback_data_t callback_data, const char *options, void **serialized,
    size_t *serialized_size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!alloc_callback || !serialized || !serialized_size) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct code_object *c = find(code_object);
  hsa_status_t st = c ? alloc_callback(c->size, callback_data, serialized) :
                        HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (st == HSA_STATUS_SUCCESS && !*serialized) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (st == HSA_STATUS_SUCCESS) {
    memcpy(*serialized, c->data, c->size);
    *serialized_size = c->size;
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_code_object_destroy(hsa_code_object_t code_object) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  ldr_lock();
  struct code_object **pp = &objects;
  while (*pp && (uint64_t)(uintptr_t)(*pp)->data != code_object.handle) pp = &(*pp)->next;
  struct code_object *c = *pp;
  if (c) *pp = c->next;
  ldr_unlock();
  if (!c) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  co_free(c);
  return HSA_STATUS_SUCCESS;
}

void ldr_code_objects_destroy_all(void) {
  ldr_lock();
  struct code_object *c = objects;
  objects = NULL;
  ldr_unlock();
  while (c) {
    struct code_object *next = c->next;
    co_free(c);
    c = next;
  }
}

hsa_status_t hsa_code_object_get_info(hsa_code_object_t code_object,
                                      hsa_code_object_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct code_object *c = find(code_object);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!c) {
    st = HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  } else {
    switch (attribute) {
    case HSA_CODE_OBJECT_INFO_VERSION: {
      char v[64] = {0};
      snprintf(v, sizeof(v), "%u.%u", c->img.version, c->img.version_minor);
      memcpy(value, v, sizeof(v));
      break;
    }
    case HSA_CODE_OBJECT_INFO_TYPE:
      *(hsa_code_object_type_t *)value = HSA_CODE_OBJECT_TYPE_PROGRAM;
      break;
    case HSA_CODE_OBJECT_INFO_ISA:
      if (!c->img.isa) st = HSA_STATUS_ERROR_INVALID_ISA;
      else *(hsa_isa_t *)value = core_isa_handle(c->img.isa);
      break;
    case HSA_CODE_OBJECT_INFO_MACHINE_MODEL:
      *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
      break;
    case HSA_CODE_OBJECT_INFO_PROFILE:
      *(hsa_profile_t *)value = HSA_PROFILE_BASE;
      break;
    case HSA_CODE_OBJECT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      break;
    default:
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  }
  ldr_unlock();
  return st;
}

static hsa_status_t get_symbol(hsa_code_object_t code_object, const char *module_name,
                               const char *symbol_name, hsa_code_symbol_t *symbol) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!symbol_name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  char *full = NULL;
  if (asprintf(&full, "%s%s%s", module_name && module_name[0] ? module_name : "",
               module_name && module_name[0] ? "::" : "", symbol_name) < 0)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  ldr_lock();
  struct code_object *c = find(code_object);
  hsa_status_t st = c ? HSA_STATUS_ERROR_INVALID_SYMBOL_NAME : HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  for (unsigned i = 0; c && i < c->nsyms; i++)
    if (strcmp(c->syms[i].name, full) == 0) {
      symbol->handle = (uint64_t)(uintptr_t)&c->syms[i];
      st = HSA_STATUS_SUCCESS;
      break;
    }
  ldr_unlock();
  free(full);
  return st;
}

hsa_status_t hsa_code_object_get_symbol(hsa_code_object_t code_object, const char *symbol_name,
                                        hsa_code_symbol_t *symbol) {
  return get_symbol(code_object, NULL, symbol_name, symbol);
}

hsa_status_t hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object,
                                                  const char *module_name,
                                                  const char *symbol_name,
                                                  hsa_code_symbol_t *symbol) {
  return get_symbol(code_object, module_name, symbol_name, symbol);
}

hsa_status_t hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol,
                                      hsa_code_symbol_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  const struct ldr_symbol *s = NULL;
  uintptr_t p = (uintptr_t)code_symbol.handle;
  for (struct code_object *c = objects; c && !s; c = c->next) {
    uintptr_t b = (uintptr_t)c->syms;
    if (c->nsyms && p >= b && p < b + c->nsyms * sizeof(*c->syms) &&
        (p - b) % sizeof(*c->syms) == 0)
      s = &c->syms[(p - b) / sizeof(*c->syms)];
  }
  hsa_status_t st = s ? ldr_symbol_info(s, (int)attribute, value) :
                        HSA_STATUS_ERROR_INVALID_CODE_SYMBOL;
  ldr_unlock();
  return st;
}

hsa_status_t hsa_code_object_iterate_symbols(
    hsa_code_object_t code_object,
    hsa_status_t (*callback)(hsa_code_object_t, hsa_code_symbol_t, void *), void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct code_object *c = find(code_object);
  hsa_status_t st = c ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  for (unsigned i = 0; c && i < c->nsyms && st == HSA_STATUS_SUCCESS; i++) {
    hsa_code_symbol_t h = {(uint64_t)(uintptr_t)&c->syms[i]};
    st = callback(code_object, h, data);
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                             hsa_code_object_t code_object, const char *options) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = agent.handle ? core_agent_from_handle(agent) : NULL;
  if (agent.handle && !a) return HSA_STATUS_ERROR_INVALID_AGENT;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  struct code_object *c = find(code_object);
  hsa_status_t st;
  if (!e) {
    st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  } else if (!c) {
    st = HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  } else {
    char *uri = ldr_uri_memory(c->data, c->size);
    st = uri ? ldr_load(e, a, c->data, c->size, uri, NULL) : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    free(uri);
  }
  ldr_unlock();
  return st;
}
