/* SPDX-License-Identifier: MIT */
/* sim_probe.c — built and run by sim_os.sh under hsa-sim: what an unmodified program sees
 * of the simulated device nodes through libc and libdrm. Prints "key value" lines. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>

static void node(const char *key, const struct stat *st)
{
  printf("%s %s %u:%u\n", key, S_ISCHR(st->st_mode) ? "chr" : "other", major(st->st_rdev),
         minor(st->st_rdev));
}

int main(void)
{
  struct stat st;
  if (stat("/dev/kfd", &st) == 0)
    node("stat_kfd", &st);
  int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  if (kfd < 0) {
    perror("open /dev/kfd");
    return 1;
  }
  if (fstat(kfd, &st) == 0)
    node("fstat_kfd", &st);
  int kfd2 = dup(kfd);
  if (fstat(kfd2, &st) == 0)
    node("fstat_kfd_dup", &st);
  char link[256], path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", kfd);
  ssize_t n = readlink(path, link, sizeof link - 1);
  link[n > 0 ? n : 0] = '\0';
  printf("fd_link %s\n", link);
  printf("access_kfd %d\n", access("/dev/kfd", R_OK | W_OK));
  close(kfd2);
  close(kfd);

  int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    perror("open renderD128");
    return 1;
  }
  if (fstat(fd, &st) == 0)
    node("fstat_render", &st);
  printf("node_type %d\n", drmGetNodeTypeFromFd(fd)); /* DRM_NODE_RENDER is 2 */
  drmDevicePtr dev = NULL;
  if (drmGetDevice2(fd, DRM_DEVICE_GET_PCI_REVISION, &dev) == 0) {
    printf("bustype %d\n", dev->bustype); /* DRM_BUS_PCI is 0 */
    if (dev->bustype == DRM_BUS_PCI)
      printf("pci %04x:%02x:%02x.%u %04x:%04x rev %02x\n", dev->businfo.pci->domain,
             dev->businfo.pci->bus, dev->businfo.pci->dev, dev->businfo.pci->func,
             dev->deviceinfo.pci->vendor_id, dev->deviceinfo.pci->device_id,
             dev->deviceinfo.pci->revision_id);
    for (int i = 0; i < DRM_NODE_MAX; i++)
      if (dev->available_nodes & (1 << i))
        printf("drm_node %s\n", dev->nodes[i]);
    drmFreeDevice(&dev);
  } else {
    printf("drmGetDevice2 failed\n");
  }
  char *name = drmGetPrimaryDeviceNameFromFd(fd);
  printf("primary %s\n", name ? name : "(none)");
  free(name);
  close(fd);

  drmDevicePtr devs[16];
  printf("devices %d\n", drmGetDevices2(0, devs, 16));
  FILE *f = fopen("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", "r");
  unsigned gpu_id = 0;
  if (f && fscanf(f, "%u", &gpu_id) == 1)
    printf("gpu_id_nonzero %d\n", gpu_id != 0);
  if (f)
    fclose(f);
  return 0;
}
