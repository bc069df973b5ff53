/* SPDX-License-Identifier: MIT */
/* tools_tool.c — a tool library for tools_lib.sh: OnLoad replaces the table entries of
 * hsa_queue_create and hsa_signal_create (counting calls) and hsa_agent_get_info (counting,
 * and answering HSA_AGENT_INFO_VENDOR_NAME with "TOOLED"); OnUnload writes what it saw to
 * $TOOL_OUT; with $TOOL_NEWEST it also writes whether the newest ROCR's last table entries
 * are there (the tables' own sizes say) and answer as the exported functions do. */
#include <hsa/hsa.h>
#include <hsa/hsa_api_trace.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static CoreApiTable saved;
static CoreApiTable *core;
static unsigned queues, signals, infos;
static unsigned long long version, failed_count;
static char failed_first[256];
static unsigned table_major, core_size_ok;
static int notifier_first = -1, notifier_second = -1, intercept_small = -1, intercept_nocb = -1;

static void notifier(const hsa_queue_t *q, hsa_agent_t a, void *data) {}

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  if (saved.hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
      type == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t my_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                    void (*cb)(hsa_status_t, hsa_queue_t *, void *), void *data,
                                    uint32_t private_size, uint32_t group_size,
                                    hsa_queue_t **queue) {
  queues++;
  return saved.hsa_queue_create_fn(agent, size, type, cb, data, private_size, group_size, queue);
}

static hsa_status_t my_signal_create(hsa_signal_value_t v, uint32_t n, const hsa_agent_t *c,
                                     hsa_signal_t *s) {
  signals++;
  return saved.hsa_signal_create_fn(v, n, c, s);
}

static hsa_status_t my_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attr, void *value) {
  infos++;
  hsa_status_t st = saved.hsa_agent_get_info_fn(agent, attr, value);
  if (st == HSA_STATUS_SUCCESS && attr == HSA_AGENT_INFO_VENDOR_NAME) {
    memset(value, 0, 64);
    strcpy((char *)value, "TOOLED");
  }
  return st;
}

bool OnLoad(HsaApiTable *table, uint64_t runtime_version, uint64_t failed_tool_count,
            const char *const *failed_tool_names) {
  version = runtime_version;
  failed_count = failed_tool_count;
  if (failed_tool_count) snprintf(failed_first, sizeof(failed_first), "%s", failed_tool_names[0]);
  table_major = table->version.major_id;
  core = table->core_;
  core_size_ok = core->version.minor_id >= offsetof(CoreApiTable, hsa_executable_iterate_program_symbols_fn);
  saved = *core;
  /* Entries offered to tools only through the table (not exported). */
  AmdExtTable *amd = table->amd_ext_;
  notifier_first = amd->hsa_amd_runtime_queue_create_register_fn(notifier, NULL);
  notifier_second = amd->hsa_amd_runtime_queue_create_register_fn(notifier, NULL);
  hsa_queue_t *q = NULL;
  hsa_agent_t gpu = {0};
  saved.hsa_iterate_agents_fn(find_gpu, &gpu);
  intercept_small = amd->hsa_amd_queue_intercept_create_fn(gpu, 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
                                                           0, 0, &q);
  intercept_nocb = amd->hsa_amd_queue_intercept_register_fn(q, NULL, NULL);
  core->hsa_queue_create_fn = my_queue_create;
  core->hsa_signal_create_fn = my_signal_create;
  core->hsa_agent_get_info_fn = my_agent_get_info;
  /* The newest ROCR's last entries, where the tables are that long (ROCR 5.2.3's are not):
   * each must answer as the exported function does (a real query and refused arguments).
   * Written to TOOL_NEWEST, ours only. */
  const char *newest = getenv("TOOL_NEWEST");
  FILE *f = newest ? fopen(newest, "w") : NULL;
  if (f) {
    bool amd_long = amd->version.minor_id >= offsetof(AmdExtTable, hsa_amd_portable_export_dmabuf_v2_fn) +
                                                sizeof(void *);
    fprintf(f, "amd_table_long %d\n", amd_long);
    if (amd_long) {
      hsa_signal_t none = {0};
      hsa_signal_condition_t cond = HSA_SIGNAL_CONDITION_EQ;
      hsa_signal_value_t want = 0, got_t = 7, got_e = 7;
      /* a null signal counts as 0 with its condition met: both answer 0 and give 0 back */
      uint32_t wt = amd->hsa_amd_signal_wait_all_fn(1, &none, &cond, &want, 0, HSA_WAIT_STATE_ACTIVE,
                                                    &got_t);
      uint32_t we = hsa_amd_signal_wait_all(1, &none, &cond, &want, 0, HSA_WAIT_STATE_ACTIVE, &got_e);
      fprintf(f, "signal_wait_all %d\n", wt == we && got_t == got_e && got_t == 0);
      uint32_t mt = 0xdead, me = 0xbeef;
      hsa_status_t pt = amd->hsa_amd_memory_get_preferred_copy_engine_fn(gpu, gpu, &mt);
      hsa_status_t pe = hsa_amd_memory_get_preferred_copy_engine(gpu, gpu, &me);
      fprintf(f, "preferred_copy_engine %d\n", pt == pe && (pt != HSA_STATUS_SUCCESS || mt == me));
      int fd = -1;
      uint64_t off = 0;
      hsa_status_t xt = amd->hsa_amd_portable_export_dmabuf_v2_fn(NULL, 4096, &fd, &off, 0);
      hsa_status_t xe = hsa_amd_portable_export_dmabuf_v2(NULL, 4096, &fd, &off, 0);
      fprintf(f, "export_dmabuf_v2 %d\n", xt == xe && xt != HSA_STATUS_SUCCESS);
    }
    ImageExtTable *img = table->image_ext_;
    bool img_long = img && img->version.minor_id >= offsetof(ImageExtTable, hsa_ext_sampler_create_v2_fn) +
                                                        sizeof(void *);
    fprintf(f, "image_table_long %d\n", img_long);
    if (img_long) {
      hsa_ext_sampler_t smp;
      hsa_agent_t bad = {0};
      hsa_status_t st = img->hsa_ext_sampler_create_v2_fn(bad, NULL, &smp);
      hsa_status_t se = hsa_ext_sampler_create_v2(bad, NULL, &smp);
      fprintf(f, "sampler_create_v2 %d\n", st == se && st != HSA_STATUS_SUCCESS);
    }
    fclose(f);
  }
  return true;
}

void OnUnload(void) {
  const char *path = getenv("TOOL_OUT");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (!f) return;
  fprintf(f, "version %llu\nfailed %llu %s\ntable_major %u\ncore_size_ok %u\n", version,
          failed_count, failed_first, table_major, core_size_ok);
  fprintf(f, "notifier %d %d\nintercept_create_small %d\nintercept_register_nocb %d\n",
          notifier_first, notifier_second, intercept_small, intercept_nocb);
  fprintf(f, "queue_create %u\nsignal_create %u\nagent_get_info %u\n", queues, signals, infos);
  fclose(f);
}
