/* SPDX-License-Identifier: MIT */
/* trace.h — decoding ioctl arguments for --trace lines. */
#ifndef SIM_KFD_TRACE_H
#define SIM_KFD_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum sim_field_kind { SIM_F_HEX, SIM_F_DEC, SIM_F_MEMFLAGS, SIM_F_QTYPE };

struct sim_field {
  const char *name;
  unsigned short off, size;
  unsigned char kind;
};

#define SIM_FIELD(type, member, kind) \
  { #member, offsetof(type, member), sizeof(((type *)0)->member), kind }

/* True when a trace destination is configured. */
int sim_trace_on(void);
/* One line: "<dev> <name>(<in fields>) = <ret>[ errno] {<changed out fields>}". */
void sim_trace_ioctl(const char *dev, const char *name, const struct sim_field *f, unsigned nf,
                     const void *in, const void *out, size_t size, int ret, const char *note);
const char *sim_errno_name(int err);

#endif
