/* SPDX-License-Identifier: MIT */
/* test_kfd_qbufs.c — CREATE_QUEUE on a gfx942 node checks its buffers as 6.12+ kernels do
 * (kfd_queue.c): the ring, read and write pointers, EOP and CWSR area must each be a whole
 * GPU mapping of the node's size, the control stack and save area sizes the node publishes
 * (the captured MI300X: ctl_stack_size 12288, cwsr_size 23203840, 8 XCCs); else -EINVAL.
 * The older boards' kernels have no such checks. gfx1100/gfx1201: their node's sizes and the
 * MES write-pointer rules. */
#include "kfd_fixture.h"

#define CTL 12288u
#define CWSR 23203840u
#define DEBUG_PER_XCC 48640u   /* 1520 waves x 32 bytes */
#define CWSR_TOTAL ((uint64_t)(CWSR + DEBUG_PER_XCC) * 8)
#define RING 0x10000000ull
#define PTRS 0x10100000ull
#define PTRS2 0x10200000ull   /* a two-page buffer */
#define EOP 0x10300000ull
#define SAVE 0x20000000ull

static void buffer(uint64_t va, uint64_t size)
{
  int e;
  uint64_t h = fx_alloc(GPU0, va, size, GTT_RW, &e);
  ck_assert_int_eq(e, 0);
  uint32_t id = GPU0;
  ck_assert_int_eq(fx_map(h, &id, 1, true), 0);
}

static void setup(const char *model, uint64_t save_size)
{
  fx_cfg.gpu_model = model;
  fx_open();
  buffer(RING, 0x10000);
  buffer(PTRS, 4096);
  buffer(PTRS2, 8192);
  buffer(EOP, 4096);
  buffer(SAVE, save_size);
}

static struct kfd_ioctl_create_queue_args good(void)
{
  return (struct kfd_ioctl_create_queue_args){
    .ring_base_address = RING, .ring_size = 0x10000, .gpu_id = GPU0,
    .write_pointer_address = PTRS + 0x38, .read_pointer_address = PTRS + 0x80,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, .queue_percentage = 100, .queue_priority = 7,
    .eop_buffer_address = EOP, .eop_buffer_size = 4096,
    .ctx_save_restore_address = SAVE, .ctx_save_restore_size = CWSR, .ctl_stack_size = CTL };
}

static void create(struct kfd_ioctl_create_queue_args a, int want)
{
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), want);
  if (want == 0) {
    struct kfd_ioctl_destroy_queue_args d = { .queue_id = a.queue_id };
    ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  }
}

START_TEST(gfx942_accepts_the_node_sizes)
{
  setup("gfx942", CWSR_TOTAL);
  create(good(), 0);
  struct kfd_ioctl_create_queue_args a = good();
  a.eop_buffer_address = 0;   /* the EOP buffer is optional, its size then unchecked */
  a.eop_buffer_size = 0;
  create(a, 0);
  /* SDMA queues have neither EOP nor CWSR */
  a = good();
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  a.eop_buffer_address = a.ctx_save_restore_address = 0;
  a.eop_buffer_size = a.ctx_save_restore_size = a.ctl_stack_size = 0;
  create(a, 0);
}
END_TEST

START_TEST(gfx942_refuses_wrong_sizes)
{
  setup("gfx942", CWSR_TOTAL);
  struct kfd_ioctl_create_queue_args a = good();
  a.ctl_stack_size = CTL - 4096;
  create(a, -EINVAL);
  a = good(); a.ctl_stack_size = CTL + 4096;
  create(a, -EINVAL);
  a = good(); a.ctx_save_restore_size = CWSR + 4096;
  create(a, -EINVAL);
  a = good(); a.ctx_save_restore_size = 0;   /* no CWSR: refused where the node has it */
  a.ctl_stack_size = 0;
  create(a, -EINVAL);
  a = good(); a.eop_buffer_size = 2048;
  create(a, -EINVAL);
  a = good(); a.ring_size = 0x8000;           /* half of its buffer */
  create(a, -EINVAL);
  a = good(); a.ring_base_address = RING + 0x1000;   /* not the buffer's start */
  a.ring_size = 0x8000;
  create(a, -EINVAL);
  a = good(); a.read_pointer_address = PTRS2;   /* two pages, not one */
  create(a, -EINVAL);
  a = good(); a.write_pointer_address = 0x30000000;   /* nothing mapped there */
  create(a, -EINVAL);
  create(good(), 0);   /* and the right one still goes through */
}
END_TEST

/* A save area sized for one XCC (cwsr_size + debugger bytes) is short by seven. */
START_TEST(gfx942_refuses_a_save_area_for_one_xcc)
{
  setup("gfx942", (CWSR + DEBUG_PER_XCC + 4095) / 4096 * 4096);
  create(good(), -EINVAL);
}
END_TEST

START_TEST(gfx942_apu_same_rules_six_xccs)
{
  setup("gfx942-apu", (uint64_t)(CWSR + DEBUG_PER_XCC) * 6);
  create(good(), 0);
  struct kfd_ioctl_create_queue_args a = good();
  a.ctl_stack_size = 0;
  create(a, -EINVAL);
}
END_TEST

/* RDNA3/RDNA4: the node's sizes (gfx1100: 96 CUs x 32 waves, ctl 40 + 3072 x 12 + 8 bytes
 * in pages; save area plus 96 x 0x75000 wave state; gfx1201: the captured 28672/30699520),
 * one XCC, EOP 4096 bytes; each wrong size refused. */
#define RDNA_EOP 4096u
static struct kfd_ioctl_create_queue_args rdna(uint32_t ctl, uint32_t cwsr)
{
  struct kfd_ioctl_create_queue_args a = good();
  a.eop_buffer_size = RDNA_EOP;
  a.ctl_stack_size = ctl;
  a.ctx_save_restore_size = cwsr;
  return a;
}

static void rdna_rules(const char *model, uint32_t ctl, uint32_t cwsr, uint32_t waves)
{
  setup(model, (uint64_t)cwsr + waves * 32u);
  create(rdna(ctl, cwsr), 0);
  struct kfd_ioctl_create_queue_args a = rdna(ctl, cwsr);
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  a.eop_buffer_address = a.ctx_save_restore_address = 0;
  a.eop_buffer_size = a.ctx_save_restore_size = a.ctl_stack_size = 0;
  create(a, 0);
  a = rdna(ctl, cwsr); a.eop_buffer_size = 2048;   /* not the node's 4 KiB */
  create(a, -EINVAL);
  a = rdna(ctl, cwsr); a.ctl_stack_size = 0x7000 == ctl ? 0x6000 : 0x7000;
  create(a, -EINVAL);
  /* gfx9's VGPR file (0x40000 per CU) gives a smaller save area: refused */
  a = rdna(ctl, cwsr); a.ctx_save_restore_size = cwsr - (cwsr - ctl) / 0x75000u * 0x20000u;
  create(a, -EINVAL);
  a = rdna(ctl, cwsr); a.write_pointer_address = PTRS2;   /* MES: a GART page at most */
  create(a, -EINVAL);
  a = rdna(ctl, cwsr); a.write_pointer_address = 0x30000000;   /* nothing mapped there */
  create(a, -EINVAL);
  create(rdna(ctl, cwsr), 0);
}

START_TEST(gfx1100_node_sizes)
{
  rdna_rules("gfx1100", 40960, 40960 + 96 * 0x75000u, 96 * 32);
}
END_TEST

START_TEST(gfx1201_node_sizes)
{
  rdna_rules("gfx1201", 28672, 30699520, 64 * 32);
}
END_TEST

/* MES looks the write pointer's buffer up in this device's VM and maps it to the GART: system
 * memory allocated on GPU 0 and mapped on GPU 1 is GPU 0's buffer (refused on GPU 1 without
 * the 6.12+ size checks' help: the buffer is a whole page); allocated on GPU 1, it goes. */
START_TEST(gfx1100_wptr_of_another_device)
{
  fx_cfg.gpu_model = "gfx1100";
  fx_cfg.gpu_count = 2;
  fx_open();
  uint32_t both[2] = { GPU0, sim_gpu(1)->gpu_id };
  int e;
  uint64_t h;
  const uint64_t bufs[][2] = { { RING, 0x10000 }, { EOP, 4096 }, { SAVE, 40960 + 96 * 0x75000u + 96 * 32 * 32 } };
  for (unsigned i = 0; i < 3; i++) {
    h = fx_alloc(both[1], bufs[i][0], bufs[i][1], GTT_RW, &e);
    ck_assert_int_eq(e, 0);
    ck_assert_int_eq(fx_map(h, both, 2, true), 0);
  }
  h = fx_alloc(GPU0, PTRS, 4096, GTT_RW, &e);   /* GPU 0's page, mapped on both */
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(fx_map(h, both, 2, true), 0);
  h = fx_alloc(both[1], PTRS2, 4096, GTT_RW, &e);   /* GPU 1's own page */
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(fx_map(h, both, 2, true), 0);
  struct kfd_ioctl_create_queue_args a = rdna(40960, 40960 + 96 * 0x75000u);
  a.gpu_id = both[1];
  create(a, -EINVAL);
  a.write_pointer_address = PTRS2;
  create(a, 0);
}
END_TEST

/* gfx900's kernel generation has none of these checks (nor publishes the sizes). */
START_TEST(gfx900_has_no_buffer_checks)
{
  setup("gfx900", 4096);
  struct kfd_ioctl_create_queue_args a = good();
  a.ctl_stack_size = 4096;
  a.ctx_save_restore_size = 8192;
  a.eop_buffer_size = 2048;
  a.ring_size = 0x8000;
  create(a, 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_qbufs");
  TCase *t = tcase_create("qbufs");
  tcase_add_test(t, gfx942_accepts_the_node_sizes);
  tcase_add_test(t, gfx942_refuses_wrong_sizes);
  tcase_add_test(t, gfx942_refuses_a_save_area_for_one_xcc);
  tcase_add_test(t, gfx942_apu_same_rules_six_xccs);
  tcase_add_test(t, gfx900_has_no_buffer_checks);
  tcase_add_test(t, gfx1100_node_sizes);
  tcase_add_test(t, gfx1201_node_sizes);
  tcase_add_test(t, gfx1100_wptr_of_another_device);
  suite_add_tcase(s, t);
  return s;
}
