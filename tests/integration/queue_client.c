/* SPDX-License-Identifier: MIT */
/* queue_client.c — a queue API client for queue_vs_rocr.sh, built against the public headers
 * and run once on Debian's ROCR 5.2.3 and once on our runtime under hsa-sim. Every line is
 * "what value"; lines starting with "same " must be equal between the two runtimes, lines
 * starting with "ours " are only checked on ours (ROCR crashes or differs on purpose there).
 * It never decides pass/fail itself: the script compares. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/amd_hsa_queue.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

static hsa_agent_t gpu, cpu;
static int have_gpu, have_cpu;

static hsa_status_t pick(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) gpu = a, have_gpu = 1;
  if (t == HSA_DEVICE_TYPE_CPU && !have_cpu) cpu = a, have_cpu = 1;
  return HSA_STATUS_SUCCESS;
}

static hsa_region_t sys_region;
static hsa_status_t pick_region(hsa_region_t r, void *data) {
  (void)data;
  hsa_region_segment_t seg;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && !sys_region.handle) sys_region = r;
  return HSA_STATUS_SUCCESS;
}

static void create_case(const char *name, hsa_agent_t a, uint32_t size, hsa_queue_type32_t type,
                        uint32_t priv, int null_out) {
  hsa_queue_t *q = NULL;
  hsa_status_t s =
      hsa_queue_create(a, size, type, NULL, NULL, priv, UINT32_MAX, null_out ? NULL : &q);
  printf("%s create_%s %d\n", a.handle == gpu.handle ? "same" : "ours", name, (int)s);
  if (s == HSA_STATUS_SUCCESS && q) hsa_queue_destroy(q);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);   /* keep the lines before a crash */
  hsa_status_t s = hsa_init();
  printf("same init %d\n", (int)s);
  if (s != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(pick, NULL);
  printf("same gpu %d\n", have_gpu);
  if (!have_gpu) return 1;
  uint32_t min = 0, max = 0, qmax = 0;
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min);
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max);
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUES_MAX, &qmax);
  printf("same limits %u %u %u\n", min, max, qmax);

  /* Invalid arguments. */
  hsa_agent_t bad = {0x12345678};
  create_case("size0", gpu, 0, HSA_QUEUE_TYPE_MULTI, UINT32_MAX, 0);
  create_case("size_not_pow2", gpu, 1000, HSA_QUEUE_TYPE_MULTI, UINT32_MAX, 0);
  create_case("size_below_min", gpu, min / 2, HSA_QUEUE_TYPE_MULTI, UINT32_MAX, 0);
  create_case("size_above_max", gpu, max * 2, HSA_QUEUE_TYPE_MULTI, UINT32_MAX, 0);
  create_case("type_bad", gpu, min, 7, UINT32_MAX, 0);
  create_case("null_out", gpu, min, HSA_QUEUE_TYPE_MULTI, UINT32_MAX, 1);
  if (getenv("QC_OURS")) /* ROCR dereferences the bogus handle */
    create_case("bad_agent", bad, min, HSA_QUEUE_TYPE_MULTI, UINT32_MAX, 0);
  create_case("private_too_big", gpu, min, HSA_QUEUE_TYPE_MULTI, 262144, 0);
  create_case("single", gpu, min, HSA_QUEUE_TYPE_SINGLE, UINT32_MAX, 0);
  create_case("private_64", gpu, min, HSA_QUEUE_TYPE_MULTI, 64, 0);
  create_case("cooperative", gpu, min, HSA_QUEUE_TYPE_COOPERATIVE, UINT32_MAX, 0);

  /* Scratch asked for at creation: the buffer descriptor and sizes the CP reads. */
  hsa_queue_t *sq0 = NULL;
  s = hsa_queue_create(gpu, min, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 64, UINT32_MAX, &sq0);
  if (s == HSA_STATUS_SUCCESS) {
    amd_queue_t *sa = (amd_queue_t *)sq0;
    printf("same scratch srd1_hi=0x%x srd2=%u srd3=0x%x tmpring=0x%x lane=%u size=%lu "
           "base_matches=%d\n",
           sa->scratch_resource_descriptor[1] >> 16, sa->scratch_resource_descriptor[2],
           sa->scratch_resource_descriptor[3], sa->compute_tmpring_size,
           sa->scratch_wave64_lane_byte_size, (unsigned long)sa->scratch_backing_memory_byte_size,
           (sa->scratch_resource_descriptor[0] |
            (uint64_t)(sa->scratch_resource_descriptor[1] & 0xffff) << 32) ==
               sa->scratch_backing_memory_location);
    hsa_queue_destroy(sq0);
  }

  /* A queue and the fields clients and the CP read. */
  hsa_queue_t *q = NULL;
  s = hsa_queue_create(gpu, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q);
  printf("same create %d\n", (int)s);
  if (s != HSA_STATUS_SUCCESS) return 1;
  amd_queue_t *amd = (amd_queue_t *)q;
  printf("same hsa_queue type=%u features=%u size=%u ring_aligned=%d doorbell=%d\n", q->type,
         q->features, q->size, ((uintptr_t)q->base_address & 4095) == 0,
         q->doorbell_signal.handle != 0);
  printf("same amd_queue max_cu_id=%u max_wave_id=%u props=0x%x rd_off=%u "
         "group_hi_set=%d private_hi_set=%d tmpring=0x%x scratch_size=%lu\n",
         amd->max_cu_id, amd->max_wave_id, amd->queue_properties,
         amd->read_dispatch_id_field_base_byte_offset, amd->group_segment_aperture_base_hi != 0,
         amd->private_segment_aperture_base_hi != 0, amd->compute_tmpring_size,
         (unsigned long)amd->scratch_backing_memory_byte_size);
  printf("same inactive_signal %d value=%ld\n", amd->queue_inactive_signal.handle != 0,
         (long)hsa_signal_load_relaxed(amd->queue_inactive_signal));
  uint32_t hdr = *(volatile uint16_t *)q->base_address;
  printf("same first_header %u\n", hdr);

  /* Indices: nothing was submitted, so the CP leaves them alone. */
  printf("same idx0 %lu %lu\n", (unsigned long)hsa_queue_load_read_index_scacquire(q),
         (unsigned long)hsa_queue_load_write_index_relaxed(q));
  printf("same add %lu\n", (unsigned long)hsa_queue_add_write_index_scacq_screl(q, 0));
  printf("same cas_fail %lu\n", (unsigned long)hsa_queue_cas_write_index_relaxed(q, 5, 9));
  printf("same cas_ok %lu\n", (unsigned long)hsa_queue_cas_write_index_screlease(q, 0, 0));
  printf("same idx1 %lu\n", (unsigned long)hsa_queue_load_write_index_acquire(q));

  /* CU masks. */
  uint32_t cus = 0;
  hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus);
  uint32_t m[8];
  memset(m, 0xab, sizeof(m));
  s = hsa_amd_queue_cu_get_mask(q, 256, m);
  printf("same cu_get %d %08x %08x %08x\n", (int)s, m[0], m[1], m[2]);
  printf("same cu_get_zero %d\n", (int)hsa_amd_queue_cu_get_mask(q, 0, m));
  printf("same cu_get_odd %d\n", (int)hsa_amd_queue_cu_get_mask(q, 33, m));
  uint32_t want[2] = {0x0000000f, 0xffffffff};
  printf("same cu_set %d\n", (int)hsa_amd_queue_cu_set_mask(q, 64, want));
  memset(m, 0, sizeof(m));
  s = hsa_amd_queue_cu_get_mask(q, 64, m);
  printf("same cu_get2 %d %08x %08x\n", (int)s, m[0], m[1]);
  printf("same cu_set_odd %d\n", (int)hsa_amd_queue_cu_set_mask(q, 31, want));
  printf("same cu_set_null %d\n", (int)hsa_amd_queue_cu_set_mask(q, 32, NULL));
  printf("same cu_reset %d\n", (int)hsa_amd_queue_cu_set_mask(q, 0, NULL));
  memset(m, 0, sizeof(m));
  hsa_amd_queue_cu_get_mask(q, 64, m);
  printf("same cu_get3 %08x %08x\n", m[0], m[1]);

  /* Priorities. */
  printf("same prio_low %d\n", (int)hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_LOW));
  printf("same prio_high %d\n", (int)hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH));
  printf("same prio_normal %d\n",
         (int)hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_NORMAL));
  printf("same prio_bad %d\n", (int)hsa_amd_queue_set_priority(q, (hsa_amd_queue_priority_t)9));
  printf("same profiling %d\n", (int)hsa_amd_profiling_set_profiler_enabled(q, 1));
  printf("same profiling_bit %d\n", (amd->queue_properties & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING) != 0);
  hsa_amd_profiling_set_profiler_enabled(q, 0);

  printf("same inactivate %d\n", (int)hsa_queue_inactivate(q));
  printf("same destroy %d\n", (int)hsa_queue_destroy(q));
  if (getenv("QC_OURS")) {   /* ROCR uses the freed queue */
    printf("ours destroy_again %d\n", (int)hsa_queue_destroy(q));
    printf("ours destroy_null %d\n", (int)hsa_queue_destroy(NULL));
    printf("ours cu_set_dead %d\n", (int)hsa_amd_queue_cu_set_mask(q, 32, want));
  }

  /* Soft queues. */
  hsa_agent_iterate_regions(cpu, pick_region, NULL);
  hsa_signal_t db;
  hsa_signal_create(0, 0, NULL, &db);
  hsa_queue_t *sq = NULL;
  printf("same soft_bad_size %d\n",
         (int)hsa_soft_queue_create(sys_region, 3, HSA_QUEUE_TYPE_MULTI, 1, db, &sq));
  printf("same soft_no_features %d\n",
         (int)hsa_soft_queue_create(sys_region, 16, HSA_QUEUE_TYPE_MULTI, 0, db, &sq));
  printf("same soft_null_signal %d\n",
         (int)hsa_soft_queue_create(sys_region, 16, HSA_QUEUE_TYPE_MULTI, 1, (hsa_signal_t){0}, &sq));
  printf("same soft_coop %d\n",
         (int)hsa_soft_queue_create(sys_region, 16, HSA_QUEUE_TYPE_COOPERATIVE, 1, db, &sq));
  s = hsa_soft_queue_create(sys_region, 16, HSA_QUEUE_TYPE_SINGLE, 2, db, &sq);
  printf("same soft %d\n", (int)s);
  if (s == HSA_STATUS_SUCCESS) {
    printf("same soft_fields type=%u features=%u size=%u db=%d hdr=%u\n", sq->type, sq->features,
           sq->size, sq->doorbell_signal.handle == db.handle, *(uint16_t *)sq->base_address);
    hsa_queue_store_read_index_screlease(sq, 3);
    hsa_queue_store_write_index_relaxed(sq, 7);
    printf("same soft_idx %lu %lu\n", (unsigned long)hsa_queue_load_read_index_relaxed(sq),
           (unsigned long)hsa_queue_add_write_index_relaxed(sq, 2));
    printf("same soft_idx2 %lu\n", (unsigned long)hsa_queue_load_write_index_scacquire(sq));
    printf("same soft_destroy %d\n", (int)hsa_queue_destroy(sq));
  }
  hsa_signal_destroy(db);
  printf("same shut_down %d\n", (int)hsa_shut_down());
  if (getenv("QC_OURS")) printf("ours after_shutdown %d\n", (int)hsa_queue_destroy(q));
  return 0;
}
