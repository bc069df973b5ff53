/* SPDX-License-Identifier: MIT */
/* ipc_sock.c — how a dma-buf descriptor reaches another process for IPC memory. A handle
 * (hsa_amd_ipc_memory_t, eight dwords) cannot carry a descriptor, so the exporting process
 * serves them, as ROCR does: one thread per process listens on the abstract Unix socket
 * "\0hsa<pid>"; an importer connects, writes the exported address in decimal (a 64-byte
 * message), receives a fresh dma-buf of the buffer object holding it (SCM_RIGHTS, one byte of
 * data), imports it, and writes the message again to say it is done, after which the server
 * closes its copy. An address not (or no longer) exported gets the connection closed with no
 * descriptor. The same names and messages as ROCR's, so either runtime can attach the other's
 * handles. The server stops at hsa_shut_down; a fork's child starts its own when it exports. */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/runtime.h"
#include "kfd/memory.h"
#include "mem/internal.h"

#define MSG_LEN 64      /* ROCR's request size */
#define TIMEOUT_S 10    /* a peer that stops talking is dropped after this */

struct served {
  struct served *next;
  uintptr_t ptr;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct served *served;
/* Set once anything was served: frees of processes that never export skip the lock. */
static atomic_bool ever_served;
static int server_fd = -1;
static pid_t server_pid;   /* the process that started it: a fork's child has no thread */
static pthread_t server;

/* lock held. In a fork's child the listener and the list are the parent's: forget them (a
 * shutdown() here would stop the parent's server, the socket being shared). */
static void forget_parents(void) {
  if (server_fd < 0 || server_pid == getpid()) return;
  close(server_fd);
  server_fd = -1;
  while (served) {
    struct served *s = served;
    served = s->next;
    free(s);
  }
}

static socklen_t name_of(struct sockaddr_un *a, uint32_t pid) {
  memset(a, 0, sizeof(*a));
  a->sun_family = AF_UNIX;
  /* Abstract namespace: a leading NUL, then "hsa<pid>"; the kernel takes the whole array. */
  snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "hsa%" PRIu32, pid);
  return (socklen_t)sizeof(*a);
}

static void timeouts(int fd) {
  struct timeval tv = {.tv_sec = TIMEOUT_S};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static bool is_served(uintptr_t ptr) {
  pthread_mutex_lock(&lock);
  struct served *s = served;
  while (s && s->ptr != ptr) s = s->next;
  pthread_mutex_unlock(&lock);
  return s != NULL;
}

/* A new dma-buf of the object holding the exported allocation at ptr, or -1. */
static int export_fd(uintptr_t ptr) {
  if (!is_served(ptr)) return -1;
  uint64_t handle = 0;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_base(ptr);
  bool ok = r && r->kind == MEM_KIND_USER;
  if (ok) handle = (r->chunk ? mem_chunk_bo(r->chunk) : r->bo)->handle;
  pthread_mutex_unlock(&mem_mutex);
  int fd = -1;
  if (ok && kfd_dmabuf_export(&core_rt()->kfd, handle, &fd) != 0) fd = -1;
  return fd;
}

static void send_fd(int sock, int fd) {
  char byte = 0;
  struct iovec io = {.iov_base = &byte, .iov_len = 1};
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } ctl;
  memset(&ctl, 0, sizeof(ctl));
  struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl.buf,
                     .msg_controllen = sizeof(ctl.buf)};
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fd, sizeof(int));
  sendmsg(sock, &m, MSG_NOSIGNAL);
}

static void serve_one(int conn) {
  char msg[MSG_LEN + 1] = {0};
  if (read(conn, msg, MSG_LEN) <= 0) return;
  int fd = export_fd((uintptr_t)strtoull(msg, NULL, 10));
  if (fd < 0) return;   /* closing the connection tells the importer */
  send_fd(conn, fd);
  ssize_t n = read(conn, msg, MSG_LEN);   /* the importer's "done" (or its end) */
  (void)n;
  close(fd);
}

static void *serve(void *arg) {
  int lfd = (int)(intptr_t)arg;
  for (;;) {
    int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (conn < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      break;   /* shut down (EINVAL) or the socket is gone */
    }
    timeouts(conn);
    serve_one(conn);
    close(conn);
  }
  return NULL;
}

int mem_ipc_serve(uintptr_t ptr) {
  struct served *s = calloc(1, sizeof(*s));
  if (!s) return -ENOMEM;
  s->ptr = ptr;
  pthread_mutex_lock(&lock);
  forget_parents();
  int rc = 0;
  if (server_fd < 0) {
    struct sockaddr_un a;
    socklen_t len = name_of(&a, (uint32_t)getpid());
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) != 0 || listen(fd, 16) != 0 ||
        pthread_create(&server, NULL, serve, (void *)(intptr_t)fd) != 0) {
      rc = -errno;
      if (fd >= 0) close(fd);
    } else {
      server_fd = fd;
      server_pid = getpid();
    }
  }
  if (rc == 0) {
    s->next = served;
    served = s;
    atomic_store_explicit(&ever_served, true, memory_order_release);
  } else {
    free(s);
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

void mem_ipc_unserve(uintptr_t ptr) {
  if (!atomic_load_explicit(&ever_served, memory_order_acquire)) return;
  pthread_mutex_lock(&lock);
  for (struct served **pp = &served; *pp; pp = &(*pp)->next)
    if ((*pp)->ptr == ptr) {
      struct served *s = *pp;
      *pp = s->next;
      free(s);
      break;
    }
  pthread_mutex_unlock(&lock);
}

void mem_ipc_shutdown(void) {
  pthread_mutex_lock(&lock);
  forget_parents();
  int fd = server_fd;
  server_fd = -1;
  while (served) {
    struct served *s = served;
    served = s->next;
    free(s);
  }
  pthread_mutex_unlock(&lock);
  if (fd < 0) return;
  shutdown(fd, SHUT_RDWR);   /* wakes accept() */
  pthread_join(server, NULL);
  close(fd);
}

int mem_ipc_fetch(uint32_t pid, uint64_t key, int *sock) {
  struct sockaddr_un a;
  socklen_t len = name_of(&a, pid);
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0) return -1;
  /* No listener under that name: the exporter ended, or the handle is from elsewhere. */
  if (connect(s, (struct sockaddr *)&a, len) != 0) goto fail;
  timeouts(s);
  char msg[MSG_LEN] = {0};
  snprintf(msg, sizeof(msg), "%" PRIu64, key);
  if (write(s, msg, MSG_LEN) != MSG_LEN) goto fail;
  char byte;
  struct iovec io = {.iov_base = &byte, .iov_len = 1};
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } ctl;
  struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl.buf,
                     .msg_controllen = sizeof(ctl.buf)};
  ssize_t n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
  struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&m) : NULL;
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
      c->cmsg_len != CMSG_LEN(sizeof(int)))
    goto fail;   /* closed with nothing: not an address it exports */
  int fd;
  memcpy(&fd, CMSG_DATA(c), sizeof(int));
  *sock = s;
  return fd;
fail:
  close(s);
  return -1;
}

void mem_ipc_fetched(int sock, uint64_t key) {
  char msg[MSG_LEN] = {0};
  snprintf(msg, sizeof(msg), "%" PRIu64, key);
  ssize_t n = write(sock, msg, MSG_LEN);
  (void)n;
  close(sock);
}
