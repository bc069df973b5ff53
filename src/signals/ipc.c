/* ipc.c — signals shared between processes (HSA_AMD_SIGNAL_IPC, hsa_amd_ipc_signal_create
 * and _attach). The amd_signal_t lives in a page of its own backed by a memfd; the handle
 * names the creator's pid and descriptor, and attach maps the same page through
 * /proc/<pid>/fd/<fd> (so the attaching process needs the same rights as for ptrace-less
 * /proc access: same user). Both sides see one value; waits on them poll (no KFD event can
 * cross processes), as ROCR's IPC signals do.
 * Limitation: the page is host memory that mem does not know, so it is not mapped into the
 * GPUs' VMs; a GPU can reach it only where the kernel maps host memory by itself (APUs). */
#include "signals/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hsa_ext_amd.h"

#define IPC_MAGIC 0x47495348u   /* "HSIG" */
#define IPC_BYTES 4096u

static amd_signal_t *map_fd(int fd)
{
  void *m = mmap(NULL, IPC_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return m == MAP_FAILED ? NULL : m;
}

hsa_status_t sig_ipc_create(hsa_signal_value_t initial, hsa_signal_t *out)
{
  int fd = memfd_create("hsa-ipc-signal", MFD_CLOEXEC);
  if (fd < 0)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  amd_signal_t *a = ftruncate(fd, IPC_BYTES) == 0 ? map_fd(fd) : NULL;
  if (!a) {
    close(fd);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  a->value = initial;
  a->kind = AMD_SIGNAL_KIND_USER;
  struct sig_obj *o = sig_obj_adopt(a, SIG_F_IPC, fd, a, IPC_BYTES);
  if (!o) {
    munmap(a, IPC_BYTES);
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
  amd_signal_t *a = fstat(fd, &sb) == 0 && sb.st_size >= (off_t)IPC_BYTES ? map_fd(fd) : NULL;
  if (!a || a->kind != AMD_SIGNAL_KIND_USER) {
    if (a)
      munmap(a, IPC_BYTES);
    close(fd);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* not (or no longer) a signal page */
  }
  struct sig_obj *o = sig_obj_adopt(a, SIG_F_ATTACHED, fd, a, IPC_BYTES);
  if (!o) {
    munmap(a, IPC_BYTES);
    close(fd);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *signal = sig_handle_of(o);
  return HSA_STATUS_SUCCESS;
}
