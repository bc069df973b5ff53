/* SPDX-License-Identifier: MIT */
/* trace.c — --trace: one line per ioctl (and per device mmap) with decoded arguments and
 * the result, written with a single write() so lines from several threads do not mix. */
#include "kfd/trace.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sim_trace_on(void)
{
  return sim_config()->trace_fd >= 0;
}

static void emit(const char *buf, size_t n)
{
  int fd = sim_config()->trace_fd;
  while (n > 0) {
    ssize_t w = write(fd, buf, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    buf += w;
    n -= (size_t)w;
  }
}

void sim_trace(const char *fmt, ...)
{
  if (!sim_trace_on())
    return;
  int saved = errno;
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "[hsa-sim %d] ", (int)getpid());
  va_list ap;
  va_start(ap, fmt);
  int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
  va_end(ap);
  size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
  if (len > sizeof buf - 2)
    len = sizeof buf - 2;
  buf[len++] = '\n';
  emit(buf, len);
  errno = saved;
}

const char *sim_errno_name(int err)
{
  switch (err) {
  case EPERM: return "EPERM";
  case ENOENT: return "ENOENT";
  case ESRCH: return "ESRCH";
  case EINTR: return "EINTR";
  case EIO: return "EIO";
  case EBADF: return "EBADF";
  case EAGAIN: return "EAGAIN";
  case ENOMEM: return "ENOMEM";
  case EACCES: return "EACCES";
  case EFAULT: return "EFAULT";
  case EBUSY: return "EBUSY";
  case EEXIST: return "EEXIST";
  case ENODEV: return "ENODEV";
  case EINVAL: return "EINVAL";
  case ENOSPC: return "ENOSPC";
  case ENOTTY: return "ENOTTY";
  case ETIME: return "ETIME";
  case EOPNOTSUPP: return "EOPNOTSUPP";
  case EADDRINUSE: return "EADDRINUSE";
  case 524: return "ENOTSUPP";
  default: return "E?";
  }
}

static uint64_t field_value(const void *base, const struct sim_field *f)
{
  const unsigned char *p = (const unsigned char *)base + f->off;
  switch (f->size) {
  case 1: return *p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

static int put_field(char *buf, size_t cap, const struct sim_field *f, uint64_t v)
{
  static const char *const mem_names[32] = {
    [0] = "VRAM", [1] = "GTT", [2] = "USERPTR", [3] = "DOORBELL", [4] = "MMIO_REMAP",
    [25] = "UNCACHED", [26] = "COHERENT", [27] = "AQL_QUEUE_MEM", [28] = "NO_SUBSTITUTE",
    [29] = "PUBLIC", [30] = "EXECUTABLE", [31] = "WRITABLE",
  };
  static const char *const qtypes[] = { "COMPUTE", "SDMA", "COMPUTE_AQL", "SDMA_XGMI",
                                        "SDMA_BY_ENG_ID" };
  switch (f->kind) {
  case SIM_F_DEC:
    return snprintf(buf, cap, "%s=%llu", f->name, (unsigned long long)v);
  case SIM_F_QTYPE:
    if (v < 5)
      return snprintf(buf, cap, "%s=%s", f->name, qtypes[v]);
    return snprintf(buf, cap, "%s=%llu", f->name, (unsigned long long)v);
  case SIM_F_MEMFLAGS: {
    int n = snprintf(buf, cap, "%s=", f->name);
    const char *sep = "";
    for (unsigned b = 0; b < 32 && (size_t)n < cap; b++)
      if (v & (1ull << b)) {
        if (mem_names[b])
          n += snprintf(buf + n, cap - (size_t)n, "%s%s", sep, mem_names[b]);
        else
          n += snprintf(buf + n, cap - (size_t)n, "%s0x%x", sep, 1u << b);
        sep = "|";
      }
    if (!*sep && (size_t)n < cap)
      n += snprintf(buf + n, cap - (size_t)n, "0");
    return n;
  }
  default:
    return snprintf(buf, cap, "%s=0x%llx", f->name, (unsigned long long)v);
  }
}

void sim_trace_ioctl(const char *dev, const char *name, const struct sim_field *f, unsigned nf,
                     const void *in, const void *out, size_t size, int ret, const char *note)
{
  char buf[1024];
  size_t cap = sizeof buf - 2, n = 0;
#define PUT(...)                                                        \
  do {                                                                  \
    if (n < cap) {                                                      \
      int k_ = snprintf(buf + n, cap - n, __VA_ARGS__);                 \
      n += k_ > 0 ? (size_t)k_ : 0;                                     \
    }                                                                   \
  } while (0)
  PUT("%s %s(", dev, name);
  for (unsigned i = 0; i < nf; i++) {
    if (f[i].off + f[i].size > size)
      continue;
    if (i)
      PUT(", ");
    if (n < cap)
      n += (size_t)put_field(buf + n, cap - n, &f[i], field_value(in, &f[i]));
  }
  if (ret == 0)
    PUT(") = 0");
  else
    PUT(") = -1 %s", sim_errno_name(-ret));
  if (note)
    PUT(" (%s)", note);
  if (out) {
    const char *sep = " {";
    for (unsigned i = 0; i < nf; i++) {
      if (f[i].off + f[i].size > size)
        continue;
      uint64_t a = field_value(in, &f[i]), b = field_value(out, &f[i]);
      if (a == b)
        continue;
      PUT("%s", sep);
      sep = ", ";
      if (n < cap)
        n += (size_t)put_field(buf + n, cap - n, &f[i], b);
    }
    if (sep[0] == ',')
      PUT("}");
  }
#undef PUT
  if (n > cap)
    n = cap;
  buf[n] = '\0';
  sim_trace("%s", buf);
}
