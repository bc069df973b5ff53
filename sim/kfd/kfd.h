/* SPDX-License-Identifier: MIT */
/* kfd.h — the driver model's private state, shared by the files of sim/kfd.
 * One simulated KFD process per OS process (the kernel keeps one per mm); it holds
 * a per-GPU part (the kernel's "process device data", pdd), buffer objects, queues
 * and events. Values and rules follow the amdgpu/KFD driver of Linux 6.1 (KFD ioctl 1.11). */
#ifndef SIM_KFD_KFD_H
#define SIM_KFD_KFD_H

#include <kfd_abi/kfd_ioctl_supp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sim.h"
#include "cp/cp.h"
#include "dev/catalog.h"

/* mmap offsets on /dev/kfd: the type in bits 62-63, the gpu_id in bits 46-61. */
#define SIM_MMAP_TYPE_SHIFT 62
#define SIM_MMAP_TYPE_MASK (3ull << SIM_MMAP_TYPE_SHIFT)
#define SIM_MMAP_TYPE_DOORBELL (3ull << SIM_MMAP_TYPE_SHIFT)
#define SIM_MMAP_TYPE_EVENTS (2ull << SIM_MMAP_TYPE_SHIFT)
#define SIM_MMAP_TYPE_RESERVED (1ull << SIM_MMAP_TYPE_SHIFT)
#define SIM_MMAP_TYPE_MMIO (0ull << SIM_MMAP_TYPE_SHIFT)
#define SIM_MMAP_GPU_ID_SHIFT 46
#define SIM_MMAP_GPU_ID(id) (((uint64_t)(id) << SIM_MMAP_GPU_ID_SHIFT) & (0xffffull << SIM_MMAP_GPU_ID_SHIFT))
#define SIM_MMAP_GET_GPU_ID(off) ((uint32_t)(((off) >> SIM_MMAP_GPU_ID_SHIFT) & 0xffff))

/* DRM fake mmap offsets start above 4 GiB, as drm_vma_offset_manager's do on 64-bit. */
#define SIM_DRM_MMAP_BASE 0x100000000ull

/* SOC15 doorbells: 8 bytes each, 1024 per process and device = two pages. */
#define SIM_DOORBELL_SIZE 8u
#define SIM_DOORBELLS_PER_PROCESS 1024u
#define SIM_DOORBELL_SLICE (SIM_DOORBELL_SIZE * SIM_DOORBELLS_PER_PROCESS)
#define SIM_SDMA_SLOTS 128u    /* KFD_MAX_SDMA_QUEUES: slots of a device's SDMA (or xGMI) bitmap */
#define SIM_MAX_QUEUES 1024u

#define SIM_UNSIGNALED_SLOT UINT64_MAX
#define SIM_FIRST_NONSIGNAL_EVENT_ID 0x40000000u   /* (INT_MAX >> 1) + 1 */

/* Apertures of a gfx9 process in 64-bit mode (kfd_flat_memory.c). */
#define SIM_LDS_BASE (1ull << 48)
#define SIM_SCRATCH_BASE (2ull << 48)
#define SIM_GPUVM_BASE 0x4000ull             /* TBA/TMA pages + 2 pages */
#define SIM_GPUVM_SIZE (1ull << 47)          /* min(48-bit VM, the GMC hole) */

struct sim_kfd_process;
struct sim_pdd;

/* A buffer object: what ALLOC_MEMORY_OF_GPU creates. */
struct sim_bo {
  struct sim_bo *next;
  struct sim_pdd *pdd;       /* device it was allocated on */
  uint32_t idr;              /* low half of the handle */
  uint32_t flags;            /* KFD_IOC_ALLOC_MEM_FLAGS_* */
  uint64_t va;               /* GPU virtual address */
  uint64_t size;             /* GPU VA span (page aligned) */
  uint64_t bo_size;          /* bytes of backing (half of size for AQL queue memory) */
  uint64_t mmap_offset;      /* DRM fake offset on the render node */
  uint64_t store_off;        /* backing offset in the process store, VRAM/GTT only */
  void *host;                /* where the bytes are: store view, user pages, doorbell page */
  uint32_t mapped;           /* bit per GPU index: mapped in that GPU's VM */
  bool is_event_page;
  int mem_fd;                /* > 0: an imported dma-buf; host maps this file from offset 0 */
  bool exported;             /* its memory moved from the store to mem_fd by EXPORT_DMABUF */
};

struct sim_queue {
  struct sim_queue *next;
  struct sim_pdd *pdd;
  uint32_t id;
  uint32_t type;             /* KFD_IOC_QUEUE_TYPE_* */
  uint64_t ring, rptr, wptr; /* ring base, read/write pointer addresses */
  uint32_t ring_size, percent, priority;
  uint32_t doorbell_id;      /* index in the process's doorbell page */
  uint32_t sdma_engine, sdma_queue;
  uint32_t cu_mask[32];      /* up to 1024 CUs */
  uint32_t cu_mask_count;
  bool gws;
  struct sim_mqd mqd;        /* what the engine reads (mqd.c fills it from the above;
                                EOP and CWSR buffers are kept there only) */
  struct cp_queue *engine;   /* added by sim/cp: the thread processing this queue */
};

struct sim_event_waiter;

struct sim_event {
  struct sim_event *next;
  uint32_t id, type;
  bool auto_reset, signaled;
  uint64_t age;              /* 1.14: times set (from 1; never 0 or 1 again once wrapped) */
  struct sim_event_waiter *waiters;
  struct kfd_hsa_memory_exception_data mem_exc;  /* for memory exception events */
  struct kfd_hsa_hw_exception_data hw_exc;
};

/* Per process and GPU. */
struct sim_pdd {
  struct sim_kfd_process *proc;
  struct sim_gpu *gpu;
  bool vm;                   /* ACQUIRE_VM done */
  dev_t drm_dev;             /* identity of the render-node file given to ACQUIRE_VM */
  ino_t drm_ino;
  struct sim_qpd qpd;        /* what the engines see: apertures, trap handler, eviction */
  uint64_t gpuvm_base, gpuvm_limit;
  void *doorbells;           /* SIM_DOORBELL_SLICE bytes, 0 until first needed */
  uint64_t doorbells_off;
  uint64_t doorbell_bitmap[SIM_DOORBELLS_PER_PROCESS / 64];
  void *mmio;                /* the MMIO remap page (HDP flush registers) */
  uint64_t mmio_off;
  uint64_t sdma_used[SIM_SDMA_SLOTS / 64];   /* bit per (queue * engines + engine) */
  uint64_t sdma_xgmi_used[SIM_SDMA_SLOTS / 64];
  uint64_t scratch_va;
  uint32_t default_policy, alt_policy;
  uint64_t alt_base, alt_size;
  uint64_t vram_used;
  uint32_t next_idr;
};

struct sim_kfd_process {
  pid_t pid;
  pthread_mutex_t lock;      /* BOs, queues, pdds (the kernel's p->mutex) */
  pthread_mutex_t ev_lock;   /* events (the kernel's p->event_mutex) */
  unsigned files;            /* open /dev/kfd descriptors */
  unsigned n_pdds;
  struct sim_pdd pdds[SIM_MAX_GPUS];
  struct sim_bo *bos;
  struct sim_queue *queues;
  uint64_t queue_ids[SIM_MAX_QUEUES / 64];
  struct sim_event *events;
  uint32_t next_other_event;
  uint64_t *signal_page;     /* event slots */
  uint64_t signal_mapped_size;
  uint64_t signal_handle;    /* BO handle of a user-provided event page */
  uint64_t signal_off;       /* store offset of the driver-allocated event page */
  bool signal_own;           /* page allocated by the driver (mmap-able on /dev/kfd) */
  unsigned signal_count;
  int xnack;
  /* backing store of VRAM/GTT and driver pages: one sparse memfd */
  int store_fd;
  struct sim_store_hole *holes;
  uint64_t store_top;
  uint64_t next_drm_offset;
  /* debug.c (1.13): runtime enable and the debugger's trap state (under lock) */
  struct kfd_runtime_info runtime;
  bool debug_trap_enabled;
  int dbg_ev_fd;             /* the debugger's event file (a dup), -1 */
  uint64_t exception_enable_mask;
  uint32_t dbg_flags;
};

/* process.c */
struct sim_kfd_process *sim_kfd_current(void);   /* NULL when this process has none */
struct sim_pdd *sim_pdd_by_id(struct sim_kfd_process *p, uint32_t gpu_id);
/* The kernel's kfd_bind_process_to_device: the pdd needs an acquired VM. */
int sim_pdd_bind(struct sim_pdd *pdd);

/* uaccess.c: copy_{from,to}_user on our own address space, EFAULT instead of a crash */
int sim_copy_from_user(void *dst, uint64_t src, size_t n);
int sim_copy_to_user(uint64_t dst, const void *src, size_t n);
bool sim_access_ok(uint64_t addr, uint64_t size);
bool sim_user_range_mapped(uint64_t addr, uint64_t size);
bool sim_user_range_writable(uint64_t addr, uint64_t size);   /* mapped with PROT_WRITE */

/* store.c: page-granular backing memory; returns a host view of the range */
int sim_store_alloc(struct sim_kfd_process *p, uint64_t size, uint64_t *off, void **host);
void sim_store_free(struct sim_kfd_process *p, uint64_t off, uint64_t size, void *host);
void *sim_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off, int *err);
int sim_sys_munmap(void *addr, size_t len);

/* doorbell.c */
int sim_doorbell_pages(struct sim_pdd *pdd);           /* allocate on first need */
int sim_doorbell_alloc(struct sim_pdd *pdd, uint32_t *id);
void sim_doorbell_free(struct sim_pdd *pdd, uint32_t id);
int sim_mmio_page(struct sim_pdd *pdd);
/* added by sim/cp: mmap.c reports CPU mappings of the store so doorbell pages can be watched */
void sim_doorbell_mapped(struct sim_kfd_process *p, void *addr, uint64_t len, uint64_t off);
void sim_doorbell_unmapped(void *addr, uint64_t len);

/* svm.c: the host bytes behind [va, va+len) when an SVM range maps it on `gpu` (with XNACK,
 * after servicing the retry fault), with the range [*lo, *hi) around it that is mapped alike
 * and *writable, whether the GPU may write it; NULL: a VM fault. Takes its own lock: call
 * without p->lock. */
/* vm.c: a change of the GPUs' mappings or permissions happened (sim_vm_generation) */
void sim_vm_changed(void);
void *sim_svm_translate(struct sim_kfd_process *p, struct sim_gpu *gpu, uint64_t va, uint64_t len,
                        uint64_t *lo, uint64_t *hi, bool *writable);
/* svm.c: the user unmapped [addr, addr+len): its SVM ranges go (the MMU notifier) */
void sim_svm_unmapped(uint64_t addr, uint64_t len);

/* memory.c */
struct sim_bo *sim_bo_lookup(struct sim_kfd_process *p, uint64_t handle);
uint64_t sim_bo_handle(const struct sim_bo *bo);
/* Enters a new object into the process (p->lock held): its device, the lowest free id on it,
 * the next DRM mmap offset, the list; returns its handle. bo_size must be set. */
uint64_t sim_bo_register(struct sim_kfd_process *p, struct sim_pdd *pdd, struct sim_bo *bo);

/* qbufs.c: CREATE_QUEUE's buffer checks of 6.12+ kernels and of MES (gfx11+), for the boards that have them
 * (0 or -EINVAL). Caller holds p->lock. */
struct kfd_ioctl_create_queue_args;
int sim_queue_buffers_check(struct sim_kfd_process *p, struct sim_pdd *pdd,
                            const struct kfd_ioctl_create_queue_args *a);


/* ioctl handlers: data is the kernel-side copy of the argument struct */
typedef int sim_kfd_handler(struct sim_kfd_process *p, void *data);
sim_kfd_handler sim_kfd_get_version, sim_kfd_get_apertures, sim_kfd_get_apertures_new,
    sim_kfd_acquire_vm, sim_kfd_alloc_memory, sim_kfd_free_memory, sim_kfd_map_memory,
    sim_kfd_unmap_memory, sim_kfd_available_memory, sim_kfd_create_queue,
    sim_kfd_destroy_queue, sim_kfd_update_queue, sim_kfd_set_cu_mask,
    sim_kfd_get_queue_wave_state, sim_kfd_alloc_queue_gws, sim_kfd_create_event,
    sim_kfd_destroy_event, sim_kfd_set_event, sim_kfd_reset_event, sim_kfd_wait_events,
    sim_kfd_get_clock_counters, sim_kfd_set_scratch_backing_va, sim_kfd_set_trap_handler,
    sim_kfd_set_memory_policy, sim_kfd_get_tile_config, sim_kfd_svm, sim_kfd_set_xnack_mode,
    sim_kfd_get_dmabuf_info, sim_kfd_import_dmabuf, sim_kfd_smi_events,
    sim_kfd_export_dmabuf, sim_kfd_runtime_enable, sim_kfd_dbg_trap;

/* smi.c: SMI event records to the GPU's SMI clients (a VM fault, a reset before and after,
 * an SVM migration's start and end; locations as gpu_ids, 0 system memory) */
void sim_smi_vm_fault(struct sim_gpu *gpu);
void sim_smi_gpu_reset(struct sim_gpu *gpu, bool post_reset);
void sim_smi_migrate(struct sim_gpu *gpu, uint64_t start, uint64_t pages, uint32_t from,
                     uint32_t to, uint32_t prefetch_loc, uint32_t preferred_loc, bool end);

/* ioctl.c: the KFD interface minor version this run answers as (--kfd-version; 11..18) */
unsigned sim_kfd_level(void);

/* mmap.c: the CPU mappings of store range [off, off+size) now map `fd` from its start
 * (a buffer object's memory moved to a file of its own by EXPORT_DMABUF). */
void sim_kfd_repoint_store(uint64_t off, uint64_t size, int fd);

/* event.c implements sim_kfd_vm_fault_event, sim_kfd_gpu_reset_event and
 * sim_kfd_hw_exception_signal for the engines (cp/cp.h). */

/* mqd.c: the queue's descriptor from its properties, as the kernel's init_mqd/update_mqd
 * (caller holds p->lock); the scheduler's eviction of a process's queues on a GPU. */
void sim_mqd_init(struct sim_queue *q);
void sim_mqd_update(struct sim_queue *q);
void sim_kfd_evict_queues(struct sim_kfd_process *p, struct sim_gpu *gpu);

/* mmap of /dev/kfd by type */
void *sim_event_mmap(struct sim_kfd_process *p, void *addr, size_t len, int prot, int flags,
                     int *err);

#endif
