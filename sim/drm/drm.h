/* SPDX-License-Identifier: MIT */
/* <linux/kfd_ioctl.h> includes <drm/drm.h>; Debian installs that header as libdrm's <drm.h>
 * (/usr/include/libdrm is on the simulator's include path, and sim/ is too, which is how
 * this file is found). It forwards there. Shared by sim/os, sim/kfd and the sim tests. */
#include <drm.h>
