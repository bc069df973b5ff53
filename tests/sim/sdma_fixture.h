/* SPDX-License-Identifier: MIT */
/* sdma_fixture.h — an SDMA queue for the engine tests, made through the KFD ABI as a runtime
 * makes one: ring and read/write pointers in GTT buffers, packets appended in SDMA v4
 * format, the write pointer (in bytes) rung on the doorbell. Include after cp_fixture.h. */
#ifndef TESTS_SIM_SDMA_FIXTURE_H
#define TESTS_SIM_SDMA_FIXTURE_H

#define SQ_RING 4096u

struct sdmaq {
  struct buf ring, ptrs;
  volatile uint64_t *doorbell;
  uint64_t wptr;
};

static __attribute__((unused)) void sq_setup(struct sdmaq *s)
{
  fx_open();
  memset(s, 0, sizeof *s);
  s->ring = cpx_gtt(SQ_RING);
  s->ptrs = cpx_gtt(4096);
  struct kfd_ioctl_create_queue_args c = {
    .ring_base_address = s->ring.va, .ring_size = SQ_RING, .gpu_id = GPU0,
    .read_pointer_address = s->ptrs.va, .write_pointer_address = s->ptrs.va + 8,
    .queue_type = KFD_IOC_QUEUE_TYPE_SDMA, .queue_percentage = 100, .queue_priority = 7 };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
  s->doorbell = cpx_doorbells(c.doorbell_offset) +
                (c.doorbell_offset & (SIM_DOORBELL_SLICE - 1)) / 8;
}

/* Appends dwords to the ring (wrapping) without ringing. */
static __attribute__((unused)) void put(struct sdmaq *s, const uint32_t *dw, unsigned n)
{
  for (unsigned i = 0; i < n; i++) {
    memcpy(s->ring.host + s->wptr % SQ_RING, &dw[i], 4);
    s->wptr += 4;
  }
}

static __attribute__((unused)) void ring(struct sdmaq *s)
{
  __atomic_store_n((uint64_t *)(s->ptrs.host + 8), s->wptr, __ATOMIC_RELEASE);
  __atomic_store_n(s->doorbell, s->wptr, __ATOMIC_RELEASE);
}

/* The engine's read pointer (bytes consumed). */
static __attribute__((unused)) uint64_t sq_rptr(struct sdmaq *s)
{
  return __atomic_load_n((uint64_t *)s->ptrs.host, __ATOMIC_ACQUIRE);
}

static __attribute__((unused)) void fence(struct sdmaq *s, uint64_t va, uint32_t value)
{
  uint32_t f[4] = { 5, (uint32_t)va, (uint32_t)(va >> 32), value };
  put(s, f, 4);
}

static __attribute__((unused)) bool wait32(volatile uint32_t *p, uint32_t want)
{
  for (unsigned i = 0; i < 5000; i++) {
    if (__atomic_load_n(p, __ATOMIC_ACQUIRE) == want)
      return true;
    cpx_sleep_ms(1);
  }
  return false;
}

#endif
