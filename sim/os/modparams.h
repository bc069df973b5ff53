/* SPDX-License-Identifier: MIT */
/* modparams.h — the amdgpu module's parameters as /sys/module/amdgpu/parameters shows them. */
#ifndef SIM_OS_MODPARAMS_H
#define SIM_OS_MODPARAMS_H

struct sim_modparam {
  const char *name, *value;   /* value as the file reads, without the newline */
};

extern const struct sim_modparam sim_modparams[];
extern const unsigned sim_modparam_count;

#endif
