/* SPDX-License-Identifier: MIT */
/* tools.c — HSA_TOOLS_LIB: tool libraries that see (and may replace) the API table.
 * As ROCR: names are separated by spaces ("..." groups a name with spaces, \ escapes one
 * character); each is dlopen'ed and its OnLoad(table, runtime version, failed count, failed
 * names) called; a library that does not load, has no OnLoad or whose OnLoad returns false
 * counts as failed. A load failure is said on stderr unless HSA_TOOLS_REPORT_LOAD_FAILURE=0.
 * At the last hsa_shut_down each OnUnload runs, last loaded first, and the table is reset. */
#include "tools/tools.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

HsaApiTableContainer tools_table;
atomic_bool tools_intercepting;

typedef bool (*tools_on_load_t)(HsaApiTable *, uint64_t, uint64_t, const char *const *);
typedef void (*tools_on_unload_t)(void);

/* Tools loaded by this hsa_init (guarded by the runtime's lifetime lock, as are load/unload). */
static void **tool_libs;
static size_t tool_count;

/* The generated entries plus the functions offered to tools only through the table. */
static void table_fill(void) {
  tools_table_fill(&tools_table);
  tools_table.amd_ext.hsa_amd_queue_intercept_create_fn = hsa_amd_queue_intercept_create;
  tools_table.amd_ext.hsa_amd_queue_intercept_register_fn = hsa_amd_queue_intercept_register;
  tools_table.amd_ext.hsa_amd_runtime_queue_create_register_fn =
      hsa_amd_runtime_queue_create_register;
}

/* Splits HSA_TOOLS_LIB in place into names; returns how many (at most max). */
static size_t split_names(char *s, char **names, size_t max) {
  size_t n = 0;
  char *out = s;
  bool quoted = false, in_name = false;
  for (char *p = s; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
    } else if (*p == '"') {
      if (quoted) { /* a closing quote ends the name, even if empty */
        *out++ = '\0';
        in_name = false;
        quoted = false;
        continue;
      }
      quoted = true;
      if (!in_name && n < max) names[n++] = out;
      in_name = true;
      continue;
    } else if (*p == ' ' && !quoted) {
      if (in_name) *out++ = '\0';
      in_name = false;
      continue;
    }
    if (!in_name) {
      if (n == max) break;
      names[n++] = out;
      in_name = true;
    }
    *out++ = *p;
  }
  *out = '\0';
  return n;
}

void core_tools_load(void) {
  table_fill();
  const char *env = getenv("HSA_TOOLS_LIB");
  if (!env || !*env) return;
  const char *report = getenv("HSA_TOOLS_REPORT_LOAD_FAILURE");
  bool say = !(report && strcmp(report, "0") == 0);

  size_t max = strlen(env) / 2 + 1;
  char *buf = strdup(env);
  char **names = calloc(max, sizeof(*names));
  const char **failed = calloc(max + 1, sizeof(*failed));
  tool_libs = calloc(max, sizeof(*tool_libs));
  if (!buf || !names || !failed || !tool_libs) goto out;
  size_t n = split_names(buf, names, max), nfailed = 0;

  HsaApiTableContainer pristine = tools_table;
  for (size_t i = 0; i < n; i++) {
    void *lib = dlopen(names[i], RTLD_LAZY);
    if (!lib) {
      if (say) fprintf(stderr, "hsa-runtime64: tool library \"%s\" failed to load: %s\n",
                       names[i], dlerror());
      failed[nfailed++] = names[i];
      continue;
    }
    tools_on_load_t on_load;
    *(void **)&on_load = dlsym(lib, "OnLoad");
    if (!on_load || !on_load(&tools_table.root, tools_table.root.version.major_id, nfailed,
                             failed)) {
      if (say) fprintf(stderr, "hsa-runtime64: tool library \"%s\" %s\n", names[i],
                       on_load ? "refused to load (OnLoad returned false)" : "has no OnLoad");
      failed[nfailed++] = names[i];
      dlclose(lib);
      continue;
    }
    tool_libs[tool_count++] = lib;
  }
  /* Only a changed table costs anything: until then the wrappers call straight through. */
  if (memcmp(&pristine, &tools_table, sizeof(pristine)) != 0)
    atomic_store_explicit(&tools_intercepting, true, memory_order_release);
out:
  free(failed);
  free(names);
  free(buf);
  if (tool_count == 0) {
    free(tool_libs);
    tool_libs = NULL;
  }
}

void core_tools_unload(void) {
  for (size_t i = tool_count; i-- > 0;) {
    tools_on_unload_t on_unload;
    *(void **)&on_unload = dlsym(tool_libs[i], "OnUnload");
    if (on_unload) on_unload();
  }
  /* A tool that did not restore its entries must not be called once it is unloaded. */
  atomic_store_explicit(&tools_intercepting, false, memory_order_release);
  table_fill();
  tools_table_only_reset();
  for (size_t i = 0; i < tool_count; i++) dlclose(tool_libs[i]);
  free(tool_libs);
  tool_libs = NULL;
  tool_count = 0;
}
