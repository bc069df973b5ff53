/* SPDX-License-Identifier: MIT */
/* queue.h — KFD user-mode queues: CREATE/DESTROY/UPDATE_QUEUE, SET_CU_MASK, ALLOC_QUEUE_GWS,
 * and the per-GPU doorbell slice of /dev/kfd each queue rings.
 * Thin: the caller allocates the ring, EOP buffer and context save area (kfd has no memory
 * policy); this file computes the sizes the kernel expects and issues the ioctls. */
#ifndef KFD_QUEUE_H
#define KFD_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kfd/kfd.h"

/* KFD queue types (KFD_IOC_QUEUE_TYPE_*). */
enum kfd_queue_type { KFD_QUEUE_COMPUTE = 0, KFD_QUEUE_SDMA = 1, KFD_QUEUE_COMPUTE_AQL = 2,
                      KFD_QUEUE_SDMA_XGMI = 3, KFD_QUEUE_SDMA_BY_ENG_ID = 4 };
/* KFD_QUEUE_SDMA_BY_ENG_ID (a queue on a named SDMA engine) exists from KFD 1.17. */
bool kfd_has_sdma_by_engine(const struct kfd_device *dev);

/* The buffers a compute queue needs besides its ring, for a GPU with gfx version `gfxv`
 * (major << 16 | minor << 8 | stepping) and node properties `props`. Sizes 0 = not needed. */
struct kfd_queue_sizes {
  uint32_t eop_size;          /* end-of-pipe buffer (device memory) */
  uint32_t ctx_save_size;     /* CWSR area per XCC as the kernel sees it */
  uint32_t ctl_stack_size;    /* control stack at its start */
  uint32_t debug_size;        /* debugger area per XCC */
  uint64_t ctx_total;         /* bytes to allocate: (ctx_save + debug) * XCCs, page-aligned */
  uint32_t num_xcc;
  uint32_t doorbell_slice;    /* bytes of /dev/kfd doorbells mapped per GPU */
};
void kfd_queue_sizes(const struct kfd_node_props *props, uint32_t gfxv,
                     struct kfd_queue_sizes *out);
/* Writes the context save area header(s) the trap handler and debugger read. */
void kfd_queue_cwsr_header(void *area, const struct kfd_queue_sizes *s, uint32_t error_event_id,
                           volatile int64_t *error_reason);

struct kfd_queue_args {
  uint32_t gpu_id;
  enum kfd_queue_type type;
  uint32_t percentage;        /* 0..100 */
  uint32_t priority;          /* KFD priority 0..15 */
  uint64_t ring, ring_size;   /* ring buffer address and bytes (power of two) */
  volatile void *read_ptr, *write_ptr;
  uint64_t eop, eop_size;
  uint64_t ctx_save, ctx_save_size, ctl_stack_size;
  uint32_t doorbell_slice;    /* kfd_queue_sizes().doorbell_slice */
  uint32_t sdma_engine_id;    /* KFD_QUEUE_SDMA_BY_ENG_ID: PCIe engines first, then xGMI */
};

struct kfd_queue {
  uint32_t queue_id;
  uint32_t gpu_id;
  volatile uint64_t *doorbell; /* this queue's doorbell in the mapped slice */
  uint32_t doorbell_index;     /* its place in the slice (doorbells): the id a wave's
                                  s_sendmsg(MSG_GET_DOORBELL) answers */
};

/* CREATE_QUEUE and the doorbell mapping (one mmap of /dev/kfd per GPU, shared by its
 * queues, released with the last kfd_queue_doorbell_release). 0 or -errno. */
int kfd_queue_create(const struct kfd_device *dev, const struct kfd_queue_args *args,
                     struct kfd_queue *out);
int kfd_queue_destroy(const struct kfd_device *dev, struct kfd_queue *q);
/* Drops the queue's use of the doorbell slice (after destroy: stores to the doorbell may
 * still happen between the two, as in hsa_queue_inactivate followed by a late doorbell). */
void kfd_queue_doorbell_release(struct kfd_queue *q);
/* UPDATE_QUEUE: percentage 0 suspends the queue (the scheduler stops running it). */
int kfd_queue_update(const struct kfd_device *dev, const struct kfd_queue *q, uint32_t percentage,
                     uint32_t priority, uint64_t ring, uint64_t ring_size);
/* SET_CU_MASK: `bits` a multiple of 32. */
int kfd_queue_set_cu_mask(const struct kfd_device *dev, const struct kfd_queue *q, uint32_t bits,
                          const uint32_t *mask);
/* ALLOC_QUEUE_GWS: gives the queue the global wave sync resource (num 0 takes it back). */
int kfd_queue_alloc_gws(const struct kfd_device *dev, const struct kfd_queue *q, uint32_t num,
                        uint32_t *first);
/* SET_TRAP_HANDLER: the second-level trap handler (code at tba) and its TMA for this
 * process on gpu_id; the kernel's first-level handler jumps there. 0 or -errno. */
int kfd_set_trap_handler(const struct kfd_device *dev, uint32_t gpu_id, uint64_t tba,
                         uint64_t tma);

/* Kernel priority (0..15) for the thunk-style priority -3..3. */
uint32_t kfd_queue_priority(int level);

#endif
