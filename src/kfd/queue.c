/* SPDX-License-Identifier: MIT */
/* queue.c — KFD user-mode queues and their doorbells. The sizes follow what the kernel
 * checks (or, for older kernels that do not publish them in the topology, what the AMD thunk
 * computes for the same hardware), so that a real driver accepts the queue. */
#include "kfd/queue.h"

#include <kfd_abi/kfd_ioctl_supp.h>

#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 4096u
#define ALIGN_UP(v, a) (((v) + (a) - 1) / (a) * (a))

/* Bytes of the wave state saved per CU: VGPRs (bigger on the MI100/200/300 parts and
 * RDNA3.5/4), SGPRs, the CU's LDS and hardware registers. */
static uint32_t wg_data_per_cu(uint32_t gfxv, uint64_t lds_kb) {
  uint32_t vgpr = 0x40000;
  if (gfxv == 0x90008 || gfxv == 0x9000a || (gfxv & ~0xffu) == 0x90400 ||
      (gfxv & ~0xffu) == 0x90500)
    vgpr = 0x80000;
  else if (gfxv == 0xb0500 || gfxv == 0xb0501 || gfxv == 0xc0000 || gfxv == 0xc0001)
    vgpr = 0x60000;
  uint32_t lds = lds_kb ? (uint32_t)lds_kb * 1024u : 0x10000u;
  return vgpr + 0x4000 + lds + 0x1000;
}

/* The context save area header the trap handler reads: offsets and sizes of the saved
 * control stack, wave state and debugger area, then where to report errors. */
struct cwsr_header {
  uint32_t ctl_stack_offset, ctl_stack_size, wave_state_offset, wave_state_size;
  uint32_t debug_offset, debug_size;
  uint64_t error_reason;      /* address of a signal payload */
  uint32_t error_event_id, reserved;
};

void kfd_queue_sizes(const struct kfd_node_props *props, uint32_t gfxv,
                     struct kfd_queue_sizes *out) {
  memset(out, 0, sizeof(*out));
  out->num_xcc = props->num_xcc ? (uint32_t)props->num_xcc : 1;
  out->doorbell_slice = 1024u * (gfxv >= 0x90000 ? 8u : 4u);
  if (gfxv >= 0x80000) out->eop_size = 4096;
  if (gfxv < 0x80001 || !props->simd_count || !props->simd_per_cu) return; /* no CWSR */
  uint32_t cu = (uint32_t)(props->simd_count / props->simd_per_cu) / out->num_xcc;
  uint32_t arrays = props->simd_arrays_per_engine ? (uint32_t)props->simd_arrays_per_engine : 1;
  uint32_t engines = (uint32_t)props->array_count / arrays;
  uint32_t waves = gfxv < 0xa0100 ? cu * 40 : cu * 32;
  if (gfxv < 0xa0100 && engines / arrays * 512 < waves) waves = engines / arrays * 512;
  uint32_t ctl = waves * (gfxv >= 0xa0100 ? 12u : 8u) + 8;
  out->ctl_stack_size = ALIGN_UP((uint32_t)sizeof(struct cwsr_header) + ctl, PAGE);
  if ((gfxv & 0x3f0000) == 0xa0000 && out->ctl_stack_size > 0x7000) out->ctl_stack_size = 0x7000;
  out->debug_size = ALIGN_UP(waves * 32u, 64u);
  out->ctx_save_size = out->ctl_stack_size + ALIGN_UP(cu * wg_data_per_cu(gfxv, props->lds_size_in_kb), PAGE);
  /* Newer kernels publish their own figures and refuse anything else. */
  if (props->cwsr_size && props->ctl_stack_size) {
    out->ctx_save_size = (uint32_t)props->cwsr_size;
    out->ctl_stack_size = (uint32_t)props->ctl_stack_size;
  }
  out->ctx_total = ALIGN_UP((uint64_t)(out->ctx_save_size + out->debug_size) * out->num_xcc,
                            (uint64_t)PAGE);
}

void kfd_queue_cwsr_header(void *area, const struct kfd_queue_sizes *s, uint32_t error_event_id,
                           volatile int64_t *error_reason) {
  for (uint32_t i = 0; i < s->num_xcc; i++) {
    struct cwsr_header h = {0};
    h.error_event_id = error_event_id;
    h.error_reason = (uint64_t)(uintptr_t)error_reason;
    h.debug_offset = (s->num_xcc - i) * s->ctx_save_size;
    h.debug_size = s->debug_size * s->num_xcc;
    memcpy((char *)area + (size_t)i * s->ctx_save_size, &h, sizeof(h));
  }
}

/* ---- doorbell slices: one mapping per GPU, counted by the queues using it ---------------- */
#define MAX_SLICES 64
static struct slice {
  uint32_t gpu_id;
  unsigned users;
  void *map;
  size_t size;
} slices[MAX_SLICES];
static pthread_mutex_t slice_lock = PTHREAD_MUTEX_INITIALIZER;

static void *slice_get(int fd, uint32_t gpu_id, uint64_t offset, size_t size) {
  void *r = NULL;
  pthread_mutex_lock(&slice_lock);
  struct slice *free_slot = NULL;
  for (unsigned i = 0; i < MAX_SLICES; i++) {
    if (slices[i].users && slices[i].gpu_id == gpu_id) {
      slices[i].users++;
      r = slices[i].map;
      goto out;
    }
    if (!slices[i].users && !free_slot) free_slot = &slices[i];
  }
  if (free_slot) {
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    if (m != MAP_FAILED) {
      *free_slot = (struct slice){gpu_id, 1, m, size};
      r = m;
    }
  }
out:
  pthread_mutex_unlock(&slice_lock);
  return r;
}

static void slice_put(uint32_t gpu_id) {
  pthread_mutex_lock(&slice_lock);
  for (unsigned i = 0; i < MAX_SLICES; i++)
    if (slices[i].users && slices[i].gpu_id == gpu_id) {
      if (--slices[i].users == 0) munmap(slices[i].map, slices[i].size);
      break;
    }
  pthread_mutex_unlock(&slice_lock);
}

bool kfd_has_sdma_by_engine(const struct kfd_device *dev) {
  return dev->major == 1 && dev->minor >= 17;   /* SDMA_BY_ENG_ID came with 1.17 */
}

int kfd_queue_create(const struct kfd_device *dev, const struct kfd_queue_args *a,
                     struct kfd_queue *out) {
  if (!a->doorbell_slice || (a->doorbell_slice & (a->doorbell_slice - 1))) return -EINVAL;
  /* the argument as 1.17 has it (96 bytes, sdma_engine_id after ctl_stack_size), whichever
   * size this system's header gives the struct */
  union {
    struct kfd_ioctl_create_queue_args args;
    unsigned char v17[KFD_SUPP_CREATE_QUEUE_SIZE_V17];
  } u;
  _Static_assert(sizeof(struct kfd_ioctl_create_queue_args) <= KFD_SUPP_CREATE_QUEUE_SIZE_V17,
                 "create-queue argument");
  memset(&u, 0, sizeof(u));
  struct kfd_ioctl_create_queue_args args = {0};
  args.ring_base_address = a->ring;
  args.ring_size = (uint32_t)a->ring_size;
  args.write_pointer_address = (uint64_t)(uintptr_t)a->write_ptr;
  args.read_pointer_address = (uint64_t)(uintptr_t)a->read_ptr;
  args.gpu_id = a->gpu_id;
  args.queue_type = (uint32_t)a->type;
  args.queue_percentage = a->percentage;
  args.queue_priority = a->priority;
  args.eop_buffer_address = a->eop;
  args.eop_buffer_size = a->eop_size;
  args.ctx_save_restore_address = a->ctx_save;
  args.ctx_save_restore_size = (uint32_t)a->ctx_save_size;
  args.ctl_stack_size = (uint32_t)a->ctl_stack_size;
  int rc;
  if (a->type == KFD_QUEUE_SDMA_BY_ENG_ID) {   /* the only type that reads the engine */
    memcpy(&u.args, &args, sizeof(args));
    kfd_supp_set_create_queue_engine(u.v17, a->sdma_engine_id);
    rc = kfd_ioctl(dev->fd, AMDKFD_SUPP_IOC_CREATE_QUEUE_V17, u.v17);
    memcpy(&args, &u.args, sizeof(args));
  } else {
    rc = kfd_ioctl(dev->fd, AMDKFD_IOC_CREATE_QUEUE, &args);
  }
  kfd_report("AMDKFD_IOC_CREATE_QUEUE", rc);
  if (rc) return rc;
  /* SOC15 parts return the doorbell's place inside the slice in the low bits. */
  uint64_t mask = a->doorbell_slice - 1;
  void *map = slice_get(dev->fd, a->gpu_id, args.doorbell_offset & ~mask, a->doorbell_slice);
  if (!map) {
    struct kfd_ioctl_destroy_queue_args d = {.queue_id = args.queue_id};
    kfd_ioctl(dev->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
    return -ENOMEM;
  }
  out->queue_id = args.queue_id;
  out->gpu_id = a->gpu_id;
  out->doorbell = (volatile uint64_t *)((char *)map + (args.doorbell_offset & mask));
  out->doorbell_index = (uint32_t)((args.doorbell_offset & mask) / (a->doorbell_slice / 1024u));
  return 0;
}

int kfd_queue_destroy(const struct kfd_device *dev, struct kfd_queue *q) {
  struct kfd_ioctl_destroy_queue_args d = {.queue_id = q->queue_id};
  return kfd_ioctl(dev->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
}

void kfd_queue_doorbell_release(struct kfd_queue *q) {
  if (q->doorbell) slice_put(q->gpu_id);
  q->doorbell = NULL;
}

int kfd_queue_update(const struct kfd_device *dev, const struct kfd_queue *q, uint32_t percentage,
                     uint32_t priority, uint64_t ring, uint64_t ring_size) {
  struct kfd_ioctl_update_queue_args u = {0};
  u.ring_base_address = ring;
  u.queue_id = q->queue_id;
  u.ring_size = (uint32_t)ring_size;
  u.queue_percentage = percentage;
  u.queue_priority = priority;
  return kfd_ioctl(dev->fd, AMDKFD_IOC_UPDATE_QUEUE, &u);
}

int kfd_queue_set_cu_mask(const struct kfd_device *dev, const struct kfd_queue *q, uint32_t bits,
                          const uint32_t *mask) {
  struct kfd_ioctl_set_cu_mask_args m = {0};
  m.queue_id = q->queue_id;
  m.num_cu_mask = bits;
  m.cu_mask_ptr = (uint64_t)(uintptr_t)mask;
  return kfd_ioctl(dev->fd, AMDKFD_IOC_SET_CU_MASK, &m);
}

int kfd_queue_alloc_gws(const struct kfd_device *dev, const struct kfd_queue *q, uint32_t num,
                        uint32_t *first) {
  struct kfd_ioctl_alloc_queue_gws_args g = {0};
  g.queue_id = q->queue_id;
  g.num_gws = num;
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &g);
  if (!rc && first) *first = g.first_gws;
  return rc;
}

int kfd_set_trap_handler(const struct kfd_device *dev, uint32_t gpu_id, uint64_t tba,
                         uint64_t tma) {
  struct kfd_ioctl_set_trap_handler_args t = {0};
  t.tba_addr = tba;
  t.tma_addr = tma;
  t.gpu_id = gpu_id;
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_SET_TRAP_HANDLER, &t);
  kfd_report("AMDKFD_IOC_SET_TRAP_HANDLER", rc);
  return rc;
}

uint32_t kfd_queue_priority(int level) {
  static const uint8_t map[7] = {0, 3, 5, 7, 9, 11, 15};
  if (level < -3) level = -3;
  if (level > 3) level = 3;
  return map[level + 3];
}
