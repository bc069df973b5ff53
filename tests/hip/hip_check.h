/* SPDX-License-Identifier: MIT */
// hip_check.h — failure reporting for the HIP test programs: every HIP call is checked,
// every result compared; the program exits 0 only when everything was right.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define HIP_OK(call) do { hipError_t e_ = (call); if (e_ != hipSuccess) { \
    std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
    std::exit(1); } } while (0)

#define EXPECT(cond, ...) do { if (!(cond)) { \
    std::fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond); \
    std::fprintf(stderr, __VA_ARGS__); std::fputc('\n', stderr); std::exit(1); } } while (0)

// Deterministic test data.
static inline unsigned hc_rand(unsigned long long &s)
{
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(s >> 33);
}
