/* SPDX-License-Identifier: MIT */
/* pocl_run.c — runs one OpenCL C case of the corpus on the CPU (Debian's pocl through the
 * ICD loader), with the same generated inputs as the HSA harness, compares the outputs with
 * the host reference and writes them in the harness's format. pocl has no non-uniform work
 * groups, so the global size is rounded up to whole work-groups; the kernels bound-check
 * with their explicit size arguments when not compiled for AMDGCN.
 *
 *   pocl_run [--out FILE] CASE SOURCE.cl
 * Exit: 0 right, 1 wrong, 2 usage/I/O error, 4 no OpenCL device or build failure. */
#define CL_TARGET_OPENCL_VERSION 120
#include "kcase.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(cl_int e, const char *what)
{
  if (e != CL_SUCCESS) { fprintf(stderr, "pocl_run: %s failed: %d\n", what, (int)e); exit(4); }
}

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "%s: read failed\n", path); exit(2); }
  s[n] = 0;
  fclose(f);
  return s;
}

int main(int argc, char **argv)
{
  int rc = kc_common_main(argc, argv);
  if (rc >= 0) return rc;
  const char *out = NULL;
  int ai = 1;
  if (argc > 2 && strcmp(argv[1], "--out") == 0) { out = argv[2]; ai = 3; }
  if (argc - ai != 2) { fprintf(stderr, "usage: pocl_run [--out FILE] CASE SOURCE.cl\n"); return 2; }
  const struct kcase *c = kc_find(argv[ai]);
  if (!c) { fprintf(stderr, "pocl_run: no case %s\n", argv[ai]); return 2; }
  void **host = kc_alloc(c), **want = kc_alloc(c);
  if (!host || !want) return 2;

  cl_platform_id plat;
  cl_device_id dev;
  cl_int e;
  check(clGetPlatformIDs(1, &plat, NULL), "clGetPlatformIDs");
  check(clGetDeviceIDs(plat, CL_DEVICE_TYPE_CPU, 1, &dev, NULL), "clGetDeviceIDs");
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  check(e, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  check(e, "clCreateCommandQueue");
  char *src = slurp(argv[ai + 1]);
  cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &e);
  check(e, "clCreateProgramWithSource");
  if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "pocl_run: build of %s failed:\n%s\n", argv[ai + 1], log);
    return 4;
  }
  cl_kernel k = clCreateKernel(prog, c->kernel, &e);
  check(e, "clCreateKernel");

  cl_mem mem[KC_MAX_BUFS] = {0};
  for (unsigned i = 0; i < c->nbufs; i++) {
    mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kc_buf_bytes(&c->bufs[i]),
                            host[i], &e);
    check(e, "clCreateBuffer");
  }
  for (unsigned i = 0; i < c->nargs; i++) {
    const struct kc_arg *a = &c->args[i];
    uint32_t u32 = (uint32_t)a->u;
    switch (a->kind) {
    case KC_ARG_BUF: e = clSetKernelArg(k, i, sizeof(cl_mem), &mem[a->buf]); break;
    case KC_ARG_U32: e = clSetKernelArg(k, i, 4, &u32); break;
    case KC_ARG_U64: e = clSetKernelArg(k, i, 8, &a->u); break;
    case KC_ARG_F32: e = clSetKernelArg(k, i, 4, &a->f); break;
    }
    check(e, "clSetKernelArg");
  }
  size_t global[3], local[3];
  for (unsigned d = 0; d < c->dims; d++) {
    local[d] = c->wg[d];
    global[d] = (c->grid[d] + local[d] - 1) / local[d] * local[d];
  }
  check(clEnqueueNDRangeKernel(q, k, c->dims, NULL, global, local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
  for (unsigned i = 0; i < c->nbufs; i++)
    if (c->bufs[i].out)
      check(clEnqueueReadBuffer(q, mem[i], CL_TRUE, 0, kc_buf_bytes(&c->bufs[i]), host[i], 0, NULL, NULL),
            "clEnqueueReadBuffer");
  check(clFinish(q), "clFinish");

  c->ref(c, want);
  int bad = kc_compare(c, want, host, 1, "pocl vs host reference") != 0;
  if (out && kc_write_outputs(c, host, out) != 0) return 2;
  for (unsigned i = 0; i < c->nbufs; i++) clReleaseMemObject(mem[i]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(src);
  kc_free(c, host); kc_free(c, want);
  if (!bad) printf("%s: ok (pocl)\n", c->name);
  return bad;
}
