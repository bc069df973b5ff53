/* SPDX-License-Identifier: MIT */
/* ipc.c — hsa_amd_ipc_memory_*: sharing an allocation with another process needs the memory
 * exported as a dma-buf, which KFD interface 1.11 (what <linux/kfd_ioctl.h> here describes,
 * Linux 6.1) cannot do for its buffer objects: it only imports. So creating a handle fails
 * after the arguments are checked as ROCR checks them, and no handle can be attached. The
 * user hears why once on stderr. */
#include <stdio.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"

static void tell(void) {
  fprintf(stderr, "hsa-runtime64: IPC memory handles need dma-buf export of KFD memory, which "
                  "this kernel interface (KFD 1.11) lacks; hsa_amd_ipc_memory_create fails.\n");
}

static void say_why(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, tell);
}

hsa_status_t hsa_amd_ipc_memory_create(void *ptr, size_t len, hsa_amd_ipc_memory_t *handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_base((uintptr_t)ptr);
  bool ours = r && r->kind == MEM_KIND_USER && len <= r->size && len > 0;
  pthread_mutex_unlock(&mem_mutex);
  if (!ours) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  say_why();
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *handle, size_t len,
                                       uint32_t num_agents, const hsa_agent_t *mapping_agents,
                                       void **mapped_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!mapped_ptr || !handle || (num_agents && !mapping_agents))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_agents; i++)
    if (!core_agent_from_handle(mapping_agents[i])) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* No handle this runtime made can exist (see above). */
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_ipc_memory_detach(void *mapped_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* nothing is ever attached */
}
