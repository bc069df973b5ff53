/* SPDX-License-Identifier: MIT */
/* group.c — signal groups: a fixed list of signals waited on together. A group handle is
 * the address of its record, accepted only while the record is in the live list; a wait
 * holds a reference so a concurrent destroy frees the record only after the wait ends. */
#include "signals/internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/quarantine.h"
#include "core/runtime.h"

struct sig_group {
  struct sig_group *next;
  uint32_t refs;              /* the list's reference + one per wait in progress */
  uint32_t count;
  hsa_signal_t signals[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sig_group *groups;

static struct sig_group *group_get(hsa_signal_group_t h)
{
  pthread_mutex_lock(&lock);
  struct sig_group *g = groups;
  while (g && (uint64_t)(uintptr_t)g != h.handle)
    g = g->next;
  if (g)
    g->refs++;
  pthread_mutex_unlock(&lock);
  return g;
}

static void group_put(struct sig_group *g)
{
  pthread_mutex_lock(&lock);
  bool last = --g->refs == 0;
  pthread_mutex_unlock(&lock);
  if (last)
    core_free_later(g, sizeof *g + g->count * sizeof(hsa_signal_t));   /* the handle */
}

hsa_status_t hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t *signals,
                                     uint32_t num_consumers, const hsa_agent_t *consumers,
                                     hsa_signal_group_t *signal_group)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!num_signals || !signals || !signal_group || (num_consumers && !consumers))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_signals; i++)
    if (!sig_obj_of(signals[i]))
      return HSA_STATUS_ERROR_INVALID_SIGNAL;
  for (uint32_t i = 0; i < num_consumers; i++)
    if (!core_agent_from_handle(consumers[i]))
      return HSA_STATUS_ERROR_INVALID_AGENT;
  struct sig_group *g = malloc(sizeof *g + num_signals * sizeof(hsa_signal_t));
  if (!g)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  g->refs = 1;
  g->count = num_signals;
  memcpy(g->signals, signals, num_signals * sizeof(hsa_signal_t));
  pthread_mutex_lock(&lock);
  g->next = groups;
  groups = g;
  pthread_mutex_unlock(&lock);
  signal_group->handle = (uint64_t)(uintptr_t)g;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_group_destroy(hsa_signal_group_t signal_group)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&lock);
  struct sig_group **l = &groups;
  while (*l && (uint64_t)(uintptr_t)*l != signal_group.handle)
    l = &(*l)->next;
  struct sig_group *g = *l;
  if (g)
    *l = g->next;
  pthread_mutex_unlock(&lock);
  if (!g)
    return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  group_put(g);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t group_wait(hsa_signal_group_t signal_group,
                               const hsa_signal_condition_t *conditions,
                               const hsa_signal_value_t *compare_values, hsa_wait_state_t hint,
                               hsa_signal_t *signal, hsa_signal_value_t *value)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  struct sig_group *g = group_get(signal_group);
  if (!g)
    return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool ok = conditions && compare_values && signal && value;
  for (uint32_t i = 0; ok && i < g->count; i++)
    ok = sig_cond_valid(conditions[i]);
  if (ok) {
    hsa_signal_value_t v = 0;
    uint32_t i = sig_wait_objs(g->count, g->signals, conditions, compare_values, UINT64_MAX,
                               hint, &v, NULL);
    if (i < g->count) {   /* else a member was destroyed: ROCR says invalid argument too */
      *signal = g->signals[i];
      *value = v;
      st = HSA_STATUS_SUCCESS;
    }
  }
  group_put(g);
  return st;
}

hsa_status_t hsa_signal_group_wait_any_relaxed(hsa_signal_group_t signal_group,
                                               const hsa_signal_condition_t *conditions,
                                               const hsa_signal_value_t *compare_values,
                                               hsa_wait_state_t wait_state_hint,
                                               hsa_signal_t *signal, hsa_signal_value_t *value)
{
  return group_wait(signal_group, conditions, compare_values, wait_state_hint, signal, value);
}

hsa_status_t hsa_signal_group_wait_any_scacquire(hsa_signal_group_t signal_group,
                                                 const hsa_signal_condition_t *conditions,
                                                 const hsa_signal_value_t *compare_values,
                                                 hsa_wait_state_t wait_state_hint,
                                                 hsa_signal_t *signal, hsa_signal_value_t *value)
{
  hsa_status_t st =
      group_wait(signal_group, conditions, compare_values, wait_state_hint, signal, value);
  atomic_thread_fence(memory_order_acquire);
  return st;
}

void sig_groups_free(void)
{
  pthread_mutex_lock(&lock);
  struct sig_group *g = groups;
  groups = NULL;
  pthread_mutex_unlock(&lock);
  while (g) {
    struct sig_group *next = g->next;
    group_put(g);
    g = next;
  }
}
