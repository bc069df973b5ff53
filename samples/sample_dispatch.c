/* sample_dispatch.c — the main job: find a GPU agent through the HSA API and run work
 * on it. Uses only the public API, as any HSA client would.
 * Today it initializes the runtime and lists the agents; the dispatch itself comes with
 * the queue, signal and loader work. It never fakes a result: if something is missing
 * it says what and exits non-zero. */
#include <hsa/hsa.h>

#include <stdio.h>
#include <stdlib.h>

static void report(const char *what, hsa_status_t status) {
  const char *text = NULL;
  if (hsa_status_string(status, &text) != HSA_STATUS_SUCCESS)
    text = "(unknown status)";
  fprintf(stderr, "sample_dispatch: %s failed: %s\n", what, text);
}

static hsa_status_t print_agent(hsa_agent_t agent, void *data) {
  char name[64] = {0};
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name) != HSA_STATUS_SUCCESS ||
      hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  printf("agent: %-12s %s\n", name, type == HSA_DEVICE_TYPE_GPU ? "GPU" : "CPU");
  if (type == HSA_DEVICE_TYPE_GPU)
    ++*(unsigned *)data;
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  hsa_status_t status = hsa_init();
  if (status != HSA_STATUS_SUCCESS) {
    report("hsa_init", status);
    fprintf(stderr, "sample_dispatch: no GPU work was done.\n");
    return 2;
  }
  unsigned gpus = 0;
  status = hsa_iterate_agents(print_agent, &gpus);
  if (status != HSA_STATUS_SUCCESS) {
    report("hsa_iterate_agents", status);
    hsa_shut_down();
    return 2;
  }
  if (gpus == 0)
    fprintf(stderr, "sample_dispatch: no GPU agent found; no GPU work was done.\n");
  else
    fprintf(stderr, "sample_dispatch: kernel dispatch is not implemented yet in this runtime.\n");
  hsa_shut_down();
  return 2;
}
