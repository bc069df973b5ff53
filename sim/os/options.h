/* SPDX-License-Identifier: MIT */
/* options.h — parsing of the simulator's option values, shared by the launcher (hsa-sim)
 * and the preloaded library (HSA_SIM_CONFIG). Pure functions: no I/O, no global state. */
#ifndef SIM_OS_OPTIONS_H
#define SIM_OS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/* "4G", "512M", "65536K", "1T", "123" (bytes). 0 on success, -1 on a malformed value. */
int sim_parse_size(const char *s, uint64_t *bytes);

/* _IOC_NR of a KFD ioctl named like AMDKFD_IOC_<NAME> ("ALLOC_MEMORY_OF_GPU", the prefix
 * "AMDKFD_IOC_" optional, case-insensitive); 0 if unknown. */
unsigned sim_kfd_ioctl_nr(const char *name);
/* The name of a KFD ioctl number ("ALLOC_MEMORY_OF_GPU"), NULL if unknown. */
const char *sim_kfd_ioctl_name(unsigned nr);

/* A KFD interface version "1.11" ... "1.18" into its minor number. 0 on success, -1 if it is
 * malformed or outside the levels the simulator answers as (KFD_SUPP_MINOR_OLDEST..NEWEST). */
int sim_parse_kfd_version(const char *s, unsigned *minor);

/* "ENOMEM" or a decimal errno. 0 on an unknown name. */
int sim_errno_value(const char *name);

/* "KIND:N:ERRNO" into *f. 0 on success; else -1 and a message in err. */
int sim_parse_fault(const char *spec, struct sim_fault *f, char *err, size_t errlen);

#endif
