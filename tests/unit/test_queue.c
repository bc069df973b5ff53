/* SPDX-License-Identifier: MIT */
/* test_queue.c — queue pieces that need no GPU: the CWSR/EOP sizes KFD expects (checked
 * against the values real kernels publish in the captured topologies), the priority map,
 * the index operations, CP error codes, the scratch descriptor (against what ROCR 5.2.3 wrote
 * for the same queue under hsa-sim) and CU masks with HSA_CU_MASK. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "aql/internal.h"
#include "kfd/queue.h"

#define NP TEST_SRCDIR "/fixtures/topology/node-properties/"

/* Newer kernels publish cwsr_size and ctl_stack_size and refuse anything else; computed
 * without them, our sizes must equal theirs. */
static void check_published(const char *file) {
  struct kfd_node_props p;
  ck_assert_int_eq(kfd_node_props_read(file, &p), 0);
  uint64_t cwsr = p.cwsr_size, ctl = p.ctl_stack_size;
  ck_assert_uint_ne(cwsr, 0);
  uint32_t gfxv = (uint32_t)(p.gfx_target_version / 10000) << 16 |
                  (uint32_t)(p.gfx_target_version / 100 % 100) << 8 |
                  (uint32_t)(p.gfx_target_version % 100);
  p.cwsr_size = p.ctl_stack_size = 0;
  struct kfd_queue_sizes s;
  kfd_queue_sizes(&p, gfxv, &s);
  ck_assert_uint_eq(s.ctx_save_size, cwsr);
  ck_assert_uint_eq(s.ctl_stack_size, ctl);
  ck_assert_uint_eq(s.eop_size, 4096);
  ck_assert_uint_eq(s.doorbell_slice, 8192);
  ck_assert_uint_eq(s.num_xcc, p.num_xcc);
  ck_assert_uint_eq(s.ctx_total % 4096, 0);
  ck_assert_uint_ge(s.ctx_total, (uint64_t)(cwsr + s.debug_size) * p.num_xcc);
}

START_TEST(cwsr_sizes_match_kernel) {
  check_published(NP "gfx942-mi300x.properties");
  check_published(NP "gfx950-mi350x.properties");
  check_published(NP "gfx1201.properties");
}
END_TEST

START_TEST(cwsr_header_and_old_gpus) {
  struct kfd_node_props p = {0};
  p.simd_count = 256, p.simd_per_cu = 4, p.array_count = 4, p.simd_arrays_per_engine = 1;
  struct kfd_queue_sizes s;
  kfd_queue_sizes(&p, 0x80003, &s);   /* gfx803: 4-byte doorbells */
  ck_assert_uint_eq(s.doorbell_slice, 4096);
  kfd_queue_sizes(&p, 0x70000, &s);   /* gfx7: no CWSR, no EOP */
  ck_assert_uint_eq(s.ctx_total, 0);
  ck_assert_uint_eq(s.eop_size, 0);
  kfd_queue_sizes(&p, 0x90000, &s);
  ck_assert_uint_gt(s.ctx_total, 0);
  char *area = calloc(1, s.ctx_total);
  int64_t reason = 0;
  kfd_queue_cwsr_header(area, &s, 77, &reason);
  uint32_t w[6];
  memcpy(w, area, sizeof(w));
  ck_assert_uint_eq(w[4], s.ctx_save_size);   /* DebugOffset: after the save area */
  ck_assert_uint_eq(w[5], s.debug_size);
  uint64_t ptr;
  memcpy(&ptr, area + 24, 8);
  ck_assert_uint_eq(ptr, (uint64_t)(uintptr_t)&reason);
  uint32_t id;
  memcpy(&id, area + 32, 4);
  ck_assert_uint_eq(id, 77);
  free(area);
}
END_TEST

START_TEST(priorities) {
  ck_assert_uint_eq(kfd_queue_priority(-3), 0);
  ck_assert_uint_eq(kfd_queue_priority(0), 7);
  ck_assert_uint_eq(kfd_queue_priority(2), 11);
  ck_assert_uint_eq(kfd_queue_priority(3), 15);
  ck_assert_uint_eq(kfd_queue_priority(-9), 0);
  ck_assert_uint_eq(kfd_queue_priority(9), 15);
}
END_TEST

START_TEST(index_ops) {
  amd_queue_t *amd = aligned_alloc(64, sizeof(amd_queue_t));
  memset(amd, 0, sizeof(*amd));
  hsa_queue_t *q = &amd->hsa_queue;
  ck_assert_uint_eq(hsa_queue_add_write_index_relaxed(q, 5), 0);
  ck_assert_uint_eq(hsa_queue_add_write_index_acq_rel(q, 2), 5);
  ck_assert_uint_eq(hsa_queue_load_write_index_scacquire(q), 7);
  ck_assert_uint_eq(amd->write_dispatch_id, 7);
  ck_assert_uint_eq(hsa_queue_cas_write_index_scacq_screl(q, 3, 100), 7);   /* fails */
  ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 7);
  ck_assert_uint_eq(hsa_queue_cas_write_index_release(q, 7, 100), 7);       /* succeeds */
  ck_assert_uint_eq(hsa_queue_load_write_index_acquire(q), 100);
  hsa_queue_store_write_index_screlease(q, 42);
  ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 42);
  hsa_queue_store_read_index_release(q, 40);
  ck_assert_uint_eq(hsa_queue_load_read_index_acquire(q), 40);
  ck_assert_uint_eq(amd->read_dispatch_id, 40);
  ck_assert_uint_eq(hsa_queue_load_read_index_relaxed(NULL), 0);
  ck_assert_uint_eq(hsa_queue_add_write_index_screlease(NULL, 1), 0);
  hsa_queue_store_write_index_relaxed(NULL, 1);
  free(amd);
}
END_TEST

START_TEST(cp_error_codes) {
  ck_assert_int_eq(aql_cp_error_status(0), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(aql_cp_error_status(0x2), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  ck_assert_int_eq(aql_cp_error_status(0x4), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ck_assert_int_eq(aql_cp_error_status(0x8), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ck_assert_int_eq(aql_cp_error_status(0x20), HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  ck_assert_int_eq(aql_cp_error_status(0x100), HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  ck_assert_int_eq(aql_cp_error_status(0x40), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(aql_cp_error_status(0x80), HSA_STATUS_ERROR_OUT_OF_REGISTERS);
  ck_assert_int_eq(aql_cp_error_status(0x20000000), HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
  ck_assert_int_eq(aql_cp_error_status(0x40000000), HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION);
  ck_assert_int_eq(aql_cp_error_status(0x80000000ll), HSA_STATUS_ERROR_EXCEPTION);
  ck_assert_int_eq(aql_cp_error_status(0x10000), HSA_STATUS_ERROR);
}
END_TEST

/* A gfx900-like GPU: 64 CUs in 4 engines, 32 scratch slots per CU. */
static struct kfd_node node900;
static struct core_isa isa900 = {.major = 9};
static struct core_agent agent900;

static struct aql_queue *fake_queue(enum aql_kind kind) {
  node900.props.simd_count = 256;
  node900.props.simd_per_cu = 4;
  node900.props.array_count = 4;
  node900.props.simd_arrays_per_engine = 1;
  node900.props.max_slots_scratch_cu = 32;
  node900.props.num_xcc = 0;
  agent900.kind = CORE_AGENT_GPU;
  agent900.node = &node900;
  agent900.isa = &isa900;
  agent900.profile = HSA_PROFILE_BASE;
  struct aql_queue *q = calloc(1, sizeof(*q));
  q->amd = aligned_alloc(64, sizeof(amd_queue_t));
  memset(q->amd, 0, sizeof(amd_queue_t));
  q->amd->max_cu_id = 63;
  q->kind = kind;
  q->agent = &agent900;
  pthread_mutex_init(&q->lock, NULL);
  return q;
}

static void free_queue(struct aql_queue *q) {
  free(q->amd);
  free(q);
}

START_TEST(scratch_descriptor) {
  struct aql_queue *q = fake_queue(AQL_SOFT);
  /* What ROCR 5.2.3 wrote for a gfx900 queue created with 64 bytes of private segment. */
  q->scratch = (struct aql_scratch){(void *)0x7f1234560000ull, 8388608, 64, 64, false};
  aql_scratch_publish(q);
  const amd_queue_t *a = q->amd;
  ck_assert_uint_eq(a->scratch_resource_descriptor[0], 0x34560000u);
  ck_assert_uint_eq(a->scratch_resource_descriptor[1], 0x80007f12u);
  ck_assert_uint_eq(a->scratch_resource_descriptor[2], 8388608u);
  ck_assert_uint_eq(a->scratch_resource_descriptor[3], 0x00ea4facu);
  ck_assert_uint_eq(a->compute_tmpring_size, 0x4800u);
  ck_assert_uint_eq(a->scratch_wave64_lane_byte_size, 64);
  ck_assert_uint_eq(a->scratch_backing_memory_location, 0x7f1234560000ull);
  ck_assert_uint_eq(a->scratch_backing_memory_byte_size, 8388608u);
  ck_assert_uint_eq(a->queue_properties & AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE, 0);
  /* Single-use scratch for wave32 on a small allocation: flag set, waves limited. */
  q->scratch = (struct aql_scratch){(void *)0x1000ull, 4 * 2048, 64, 32, true};
  aql_scratch_publish(q);
  ck_assert_uint_eq(a->compute_tmpring_size, 2u << 12 | 4u);
  ck_assert_uint_eq(a->scratch_wave64_lane_byte_size, 32);
  ck_assert_uint_ne(a->queue_properties & AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE, 0);
  /* No scratch: zero sizes and tmpring. */
  q->scratch = (struct aql_scratch){NULL, 0, 0, 64, false};
  aql_scratch_publish(q);
  ck_assert_uint_eq(a->compute_tmpring_size, 0);
  ck_assert_uint_eq(a->scratch_backing_memory_byte_size, 0);
  free_queue(q);
}
END_TEST

/* MI300X (8 XCCs of 38 CUs, 32 slots each): COMPUTE_TMPRING_SIZE.WAVES counts one XCC's
 * waves, 38 x 32 = 1216, from the eighth of the buffer each XCC uses; the device-wide 9728
 * would not even fit the 12-bit field. */
START_TEST(scratch_waves_per_xcc) {
  struct aql_queue *q = fake_queue(AQL_SOFT);
  node900.props.simd_count = 1216;
  node900.props.array_count = 32;
  node900.props.num_xcc = 8;
  q->amd->max_cu_id = 303;
  q->scratch = (struct aql_scratch){(void *)0x7f1234560000ull, 64ull * 64 * 304 * 32, 64, 64,
                                    false};
  aql_scratch_publish(q);
  ck_assert_uint_eq(q->amd->compute_tmpring_size, 4u << 12 | 1216u);
  node900.props.num_xcc = 0;
  free_queue(q);
}
END_TEST

/* gfx11 and gfx12 (ROCR's FillComputeTmpRingSize_Gfx11/12): WAVESIZE in 256-byte units, its
 * field 15 bits (gfx11) or 18 (gfx12), WAVES the waves of one shader engine. gfx1100: 96 CUs
 * in 6 engines, wave32 at 1 KiB a lane = 128 units, 3072 slots = 512 per engine. gfx1201: 4
 * engines, 40000 units (past gfx11's 15 bits), 32 waves = 8 per engine. */
START_TEST(scratch_gfx11_gfx12_per_engine) {
  struct aql_queue *q = fake_queue(AQL_SOFT);
  struct core_isa isa11 = {.major = 11}, isa12 = {.major = 12};
  agent900.isa = &isa11;
  node900.props.simd_count = 192;
  node900.props.simd_per_cu = 2;
  node900.props.array_count = 12;
  node900.props.simd_arrays_per_engine = 2;
  q->amd->max_cu_id = 95;
  q->scratch = (struct aql_scratch){(void *)0x7f1234560000ull, 1024ull * 32 * 96 * 32, 1024, 32,
                                    false};
  aql_scratch_publish(q);
  ck_assert_uint_eq(q->amd->compute_tmpring_size, 128u << 12 | 512u);
  agent900.isa = &isa12;
  node900.props.simd_count = 128;
  node900.props.array_count = 8;
  q->amd->max_cu_id = 63;
  q->scratch = (struct aql_scratch){(void *)0x7f1234560000ull, 40000ull * 256 * 32, 320000, 32,
                                    false};
  aql_scratch_publish(q);
  ck_assert_uint_eq(q->amd->compute_tmpring_size, 40000u << 12 | 8u);
  agent900.isa = &isa900;
  free_queue(q);
}
END_TEST

/* CU masks on a queue that never reaches the kernel (soft), so only the arithmetic runs. */
START_TEST(cu_mask_plain) {
  unsetenv("HSA_CU_MASK");
  struct aql_queue *q = fake_queue(AQL_SOFT);
  ck_assert_int_eq(aql_cu_mask_apply(q, 0, NULL), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(q->cu_mask_dwords, 2);
  ck_assert_uint_eq(q->cu_mask[0], 0xffffffffu);
  ck_assert_uint_eq(q->cu_mask[1], 0xffffffffu);
  const uint32_t m[4] = {0x0f, 0x1, 0xff, 0xff};   /* more dwords than CUs: clipped */
  ck_assert_int_eq(aql_cu_mask_apply(q, 128, m), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(q->cu_mask_dwords, 2);
  ck_assert_uint_eq(q->cu_mask[0], 0x0f);
  ck_assert_uint_eq(q->cu_mask[1], 0x1);
  ck_assert_uint_eq(q->cu_mask[2], 0);
  free_queue(q);
}
END_TEST

START_TEST(cu_mask_env_list) {
  setenv("HSA_CU_MASK", " 0 : 0-3, 40 ; 1:0x1", 1);
  struct aql_queue *q = fake_queue(AQL_SOFT);
  ck_assert_int_eq(aql_cu_mask_apply(q, 0, NULL), HSA_STATUS_CU_MASK_REDUCED);
  ck_assert_uint_eq(q->cu_mask[0], 0x0f);
  ck_assert_uint_eq(q->cu_mask[1], 0x100);
  const uint32_t want[2] = {0x3, 0};
  ck_assert_int_eq(aql_cu_mask_apply(q, 64, want), HSA_STATUS_SUCCESS);   /* inside the env's */
  ck_assert_uint_eq(q->cu_mask[0], 0x3);
  const uint32_t more[2] = {0xff, 0};
  ck_assert_int_eq(aql_cu_mask_apply(q, 64, more), HSA_STATUS_CU_MASK_REDUCED);
  ck_assert_uint_eq(q->cu_mask[0], 0x0f);
  free_queue(q);
}
END_TEST

START_TEST(cu_mask_env_hex) {
  setenv("HSA_CU_MASK", "0:0xF0000000F0", 1);
  struct aql_queue *q = fake_queue(AQL_SOFT);
  ck_assert_int_eq(aql_cu_mask_apply(q, 0, NULL), HSA_STATUS_CU_MASK_REDUCED);
  ck_assert_uint_eq(q->cu_mask[0], 0xf0);
  ck_assert_uint_eq(q->cu_mask[1], 0xf0);
  free_queue(q);
}
END_TEST

START_TEST(cu_mask_env_malformed) {
  setenv("HSA_CU_MASK", "0:zz", 1);   /* ignored: every CU */
  struct aql_queue *q = fake_queue(AQL_SOFT);
  ck_assert_int_eq(aql_cu_mask_apply(q, 0, NULL), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(q->cu_mask[0], 0xffffffffu);
  ck_assert_uint_eq(q->cu_mask[1], 0xffffffffu);
  free_queue(q);
}
END_TEST

START_TEST(cu_mask_other_gpu) {
  setenv("HSA_CU_MASK", "1-3:0-7", 1);   /* names GPUs 1..3, not ours (index 0) */
  struct aql_queue *q = fake_queue(AQL_SOFT);
  ck_assert_int_eq(aql_cu_mask_apply(q, 0, NULL), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(q->cu_mask[1], 0xffffffffu);
  free_queue(q);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("queue");
  TCase *tc = tcase_create("queue");
  tcase_add_test(tc, cwsr_sizes_match_kernel);
  tcase_add_test(tc, cwsr_header_and_old_gpus);
  tcase_add_test(tc, priorities);
  tcase_add_test(tc, index_ops);
  tcase_add_test(tc, cp_error_codes);
  tcase_add_test(tc, scratch_descriptor);
  tcase_add_test(tc, scratch_waves_per_xcc);
  tcase_add_test(tc, scratch_gfx11_gfx12_per_engine);
  /* each in its own process (Check forks): HSA_CU_MASK is read once per process */
  tcase_add_test(tc, cu_mask_plain);
  tcase_add_test(tc, cu_mask_env_list);
  tcase_add_test(tc, cu_mask_env_hex);
  tcase_add_test(tc, cu_mask_env_malformed);
  tcase_add_test(tc, cu_mask_other_gpu);
  suite_add_tcase(s, tc);
  return s;
}
