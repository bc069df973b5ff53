/* SPDX-License-Identifier: MIT */
/* ais.c — hsa_amd_ais_file_read/write: bytes between a file and memory the runtime
 * allocated (device memory above all), through a bounce buffer of pinned host memory mapped
 * on every GPU: a chunk at a time, the file side with pread/pwrite and the memory side with
 * copy_move (the SDMA engine for VRAM the CPU cannot see). Where the file system allows it
 * the file side bypasses the page cache: the file is opened again with O_DIRECT (through
 * /proc/self/fd) and used for the chunks whose offset and length are whole blocks; the rest,
 * and files whose file system refuses O_DIRECT (tmpfs), go through the descriptor given.
 *
 * Statuses as ROCR documents: INVALID_ARGUMENT for a descriptor that is not open, a null
 * pointer or a zero size; INVALID_ALLOCATION when the memory is not one allocation of the
 * runtime large enough; ERROR when the file refuses, or the descriptor's access mode does not
 * allow the transfer (errno in *status). *size_copied counts the bytes moved, fewer than
 * asked when a read meets the end of the file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "copy/internal.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"

#define CHUNK (4u << 20)
#define BLOCK 4096u

/* A second descriptor of the same file with O_DIRECT, or -1 where that is refused. */
static int direct_fd(int fd, bool writing) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  return open(path, (writing ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
}

static hsa_status_t check(hsa_amd_ais_file_handle_t h, void *ptr, uint64_t size,
                          int64_t offset) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (h.fd < 0 || !ptr || !size || offset < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct mem_block b;
  if (!mem_lookup(ptr, &b) || (char *)ptr + size > (char *)b.base + b.size)
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t transfer(hsa_amd_ais_file_handle_t h, char *ptr, uint64_t size,
                             int64_t offset, uint64_t *size_copied, int32_t *status,
                             bool writing) {
  if (size_copied) *size_copied = 0;
  if (status) *status = 0;
  hsa_status_t st = check(h, ptr, size, offset);
  if (st != HSA_STATUS_SUCCESS) return st;
  /* the caller's descriptor decides what may be done: the O_DIRECT twin must not widen it */
  int mode = fcntl(h.fd, F_GETFL);
  if (mode < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* not an open descriptor */
  if ((mode & O_ACCMODE) == (writing ? O_RDONLY : O_WRONLY)) {
    if (status) *status = EBADF;
    return HSA_STATUS_ERROR;
  }
  size_t chunk = size < CHUNK ? (size_t)((size + BLOCK - 1) / BLOCK * BLOCK) : CHUNK;
  char *bounce = mem_system(chunk, BLOCK, MEM_F_NO_SUBALLOC);
  if (!bounce) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  int dfd = direct_fd(h.fd, writing);
  uint64_t done = 0;
  int err = 0;
  while (done < size && st == HSA_STATUS_SUCCESS) {
    size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
    off_t at = (off_t)(offset + (int64_t)done);
    int fd = dfd >= 0 && at % BLOCK == 0 && n % BLOCK == 0 ? dfd : h.fd;
    ssize_t r;
    if (writing) {
      st = copy_move(bounce, ptr + done, n);
      if (st != HSA_STATUS_SUCCESS) break;
      r = pwrite(fd, bounce, n, at);
    } else {
      r = pread(fd, bounce, n, at);
      if (r > 0) st = copy_move(ptr + done, bounce, (size_t)r);
    }
    if (r < 0 && fd == dfd && errno == EINVAL) {   /* O_DIRECT refused after all */
      close(dfd);
      dfd = -1;
      continue;
    }
    if (r < 0) {
      err = errno;
      st = HSA_STATUS_ERROR;
      break;
    }
    if (st != HSA_STATUS_SUCCESS) break;
    done += (uint64_t)r;
    if ((size_t)r < n) break;   /* end of file (read) or a full device (write) */
  }
  if (dfd >= 0) close(dfd);
  mem_release(bounce);
  if (size_copied) *size_copied = done;
  if (status) *status = err;
  return st;
}

hsa_status_t hsa_amd_ais_file_write(hsa_amd_ais_file_handle_t handle, void *devicePtr,
                                    uint64_t size, int64_t file_offset, uint64_t *size_copied,
                                    int32_t *status) {
  return transfer(handle, devicePtr, size, file_offset, size_copied, status, true);
}

hsa_status_t hsa_amd_ais_file_read(hsa_amd_ais_file_handle_t handle, void *devicePtr,
                                   uint64_t size, int64_t file_offset, uint64_t *size_copied,
                                   int32_t *status) {
  return transfer(handle, devicePtr, size, file_offset, size_copied, status, false);
}
