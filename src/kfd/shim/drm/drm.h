/* SPDX-License-Identifier: MIT */
/* <linux/kfd_ioctl.h> includes <drm/drm.h>; Debian installs that header as libdrm's <drm.h>
 * (/usr/include/libdrm is on the include path). This forwards to it. */
#include <drm.h>
