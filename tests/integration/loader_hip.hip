/* SPDX-License-Identifier: MIT */
// loader_hip.hip — a HIP program (Debian's hipcc and libamdhip64 5.2) whose kernel reads a
// __device__ variable: HIP loads its embedded code object through our loader (memory reader,
// "k.kd" lookup, variable lookup). Prints whether the results are right and the URI of every
// code object on _amdgpu_r_debug, then checks that the program's own entry names a byte
// range of this very file that is an AMDGPU ELF.
#include <hip/hip_runtime.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__device__ int dev_var = 7;
__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x * 2 + dev_var; }

int main(int argc, char **argv) {
  int *d = nullptr, h[64];
  if (hipMalloc(&d, sizeof(h)) != hipSuccess) return 2;
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  if (hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost) != hipSuccess) return 3;
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += h[i] != i * 2 + 7;
  printf("results %s\n", bad ? "WRONG" : "right");
  struct r_debug *r = (struct r_debug *)dlsym(RTLD_DEFAULT, "_amdgpu_r_debug");
  int own = 0;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  self[n > 0 ? n : 0] = 0;
  for (struct link_map *m = r ? r->r_map : nullptr; m; m = m->l_next) {
    printf("uri %s\n", m->l_name);
    char prefix[4200];
    snprintf(prefix, sizeof(prefix), "file://%s#offset=", self);
    if (strncmp(m->l_name, prefix, strlen(prefix)) != 0) continue;
    unsigned long long off = 0, size = 0;
    sscanf(m->l_name + strlen(prefix), "%llu&size=%llu", &off, &size);
    FILE *f = fopen(self, "rb");
    unsigned char hdr[20] = {0};
    if (f && fseek(f, (long)off, SEEK_SET) == 0 && fread(hdr, 1, 20, f) == 20 &&
        memcmp(hdr, "\177ELF", 4) == 0 && hdr[18] == 224 && hdr[19] == 0 && size > 64)
      own++;
    if (f) fclose(f);
  }
  printf("own code objects on r_debug: %d\n", own);
  return bad || own != 1;
}
