/* SPDX-License-Identifier: MIT */
/* env.c — environment variables with ROCR's meaning: ROCR_VISIBLE_DEVICES,
 * HSA_OVERRIDE_GFX_VERSION(_<node>), HSA_XNACK. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"

int core_env_gfx_override(unsigned node_id, uint32_t *major, uint32_t *minor,
                          uint32_t *stepping) {
  char name[64];
  snprintf(name, sizeof(name), "HSA_OVERRIDE_GFX_VERSION_%u", node_id);
  const char *v = getenv(name);
  if (!v) v = getenv("HSA_OVERRIDE_GFX_VERSION");
  if (!v) return 0;
  unsigned a, b, c;
  char extra;
  /* Exactly three numbers; the fields are 6, 8 and 8 bits wide in the engine id. */
  if (sscanf(v, "%u.%u.%u%c", &a, &b, &c, &extra) != 3 || a > 63 || b > 255 || c > 255)
    return -1;
  *major = a;
  *minor = b;
  *stepping = c;
  return 1;
}

int core_env_xnack(void) {
  const char *v = getenv("HSA_XNACK");
  if (!v) return -1;
  return strcmp(v, "1") == 0 ? 1 : strcmp(v, "0") == 0 ? 0 : -1;
}

bool core_env_debug(void) {
  const char *v = getenv("HSA_ENABLE_DEBUG");
  return v && strcmp(v, "1") == 0;
}

static void trim_upper(char *s) {
  char *p = s;
  while (isspace((unsigned char)*p)) p++;
  memmove(s, p, strlen(p) + 1);
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  for (p = s; *p; p++) *p = (char)toupper((unsigned char)*p);
}

/* A "GPU-…" token matches a GPU whose UUID starts with it; ambiguous or no match is -1. */
static int uuid_token(const char *tok, unsigned gpu_count, const uint64_t *uuids) {
  size_t len = strlen(tok);
  if (len < 5 || len > 20) return -1;
  int found = -1;
  for (unsigned i = 0; i < gpu_count; i++) {
    if (uuids[i] == 0) continue;
    char u[24];
    snprintf(u, sizeof(u), "GPU-%016" PRIX64, uuids[i]);
    if (strncmp(tok, u, len) == 0) {
      if (found != -1) return -1;
      found = (int)i;
    }
  }
  return found;
}

unsigned core_env_visible_gpus(const char *value, unsigned gpu_count, const uint64_t *uuids,
                               int *rank) {
  if (!value) {
    for (unsigned i = 0; i < gpu_count; i++) rank[i] = (int)i;
    return gpu_count;
  }
  for (unsigned i = 0; i < gpu_count; i++) rank[i] = -1;
  char *copy = strdup(value);
  if (!copy) return 0;
  unsigned visible = 0;
  /* Tokens are read in order; the first invalid, out-of-range or repeated one ends the list
   * (so "0,1,-1" shows GPUs 0 and 1, as ROCR does). */
  char *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok && visible < gpu_count;
       tok = strtok_r(NULL, ",", &save)) {
    trim_upper(tok);
    long idx;
    if (tok[0] == 'G') {
      idx = uuid_token(tok, gpu_count, uuids);
    } else {
      char *end = NULL;
      idx = strtol(tok, &end, 0);
      if (end == tok || *end != '\0') idx = -1;
    }
    if (idx < 0 || idx >= (long)gpu_count || rank[idx] != -1) break;
    rank[idx] = (int)visible++;
  }
  free(copy);
  return visible;
}
