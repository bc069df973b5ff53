/* SPDX-License-Identifier: MIT */
/* isa.c — the ISA registry (every known processor with each sramecc/xnack setting), target-ID
 * names, and the hsa_isa_* / hsa_wavefront_* API. Processor facts follow LLVM's AMDGPUUsage. */
#include "core/isa.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/runtime.h"

struct processor {
  uint8_t major, minor, stepping;
  bool sramecc, xnack;        /* the processor has the target feature */
};

static const struct processor processors[] = {
  {7, 0, 0, 0, 0},  {7, 0, 1, 0, 0},  {7, 0, 2, 0, 0},  {7, 0, 3, 0, 0},  {7, 0, 4, 0, 0},
  {7, 0, 5, 0, 0},  {8, 0, 1, 0, 1},  {8, 0, 2, 0, 0},  {8, 0, 3, 0, 0},  {8, 0, 5, 0, 0},
  {8, 1, 0, 0, 1},  {9, 0, 0, 0, 1},  {9, 0, 2, 0, 1},  {9, 0, 4, 0, 1},  {9, 0, 6, 1, 1},
  {9, 0, 8, 1, 1},  {9, 0, 9, 0, 1},  {9, 0, 10, 1, 1}, {9, 0, 12, 0, 1}, {9, 4, 0, 1, 1},
  {9, 4, 1, 1, 1},  {9, 4, 2, 1, 1},  {9, 5, 0, 1, 1},  {10, 1, 0, 0, 1}, {10, 1, 1, 0, 1},
  {10, 1, 2, 0, 1}, {10, 1, 3, 0, 1}, {10, 3, 0, 0, 0}, {10, 3, 1, 0, 0}, {10, 3, 2, 0, 0},
  {10, 3, 3, 0, 0}, {10, 3, 4, 0, 0}, {10, 3, 5, 0, 0}, {10, 3, 6, 0, 0}, {11, 0, 0, 0, 0},
  {11, 0, 1, 0, 0}, {11, 0, 2, 0, 0}, {11, 0, 3, 0, 0}, {11, 5, 0, 0, 0}, {11, 5, 1, 0, 0},
  {11, 5, 2, 0, 0}, {11, 5, 3, 0, 0}, {12, 0, 0, 0, 0}, {12, 0, 1, 0, 0},
};
#define NPROC (sizeof(processors) / sizeof(processors[0]))

/* At most 3 sramecc x 3 xnack settings per processor, in the order of processors[]: a
 * processor's entries are written the first time anything needs them (hsa_init needs only its
 * GPUs' processors: one page of the table instead of all of it), the whole table when a caller
 * walks it. */
static struct core_isa registry[NPROC * 9];
static unsigned registry_count;             /* entries of all processors (constant once set) */
static bool processor_built[NPROC];         /* set (release) once its entries are written */
static bool registry_built;                 /* set (release) once every processor's are */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* Appends src to buf (size bytes, *len used), truncating as snprintf would. */
static void append(char *buf, size_t size, size_t *len, const char *src) {
  while (*src && *len + 1 < size) buf[(*len)++] = *src++;
  buf[*len] = '\0';
}

void core_isa_processor_name(uint32_t major, uint32_t minor, uint32_t stepping, char *buf,
                             unsigned size) {
  /* "gfx%u%x%x" without snprintf (called for every registry entry in hsa_init) */
  static const char hex[] = "0123456789abcdef";
  char digits[16];
  unsigned d = 0;
  do digits[d++] = (char)('0' + major % 10);
  while ((major /= 10) && d < sizeof(digits) - 2);
  char s[24] = "gfx";
  size_t n = 3;
  while (d) s[n++] = digits[--d];
  s[n++] = hex[minor & 0xf];
  s[n++] = hex[stepping & 0xf];
  s[n] = '\0';
  if (!size) return;
  size_t k = 0;
  append(buf, size, &k, s);
}

static const struct processor *find_processor(uint32_t major, uint32_t minor, uint32_t stepping) {
  for (unsigned i = 0; i < NPROC; i++)
    if (processors[i].major == major && processors[i].minor == minor &&
        processors[i].stepping == stepping)
      return &processors[i];
  return NULL;
}

bool core_isa_supports_sramecc(uint32_t major, uint32_t minor, uint32_t stepping) {
  const struct processor *p = find_processor(major, minor, stepping);
  return p && p->sramecc;
}

bool core_isa_supports_xnack(uint32_t major, uint32_t minor, uint32_t stepping) {
  const struct processor *p = find_processor(major, minor, stepping);
  return p && p->xnack;
}

static const char *feature_suffix(enum core_feature f) {
  return f == CORE_FEATURE_ON ? "+" : "-";
}

static void add_entry(struct core_isa *isa, const struct processor *p, enum core_feature sramecc,
                      enum core_feature xnack) {
  isa->major = p->major;
  isa->minor = p->minor;
  isa->stepping = p->stepping;
  isa->sramecc = sramecc;
  isa->xnack = xnack;
  core_isa_processor_name(p->major, p->minor, p->stepping, isa->processor,
                          sizeof(isa->processor));
  /* Target ID: features in alphabetical order, only those set to on or off. Built with
   * appends rather than snprintf: hsa_init builds every entry, and formatting them was half
   * its instructions. */
  char target[sizeof(isa->target_id)] = "";
  size_t t = 0;
  append(target, sizeof(target), &t, isa->processor);
  if (sramecc == CORE_FEATURE_ON || sramecc == CORE_FEATURE_OFF) {
    append(target, sizeof(target), &t, ":sramecc");
    append(target, sizeof(target), &t, feature_suffix(sramecc));
  }
  if (xnack == CORE_FEATURE_ON || xnack == CORE_FEATURE_OFF) {
    append(target, sizeof(target), &t, ":xnack");
    append(target, sizeof(target), &t, feature_suffix(xnack));
  }
  memcpy(isa->target_id, target, sizeof(target));
  size_t n = 0;
  isa->name[0] = '\0';
  append(isa->name, sizeof(isa->name), &n, "amdgcn-amd-amdhsa--");
  append(isa->name, sizeof(isa->name), &n, target);
}

static unsigned entries_of(const struct processor *p) {
  return (p->sramecc ? 3u : 1u) * (p->xnack ? 3u : 1u);
}

/* Writes processor i's entries from registry[first] on, once. */
static void build_processor(unsigned i, unsigned first) {
  static const enum core_feature settings[] = {CORE_FEATURE_ANY, CORE_FEATURE_OFF,
                                               CORE_FEATURE_ON};
  if (__atomic_load_n(&processor_built[i], __ATOMIC_ACQUIRE)) return;
  pthread_mutex_lock(&registry_lock);
  if (!processor_built[i]) {
    const struct processor *p = &processors[i];
    unsigned ns = p->sramecc ? 3 : 1, nx = p->xnack ? 3 : 1, k = first;
    for (unsigned s = 0; s < ns; s++)
      for (unsigned x = 0; x < nx; x++)
        add_entry(&registry[k++], p, p->sramecc ? settings[s] : CORE_FEATURE_UNSUPPORTED,
                  p->xnack ? settings[x] : CORE_FEATURE_UNSUPPORTED);
    __atomic_store_n(&processor_built[i], true, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&registry_lock);
}

static void ensure_registry(void) {
  if (__atomic_load_n(&registry_built, __ATOMIC_ACQUIRE)) return;
  unsigned first = 0;
  for (unsigned i = 0; i < NPROC; i++) {
    build_processor(i, first);
    first += entries_of(&processors[i]);
  }
  __atomic_store_n(&registry_count, first, __ATOMIC_RELAXED); /* same value from any thread */
  __atomic_store_n(&registry_built, true, __ATOMIC_RELEASE);
}

const struct core_isa *core_isa_find(uint32_t major, uint32_t minor, uint32_t stepping,
                                     enum core_feature sramecc, enum core_feature xnack) {
  unsigned first = 0, i = 0;
  for (; i < NPROC; first += entries_of(&processors[i]), i++)
    if (processors[i].major == major && processors[i].minor == minor &&
        processors[i].stepping == stepping)
      break;
  if (i == NPROC) return NULL;
  build_processor(i, first);
  for (unsigned k = first; k < first + entries_of(&processors[i]); k++) {
    const struct core_isa *isa = &registry[k];
    if (isa->sramecc != CORE_FEATURE_UNSUPPORTED && isa->sramecc != sramecc) continue;
    if (isa->xnack != CORE_FEATURE_UNSUPPORTED && isa->xnack != xnack) continue;
    return isa;
  }
  return NULL;
}

const struct core_isa *core_isa_by_name(const char *name) {
  ensure_registry();
  for (unsigned i = 0; i < registry_count; i++)
    if (strcmp(registry[i].name, name) == 0) return &registry[i];
  return NULL;
}

hsa_isa_t core_isa_handle(const struct core_isa *isa) {
  hsa_isa_t h = {(uint64_t)(uintptr_t)isa};
  return h;
}

const struct core_isa *core_isa_from_handle(hsa_isa_t isa) {
  ensure_registry();
  /* Compare as integers: a foreign handle must not be turned into a pointer and used. */
  uintptr_t p = (uintptr_t)isa.handle, base = (uintptr_t)&registry[0];
  if (p < base || p >= base + registry_count * sizeof(registry[0])) return NULL;
  if ((p - base) % sizeof(registry[0]) != 0) return NULL;
  return &registry[(p - base) / sizeof(registry[0])];
}

bool core_isa_compatible(const struct core_isa *code, const struct core_isa *agent) {
  if (code->major != agent->major || code->minor != agent->minor ||
      code->stepping != agent->stepping)
    return false;
  if ((code->sramecc == CORE_FEATURE_ON || code->sramecc == CORE_FEATURE_OFF) &&
      code->sramecc != agent->sramecc)
    return false;
  if ((code->xnack == CORE_FEATURE_ON || code->xnack == CORE_FEATURE_OFF) &&
      code->xnack != agent->xnack)
    return false;
  return true;
}

/* ---- API ----------------------------------------------------------------------------- */

static bool isa_info(const struct core_isa *isa, hsa_isa_info_t attribute, void *value) {
  switch (attribute) {
  case HSA_ISA_INFO_NAME_LENGTH:
    *(uint32_t *)value = (uint32_t)strlen(isa->name) + 1;
    return true;
  case HSA_ISA_INFO_NAME:
    memcpy(value, isa->name, strlen(isa->name) + 1);
    return true;
  case HSA_ISA_INFO_CALL_CONVENTION_COUNT:
    *(uint32_t *)value = 1;
    return true;
  case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE:
    *(uint32_t *)value = 64;
    return true;
  case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
    *(uint32_t *)value = 40;
    return true;
  case HSA_ISA_INFO_MACHINE_MODELS: {
    const bool models[2] = {false, true}; /* small, large */
    memcpy(value, models, sizeof(models));
    return true;
  }
  case HSA_ISA_INFO_PROFILES: {
    /* Full profile only on the APUs that had it (Kaveri gfx700, Carrizo gfx801). */
    bool full = (isa->major == 7 && isa->minor == 0 && isa->stepping == 0) ||
                (isa->major == 8 && isa->minor == 0 && isa->stepping == 1);
    const bool profiles[2] = {true, full};
    memcpy(value, profiles, sizeof(profiles));
    return true;
  }
  case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
  case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: {
    const bool modes[3] = {false, false, true}; /* default, zero, near */
    memcpy(value, modes, sizeof(modes));
    return true;
  }
  case HSA_ISA_INFO_FAST_F16_OPERATION:
    *(bool *)value = isa->major >= 8;
    return true;
  case HSA_ISA_INFO_WORKGROUP_MAX_DIM: {
    const uint16_t dim[3] = {1024, 1024, 1024};
    memcpy(value, dim, sizeof(dim));
    return true;
  }
  case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
    *(uint32_t *)value = 1024;
    return true;
  case HSA_ISA_INFO_GRID_MAX_DIM: {
    const hsa_dim3_t dim = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    memcpy(value, &dim, sizeof(dim));
    return true;
  }
  case HSA_ISA_INFO_GRID_MAX_SIZE:
    *(uint64_t *)value = UINT64_MAX;
    return true;
  case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
    *(uint32_t *)value = 32;
    return true;
  default:
    return false;
  }
}

hsa_status_t hsa_isa_from_name(const char *name, hsa_isa_t *isa) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!name || !isa) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_isa *found = core_isa_by_name(name);
  if (!found) return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  *isa = core_isa_handle(found);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent,
                                    hsa_status_t (*callback)(hsa_isa_t isa, void *data),
                                    void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!a->isa) return HSA_STATUS_SUCCESS;
  return callback(core_isa_handle(a->isa), data);
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_isa *i = core_isa_from_handle(isa);
  if (!i) return HSA_STATUS_ERROR_INVALID_ISA;
  return isa_info(i, attribute, value) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index,
                              void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (index != 0) return HSA_STATUS_ERROR_INVALID_INDEX;
  const struct core_isa *i = core_isa_from_handle(isa);
  if (!i) return HSA_STATUS_ERROR_INVALID_ISA;
  return isa_info(i, attribute, value) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_isa *code = core_isa_from_handle(code_object_isa);
  const struct core_isa *agent = core_isa_from_handle(agent_isa);
  if (!code || !agent) return HSA_STATUS_ERROR_INVALID_ISA;
  *result = core_isa_compatible(code, agent);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile,
                                            uint16_t *mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) 
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  *mask = 0; /* no exception policies are supported */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type,
                                      hsa_flush_mode_t flush_mode,
                                      hsa_round_method_t *round_method) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (fp_type != HSA_FP_TYPE_16 && fp_type != HSA_FP_TYPE_32 && fp_type != HSA_FP_TYPE_64)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (flush_mode != HSA_FLUSH_MODE_FTZ && flush_mode != HSA_FLUSH_MODE_NON_FTZ)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!round_method) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  *round_method = HSA_ROUND_METHOD_SINGLE;
  return HSA_STATUS_SUCCESS;
}

/* Every ISA has the one wavefront of 64 lanes (what ROCR 5.2 reports for all targets). */
static const uint32_t wavefront64 = 64;

hsa_status_t hsa_isa_iterate_wavefronts(hsa_isa_t isa,
                                        hsa_status_t (*callback)(hsa_wavefront_t wavefront,
                                                                 void *data),
                                        void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_isa_from_handle(isa)) return HSA_STATUS_ERROR_INVALID_ISA;
  hsa_wavefront_t w = {(uint64_t)(uintptr_t)&wavefront64};
  return callback(w, data);
}

hsa_status_t hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute,
                                    void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (wavefront.handle != (uint64_t)(uintptr_t)&wavefront64)
    return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
  if (attribute != HSA_WAVEFRONT_INFO_SIZE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *(uint32_t *)value = wavefront64;
  return HSA_STATUS_SUCCESS;
}
