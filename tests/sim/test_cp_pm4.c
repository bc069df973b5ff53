/* SPDX-License-Identifier: MIT */
/* test_cp_pm4.c — PM4 ring queues (KFD_IOC_QUEUE_TYPE_COMPUTE) driven through the KFD ABI: the
 * ring and the read/write pointers in GTT buffers mapped on the GPU, packets submitted by a
 * doorbell store of the write pointer in dwords. The packet-format corners the integration
 * test (sim_pm4_queue.sh) does not reach: one-dword NOPs and type-2 fillers, a packet
 * submitted in two parts, a chained indirect buffer, RELEASE_MEM's context-id interrupt and
 * timestamp, WRITE_DATA into an SH register, DISPATCH_DIRECT of a hand-assembled kernel
 * (start group, work-item dimensions, partial groups), and a SET_SH_REG outside the SH
 * registers halting the queue with the HW exception event. */
#include "kfd_fixture.h"
#include "cp_fixture.h"

#define RING_DW 1024u

struct pm4q {
  struct buf ring, ptrs, data;
  volatile uint64_t *doorbell;
  uint32_t queue_id;
  uint64_t w;
};

static void pq_setup(struct pm4q *q)
{
  fx_open();
  memset(q, 0, sizeof *q);
  q->ring = cpx_gtt(RING_DW * 4);
  q->ptrs = cpx_gtt(4096);
  q->data = cpx_gtt(4096);
  struct kfd_ioctl_create_queue_args c = {
    .ring_base_address = q->ring.va, .ring_size = RING_DW * 4, .gpu_id = GPU0,
    .read_pointer_address = q->ptrs.va, .write_pointer_address = q->ptrs.va + 64,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE, .queue_percentage = 100, .queue_priority = 7 };
  cpx_create_queue(&c);
  q->queue_id = c.queue_id;
  q->doorbell = cpx_queue_doorbell(c.doorbell_offset);
}

static void put(struct pm4q *q, uint32_t v)
{
  ((uint32_t *)q->ring.host)[q->w++ % RING_DW] = v;
}

static void ring(struct pm4q *q)
{
  __atomic_store_n((uint64_t *)(q->ptrs.host + 64), q->w, __ATOMIC_RELEASE);
  __atomic_store_n(q->doorbell, q->w, __ATOMIC_RELEASE);
}

static uint32_t rptr(struct pm4q *q)
{
  return __atomic_load_n((uint32_t *)q->ptrs.host, __ATOMIC_ACQUIRE);
}

static uint32_t hdr(unsigned op, unsigned body)
{
  return 3u << 30 | (body - 1) << 16 | op << 8;
}

static void write_data(struct pm4q *q, uint64_t va, uint32_t v)
{
  put(q, hdr(0x37, 4));
  put(q, 5u << 8);
  put(q, (uint32_t)va);
  put(q, (uint32_t)(va >> 32));
  put(q, v);
}

static uint32_t data(struct pm4q *q, unsigned i)
{
  return __atomic_load_n((uint32_t *)q->data.host + i, __ATOMIC_ACQUIRE);
}

/* Polls until the CP fetched everything submitted (a bound for a hung model). */
static bool drained(struct pm4q *q)
{
  for (int i = 0; i < 5000; i++) {
    if (rptr(q) == q->w % RING_DW)
      return true;
    cpx_sleep_ms(1);
  }
  return false;
}

START_TEST(one_dword_nops_and_fillers_are_skipped)
{
  struct pm4q q;
  pq_setup(&q);
  put(&q, 3u << 30 | 0x3fffu << 16 | 0x10u << 8);   /* the kernel's one-dword NOP */
  put(&q, 3u << 30 | 0x3fffu << 16 | 0x10u << 8);
  put(&q, 0x80000000u);                              /* type-2 filler */
  write_data(&q, q.data.va, 0x600d);
  ring(&q);
  ck_assert(drained(&q));
  cpx_sleep_ms(5);
  ck_assert_uint_eq(data(&q, 0), 0x600d);
  ck_assert_uint_eq(rptr(&q), 8);
}
END_TEST

START_TEST(a_packet_submitted_in_two_parts_waits_for_its_rest)
{
  struct pm4q q;
  pq_setup(&q);
  write_data(&q, q.data.va, 0x1234);
  uint64_t whole = q.w;
  q.w = 3;   /* header and address only */
  ring(&q);
  cpx_sleep_ms(50);
  ck_assert_uint_eq(data(&q, 0), 0);
  ck_assert_uint_eq(rptr(&q), 0);
  q.w = whole;
  ring(&q);
  ck_assert(drained(&q));
  cpx_sleep_ms(5);
  ck_assert_uint_eq(data(&q, 0), 0x1234);
}
END_TEST

START_TEST(a_chained_indirect_buffer_replaces_the_rest_of_its_caller)
{
  struct pm4q q;
  pq_setup(&q);
  struct buf ib1 = cpx_gtt(4096), ib2 = cpx_gtt(4096);
  uint32_t *a = (uint32_t *)ib1.host, *b = (uint32_t *)ib2.host, n = 0, m = 0;
  uint64_t d = q.data.va;
  uint32_t wd[][5] = { { hdr(0x37, 4), 5u << 8, (uint32_t)d, (uint32_t)(d >> 32), 1 },
                       { hdr(0x37, 4), 5u << 8, (uint32_t)(d + 4), (uint32_t)(d >> 32), 2 },
                       { hdr(0x37, 4), 5u << 8, (uint32_t)(d + 8), (uint32_t)(d >> 32), 3 } };
  memcpy(a + n, wd[0], 20);
  n += 5;
  a[n++] = hdr(0x3f, 3);   /* INDIRECT_BUFFER, CHAIN */
  a[n++] = (uint32_t)ib2.va;
  a[n++] = (uint32_t)(ib2.va >> 32);
  a[n++] = 5u | 1u << 20 | 1u << 23;
  memcpy(a + n, wd[2], 20);   /* after the chain: never runs */
  n += 5;
  memcpy(b + m, wd[1], 20);
  m += 5;
  put(&q, hdr(0x3f, 3));
  put(&q, (uint32_t)ib1.va);
  put(&q, (uint32_t)(ib1.va >> 32));
  put(&q, n | 1u << 23);
  write_data(&q, d + 12, 4);
  ring(&q);
  ck_assert(drained(&q));
  cpx_sleep_ms(5);
  ck_assert_uint_eq(data(&q, 0), 1);
  ck_assert_uint_eq(data(&q, 1), 2);
  ck_assert_uint_eq(data(&q, 2), 0);
  ck_assert_uint_eq(data(&q, 3), 4);
}
END_TEST

START_TEST(release_mem_context_id_interrupt_and_timestamp)
{
  struct pm4q q;
  pq_setup(&q);
  struct buf page;
  uint64_t slot;
  uint32_t ev = cpx_event(&page, &slot);
  uint64_t ts = q.data.va + 64;
  put(&q, hdr(0x49, 7));   /* timestamp, no interrupt */
  put(&q, 0x14u | 5u << 8);
  put(&q, 3u << 29);
  put(&q, (uint32_t)ts);
  put(&q, (uint32_t)(ts >> 32));
  put(&q, 0);
  put(&q, 0);
  put(&q, 0);
  put(&q, hdr(0x49, 7));   /* the event id to the slot, then the "send context id" interrupt */
  put(&q, 0x14u | 5u << 8);
  put(&q, 1u << 29 | 4u << 24);
  put(&q, (uint32_t)slot);
  put(&q, (uint32_t)(slot >> 32));
  put(&q, ev);
  put(&q, 0);
  put(&q, ev);
  ring(&q);
  ck_assert_uint_eq(cpx_wait_event(ev, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  uint64_t stamp;
  memcpy(&stamp, q.data.host + 64, 8);
  ck_assert_uint_ne(stamp, 0);
}
END_TEST

START_TEST(write_data_reaches_the_sh_registers)
{
  struct pm4q q;
  pq_setup(&q);
  /* COMPUTE_NUM_THREAD_X/Y/Z by WRITE_DATA to the registers, then a dispatch of no
   * work-group that checks them: a work-group size of 0 (the registers' reset value) halts
   * the queue, so the WRITE_DATA after it runs only if the register write landed */
  put(&q, hdr(0x37, 6));
  put(&q, 0u << 8);
  put(&q, 0x2e07);
  put(&q, 0);
  put(&q, 64);
  put(&q, 1);
  put(&q, 1);
  put(&q, hdr(0x15, 4));
  put(&q, 0);
  put(&q, 0);
  put(&q, 0);
  put(&q, 1);   /* COMPUTE_SHADER_EN */
  write_data(&q, q.data.va, 0x5);
  ring(&q);
  ck_assert(drained(&q));
  cpx_sleep_ms(5);
  ck_assert_uint_eq(data(&q, 0), 0x5);
}
END_TEST

static void set_sh(struct pm4q *q, uint32_t reg, const uint32_t *v, unsigned n)
{
  put(q, hdr(0x76, n + 1));
  put(q, reg - 0x2c00);
  for (unsigned i = 0; i < n; i++)
    put(q, v[i]);
}

/* out[g * 64 + t] = g << 16 | t for work-group g, work-item t (llvm-mc -mcpu=gfx900, also
 * gfx90a): v_lshlrev_b32 v2, 2, v0; s_lshl_b32 s3, s2, 8; v_add_u32 v2, s3, v2;
 * v_lshl_or_b32 v1, s2, 16, v0; global_store_dword v2, v1, s[0:1]; s_endpgm. s[0:1] come
 * from COMPUTE_USER_DATA_0/1, s2 is the work-group id (RSRC2: 2 user SGPRs, TGID_X_EN). */
static const uint32_t ids_code[] = { 0x24040082, 0x8e038802, 0x68040403, 0xd2000001, 0x04012002,
                                     0xdc708000, 0x00000102, 0xbf810000 };

static void dispatch(struct pm4q *q, uint64_t code, uint64_t out, uint32_t start, uint32_t dim,
                     uint32_t initiator, uint32_t num_thread)
{
  uint32_t pgm[2] = { (uint32_t)(code >> 8), (uint32_t)(code >> 40) };
  set_sh(q, 0x2e0c, pgm, 2);
  uint32_t rsrc[2] = { 0, 2u << 1 | 1u << 7 };
  set_sh(q, 0x2e12, rsrc, 2);
  uint32_t dims[6] = { start, 0, 0, num_thread, 1, 1 };
  set_sh(q, 0x2e04, dims, 6);
  uint32_t user[2] = { (uint32_t)out, (uint32_t)(out >> 32) };
  set_sh(q, 0x2e40, user, 2);
  put(q, hdr(0x15, 4));
  put(q, dim);
  put(q, 1);
  put(q, 1);
  put(q, initiator);
}

START_TEST(dispatch_direct_takes_the_launch_from_the_registers)
{
  struct pm4q q;
  pq_setup(&q);
  struct buf code = cpx_gtt(4096), a = cpx_gtt(4096), b = cpx_gtt(4096), c = cpx_gtt(4096);
  memcpy(code.host, ids_code, sizeof ids_code);
  dispatch(&q, code.va, a.va, 1, 4, 1, 64);               /* groups 1..3 */
  dispatch(&q, code.va, b.va, 0, 150, 1 | 32, 64);        /* 150 work-items: 64, 64, 22 */
  dispatch(&q, code.va, c.va, 0, 2, 1 | 2, 64 | 10u << 16); /* 2 groups, the last of 10 */
  write_data(&q, q.data.va, 1);
  ring(&q);
  ck_assert(drained(&q));
  for (int i = 0; i < 5000 && data(&q, 0) != 1; i++)
    cpx_sleep_ms(1);
  ck_assert_uint_eq(data(&q, 0), 1);
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t g = i / 64, t = i % 64, want = g << 16 | t;
    ck_assert_msg(((uint32_t *)a.host)[i] == (g >= 1 ? want : 0), "start: element %u", i);
    ck_assert_msg(((uint32_t *)b.host)[i] == (i < 150 ? want : 0), "threads: element %u", i);
    ck_assert_msg(((uint32_t *)c.host)[i] == (i < 74 ? want : 0), "partial: element %u", i);
  }
}
END_TEST

START_TEST(set_sh_reg_outside_the_sh_registers_halts_with_hw_exception)
{
  struct pm4q q;
  pq_setup(&q);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_HW_EXCEPTION };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  put(&q, hdr(0x76, 3));
  put(&q, 0x3ff);   /* the last SH register and one past it */
  put(&q, 1);
  put(&q, 2);
  write_data(&q, q.data.va, 0xbad);
  ring(&q);
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  cpx_sleep_ms(20);
  ck_assert_uint_eq(data(&q, 0), 0);
  ck_assert_uint_eq(rptr(&q), 4);   /* just past the packet it fetched */
}
END_TEST

/* gfx1100: ACQUIRE_MEM in its 8-dword gfx10+ form (GCR_CNTL: GLI_INV all, GL2 WB/INV) goes
 * through and RELEASE_MEM writes its data; the 7-dword gfx9 form stops the queue (HW exception
 * event), the WRITE_DATA after it never runs. */
START_TEST(gfx1100_acquire_mem_takes_the_gcr_form)
{
  fx_cfg.gpu_model = "gfx1100";
  struct pm4q q;
  pq_setup(&q);
  put(&q, hdr(0x58, 7));
  put(&q, 0);                       /* COHER_CNTL: unused from gfx10 */
  put(&q, 0xffffffffu);
  put(&q, 0xffffff);
  put(&q, 0);
  put(&q, 0);
  put(&q, 10);                      /* poll interval */
  put(&q, 1u | 1u << 14 | 1u << 15);   /* GLI_INV all, GL2_INV, GL2_WB */
  uint64_t va = q.data.va + 8;
  put(&q, hdr(0x49, 7));            /* RELEASE_MEM: 32-bit data, no interrupt */
  put(&q, 0x14u | 5u << 8);
  put(&q, 1u << 29);
  put(&q, (uint32_t)va);
  put(&q, (uint32_t)(va >> 32));
  put(&q, 0x6f6f);
  put(&q, 0);
  put(&q, 0);
  ring(&q);
  ck_assert(drained(&q));
  cpx_sleep_ms(5);
  ck_assert_uint_eq(data(&q, 2), 0x6f6f);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_HW_EXCEPTION };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  put(&q, hdr(0x58, 6));            /* gfx9's form */
  for (unsigned i = 0; i < 6; i++)
    put(&q, i == 0 ? 1u << 29 : 0);
  write_data(&q, q.data.va, 0xbad);
  ring(&q);
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  cpx_sleep_ms(20);
  ck_assert_uint_eq(data(&q, 0), 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("cp_pm4");
  TCase *t = tcase_create("pm4");
  tcase_set_timeout(t, 30);
  tcase_add_test(t, one_dword_nops_and_fillers_are_skipped);
  tcase_add_test(t, a_packet_submitted_in_two_parts_waits_for_its_rest);
  tcase_add_test(t, a_chained_indirect_buffer_replaces_the_rest_of_its_caller);
  tcase_add_test(t, release_mem_context_id_interrupt_and_timestamp);
  tcase_add_test(t, write_data_reaches_the_sh_registers);
  tcase_add_test(t, dispatch_direct_takes_the_launch_from_the_registers);
  tcase_add_test(t, set_sh_reg_outside_the_sh_registers_halts_with_hw_exception);
  tcase_add_test(t, gfx1100_acquire_mem_takes_the_gcr_form);
  suite_add_tcase(s, t);
  return s;
}
