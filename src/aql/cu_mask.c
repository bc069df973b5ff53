/* SPDX-License-Identifier: MIT */
/* cu_mask.c — which compute units a GPU queue may use: hsa_amd_queue_cu_set_mask/get_mask and
 * the HSA_CU_MASK environment variable, with ROCR's semantics:
 *   HSA_CU_MASK = set[;set]*, set = gpus:cus, gpus and cus lists of N or N-M (decimal), or
 *   cus a hex mask 0x... (lsb = CU 0). GPU indices count visible GPUs. A malformed set ends
 *   parsing (sets before it stay); a GPU named twice ends it too.
 * The environment mask limits every queue of its GPU from creation on; a user mask is ANDed
 * with it and HSA_STATUS_CU_MASK_REDUCED says when that dropped CUs. A count of 0 resets to
 * all CUs. Masks are clipped to the physical CU count. */
#include "aql/internal.h"
#include "core/runtime.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CU 1024u
#define MAX_DW (MAX_CU / 32)
#define MAX_GPUS 64u

uint32_t aql_cu_count(const struct core_agent *agent) {
  const struct kfd_node_props *p = &agent->node->props;
  return p->simd_per_cu ? (uint32_t)(p->simd_count / p->simd_per_cu) : 0;
}

/* ---- HSA_CU_MASK ---------------------------------------------------------------------- */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static struct env_mask {
  bool set;
  uint32_t dwords;
  uint32_t bits[MAX_DW];
} env_masks[MAX_GPUS];

/* A list "a,b-c,..." of ids <= max into a sorted bitmap; false on bad syntax or duplicates. */
static bool parse_list(const char *s, size_t len, uint32_t max, uint32_t *bits, uint32_t *top) {
  char buf[512];
  if (len == 0 || len >= sizeof(buf)) return false;
  memcpy(buf, s, len);
  buf[len] = 0;
  *top = 0;
  bool any = false;
  for (char *save = NULL, *r = strtok_r(buf, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
    char *dash = strchr(r, '-');
    if (dash && strchr(dash + 1, '-')) return false;
    if (dash) *dash = 0;
    char *end;
    if (!isdigit((unsigned char)*r)) return false;
    unsigned long a = strtoul(r, &end, 10), b = a;
    if (*end) return false;
    if (dash) {
      if (!isdigit((unsigned char)dash[1])) return false;
      b = strtoul(dash + 1, &end, 10);
      if (*end || b < a) return false;
    }
    if (b > max) b = max;
    for (unsigned long i = a; i <= b; i++) {
      if (bits[i / 32] & (1u << (i % 32))) return false;   /* duplicate */
      bits[i / 32] |= 1u << (i % 32);
      if (i > *top) *top = (uint32_t)i;
      any = true;
    }
  }
  return any;
}

static void parse_env(void) {
  const char *v = getenv("HSA_CU_MASK");
  if (!v) return;
  char clean[4096];
  size_t n = 0;
  for (const char *p = v; *p && n + 1 < sizeof(clean); p++)
    if (!isspace((unsigned char)*p)) clean[n++] = (char)toupper((unsigned char)*p);
  clean[n] = 0;
  for (char *save = NULL, *set = strtok_r(clean, ";", &save); set;
       set = strtok_r(NULL, ";", &save)) {
    char *colon = strchr(set, ':');
    if (!colon || strchr(colon + 1, ':')) return;
    const char *cus = colon + 1;
    struct env_mask m = {0};
    if (cus[0] && cus[1] == 'X') {
      if (cus[0] != '0' || !cus[2]) return;
      size_t len = strlen(cus + 2);
      for (size_t i = 0; i < len; i++)
        if (!isxdigit((unsigned char)cus[2 + i])) return;
      /* eight hex digits per dword, least significant last */
      uint32_t dw = 0;
      for (size_t end = len; end > 0 && dw < MAX_DW; dw++) {
        size_t start = end > 8 ? end - 8 : 0;
        char chunk[9] = {0};
        memcpy(chunk, cus + 2 + start, end - start);
        m.bits[dw] = (uint32_t)strtoul(chunk, NULL, 16);
        end = start;
      }
      while (dw && !m.bits[dw - 1]) dw--;
      if (!dw) return;   /* an empty mask is an error */
      m.dwords = dw;
    } else {
      uint32_t top;
      if (!parse_list(cus, strlen(cus), MAX_CU - 1, m.bits, &top)) return;
      m.dwords = top / 32 + 1;
    }
    uint32_t gpus[MAX_GPUS / 32] = {0}, gtop;
    if (!parse_list(set, (size_t)(colon - set), MAX_GPUS - 1, gpus, &gtop)) return;
    for (uint32_t g = 0; g <= gtop; g++)
      if ((gpus[g / 32] & (1u << (g % 32))) && env_masks[g].set) return;
    m.set = true;
    for (uint32_t g = 0; g <= gtop; g++)
      if (gpus[g / 32] & (1u << (g % 32))) env_masks[g] = m;
  }
}

/* ---- apply --------------------------------------------------------------------------- */
hsa_status_t aql_cu_mask_apply(struct aql_queue *q, uint32_t bits, const uint32_t *mask) {
  pthread_once(&env_once, parse_env);
  uint32_t cus = aql_cu_count(q->agent);
  uint32_t need = (cus + 31) / 32;
  if (need > MAX_DW) need = MAX_DW;
  uint32_t tail = (cus % 32) ? (1u << (cus % 32)) - 1 : 0;
  const struct env_mask *g = q->agent->gpu_index < MAX_GPUS ? &env_masks[q->agent->gpu_index]
                                                            : NULL;
  if (g && !g->set) g = NULL;

  uint32_t m[MAX_DW] = {0};
  uint32_t count;
  if (bits == 0) {
    count = need;
    memset(m, 0xff, count * sizeof(uint32_t));
  } else {
    count = bits / 32;
    for (uint32_t i = 0; i < count && i < MAX_DW; i++) m[i] = mask[i];
  }
  bool clipped = false;
  uint32_t limit = count < need ? count : need;
  if (g) {
    if (g->dwords < limit) limit = g->dwords;
    for (uint32_t i = limit; i < count && !clipped; i++)
      if (bits ? mask[i] : m[i]) clipped = true;
    for (uint32_t i = 0; i < limit; i++) {
      if (m[i] & ~g->bits[i]) clipped = true;
      m[i] &= g->bits[i];
    }
  }
  for (uint32_t i = limit; i < MAX_DW; i++) m[i] = 0;
  if (limit == need && tail) m[need - 1] &= tail;

  hsa_status_t st = HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&q->lock);
  if (q->kind == AQL_GPU && (q->cu_mask_dwords || bits || g)) {
    if (q->agent->isa->major >= 10)   /* WGPs: CUs are enabled in even/odd pairs */
      for (uint32_t i = 0; i < limit * 32; i += 2) {
        uint32_t pair = (m[i / 32] >> (i % 32)) & 3u;
        if (pair && pair != 3u) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      }
    if (st == HSA_STATUS_SUCCESS && limit &&
        kfd_queue_set_cu_mask(&core_rt()->kfd, &q->kq, limit * 32, m))
      st = HSA_STATUS_ERROR;
  }
  if (st == HSA_STATUS_SUCCESS) {
    memcpy(q->cu_mask, m, sizeof(q->cu_mask));
    q->cu_mask_dwords = limit;   /* from now on every change reaches the kernel (ROCR) */
  }
  pthread_mutex_unlock(&q->lock);
  if (st == HSA_STATUS_SUCCESS && clipped) st = (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED;
  return st;
}

hsa_status_t hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                                       const uint32_t *cu_mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return queue ? HSA_STATUS_ERROR_INVALID_QUEUE : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st;
  if (num_cu_mask_count && !cu_mask)
    st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  else if (num_cu_mask_count % 32)
    st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  else if (q->kind != AQL_GPU)
    st = HSA_STATUS_ERROR_INVALID_QUEUE;
  else
    st = aql_cu_mask_apply(q, num_cu_mask_count, cu_mask);
  aql_put(q);
  return st;
}

hsa_status_t hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                                       uint32_t *cu_mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!cu_mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return queue ? HSA_STATUS_ERROR_INVALID_QUEUE : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (num_cu_mask_count == 0 || num_cu_mask_count % 32) {
    st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  } else if (q->kind != AQL_GPU) {
    st = HSA_STATUS_ERROR_INVALID_QUEUE;
  } else {
    pthread_mutex_lock(&q->lock);
    uint32_t have = q->cu_mask_dwords;
    uint32_t want = num_cu_mask_count / 32;
    for (uint32_t i = 0; i < want; i++) cu_mask[i] = i < have ? q->cu_mask[i] : 0;
    pthread_mutex_unlock(&q->lock);
  }
  aql_put(q);
  return st;
}
