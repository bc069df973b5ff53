/* SPDX-License-Identifier: MIT */
/* ipc.c — signals shared between processes (HSA_AMD_SIGNAL_IPC, hsa_amd_ipc_signal_create
 * and _attach). The amd_signal_t lives in a page of its own backed by a memfd; the handle
 * names the creator's pid and descriptor, and attach maps the same page through
 * /proc/<pid>/fd/<fd> (so the attaching process needs the same rights as for ptrace-less
 * /proc access: same user). Both sides see one value; waits on them poll (no KFD event can
 * cross processes), as ROCR's IPC signals do.
 * The page sits at an address inside the GPUVM aperture and is registered with the driver
 * as a userptr buffer object at that same address, mapped on every GPU, so GPUs reach the
 * signal at its handle like any other (mem's system memory works the same way; mem does not
 * know this page, which is freed by sig_shutdown). */
#include "signals/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"

#define IPC_MAGIC 0x47495348u   /* "HSIG" */
#define IPC_BYTES 4096u

#define IPC_KFD_FLAGS (KFD_MEM_USERPTR | KFD_MEM_WRITABLE | KFD_MEM_NO_SUBSTITUTE | KFD_MEM_UNCACHED)

/* The GPUs that can map memory, the first one's aperture. */
static uint32_t gpu_ids(uint32_t *ids, uint32_t max, const struct core_agent **first)
{
  struct core_runtime *rt = core_rt();
  uint32_t n = 0;
  *first = NULL;
  for (unsigned i = 0; rt && !rt->no_device && i < rt->agent_count && n < max; i++) {
    const struct core_agent *a = rt->agents[i];
    if (a->kind != CORE_AGENT_GPU || a->drm.fd < 0)
      continue;
    if (!*first)
      *first = a;
    ids[n++] = a->gpu_id;
  }
  return n;
}

/* Maps the page of fd at a GPUVM address and registers it on every GPU (*bo, 0 when there
 * is no GPU or the driver refuses: the signal then works between host threads only). */
static amd_signal_t *map_fd(int fd, uint64_t *bo)
{
  uint32_t ids[64];
  const struct core_agent *g;
  uint32_t n = gpu_ids(ids, 64, &g);
  *bo = 0;
  void *va = NULL;
  if (n && g->has_aperture)
    va = kfd_va_reserve(IPC_BYTES, IPC_BYTES, g->aperture.gpuvm_base,
                        g->aperture.gpuvm_limit + 1);
  void *m = mmap(va, IPC_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | (va ? MAP_FIXED : 0), fd, 0);
  if (m == MAP_FAILED) {
    if (va)
      kfd_va_release(va, IPC_BYTES);
    return NULL;
  }
  if (!va)
    return m;
  const struct kfd_device *dev = &core_rt()->kfd;
  uint64_t h;
  if (kfd_mem_alloc(dev, g->gpu_id, (uint64_t)(uintptr_t)m, IPC_BYTES, IPC_KFD_FLAGS,
                    (uint64_t)(uintptr_t)m, &h, NULL) == 0) {
    if (kfd_mem_map(dev, h, ids, n) == 0)
      *bo = h;
    else
      kfd_mem_free(dev, h);
  }
  return m;
}

/* ---- the table of IPC records: open addressing by page, at most half full --------------- */
#define IPC_SLOTS 8192u
static _Atomic(struct sig_obj *) ipc_tab[IPC_SLOTS];
static _Atomic uint32_t ipc_count;

static uint32_t ipc_hash(uintptr_t a)
{
  return (uint32_t)(((uint64_t)(a >> 12) * 0x9e3779b97f4a7c15ull) >> 51) & (IPC_SLOTS - 1);
}

struct sig_obj *sig_obj_ipc(hsa_signal_t s)
{
  uintptr_t a = (uintptr_t)s.handle;
  if (!a || !atomic_load_explicit(&ipc_count, memory_order_acquire))
    return NULL;
  for (uint32_t i = ipc_hash(a), n = 0; n < IPC_SLOTS; i = (i + 1) & (IPC_SLOTS - 1), n++) {
    struct sig_obj *o = atomic_load_explicit(&ipc_tab[i], memory_order_acquire);
    if (!o)
      return NULL;
    if ((uintptr_t)o->amd == a)
      return o;
  }
  return NULL;
}

bool sig_ipc_insert(struct sig_obj *o)
{
  uint32_t n = atomic_load_explicit(&ipc_count, memory_order_relaxed);
  if (n >= IPC_SLOTS / 2)
    return false;
  uint32_t i = ipc_hash((uintptr_t)o->amd);
  while (atomic_load_explicit(&ipc_tab[i], memory_order_relaxed))
    i = (i + 1) & (IPC_SLOTS - 1);
  atomic_store_explicit(&ipc_tab[i], o, memory_order_release);
  atomic_store_explicit(&ipc_count, n + 1, memory_order_release);
  return true;
}

void sig_ipc_reset(void (*each)(struct sig_obj *o))
{
  if (!atomic_load_explicit(&ipc_count, memory_order_relaxed))
    return;
  atomic_store_explicit(&ipc_count, 0, memory_order_release);   /* every handle now foreign */
  for (uint32_t i = 0; i < IPC_SLOTS; i++) {
    struct sig_obj *o = atomic_exchange_explicit(&ipc_tab[i], NULL, memory_order_relaxed);
    if (o)
      each(o);
  }
}

void sig_ipc_unmap(struct sig_obj *o)
{
  if (o->ipc_bo) {
    uint32_t ids[64];
    const struct core_agent *g;
    uint32_t n = gpu_ids(ids, 64, &g);
    kfd_mem_unmap(&core_rt()->kfd, o->ipc_bo, ids, n);
    kfd_mem_free(&core_rt()->kfd, o->ipc_bo);
    o->ipc_bo = 0;
  }
  if (o->ipc_map)
    munmap(o->ipc_map, o->ipc_size);
  o->ipc_map = NULL;
}

hsa_status_t sig_ipc_create(hsa_signal_value_t initial, hsa_signal_t *out)
{
  int fd = memfd_create("hsa-ipc-signal", MFD_CLOEXEC);
  if (fd < 0)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  uint64_t bo = 0;
  amd_signal_t *a = ftruncate(fd, IPC_BYTES) == 0 ? map_fd(fd, &bo) : NULL;
  if (!a) {
    close(fd);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  a->value = initial;
  a->kind = AMD_SIGNAL_KIND_USER;
  struct sig_obj *o = sig_obj_adopt(a, SIG_F_IPC, fd, a, IPC_BYTES, bo);
  if (!o) {
    struct sig_obj tmp = {.ipc_map = a, .ipc_size = IPC_BYTES, .ipc_bo = bo};
    sig_ipc_unmap(&tmp);
    close(fd);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *out = sig_handle_of(o);
  return HSA_STATUS_SUCCESS;
}

void sig_ipc_release(struct sig_obj *o)
{
  if (o->ipc_fd >= 0)
    close(o->ipc_fd);
  o->ipc_fd = -1;
}

hsa_status_t hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t *handle)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!handle)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct sig_obj *o = sig_obj_of(signal);
  if (!o)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!(o->flags & (SIG_F_IPC | SIG_F_ATTACHED)) || o->ipc_fd < 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* not created with HSA_AMD_SIGNAL_IPC */
  memset(handle, 0, sizeof *handle);
  handle->handle[0] = IPC_MAGIC;
  handle->handle[1] = (uint32_t)getpid();
  handle->handle[2] = (uint32_t)o->ipc_fd;
  handle->handle[3] = IPC_BYTES;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t *handle,
                                       hsa_signal_t *signal)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!handle || !signal || handle->handle[0] != IPC_MAGIC || handle->handle[3] != IPC_BYTES)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  char path[64];
  snprintf(path, sizeof path, "/proc/%u/fd/%u", handle->handle[1], handle->handle[2]);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct stat sb;
  /* a shorter file would fault (SIGBUS) on first touch */
  uint64_t bo = 0;
  amd_signal_t *a =
      fstat(fd, &sb) == 0 && sb.st_size >= (off_t)IPC_BYTES ? map_fd(fd, &bo) : NULL;
  struct sig_obj tmp = {.ipc_map = a, .ipc_size = IPC_BYTES, .ipc_bo = bo};
  if (!a || a->kind != AMD_SIGNAL_KIND_USER) {
    sig_ipc_unmap(&tmp);
    close(fd);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* not (or no longer) a signal page */
  }
  struct sig_obj *o = sig_obj_adopt(a, SIG_F_ATTACHED, fd, a, IPC_BYTES, bo);
  if (!o) {
    sig_ipc_unmap(&tmp);
    close(fd);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *signal = sig_handle_of(o);
  return HSA_STATUS_SUCCESS;
}
