/* SPDX-License-Identifier: MIT */
// sparse_common.h — what the rocSPARSE/hipSPARSE programs share: status checks, device
// buffers, equality and closeness checks, random CSR matrices with small integer values
// (so that sums are exact) and a host SpMV.
#pragma once
#include "../hip/hip_check.h"
#include <rocsparse/rocsparse.h>
#include <algorithm>
#include <cmath>
#include <vector>

#define RS_OK(call) do { rocsparse_status s_ = (call); if (s_ != rocsparse_status_success) { \
    std::fprintf(stderr, "%s:%d: %s: rocsparse status %d\n", __FILE__, __LINE__, #call, (int)s_); \
    std::exit(1); } } while (0)

template<class T> struct dbuf {
  T *p = nullptr; size_t n;
  explicit dbuf(size_t n_) : n(n_) { HIP_OK(hipMalloc(&p, (n ? n : 1) * sizeof(T))); HIP_OK(hipMemset(p, 0, (n ? n : 1) * sizeof(T))); }
  dbuf(const std::vector<T> &v) : dbuf(v.size()) { put(v); }
  ~dbuf() { (void)hipFree(p); }
  void put(const std::vector<T> &v) { HIP_OK(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice)); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    HIP_OK(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
    return v;
  }
};

template<class T> static void same(const char *what, const std::vector<T> &got, const std::vector<T> &want)
{
  EXPECT(got.size() == want.size(), "%s: %zu values, want %zu", what, got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    EXPECT(got[i] == want[i], "%s: value %zu is %.17g, want %.17g", what, i, (double)got[i], (double)want[i]);
}

struct csr { int m, n; std::vector<int> ptr, col; std::vector<double> val; };

// m x n, sorted columns; row r has a length chosen by kind: empty (8%), short (0-15, 87%)
// or long (long_min + 0..long_span-1, 5%), duplicates removed
static csr random_csr(int m, int n, unsigned long long &seed, bool lower_triangular,
                      int long_min = 200, int long_span = 600)
{
  csr a{m, n, {0}, {}, {}};
  for (int r = 0; r < m; r++) {
    int len;
    unsigned kind = hc_rand(seed) % 100;
    if (kind < 8) len = 0;
    else if (kind < 95) len = (int)(hc_rand(seed) % 16);
    else len = long_min + (int)(hc_rand(seed) % (unsigned)long_span);
    int limit = lower_triangular ? r : n;     // strictly below the diagonal; the diagonal is added
    std::vector<int> cols;
    for (int k = 0; k < len && limit > 0; k++) cols.push_back((int)(hc_rand(seed) % limit));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int c : cols) { a.col.push_back(c); a.val.push_back((double)((int)(hc_rand(seed) % 17) - 8)); }
    if (lower_triangular) { a.col.push_back(r); a.val.push_back((double)(cols.size() + 2 + hc_rand(seed) % 3)); }
    a.ptr.push_back((int)a.col.size());
  }
  return a;
}

static std::vector<double> host_spmv(const csr &a, double alpha, const std::vector<double> &x, double beta,
                                     std::vector<double> y)
{
  for (int r = 0; r < a.m; r++) {
    double s = 0;
    for (int k = a.ptr[r]; k < a.ptr[r + 1]; k++) s += a.val[k] * x[a.col[k]];
    y[r] = alpha * s + beta * y[r];
  }
  return y;
}

static void close_to(const char *what, const std::vector<double> &got, const std::vector<double> &want)
{
  for (size_t i = 0; i < want.size(); i++)
    EXPECT(std::fabs(got[i] - want[i]) <= 1e-9 * (1 + std::fabs(want[i])), "%s: value %zu is %.17g, want %.17g",
           what, i, got[i], want[i]);
}

