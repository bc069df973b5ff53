/* SPDX-License-Identifier: MIT */
/* store.c — the bytes behind VRAM and GTT buffer objects and the driver's own pages
 * (doorbells, event page, MMIO remap). One sparse memfd per process: every CPU mapping
 * (mmap of the render node or /dev/kfd) and the simulator's own view of a buffer map the
 * same file range, so the CPU and the GPU model see the same bytes. Freed ranges are
 * punched out (their memory returns to the system) and reused first-fit. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define STORE_SIZE (1ull << 40)   /* sparse: only touched pages use memory */

struct sim_store_hole {
  struct sim_store_hole *next;
  uint64_t off, size;
};

/* Raw system calls: sim/os interposes mmap/munmap in this same library. */
void *sim_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off, int *err)
{
  long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
  if (r < 0 && r > -4096) {
    *err = (int)-r;
    return MAP_FAILED;
  }
  if (r == -1) {
    *err = errno;
    return MAP_FAILED;
  }
  return (void *)r;
}

int sim_sys_munmap(void *addr, size_t len)
{
  return (int)syscall(SYS_munmap, addr, len);
}

static int store_open(struct sim_kfd_process *p)
{
  if (p->store_fd >= 0)
    return 0;
  int fd = (int)syscall(SYS_memfd_create, "hsa-sim-memory", MFD_CLOEXEC);
  if (fd < 0)
    return -ENOMEM;
  if (ftruncate(fd, (off_t)STORE_SIZE) != 0) {
    close(fd);
    return -ENOMEM;
  }
  p->store_fd = fd;
  return 0;
}

int sim_store_alloc(struct sim_kfd_process *p, uint64_t size, uint64_t *off, void **host)
{
  int r = store_open(p);
  if (r)
    return r;
  size = SIM_PAGE_ALIGN(size);
  uint64_t at = UINT64_MAX;
  for (struct sim_store_hole **h = &p->holes; *h; h = &(*h)->next)
    if ((*h)->size >= size) {
      at = (*h)->off;
      (*h)->off += size;
      (*h)->size -= size;
      if (!(*h)->size) {
        struct sim_store_hole *dead = *h;
        *h = dead->next;
        free(dead);
      }
      break;
    }
  if (at == UINT64_MAX) {
    if (p->store_top + size > STORE_SIZE)
      return -ENOMEM;
    at = p->store_top;
    p->store_top += size;
  }
  int err = 0;
  void *v = sim_sys_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, p->store_fd,
                         (off_t)at, &err);
  if (v == MAP_FAILED) {
    sim_store_free(p, at, size, NULL);
    return -ENOMEM;
  }
  *off = at;
  *host = v;
  return 0;
}

void sim_store_free(struct sim_kfd_process *p, uint64_t off, uint64_t size, void *host)
{
  size = SIM_PAGE_ALIGN(size);
  if (host)
    sim_sys_munmap(host, size);
  /* Contents do not survive a free: the next owner gets zeroes, as from a wiped BO. */
  fallocate(p->store_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)size);
  struct sim_store_hole *h = malloc(sizeof *h);
  if (!h)
    return;   /* the range is lost to reuse, nothing else */
  h->off = off;
  h->size = size;
  h->next = p->holes;
  p->holes = h;
}
