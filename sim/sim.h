/* SPDX-License-Identifier: MIT */
/* Note (Part A, sim/os + sim/dev): added sim_gpu.{domain,location_id,card_minor,simd_id_base}
 * and sim_config.root. munmap contract as sim/os implements it: every munmap first calls
 * sim_kfd_munmap(); a negative return fails munmap with that errno, otherwise sim/os then
 * performs the real munmap (so the model drops its bookkeeping, the OS drops the pages).
 *
 * sim.h — the few declarations shared by the simulator's parts (sim/os, sim/dev,
 * sim/kfd, and later sim/cp, sim/sdma, sim/isa). The simulator models the Linux
 * amdgpu/KFD kernel ABI and the hardware; it knows nothing about the runtime in src/. */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define SIM_PAGE 4096ull     /* the host's and the GPU's page */
#define SIM_PAGE_ALIGN(x) (((x) + SIM_PAGE - 1) & ~(SIM_PAGE - 1))

/* CLOCK_MONOTONIC in nanoseconds: the engines' naps, back-offs and watch deadlines */
static inline uint64_t sim_mono_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- configuration (sim/os/config.c) ------------------------------------------------
 * The launcher passes its options to the preloaded library in the environment variable
 * HSA_SIM_CONFIG (e.g. "gpu=gfx900,gpus=1,vram=4G,trace=/path|stderr,fail=ALLOC_MEMORY_OF_GPU:3:ENOMEM").
 * Children inherit it with LD_PRELOAD. */
struct sim_fault {           /* make the Nth ioctl of one kind fail */
  unsigned ioctl_nr;         /* _IOC_NR of the KFD ioctl (AMDKFD_IOC_*), 0 = none */
  unsigned nth;              /* 1-based count of calls of that kind */
  int err;                   /* errno to return */
};

#define SIM_MAX_GPUS 8
#define SIM_MAX_THREADS 256   /* --threads: host threads that run work-groups */
#define SIM_MAX_FAULTS 8

struct sim_config {
  const char *gpu_model;     /* catalogue name, default "gfx900" */
  unsigned gpu_count;        /* 1..SIM_MAX_GPUS */
  uint64_t vram_bytes;       /* per GPU; 0 = the model's default */
  int trace_fd;              /* -1 = no trace */
  struct sim_fault faults[SIM_MAX_FAULTS];
  unsigned fault_count;
  /* added by sim/os (Part A) */
  const char *root;          /* private temp dir holding the generated sysfs tree (launcher's) or NULL */
  unsigned kfd_minor;        /* KFD interface level answered as (1.<kfd_minor>); 0 = 18 */
  unsigned threads;          /* host threads running work-groups (threads=N); 0 = the CPUs */
};

/* The configuration, parsed once from HSA_SIM_CONFIG; never NULL. */
const struct sim_config *sim_config(void);

/* ---- the simulated machine (sim/dev) ------------------------------------------------ */
struct sim_gpu_model;        /* a catalogue entry: sim/dev/catalog.h */

struct sim_gpu {
  const struct sim_gpu_model *model;
  unsigned index;            /* 0-based among GPUs */
  unsigned node_id;          /* KFD topology node (CPU node is 0, GPUs follow) */
  uint32_t gpu_id;           /* KFD gpu_id: nonzero, stable for a given config */
  unsigned render_minor;     /* /dev/dri/renderD<minor>: 128 + index */
  uint64_t vram_bytes;
  /* added by sim/dev (Part A) */
  uint32_t domain;           /* PCI domain (KFD "domain") */
  uint32_t location_id;      /* PCI bus << 8 | devfn (KFD "location_id") */
  uint32_t card_minor;       /* /dev/dri/card<minor>: index */
  uint32_t simd_id_base;     /* KFD simd_id_base */
};

/* The GPUs of this configuration (built once, on first use). */
unsigned sim_gpu_count(void);
struct sim_gpu *sim_gpu(unsigned index);
struct sim_gpu *sim_gpu_by_id(uint32_t gpu_id);
struct sim_gpu *sim_gpu_by_minor(unsigned render_minor);

/* ---- the driver model (sim/kfd) ------------------------------------------------------
 * sim/os routes every ioctl and mmap on a simulated device fd here. Returns follow the
 * kernel: ioctl returns 0 or -errno; mmap returns the mapping or MAP_FAILED with *err. */
int sim_kfd_open(void);                    /* a process opened /dev/kfd: 0 or -errno */
int sim_kfd_ioctl(unsigned long request, void *arg);
void *sim_kfd_mmap(void *addr, size_t len, int prot, int flags, off_t offset, int *err);
int sim_kfd_munmap(void *addr, size_t len);    /* 1 if it was a simulated mapping */
/* Added for SVM page rights: sim/os tells the driver model after a successful mprotect (the
 * kernel's MMU notifier: SVM ranges there are validated again, with the new rights). */
void sim_kfd_mprotected(void *addr, size_t len);
void sim_kfd_close(void);                  /* last /dev/kfd fd closed: release the process */

int sim_drm_ioctl(struct sim_gpu *gpu, unsigned long request, void *arg);
void *sim_drm_mmap(struct sim_gpu *gpu, void *addr, size_t len, int prot, int flags,
                   off_t offset, int *err);

/* Added by sim/kfd (Part B). sim_kfd_close() drops the file reference only: as in the
 * kernel, the KFD process (VMs, event page) lives until the OS process exits, so a runtime
 * that reopens /dev/kfd finds it again.
 * sim/os implements: the simulated GPU whose render node `fd` is open on, NULL if `fd` is
 * not a simulated render node (ACQUIRE_VM receives the fd as a number). */
struct sim_gpu *sim_os_gpu_of_fd(int fd);
/* sim/kfd implements, for the execution model: the host bytes behind GPU virtual address
 * `va` (`len` bytes, within one buffer) in `gpu`'s VM of this process, or NULL when not
 * mapped on that GPU (a GPU page fault). */
void *sim_vm_translate(struct sim_gpu *gpu, uint64_t va, uint64_t len);
/* Added by sim/isa (sim/kfd implements): like sim_vm_translate for one byte, and also the
 * GPU VA range [*lo, *hi) around `va` that is contiguous host memory behind the returned
 * pointer (one buffer; one copy of wrapping AQL queue memory), for translation caches. */
void *sim_vm_lookup(struct sim_gpu *gpu, uint64_t va, uint64_t *lo, uint64_t *hi);
/* Added for page permissions (sim/kfd implements): sim_vm_lookup, and whether the GPU may
 * write [*lo, *hi) (a buffer object allocated WRITABLE; an SVM range without GPU_RO in
 * writable user memory). A write where it may not is a permission fault. */
void *sim_vm_lookup_prot(struct sim_gpu *gpu, uint64_t va, uint64_t *lo, uint64_t *hi,
                         bool *writable);
/* Added for translation caches that outlive a work-group (sim/kfd implements): the VM's
 * generation, bumped after every change that can make a translation given out before it
 * wrong (unmap, free, render-node VA changes, SVM attribute changes, munmap/mprotect of user
 * memory, eviction, a forked child). A translation looked up after reading generation G may
 * be reused while the generation still reads G. */
uint64_t sim_vm_generation(void);
/* sim_vm_lookup_prot, and whether the translation may be kept across work-groups under
 * sim_vm_generation (*keep: a buffer object or a render-node mapping; SVM user memory is
 * never kept, as libc's own munmaps are not seen). */
void *sim_vm_lookup_keep(struct sim_gpu *gpu, uint64_t va, uint64_t *lo, uint64_t *hi,
                         bool *writable, bool *keep);
/* sim_vm_translate for a write: NULL also where the pages are mapped read-only. */
void *sim_vm_translate_write(struct sim_gpu *gpu, uint64_t va, uint64_t len);
/* Added by sim/isa (sim/cp implements): a wave's access at `va` faulted in the GPU's VM: the
 * VM fault interrupt, which the driver turns into a memory exception event (a permission
 * fault when the page is mapped and `write`) and an eviction of the process's queues. */
void sim_gpu_vm_fault(struct sim_gpu *gpu, uint64_t va, bool write);
/* sim/kfd implements, for the execution model: the GPU raised an end-of-pipe interrupt
 * carrying `event_id` (an event id, or an id the driver cannot trust when it does not name
 * a signal event whose slot was written): sets the signaled events as the kernel does. */
void sim_kfd_signal_interrupt(uint32_t event_id);
/* sim/kfd implements, for sim/isa: a wave of `gpu` sent s_sendmsg(MSG_INTERRUPT) with
 * `data` (M0[23:0]), from inside a trap handler when `priv`. The driver's decoding
 * (kfd_int_process_v9/v11): a trap code in data[23:10] from a trap handler reaches the
 * runtime of a process that enabled it (KFD 1.13 exception path) through the queue whose
 * doorbell id is data[9:0]; otherwise `data` is an event id (sim_kfd_signal_interrupt). */
void sim_kfd_wave_interrupt(const struct sim_gpu *gpu, uint32_t data, bool priv);

/* ---- trace (sim/kfd/trace.c) ---------------------------------------------------------- */
/* printf-style line to the trace fd when tracing is on. */
void sim_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
