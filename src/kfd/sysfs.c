/* SPDX-License-Identifier: MIT */
/* sysfs.c — reading the small text files of the KFD sysfs topology. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long kfd_sysfs_read(const char *path, char *buf, size_t size) {
  if (size == 0) return -EINVAL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  size_t have = 0;
  /* sysfs answers in pieces of at most a page; loop until EOF or the buffer is full. A piece
   * shorter than asked that ends off a page boundary is the end (a sysfs attribute's whole
   * text, or a regular file's tail): no read to see EOF then. */
  while (have + 1 < size) {
    size_t want = size - 1 - have;
    ssize_t n = read(fd, buf + have, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      close(fd);
      return -err;
    }
    if (n == 0) break;
    have += (size_t)n;
    if ((size_t)n < want && have % 4096 != 0) break;
  }
  close(fd);
  buf[have] = '\0';
  return (long)have;
}

int kfd_sysfs_for_each(const char *text, int (*fn)(const char *key, uint64_t value, void *arg),
                       void *arg) {
  const char *p = text;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char key[64];
    size_t k = 0;
    while (k < len && p[k] != ' ' && p[k] != '\t' && k + 1 < sizeof(key)) {
      key[k] = p[k];
      k++;
    }
    key[k] = '\0';
    const char *v = p + k;
    while (v < p + len && (*v == ' ' || *v == '\t')) v++;
    if (k > 0 && v < p + len && *v >= '0' && *v <= '9') {
      /* The kernel prints unsigned decimals (%llu); parse without sign tricks. */
      char *end = NULL;
      errno = 0;
      unsigned long long value = strtoull(v, &end, 10);
      if (errno == 0 && end != v) {
        int rc = fn(key, (uint64_t)value, arg);
        if (rc) return rc;
      }
    }
    p += len;
    if (*p == '\n') p++;
  }
  return 0;
}

int kfd_sysfs_read_u64(const char *path, uint64_t *value) {
  char buf[64];
  long n = kfd_sysfs_read(path, buf, sizeof(buf));
  if (n < 0) return (int)n;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(buf, &end, 10);
  if (errno || end == buf) return -EINVAL;
  *value = (uint64_t)v;
  return 0;
}

int kfd_sysfs_read_line(const char *path, char *buf, size_t size) {
  long n = kfd_sysfs_read(path, buf, size);
  if (n < 0) return (int)n;
  char *nl = strchr(buf, '\n');
  if (nl) *nl = '\0';
  return 0;
}
