/* SPDX-License-Identifier: MIT */
/* test_kfd_queue.c — CREATE/DESTROY/UPDATE_QUEUE, CU masks, wave state, GWS, doorbells,
 * with the kernel's errno for each invalid argument class. */
#include "kfd_fixture.h"

#include <kfd_abi/kfd_ioctl_supp.h>

#define ENOTSUPP 524
#define DOORBELL_TYPE (3ull << 62)

static uint64_t rw_words[4];

static struct kfd_ioctl_create_queue_args aql(void)
{
  return (struct kfd_ioctl_create_queue_args){
    .ring_base_address = 0x1000000, .ring_size = 4096 * 16, .gpu_id = GPU0,
    .read_pointer_address = (uintptr_t)&rw_words[0], .write_pointer_address = (uintptr_t)&rw_words[1],
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, .queue_percentage = 100, .queue_priority = 7 };
}

START_TEST(create_returns_id_and_doorbell)
{
  fx_open();
  struct kfd_ioctl_create_queue_args a = aql(), b = aql();
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  ck_assert_uint_eq(a.queue_id, 0);
  ck_assert_uint_eq(a.doorbell_offset, DOORBELL_TYPE | (uint64_t)GPU0 << 46 | 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &b), 0);
  ck_assert_uint_eq(b.queue_id, 1);
  ck_assert_uint_eq(b.doorbell_offset, DOORBELL_TYPE | (uint64_t)GPU0 << 46 | 8);
  struct kfd_ioctl_destroy_queue_args d = { .queue_id = 0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), -EINVAL);   /* gone */
  struct kfd_ioctl_create_queue_args c = aql();
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
  ck_assert_uint_eq(c.queue_id, 0);   /* lowest free id and doorbell again */
  ck_assert_uint_eq(c.doorbell_offset & 0xfff, 0);
}
END_TEST

START_TEST(create_invalid_arguments)
{
  fx_build();
  ck_assert_int_eq(sim_kfd_open(), 0);
  struct kfd_ioctl_create_queue_args a = aql();
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -ESRCH);   /* no VM on the GPU */
  fx_open();
  a = aql(); a.queue_percentage = 101;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EINVAL);
  a = aql(); a.queue_priority = 16;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EINVAL);
  a = aql(); a.ring_size = 3000;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EINVAL);   /* not a power of two */
  a = aql(); a.ring_base_address = 0xffff800000000000ull;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EFAULT);   /* kernel address */
  a = aql(); a.read_pointer_address = 0x7ffffffffffeull;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EFAULT);
  a = aql(); a.write_pointer_address = ~0ull;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EFAULT);
  a = aql(); a.eop_buffer_address = 0xfffffffffffff000ull;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EFAULT);
  a = aql(); a.queue_type = 9;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -ENOTSUPP);
  a = aql(); a.gpu_id = 0x4242;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -EINVAL);
  a = aql(); a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA_XGMI;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -ENOMEM);   /* gfx900 has no xGMI SDMA */
}
END_TEST

START_TEST(sdma_queues_and_exhaustion)
{
  fx_open();
  const struct sim_gpu_model *m = sim_gpu(0)->model;
  unsigned n = m->num_sdma_engines * m->num_sdma_queues_per_engine;
  ck_assert_uint_ge(n, 2);
  uint64_t expect[2] = { 0xf0 * 8, 0xf2 * 8 };   /* engine 0, engine 1 */
  for (unsigned i = 0; i < n; i++) {
    struct kfd_ioctl_create_queue_args a = aql();
    a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
    ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
    if (i < 2)
      ck_assert_uint_eq(a.doorbell_offset & 0x3fff, expect[i]);
  }
  struct kfd_ioctl_create_queue_args a = aql();
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), -ENOMEM);
  struct kfd_ioctl_destroy_queue_args d = { .queue_id = 1 };
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  ck_assert_uint_eq(a.doorbell_offset & 0x3fff, 0xf2 * 8);   /* engine 1's slot again */
}
END_TEST

/* CREATE_QUEUE in 1.17's 96-byte form: queue type SDMA_BY_ENG_ID on SDMA engine `engine`. */
static int create_on(uint32_t engine, struct kfd_ioctl_create_queue_args *out)
{
  union {
    struct kfd_ioctl_create_queue_args a;
    unsigned char b[KFD_SUPP_CREATE_QUEUE_SIZE_V17];
  } u;
  memset(&u, 0, sizeof u);
  u.a = aql();
  u.a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID;
  kfd_supp_set_create_queue_engine(u.b, engine);
  int r = kio(AMDKFD_SUPP_IOC_CREATE_QUEUE_V17, u.b);
  *out = u.a;
  return r;
}

/* KFD 1.17: a queue on a named engine takes that engine's next free slot (its doorbell is
 * that engine's), an engine past the last is EINVAL, a full engine ENOMEM while another has
 * room; the 88-byte form reads engine 0. Below 1.17 the type is unknown (ENOTSUPP). */
START_TEST(sdma_by_engine_id)
{
  fx_cfg.kfd_minor = 16;
  fx_open();
  struct kfd_ioctl_create_queue_args a;
  ck_assert_int_eq(create_on(1, &a), -ENOTSUPP);
  fx_cfg.kfd_minor = 17;
  ck_assert_int_eq(create_on(2, &a), -EINVAL);        /* gfx900: engines 0 and 1 */
  ck_assert_int_eq(create_on(~0u, &a), -EINVAL);
  ck_assert_int_eq(create_on(1, &a), 0);              /* engine 1 though engine 0 is free */
  ck_assert_uint_eq(a.doorbell_offset & 0x3fff, 0xf2 * 8);
  uint64_t second = 0;
  ck_assert_int_eq(create_on(1, &a), 0);              /* engine 1's queue 1 */
  second = a.doorbell_offset & 0x3fff;
  ck_assert_uint_ne(second, 0xf2 * 8);
  ck_assert_uint_ne(second, 0xf0 * 8);
  ck_assert_int_eq(create_on(1, &a), -ENOMEM);        /* two queues per engine on gfx900 */
  a = aql();
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID;   /* 88 bytes: engine 0 */
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  ck_assert_uint_eq(a.doorbell_offset & 0x3fff, 0xf0 * 8);
  a = aql();
  a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;              /* the one slot left */
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  ck_assert_int_eq(create_on(0, &a), -ENOMEM);
  fx_cfg.kfd_minor = 0;
}
END_TEST

/* On a board with xGMI engines their ids follow the PCIe ones: gfx90a has 2 + 3. */
START_TEST(sdma_by_engine_id_xgmi)
{
  fx_cfg.gpu_model = "gfx90a";
  fx_open();
  struct kfd_ioctl_create_queue_args a;
  ck_assert_int_eq(create_on(2, &a), 0);              /* the first xGMI engine */
  ck_assert_uint_eq(a.doorbell_offset & 0x3fff, 0x114 * 8);
  ck_assert_int_eq(create_on(4, &a), 0);
  ck_assert_uint_eq(a.doorbell_offset & 0x3fff, 0x128 * 8);
  ck_assert_int_eq(create_on(5, &a), -EINVAL);
  fx_cfg.gpu_model = "gfx900";
}
END_TEST

START_TEST(update_cu_mask_wave_state)
{
  fx_open();
  struct kfd_ioctl_create_queue_args a = aql();
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  struct kfd_ioctl_update_queue_args u = { .ring_base_address = 0x2000000, .queue_id = a.queue_id,
                                           .ring_size = 8192, .queue_percentage = 50 };
  ck_assert_int_eq(kio(AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
  u.queue_id = 77;
  ck_assert_int_eq(kio(AMDKFD_IOC_UPDATE_QUEUE, &u), -EFAULT);   /* unknown queue */
  u.queue_id = a.queue_id; u.ring_size = 100;
  ck_assert_int_eq(kio(AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);
  u.ring_size = 8192; u.queue_priority = 99;
  ck_assert_int_eq(kio(AMDKFD_IOC_UPDATE_QUEUE, &u), -EINVAL);

  uint32_t mask[2] = { 0xffffffffu, 0xffffffffu };
  struct kfd_ioctl_set_cu_mask_args c = { .queue_id = a.queue_id, .num_cu_mask = 64,
                                          .cu_mask_ptr = (uintptr_t)mask };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_CU_MASK, &c), 0);
  c.num_cu_mask = 33;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_CU_MASK, &c), -EINVAL);
  c.num_cu_mask = 0;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_CU_MASK, &c), -EINVAL);
  c.num_cu_mask = 64; c.cu_mask_ptr = 40;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_CU_MASK, &c), -EFAULT);
  c.cu_mask_ptr = (uintptr_t)mask; c.queue_id = 77;
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_CU_MASK, &c), -EFAULT);

  struct kfd_ioctl_get_queue_wave_state_args w = { .queue_id = a.queue_id };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &w), -EINVAL);   /* active queue */
  u = (struct kfd_ioctl_update_queue_args){ .queue_id = a.queue_id };   /* deactivate */
  ck_assert_int_eq(kio(AMDKFD_IOC_UPDATE_QUEUE, &u), 0);
  w.ctl_stack_used_size = 5;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &w), 0);
  ck_assert_uint_eq(w.ctl_stack_used_size, 0);
  w.queue_id = 77;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &w), -EFAULT);

  struct kfd_ioctl_alloc_queue_gws_args g = { .queue_id = a.queue_id, .num_gws = 1 };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_QUEUE_GWS, &g), sim_gpu(0)->model->num_gws ? 0 : -ENODEV);
  g.queue_id = 77;
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_QUEUE_GWS, &g), -EINVAL);

  struct kfd_ioctl_set_xnack_mode_args x = { .xnack_enabled = 0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_XNACK_MODE, &x), -EBUSY);   /* queues exist */
}
END_TEST

START_TEST(doorbell_page_mmap_and_bo)
{
  fx_open();
  struct kfd_ioctl_create_queue_args a = aql(), b = aql();
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &a), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &b), 0);
  int err = 0;
  uint64_t off = a.doorbell_offset & ~0x1fffull;
  ck_assert_ptr_eq(sim_kfd_mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, (off_t)off, &err),
                   MAP_FAILED);
  ck_assert_int_eq(err, EINVAL);   /* only the whole 8 KiB slice */
  ck_assert_ptr_eq(sim_kfd_mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
                                (off_t)(DOORBELL_TYPE | 0x4242ull << 46), &err), MAP_FAILED);
  ck_assert_int_eq(err, ENODEV);
  /* the thunk's pattern: a DOORBELL buffer in the GPU VM, the slice mapped over its VA */
  struct kfd_ioctl_alloc_memory_of_gpu_args d = { .va_addr = 0x3000000, .size = 8192, .gpu_id = GPU0,
                                                  .flags = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &d), 0);
  uint32_t id = GPU0;
  ck_assert_int_eq(fx_map(d.handle, &id, 1, true), 0);
  uint64_t *db = sim_kfd_mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, (off_t)off, &err);
  ck_assert_ptr_ne(db, MAP_FAILED);
  db[1] = 0x1234;   /* ring queue 1's doorbell */
  uint64_t *gpu_view = sim_vm_translate(sim_gpu(0), 0x3000000 + 8, 8);
  ck_assert_ptr_nonnull(gpu_view);
  ck_assert_uint_eq(*gpu_view, 0x1234);
  /* MMIO remap page through /dev/kfd: one page only */
  ck_assert_ptr_eq(sim_kfd_mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
                                (off_t)((uint64_t)GPU0 << 46), &err), MAP_FAILED);
  ck_assert_int_eq(err, EINVAL);
  ck_assert_ptr_ne(sim_kfd_mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
                                (off_t)((uint64_t)GPU0 << 46), &err), MAP_FAILED);
  ck_assert_ptr_eq(sim_kfd_mmap(NULL, 4096, PROT_READ, MAP_SHARED, 12, &err), MAP_FAILED);
  ck_assert_int_eq(err, EINVAL);   /* unaligned offset */
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_queue");
  TCase *t = tcase_create("queue");
  tcase_add_test(t, create_returns_id_and_doorbell);
  tcase_add_test(t, create_invalid_arguments);
  tcase_add_test(t, sdma_queues_and_exhaustion);
  tcase_add_test(t, sdma_by_engine_id);
  tcase_add_test(t, sdma_by_engine_id_xgmi);
  tcase_add_test(t, update_cu_mask_wave_state);
  tcase_add_test(t, doorbell_page_mmap_and_bo);
  suite_add_tcase(s, t);
  return s;
}
