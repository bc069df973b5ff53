/* SPDX-License-Identifier: MIT */
/* symbol.c — executable symbols: which ELF symbols become HSA symbols (ROCR's rules: v2
 * kernels are STT_AMDGPU_HSA_KERNEL with an amd_kernel_code_t, v3+ kernels are the "name.kd"
 * STT_OBJECT descriptors, other global STT_OBJECTs are variables), their lookup by (name,
 * agent), and every hsa_executable_symbol_info_t attribute. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "amd_hsa_elf.h"
#include "loader/internal.h"

#define HSA_CODE_SYMBOL_INFO_WAVEFRONT 19   /* HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE */

static uint64_t hash_key(const char *name, uint64_t agent) {
  uint64_t h = 1469598103934665603ull ^ agent;   /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 1099511628211ull;
  return h;
}

static uint64_t sym_agent(const struct ldr_symbol *s) { return s->agent_bound ? s->agent.handle : 0; }

struct ldr_symbol *ldr_symbol_lookup(struct ldr_executable *exec, const char *name,
                                     const hsa_agent_t *agent) {
  if (!exec->hash_size || !name[0]) return NULL;
  uint64_t a = agent ? agent->handle : 0;
  for (struct ldr_symbol *s = exec->hash[hash_key(name, a) & (exec->hash_size - 1)]; s;
       s = s->hash_next)
    if (s->agent_bound == (agent != NULL) && sym_agent(s) == a && strcmp(s->name, name) == 0)
      return s;
  return NULL;
}

static bool grow(struct ldr_executable *exec) {
  unsigned n = exec->hash_size ? exec->hash_size * 2 : 64;
  struct ldr_symbol **h = calloc(n, sizeof(*h));
  if (!h) return false;
  for (unsigned i = 0; i < exec->hash_size; i++) {
    struct ldr_symbol *s = exec->hash[i];
    while (s) {
      struct ldr_symbol *next = s->hash_next;
      uint64_t k = hash_key(s->name, sym_agent(s)) & (n - 1);
      s->hash_next = h[k];
      h[k] = s;
      s = next;
    }
  }
  free(exec->hash);
  exec->hash = h;
  exec->hash_size = n;
  return true;
}

hsa_status_t ldr_symbol_reserve(struct ldr_executable *exec, unsigned more) {
  while (exec->nsyms + more > exec->hash_size)
    if (!grow(exec)) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ldr_symbol_insert(struct ldr_executable *exec, struct ldr_symbol *sym) {
  if (ldr_symbol_reserve(exec, 1) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  uint64_t k = hash_key(sym->name, sym_agent(sym)) & (exec->hash_size - 1);
  sym->hash_next = exec->hash[k];
  exec->hash[k] = sym;
  exec->nsyms++;
  return HSA_STATUS_SUCCESS;
}

void ldr_symbols_free(struct ldr_executable *exec) {
  free(exec->hash);
  exec->hash = NULL;
  exec->hash_size = exec->nsyms = 0;
}

hsa_executable_symbol_t ldr_symbol_handle(const struct ldr_symbol *sym) {
  hsa_executable_symbol_t h = {(uint64_t)(uintptr_t)sym};
  return h;
}

struct ldr_symbol *ldr_symbol_find(hsa_executable_symbol_t handle) {
  uintptr_t p = (uintptr_t)handle.handle;
  if (!p) return NULL;
  /* Compare addresses as integers: a foreign handle is never dereferenced. */
  for (struct ldr_executable *e = ldr_executable_first(); e; e = ldr_executable_next(e)) {
    for (struct ldr_lco *l = e->lcos; l; l = l->next) {
      uintptr_t b = (uintptr_t)l->syms;
      if (l->nsyms && p >= b && p < b + l->nsyms * sizeof(*l->syms) &&
          (p - b) % sizeof(*l->syms) == 0)
        return &l->syms[(p - b) / sizeof(*l->syms)];
    }
    for (struct ldr_external *x = e->externals; x; x = x->next)
      if (p == (uintptr_t)&x->sym) return &x->sym;
  }
  return NULL;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether [vaddr, vaddr+len) lies in one PT_LOAD's file image (with `flags` set). */
static bool in_segment(const struct ldr_image *img, uint64_t vaddr, uint64_t len, uint32_t flags) {
  for (unsigned i = 0; i < img->nloads; i++) {
    const struct ldr_load_segment *s = &img->loads[i];
    if (vaddr >= s->vaddr && vaddr - s->vaddr <= s->memsz && s->memsz - (vaddr - s->vaddr) >= len &&
        (s->flags & flags) == flags)
      return true;
  }
  return false;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static hsa_status_t bad_symbol(const char *name, const char *why) {
  ldr_complain("invalid code object: symbol \"%s\": %s", name, why);
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t ldr_symbols_build(struct ldr_executable *exec, const struct ldr_image *img,
                               const struct ldr_layout *lay, const uint8_t *host,
                               uint64_t base, const struct core_agent *agent,
                               struct ldr_symbol **out, unsigned *count) {
  *out = NULL;
  *count = 0;
  struct ldr_symbol *syms = calloc(img->nsyms ? img->nsyms : 1, sizeof(*syms));
  if (!syms) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  hsa_agent_t ah = agent ? core_agent_handle(agent) : (hsa_agent_t){0};
  unsigned n = 0;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (unsigned i = 0; i < img->nsyms && st == HSA_STATUS_SUCCESS; i++) {
    const struct ldr_elf_symbol *e = &img->syms[i];
    bool kernel_v2 = img->version == 2 && e->type == STT_AMDGPU_HSA_KERNEL;
    bool object = e->type == STT_OBJECT;
    if (e->type == STT_COMMON) {
      /* A declaration: the application must have defined it. */
      if (!ldr_symbol_lookup(exec, e->name, NULL) &&
          !ldr_symbol_lookup(exec, e->name, agent ? &ah : NULL)) {
        ldr_complain("symbol \"%s\" is declared by the code object but not defined", e->name);
        st = HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
      }
      continue;
    }
    if (!kernel_v2 && !object) continue;
    if (!kernel_v2 && e->bind == STB_LOCAL) continue;
    if (e->shndx == SHN_UNDEF || e->shndx >= SHN_LORESERVE) continue;
    bool kernel = kernel_v2 || (img->version >= 3 && ends_with(e->name, ".kd"));
    struct ldr_symbol *s = &syms[n];
    s->exec = exec;
    s->kind = kernel ? HSA_SYMBOL_KIND_KERNEL : HSA_SYMBOL_KIND_VARIABLE;
    s->linkage = e->bind == STB_GLOBAL ? HSA_SYMBOL_LINKAGE_PROGRAM : HSA_SYMBOL_LINKAGE_MODULE;
    s->is_definition = true;
    s->is_loaded = true;
    s->agent_bound = agent != NULL;
    s->agent = ah;
    if (e->value < lay->vbase || e->value - lay->vbase > lay->span) {
      st = bad_symbol(e->name, "outside the loaded segments");
      break;
    }
    s->address = e->value - lay->vbase + base;
    if (kernel) {
      size_t need = kernel_v2 ? 256 : 64;
      if (!in_segment(img, e->value, need, 0) || lay->span - (e->value - lay->vbase) < need) {
        st = bad_symbol(e->name, "kernel object outside the loaded segments");
        break;
      }
      const uint8_t *obj = host + (e->value - lay->vbase);
      bool ok = kernel_v2 ? ldr_akc_read(obj, &s->k) : ldr_kd_read(obj, &s->k);
      if (!ok) {
        st = bad_symbol(e->name, kernel_v2 ? "not an amd_kernel_code_t" :
                                             "kernel descriptor has reserved bits set or "
                                             "implausible sizes");
        break;
      }
      if (!kernel_v2 && s->k.wavefront_size == 32 && img->isa && img->isa->major < 10) {
        /* ENABLE_WAVEFRONT_SIZE32 is a reserved bit before gfx10: a gfx9 chip would run the
         * wave32 code as wave64 (ROCR loads it all the same) */
        st = bad_symbol(e->name, "kernel descriptor asks for wave32 "
                                 "(ENABLE_WAVEFRONT_SIZE32), which gfx9 and older chips do not "
                                 "have: they run wave64 only");
        break;
      }
      uint64_t entry = e->value + (uint64_t)s->k.entry_offset;
      if (!in_segment(img, entry, 4, PF_X)) {
        st = bad_symbol(e->name, "kernel entry is not in an executable segment");
        break;
      }
      if (!kernel_v2) {
        /* The descriptor leaves the kernarg size to the metadata when it is 0 (old
         * compilers); both are the same number otherwise. */
        struct ldr_metadata *md = NULL;
        if (s->k.kernarg_size == 0 && img->md_note &&
            ldr_metadata_parse(img->md_note, img->md_size, &md) == HSA_STATUS_SUCCESS) {
          const struct ldr_kernel_md *km = ldr_metadata_kernel(md, e->name);
          if (km) s->k.kernarg_size = km->kernarg_size;
          ldr_metadata_free(md);
        }
      }
    } else {
      s->allocation = agent ? HSA_VARIABLE_ALLOCATION_AGENT : HSA_VARIABLE_ALLOCATION_PROGRAM;
      s->segment = HSA_VARIABLE_SEGMENT_GLOBAL;
      s->var_align = e->sec_align > UINT32_MAX ? 0 : (uint32_t)e->sec_align;
      s->var_size = e->size;
      s->is_const = !(e->sec_flags & SHF_WRITE);
    }
    s->name = strdup(e->name);
    if (!s->name) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      break;
    }
    n++;
    if (ldr_symbol_lookup(exec, s->name, agent ? &ah : NULL)) {
      ldr_complain("symbol \"%s\" is already defined in this executable", s->name);
      st = HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
      break;
    }
  }
  if (st == HSA_STATUS_SUCCESS && n > 1) {
    /* Two definitions of one name in one code object: sort a copy of the names to see. */
    char **names = malloc(n * sizeof(*names));
    if (!names) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    } else {
      for (unsigned j = 0; j < n; j++) names[j] = syms[j].name;
      qsort(names, n, sizeof(*names), by_name);
      for (unsigned j = 1; j < n && st == HSA_STATUS_SUCCESS; j++)
        if (strcmp(names[j - 1], names[j]) == 0) st = bad_symbol(names[j], "defined twice");
      free(names);
    }
  }
  if (st != HSA_STATUS_SUCCESS) {
    for (unsigned j = 0; j < n; j++) free(syms[j].name);
    free(syms);
    return st;
  }
  *out = syms;
  *count = n;
  return HSA_STATUS_SUCCESS;
}

/* ROCR splits "module:name" (HSAIL-era names) for the NAME and MODULE_NAME attributes. */
static void split_name(const char *full, const char **name, size_t *name_len,
                       const char **module, size_t *module_len) {
  const char *last = strrchr(full, ':');
  if (!last) {
    *name = full;
    *name_len = strlen(full);
    *module = "";
    *module_len = 0;
    return;
  }
  *name = last + 1;
  *name_len = strlen(last + 1);
  *module = full;
  *module_len = (size_t)(strchr(full, ':') - full);
}

hsa_status_t ldr_symbol_info(const struct ldr_symbol *s, int attribute, void *value) {
  const char *name, *module;
  size_t name_len, module_len;
  split_name(s->name, &name, &name_len, &module, &module_len);
  bool kernel = s->kind == HSA_SYMBOL_KIND_KERNEL;
  bool variable = s->kind == HSA_SYMBOL_KIND_VARIABLE;
  switch (attribute) {
  case HSA_EXECUTABLE_SYMBOL_INFO_TYPE: *(hsa_symbol_kind_t *)value = s->kind; break;
  case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH: *(uint32_t *)value = (uint32_t)name_len; break;
  case HSA_EXECUTABLE_SYMBOL_INFO_NAME: memcpy(value, name, name_len); break;
  case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
    *(uint32_t *)value = (uint32_t)module_len;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME: memcpy(value, module, module_len); break;
  case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE: *(hsa_symbol_linkage_t *)value = s->linkage; break;
  case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION: *(bool *)value = s->is_definition; break;
  case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
    if (!s->is_loaded) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(hsa_agent_t *)value = s->agent;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
    if (!s->is_loaded) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint64_t *)value = s->address;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: *(uint32_t *)value = 0; break;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
    if (!variable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(hsa_variable_allocation_t *)value = s->allocation;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
    if (!variable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(hsa_variable_segment_t *)value = s->segment;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
    if (!variable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = s->var_align;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
    if (!variable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = (uint32_t)s->var_size;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
    if (!variable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(bool *)value = s->is_const;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
    if (!kernel) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = s->k.kernarg_size;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
    if (!kernel) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = s->k.kernarg_align;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
    if (!kernel) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = s->k.group_size;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
    if (!kernel) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = s->k.private_size;
    break;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
    if (!kernel) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(bool *)value = s->k.dynamic_callstack;
    break;
  case HSA_CODE_SYMBOL_INFO_WAVEFRONT:
    if (!kernel) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *(uint32_t *)value = s->k.wavefront_size;
    break;
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}
