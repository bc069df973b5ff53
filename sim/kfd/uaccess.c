/* SPDX-License-Identifier: MIT */
/* uaccess.c — the kernel's copy_from_user/copy_to_user/access_ok for a driver that runs
 * inside the user's process: a bad user pointer must give EFAULT, as it does through a
 * real ioctl, not crash the simulator. process_vm_readv/writev on ourselves do exactly
 * that check; if they are unavailable (seccomp) we fall back to a plain copy. */
#include "kfd/kfd.h"

#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* x86-64 TASK_SIZE_MAX with 4-level page tables */
#define SIM_TASK_SIZE 0x7ffffffff000ull

bool sim_access_ok(uint64_t addr, uint64_t size)
{
  return size <= SIM_TASK_SIZE && addr <= SIM_TASK_SIZE - size;
}

static int vm_copy(bool write, void *local, uint64_t remote, size_t n)
{
  if (n == 0)
    return 0;
  if (!sim_access_ok(remote, n))
    return -EFAULT;
  struct iovec l = { local, n }, r = { (void *)(uintptr_t)remote, n };
  ssize_t got = write ? process_vm_writev(getpid(), &l, 1, &r, 1, 0)
                      : process_vm_readv(getpid(), &l, 1, &r, 1, 0);
  if (got == (ssize_t)n)
    return 0;
  if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
    if (write)
      memcpy((void *)(uintptr_t)remote, local, n);
    else
      memcpy(local, (const void *)(uintptr_t)remote, n);
    return 0;
  }
  return -EFAULT;
}

int sim_copy_from_user(void *dst, uint64_t src, size_t n)
{
  return vm_copy(false, dst, src, n);
}

int sim_copy_to_user(uint64_t dst, const void *src, size_t n)
{
  return vm_copy(true, (void *)src, dst, n);
}

/* Whether every page of [addr, addr+size) is mapped: mincore fails with ENOMEM on holes. */
bool sim_user_range_mapped(uint64_t addr, uint64_t size)
{
  if (!size || !sim_access_ok(addr, size))
    return false;
  uint64_t start = addr & ~(SIM_PAGE - 1);
  uint64_t end = SIM_PAGE_ALIGN(addr + size);
  unsigned char vec[256];
  for (uint64_t a = start; a < end;) {
    uint64_t chunk = end - a;
    if (chunk > sizeof vec * SIM_PAGE)
      chunk = sizeof vec * SIM_PAGE;
    if (mincore((void *)(uintptr_t)a, chunk, vec) != 0)
      return false;
    a += chunk;
  }
  return true;
}

/* Whether every page of [addr, addr+size) is mapped with PROT_WRITE, from /proc/self/maps (raw
 * system calls: the interposer stays out of it). The kernel maps SVM pages of a read-only VMA
 * read-only on the GPU too (svm_range_validate_and_map). Only for translations that the callers
 * cache, as the file is read each time. */
bool sim_user_range_writable(uint64_t addr, uint64_t size)
{
  if (!size || !sim_access_ok(addr, size))
    return false;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return true;   /* cannot tell: as before, writable */
  uint64_t need = addr, end = addr + size;
  char buf[4096];
  size_t have = 0;
  bool ok = false, done = false;
  while (!done) {
    ssize_t n = syscall(SYS_read, fd, buf + have, sizeof buf - 1 - have);
    if (n <= 0)
      break;
    have += (size_t)n;
    buf[have] = 0;
    char *line = buf, *nl;
    while ((nl = strchr(line, '\n')) != NULL) {
      *nl = 0;
      unsigned long long lo, hi;
      char perms[5];
      if (sscanf(line, "%llx-%llx %4s", &lo, &hi, perms) == 3 && hi > need) {
        if (lo > need || perms[1] != 'w') {
          done = true;   /* a hole or a read-only mapping in the range */
          break;
        }
        need = hi;
        if (need >= end) {
          ok = done = true;
          break;
        }
      }
      line = nl + 1;
    }
    have = (size_t)(buf + have - line);
    memmove(buf, line, have);
    if (have == sizeof buf - 1)
      have = 0;   /* a line longer than the buffer (a long path): skip its start */
  }
  syscall(SYS_close, fd);
  return ok;
}
