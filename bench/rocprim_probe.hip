/* SPDX-License-Identifier: MIT */
// rocprim_probe — the workload of bench/rocprim_probe.sh: rocPRIM (Debian's librocprim-dev)
// reduce, inclusive scan and radix sort (keys, and key/value pairs) over N items, each
// result compared with the host's; exits 0 only when all are equal (a wrong run is an
// error for the bench, never a figure). Prints one line: N, the milliseconds until the
// device was set up (HIP's start, the code object load) and those of the work after it.
//   rocprim_probe [N]     N: items (default 65536)
#include "../tests/hip/hip_check.h"
#include <rocprim/rocprim.hpp>
#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

template<class T> struct dbuf {
  T *p = nullptr; size_t n;
  explicit dbuf(size_t n_) : n(n_) { HIP_OK(hipMalloc(&p, (n ? n : 1) * sizeof(T))); }
  dbuf(const std::vector<T> &v) : dbuf(v.size()) { put(v); }
  ~dbuf() { (void)hipFree(p); }
  void put(const std::vector<T> &v) { HIP_OK(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice)); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    HIP_OK(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
    return v;
  }
};

// A rocPRIM call twice, as the library intends: the size query, then the work.
#define PRIM(call_with_tmp) do { void *tmp = nullptr; size_t tmp_size = 0;           \
    HIP_OK(call_with_tmp);                                                          \
    HIP_OK(hipMalloc(&tmp, tmp_size ? tmp_size : 1));                               \
    HIP_OK(call_with_tmp);                                                          \
    HIP_OK(hipDeviceSynchronize());                                                 \
    HIP_OK(hipFree(tmp)); } while (0)

template<class T> static void same(const std::vector<T> &got, const std::vector<T> &want, const char *what)
{
  for (size_t i = 0; i < want.size(); i++)
    EXPECT(got[i] == want[i], "%s: first difference at %zu of %zu", what, i, want.size());
}

static double ms_since(std::chrono::steady_clock::time_point t)
{
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

int main(int argc, char **argv)
{
  const auto t0 = std::chrono::steady_clock::now();
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 0) : 65536;
  HIP_OK(hipSetDevice(0));
  HIP_OK(hipFree(nullptr));                 // HIP's lazy start happens here
  const double init_ms = ms_since(t0);
  const auto t1 = std::chrono::steady_clock::now();

  unsigned long long seed = 42;
  std::vector<int> a(n);
  for (auto &v : a) v = (int)(hc_rand(seed) % 2001) - 1000;
  dbuf<int> da(a), out(n), sum(1);

  PRIM(rocprim::reduce(tmp, tmp_size, da.p, sum.p, 17, n, rocprim::plus<int>()));
  const int want_sum = std::accumulate(a.begin(), a.end(), 17);
  EXPECT(sum.get()[0] == want_sum, "reduce: %d, want %d", sum.get()[0], want_sum);

  PRIM(rocprim::inclusive_scan(tmp, tmp_size, da.p, out.p, n, rocprim::plus<int>()));
  std::vector<int> want(n);
  std::partial_sum(a.begin(), a.end(), want.begin());
  same(out.get(), want, "inclusive_scan");

  std::vector<unsigned> k(n);
  std::vector<int> v(n);
  for (size_t i = 0; i < n; i++) { k[i] = hc_rand(seed) ^ (hc_rand(seed) << 16); v[i] = (int)i; }
  dbuf<unsigned> dk(k), ok(n);
  dbuf<int> dv(v), ov(n);
  PRIM(rocprim::radix_sort_keys(tmp, tmp_size, dk.p, ok.p, n));
  std::vector<unsigned> wk = k;
  std::sort(wk.begin(), wk.end());
  same(ok.get(), wk, "radix_sort_keys");

  PRIM(rocprim::radix_sort_pairs(tmp, tmp_size, dk.p, ok.p, dv.p, ov.p, n));
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return k[x] < k[y]; });
  same(ok.get(), wk, "radix_sort_pairs keys");
  same(ov.get(), order, "radix_sort_pairs values");   // stable: equal keys keep their order

  std::printf("rocprim_probe: n=%zu init_ms=%.1f work_ms=%.1f: reduce, scan, radix sort keys "
              "and pairs equal to the host\n", n, init_ms, ms_since(t1));
  return 0;
}
