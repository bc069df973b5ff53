/* SPDX-License-Identifier: MIT */
/* debug.h — the runtime's side of the KFD debugger interface (1.13): RUNTIME_ENABLE tells the
 * kernel where the runtime's list of loaded code objects (_amdgpu_r_debug) is and that it is
 * ready, so a debugger attaching later (DBG_TRAP ENABLE) finds it; it must come before the
 * process's first queue. Functions return 0 or -errno like kfd_ioctl. */
#ifndef KFD_DEBUG_H
#define KFD_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include "kfd/kfd.h"

bool kfd_has_runtime_enable(const struct kfd_device *dev);   /* KFD 1.13 and later */
/* Enable (r_debug: the list's address; ttmp: ask the hardware to save trap temporaries for a
 * debugger, HSA_ENABLE_DEBUG), *caps the kernel's capabilities; -EBUSY when already enabled
 * (or a debugger holds it), -EEXIST when a queue exists. */
int kfd_runtime_enable(const struct kfd_device *dev, uint64_t r_debug, bool ttmp, uint32_t *caps);
int kfd_runtime_disable(const struct kfd_device *dev);

#endif
