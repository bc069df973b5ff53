/* SPDX-License-Identifier: MIT */
/* smi.c — SMI events (kfd_smi_events.c): SMI_EVENTS on a GPU of the process gives a new
 * descriptor; the client writes the 64-bit mask of the events it wants (bit i-1 for event i)
 * and reads text records, one line each: the event number in hex, a space, then the event's
 * fields in the kernel's format (Linux 6.1's):
 *   VMFAULT (1)          "pid:task\n"                    pid in hex, the task's name
 *   GPU_PRE/POST_RESET   "seq\n"                         the GPU's reset count, in hex
 *   MIGRATE_START (5)    "ns -pid @start(pages) from->to prefetch:preferred trigger\n"
 *   MIGRATE_END (6)      "ns -pid @start(pages) from->to trigger\n"
 * (ns: CLOCK_BOOTTIME; start and pages in pages; locations as gpu_ids, 0 system memory).
 * A VM fault or a reset is told to every client of the GPU, a migration to the clients of the
 * process that migrated (this model holds one process). Reading an empty queue is EAGAIN.
 * The descriptor is one end of a Unix stream socket whose other end the model keeps: records
 * are written there, and the mask is read from there when an event comes (so a write of
 * fewer than 8 bytes is not refused with EINVAL as the kernel's is). A client that closed its
 * end is dropped at the next event. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct smi_client {
  struct smi_client *next;
  struct sim_gpu *gpu;
  int fd;                 /* the model's end */
  uint64_t mask;
  uint8_t pending[8];     /* a mask being written */
  unsigned have;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct smi_client *clients;

int sim_kfd_smi_events(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_smi_events_args *a = data;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpuid);
  struct sim_gpu *gpu = pdd ? pdd->gpu : NULL;
  pthread_mutex_unlock(&p->lock);
  if (!gpu)
    return -EINVAL;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return -errno;
  struct smi_client *c = calloc(1, sizeof *c);
  int mine = (int)syscall(SYS_fcntl, sv[1], F_DUPFD_CLOEXEC, 200);
  syscall(SYS_close, sv[1]);
  if (!c || mine < 0) {
    free(c);
    syscall(SYS_close, sv[0]);
    if (mine >= 0)
      syscall(SYS_close, mine);
    return -ENOMEM;
  }
  /* the kernel's read never blocks: an empty queue is EAGAIN */
  syscall(SYS_fcntl, sv[0], F_SETFL, O_RDWR | O_NONBLOCK);
  syscall(SYS_fcntl, mine, F_SETFL, O_NONBLOCK);
  c->gpu = gpu;
  c->fd = mine;
  pthread_mutex_lock(&lock);
  c->next = clients;
  clients = c;
  pthread_mutex_unlock(&lock);
  a->anon_fd = (uint32_t)sv[0];
  return 0;
}

/* The masks the client wrote since the last event: the latest whole one counts. false when
 * the client closed its end. Called with lock held. */
static bool update_mask(struct smi_client *c)
{
  uint8_t buf[64];
  for (;;) {
    ssize_t n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0)
      return false;
    if (n < 0)
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    for (ssize_t i = 0; i < n; i++) {
      c->pending[c->have++] = buf[i];
      if (c->have == 8) {
        memcpy(&c->mask, c->pending, 8);
        c->have = 0;
      }
    }
  }
}

static void post(struct sim_gpu *gpu, unsigned event, const char *fmt, ...)
{
  char line[KFD_SMI_EVENT_MSG_SIZE];
  int len = snprintf(line, sizeof line, "%x ", event);
  va_list ap;
  va_start(ap, fmt);
  len += vsnprintf(line + len, sizeof line - (size_t)len, fmt, ap);
  va_end(ap);
  if (len >= (int)sizeof line)
    len = (int)sizeof line - 1;
  pthread_mutex_lock(&lock);
  for (struct smi_client **pc = &clients; *pc;) {
    struct smi_client *c = *pc;
    if (c->gpu != gpu) {
      pc = &c->next;
      continue;
    }
    if (!update_mask(c)) {   /* the client went away */
      *pc = c->next;
      syscall(SYS_close, c->fd);
      free(c);
      continue;
    }
    if (c->mask & KFD_SMI_EVENT_MASK_FROM_INDEX(event))
      send(c->fd, line, (size_t)len, MSG_DONTWAIT | MSG_NOSIGNAL);   /* full: dropped */
    pc = &c->next;
  }
  pthread_mutex_unlock(&lock);
}

static long long boot_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_BOOTTIME, &t);
  return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

void sim_smi_vm_fault(struct sim_gpu *gpu)
{
  /* the process's name (its main thread's), read past the interposer */
  char comm[32] = "";
  int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/comm", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    long n = syscall(SYS_read, fd, comm, sizeof comm - 1);
    comm[n > 0 ? n : 0] = 0;
    comm[strcspn(comm, "\n")] = 0;
    syscall(SYS_close, fd);
  }
  post(gpu, KFD_SMI_EVENT_VMFAULT, "%x:%s\n", (unsigned)getpid(), comm);
}

void sim_smi_gpu_reset(struct sim_gpu *gpu, bool post_reset)
{
  static unsigned seq;   /* the reset count of the GPU: one GPU resets at a time here */
  unsigned n = post_reset ? __atomic_load_n(&seq, __ATOMIC_RELAXED)
                          : __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
  post(gpu, post_reset ? KFD_SMI_EVENT_GPU_POST_RESET : KFD_SMI_EVENT_GPU_PRE_RESET, "%x\n", n);
}

void sim_smi_migrate(struct sim_gpu *gpu, uint64_t start, uint64_t pages, uint32_t from,
                     uint32_t to, uint32_t prefetch_loc, uint32_t preferred_loc, bool end)
{
  if (!end)
    post(gpu, KFD_SMI_EVENT_MIGRATE_START, "%lld -%d @%lx(%lx) %x->%x %x:%x %d\n", boot_ns(),
         (int)getpid(), (unsigned long)start, (unsigned long)pages, from, to, prefetch_loc,
         preferred_loc, KFD_MIGRATE_TRIGGER_PREFETCH);
  else
    post(gpu, KFD_SMI_EVENT_MIGRATE_END, "%lld -%d @%lx(%lx) %x->%x %d\n", boot_ns(),
         (int)getpid(), (unsigned long)start, (unsigned long)pages, from, to,
         KFD_MIGRATE_TRIGGER_PREFETCH);
}
