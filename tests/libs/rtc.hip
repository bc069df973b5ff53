/* SPDX-License-Identifier: MIT */
// hipRTC (in Debian's libamdhip64, compiling through libamd-comgr2 at run time): kernel
// source compiled with hiprtcCompileProgram for the GPU the program runs on, loaded with
// hipModuleLoadData and launched with hipModuleLaunchKernel.
//  - a template kernel found through hiprtcAddNameExpression/hiprtcGetLoweredName, with an
//    included header given as a string, LDS (__shared__) and a __device__ variable set
//    through hipModuleGetGlobal; launched with kernelParams and again with "extra"
//    (HIP_LAUNCH_PARAM_BUFFER_POINTER);
//  - an extern "C" kernel compiled with no options (hipRTC picks the device's ISA);
//  - a source with an error: HIPRTC_ERROR_COMPILATION and a log that names the error.
// Every result is compared with the host's; exits 0 only when all are right.
#include "../hip/hip_check.h"
#include <hip/hiprtc.h>
#include <cstring>
#include <string>
#include <vector>

#define RTC_OK(call) do { hiprtcResult r_ = (call); if (r_ != HIPRTC_SUCCESS) { \
    std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hiprtcGetErrorString(r_)); \
    std::exit(1); } } while (0)

static const char *header = R"(
#pragma once
template<typename T> __device__ T mix(T a, T b, unsigned i) { return a * (T)(i % 7) + b; }
)";

static const char *templ_src = R"(
#include "mix.h"
extern "C" { __device__ int bias = 0; }
// out[i] = mix(in[i], k, i) + bias + the block's reversed neighbour in LDS
template<typename T>
__global__ void blockmix(const T *in, T *out, T k, unsigned n)
{
  __shared__ T tile[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : (T)0;
  __syncthreads();
  if (i < n) out[i] = mix(in[i], k, i) + (T)bias + tile[blockDim.x - 1 - threadIdx.x];
}
)";

static const char *plain_src = R"(
extern "C" __global__ void iota3(unsigned *out, unsigned n)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3u + 1u;
}
)";

static const char *broken_src = R"(
extern "C" __global__ void broken(int *p) { p[0] = undeclared_name_xyz; }
)";

static std::string log_of(hiprtcProgram p)
{
  size_t n = 0;
  RTC_OK(hiprtcGetProgramLogSize(p, &n));
  std::string s(n, '\0');
  if (n) RTC_OK(hiprtcGetProgramLog(p, &s[0]));
  return s;
}

static std::vector<char> code_of(hiprtcProgram p)
{
  size_t n = 0;
  RTC_OK(hiprtcGetCodeSize(p, &n));
  EXPECT(n > 0, "hiprtcGetCodeSize: empty code object");
  std::vector<char> c(n);
  RTC_OK(hiprtcGetCode(p, c.data()));
  return c;
}

int main()
{
  hipDeviceProp_t prop;
  HIP_OK(hipGetDeviceProperties(&prop, 0));
  std::string arch = std::string("--gpu-architecture=") + prop.gcnArchName;

  // 1. template kernel, header, name expression, explicit architecture
  hiprtcProgram p;
  const char *hdrs[] = {header}, *hdr_names[] = {"mix.h"};
  RTC_OK(hiprtcCreateProgram(&p, templ_src, "blockmix.cu", 1, hdrs, hdr_names));
  RTC_OK(hiprtcAddNameExpression(p, "blockmix<float>"));
  const char *opts[] = {arch.c_str(), "-O2"};
  hiprtcResult rc = hiprtcCompileProgram(p, 2, opts);
  EXPECT(rc == HIPRTC_SUCCESS, "hiprtcCompileProgram (%s): %s; log:\n%s", arch.c_str(), hiprtcGetErrorString(rc),
         log_of(p).c_str());
  const char *lowered = nullptr;
  RTC_OK(hiprtcGetLoweredName(p, "blockmix<float>", &lowered));
  EXPECT(lowered && std::strstr(lowered, "blockmix"), "lowered name %s", lowered ? lowered : "(null)");
  std::string kname = lowered;
  auto code = code_of(p);
  RTC_OK(hiprtcDestroyProgram(&p));

  hipModule_t mod;
  HIP_OK(hipModuleLoadData(&mod, code.data()));
  hipFunction_t f;
  HIP_OK(hipModuleGetFunction(&f, mod, kname.c_str()));
  hipDeviceptr_t bias_p;
  size_t bias_size = 0;
  HIP_OK(hipModuleGetGlobal(&bias_p, &bias_size, mod, "bias"));
  EXPECT(bias_size == sizeof(int), "hipModuleGetGlobal: bias is %zu bytes", bias_size);
  int bias = 1000;
  HIP_OK(hipMemcpyHtoD(bias_p, &bias, sizeof bias));

  const unsigned n = 3000, blocks = (n + 255) / 256;
  std::vector<float> in(n), out(n);
  unsigned long long seed = 5;
  for (auto &v : in) v = (float)(hc_rand(seed) % 100);
  float *din, *dout;
  HIP_OK(hipMalloc(&din, n * 4));
  HIP_OK(hipMalloc(&dout, n * 4));
  HIP_OK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  auto want = [&](float k, unsigned i) {
    unsigned b = i / 256, t = i % 256, j = b * 256 + 255 - t;
    return in[i] * (float)(i % 7) + k + (float)bias + (j < n ? in[j] : 0.f);
  };
  float k = 0.5f;
  unsigned nn = n;
  void *args[] = {&din, &dout, &k, &nn};
  HIP_OK(hipModuleLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  HIP_OK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; i++) EXPECT(out[i] == want(k, i), "blockmix (kernelParams) [%u]: %g, want %g", i, out[i], want(k, i));

  // the same kernel through "extra": the arguments packed as the kernel's layout says
  struct { float *in, *out; float k; unsigned n; } packed = {din, dout, 2.0f, n};
  size_t psize = sizeof packed;
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &psize, HIP_LAUNCH_PARAM_END};
  bias = -3;
  HIP_OK(hipMemcpyHtoD(bias_p, &bias, sizeof bias));
  HIP_OK(hipModuleLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra));
  HIP_OK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; i++) EXPECT(out[i] == want(2.0f, i), "blockmix (extra) [%u]: %g, want %g", i, out[i], want(2.0f, i));
  HIP_OK(hipModuleUnload(mod));

  // 2. no options at all: hipRTC compiles for the current device
  RTC_OK(hiprtcCreateProgram(&p, plain_src, "iota3.cu", 0, nullptr, nullptr));
  rc = hiprtcCompileProgram(p, 0, nullptr);
  EXPECT(rc == HIPRTC_SUCCESS, "hiprtcCompileProgram (no options): %s; log:\n%s", hiprtcGetErrorString(rc), log_of(p).c_str());
  code = code_of(p);
  RTC_OK(hiprtcDestroyProgram(&p));
  HIP_OK(hipModuleLoadData(&mod, code.data()));
  HIP_OK(hipModuleGetFunction(&f, mod, "iota3"));
  unsigned *du;
  HIP_OK(hipMalloc(&du, n * 4));
  void *args2[] = {&du, &nn};
  HIP_OK(hipModuleLaunchKernel(f, blocks, 1, 1, 256, 1, 1, 0, nullptr, args2, nullptr));
  std::vector<unsigned> u(n);
  HIP_OK(hipMemcpy(u.data(), du, n * 4, hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; i++) EXPECT(u[i] == i * 3u + 1u, "iota3 [%u]: %u", i, u[i]);
  HIP_OK(hipModuleUnload(mod));

  // 3. a compile error is reported, with a log that names it
  RTC_OK(hiprtcCreateProgram(&p, broken_src, "broken.cu", 0, nullptr, nullptr));
  rc = hiprtcCompileProgram(p, 1, opts);
  std::string log = log_of(p);
  EXPECT(rc == HIPRTC_ERROR_COMPILATION, "broken source: %s, want HIPRTC_ERROR_COMPILATION", hiprtcGetErrorString(rc));
  EXPECT(log.find("undeclared_name_xyz") != std::string::npos, "broken source: the log does not name the error:\n%s", log.c_str());
  RTC_OK(hiprtcDestroyProgram(&p));

  std::printf("rtc: %s: template kernel with header, LDS and a module global (kernelParams, extra), "
              "default-architecture kernel, compile error: all right\n", prop.gcnArchName);
  return 0;
}
