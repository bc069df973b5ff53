/* SPDX-License-Identifier: MIT */
/* preferred.c — hsa_amd_memory_get_preferred_copy_engine: the SDMA engines the driver
 * recommends for copies between two agents, the recommended_sdma_engine_id_mask of the
 * KFD topology link from the GPU side of the copy (the source when it is a GPU) to the other
 * agent's node. 0 (no preference) when neither side is a GPU or no link says. The same agent
 * on both sides is refused (INVALID_AGENT), as ROCR does: such copies are shader copies. */
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/kfd.h"

static uint32_t link_mask(const struct core_agent *from, const struct core_agent *to) {
  const struct kfd_node *n = from->node;
  for (unsigned i = 0; n && i < n->link_count; i++)
    if (n->links[i].node_to == to->node_id)
      return (uint32_t)n->links[i].recommended_sdma_engine_id_mask;
  return 0;
}

hsa_status_t hsa_amd_memory_get_preferred_copy_engine(hsa_agent_t dst_agent,
                                                      hsa_agent_t src_agent,
                                                      uint32_t *recommended_ids_mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *d = core_agent_from_handle(dst_agent);
  const struct core_agent *s = core_agent_from_handle(src_agent);
  if (!d || !s || d == s) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!recommended_ids_mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t mask = 0;
  if (s->kind == CORE_AGENT_GPU) mask = link_mask(s, d);
  else if (d->kind == CORE_AGENT_GPU) mask = link_mask(d, s);
  *recommended_ids_mask = mask;
  return HSA_STATUS_SUCCESS;
}
