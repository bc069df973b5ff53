/* SPDX-License-Identifier: MIT */
// rocPRIM device-wide algorithms (Debian's librocprim-dev, header-only: every kernel is
// instantiated here): reduce (int sum, with and without an initial value, and a max of
// doubles), inclusive and exclusive scans of int and long long (more than one block, so the
// decoupled look-back between blocks runs), radix sort of keys and of key/value pairs
// (all bits and a bit range), merge sort with a custom comparison, select (flags and a
// predicate), partition, unique and histogram_even. Every result is compared with the same
// computation on the host; the program exits 0 only when all are equal.
//   prim_device [N]     N: items per input (default 20000)
#include "../hip/hip_check.h"
#include <rocprim/rocprim.hpp>
#include <algorithm>
#include <numeric>
#include <vector>

template<class T> struct dbuf {
  T *p = nullptr; size_t n;
  explicit dbuf(size_t n_) : n(n_) { HIP_OK(hipMalloc(&p, (n ? n : 1) * sizeof(T))); }
  dbuf(const std::vector<T> &v) : dbuf(v.size()) { put(v); }
  ~dbuf() { (void)hipFree(p); }
  void put(const std::vector<T> &v) { HIP_OK(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice)); }
  std::vector<T> get(size_t k = (size_t)-1) const {
    std::vector<T> v(k == (size_t)-1 ? n : k);
    HIP_OK(hipMemcpy(v.data(), p, v.size() * sizeof(T), hipMemcpyDeviceToHost));
    return v;
  }
};

// Runs a rocPRIM call twice, as the library intends: size query, then the work.
#define PRIM(call_with_tmp) do { void *tmp = nullptr; size_t tmp_size = 0;           \
    HIP_OK(call_with_tmp);                                                          \
    HIP_OK(hipMalloc(&tmp, tmp_size ? tmp_size : 1));                               \
    HIP_OK(call_with_tmp);                                                          \
    HIP_OK(hipDeviceSynchronize());                                                 \
    HIP_OK(hipFree(tmp)); } while (0)

template<class T> static size_t first_diff(const std::vector<T> &a, const std::vector<T> &b)
{
  for (size_t i = 0; i < a.size(); i++) if (!(a[i] == b[i])) return i;
  return a.size() == b.size() ? (size_t)-1 : a.size();
}
#define SAME(got, want, what) do { size_t d_ = first_diff(got, want);                \
    EXPECT(d_ == (size_t)-1, "%s: first difference at %zu of %zu", what, d_, (want).size()); } while (0)

struct by_low_byte_then_desc {   // a strict weak order that is neither < nor >
  __host__ __device__ bool operator()(unsigned a, unsigned b) const
  { return (a & 0xff) != (b & 0xff) ? (a & 0xff) < (b & 0xff) : a > b; }
};
struct is_odd { __host__ __device__ bool operator()(int x) const { return x & 1; } };

int main(int argc, char **argv)
{
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 0) : 20000;
  unsigned long long seed = 42;
  std::vector<int> a(n);
  for (auto &v : a) v = (int)(hc_rand(seed) % 2001) - 1000;
  dbuf<int> da(a);

  { // reduce: sum with an initial value, sum without, max of doubles
    dbuf<int> out(1);
    PRIM(rocprim::reduce(tmp, tmp_size, da.p, out.p, 17, n, rocprim::plus<int>()));
    int want = std::accumulate(a.begin(), a.end(), 17);
    EXPECT(out.get()[0] == want, "reduce with init: %d, want %d", out.get()[0], want);
    PRIM(rocprim::reduce(tmp, tmp_size, da.p, out.p, n, rocprim::plus<int>()));
    want = std::accumulate(a.begin(), a.end(), 0);
    EXPECT(out.get()[0] == want, "reduce: %d, want %d", out.get()[0], want);
    std::vector<double> f(n);
    for (size_t i = 0; i < n; i++) f[i] = a[i] * 0.25 + (i == n / 3 ? 1e6 : 0);
    dbuf<double> df(f), dmax(1);
    PRIM(rocprim::reduce(tmp, tmp_size, df.p, dmax.p, -1e300, n, rocprim::maximum<double>()));
    EXPECT(dmax.get()[0] == *std::max_element(f.begin(), f.end()), "reduce max: %g", dmax.get()[0]);
  }
  { // scans: int and long long, inclusive and exclusive
    dbuf<int> out(n);
    PRIM(rocprim::inclusive_scan(tmp, tmp_size, da.p, out.p, n, rocprim::plus<int>()));
    std::vector<int> want(n);
    std::partial_sum(a.begin(), a.end(), want.begin());
    SAME(out.get(), want, "inclusive_scan<int>");
    PRIM(rocprim::exclusive_scan(tmp, tmp_size, da.p, out.p, 5, n, rocprim::plus<int>()));
    for (size_t i = 0, s = 5; i < n; s += a[i], i++) want[i] = (int)s;
    SAME(out.get(), want, "exclusive_scan<int>");

    // long long with values past 32 bits, so both halves of every partial sum matter
    std::vector<long long> l(n), wl(n);
    for (size_t i = 0; i < n; i++) l[i] = (long long)a[i] * 3000000007LL + (long long)(i & 7);
    dbuf<long long> dl(l), ol(n);
    PRIM(rocprim::inclusive_scan(tmp, tmp_size, dl.p, ol.p, n, rocprim::plus<long long>()));
    std::partial_sum(l.begin(), l.end(), wl.begin());
    SAME(ol.get(), wl, "inclusive_scan<long long>");
    const long long init = -(1LL << 40);
    PRIM(rocprim::exclusive_scan(tmp, tmp_size, dl.p, ol.p, init, n, rocprim::plus<long long>()));
    long long s = init;
    for (size_t i = 0; i < n; s += l[i], i++) wl[i] = s;
    SAME(ol.get(), wl, "exclusive_scan<long long>");
    // max-scan: a non-commutative-looking order check (running maximum)
    PRIM(rocprim::inclusive_scan(tmp, tmp_size, da.p, out.p, n, rocprim::maximum<int>()));
    for (size_t i = 0; i < n; i++) want[i] = i ? std::max(want[i - 1], a[i]) : a[0];
    SAME(out.get(), want, "inclusive_scan max");
  }
  { // radix sort: unsigned keys, key/value pairs (stable), a bit range, descending
    std::vector<unsigned> k(n);
    std::vector<int> v(n);
    for (size_t i = 0; i < n; i++) { k[i] = hc_rand(seed) ^ (hc_rand(seed) << 16); v[i] = (int)i; }
    dbuf<unsigned> dk(k), ok(n);
    dbuf<int> dv(v), ov(n);
    PRIM(rocprim::radix_sort_keys(tmp, tmp_size, dk.p, ok.p, n));
    std::vector<unsigned> want = k;
    std::sort(want.begin(), want.end());
    SAME(ok.get(), want, "radix_sort_keys");

    // pairs sorted on bits [4, 20) only: stable, so equal keys keep their input order
    PRIM(rocprim::radix_sort_pairs(tmp, tmp_size, dk.p, ok.p, dv.p, ov.p, n, 4, 20));
    std::vector<std::pair<unsigned, int>> kv(n);
    for (size_t i = 0; i < n; i++) kv[i] = {k[i], (int)i};
    std::stable_sort(kv.begin(), kv.end(), [](auto x, auto y) {
      return ((x.first >> 4) & 0xffff) < ((y.first >> 4) & 0xffff); });
    std::vector<unsigned> wk(n);
    std::vector<int> wv(n);
    for (size_t i = 0; i < n; i++) { wk[i] = kv[i].first; wv[i] = kv[i].second; }
    SAME(ok.get(), wk, "radix_sort_pairs keys [4,20)");
    SAME(ov.get(), wv, "radix_sort_pairs values [4,20)");

    std::vector<long long> sk(n);
    for (size_t i = 0; i < n; i++) sk[i] = (long long)k[i] * (i & 1 ? -977 : 1013);
    dbuf<long long> dsk(sk), osk(n);
    PRIM(rocprim::radix_sort_keys_desc(tmp, tmp_size, dsk.p, osk.p, n));
    std::sort(sk.begin(), sk.end(), std::greater<long long>());
    SAME(osk.get(), sk, "radix_sort_keys_desc<long long>");
  }
  { // merge sort with a custom order, keys and key/value pairs
    std::vector<unsigned> k(n);
    for (auto &x : k) x = hc_rand(seed) % 100000;
    dbuf<unsigned> dk(k), ok(n);
    PRIM(rocprim::merge_sort(tmp, tmp_size, dk.p, ok.p, n, by_low_byte_then_desc()));
    std::vector<unsigned> want = k;
    std::sort(want.begin(), want.end(), by_low_byte_then_desc());
    SAME(ok.get(), want, "merge_sort keys");

    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    dbuf<int> dv(v), ov(n);
    PRIM(rocprim::merge_sort(tmp, tmp_size, dk.p, ok.p, dv.p, ov.p, n, rocprim::less<unsigned>()));
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return k[x] < k[y]; });
    auto got_k = ok.get();
    auto got_v = ov.get();
    for (size_t i = 0; i < n; i++) {
      EXPECT(got_k[i] == k[order[i]], "merge_sort pairs: key %zu is %u, want %u", i, got_k[i], k[order[i]]);
      // merge sort is stable: equal keys keep their input order
      EXPECT(got_v[i] == order[i], "merge_sort pairs: value %zu is %d, want %d", i, got_v[i], order[i]);
    }
  }
  { // select with flags and with a predicate, partition, unique
    std::vector<unsigned char> flags(n);
    for (auto &f : flags) f = hc_rand(seed) % 3 == 0;
    dbuf<unsigned char> dflags(flags);
    dbuf<int> out(n);
    dbuf<unsigned> count(1);
    std::vector<int> want;
    PRIM(rocprim::select(tmp, tmp_size, da.p, dflags.p, out.p, count.p, n));
    for (size_t i = 0; i < n; i++) if (flags[i]) want.push_back(a[i]);
    EXPECT(count.get()[0] == want.size(), "select flags: count %u, want %zu", count.get()[0], want.size());
    SAME(out.get(want.size()), want, "select flags");

    PRIM(rocprim::select(tmp, tmp_size, da.p, out.p, count.p, n, is_odd()));
    want.clear();
    for (int x : a) if (x & 1) want.push_back(x);
    EXPECT(count.get()[0] == want.size(), "select predicate: count %u, want %zu", count.get()[0], want.size());
    SAME(out.get(want.size()), want, "select predicate");

    // partition: the selected in order at the front, the rest in reverse order at the back
    PRIM(rocprim::partition(tmp, tmp_size, da.p, out.p, count.p, n, is_odd()));
    size_t sel = want.size();
    for (size_t i = n; i-- > 0;) if (!(a[i] & 1)) want.push_back(a[i]);
    EXPECT(count.get()[0] == sel, "partition: count %u, want %zu", count.get()[0], sel);
    SAME(out.get(), want, "partition");

    // unique over runs of equal values
    std::vector<int> r(n);
    for (size_t i = 0; i < n; i++) r[i] = (int)(i / (1 + hc_rand(seed) % 4)) % 50 + (hc_rand(seed) % 5 == 0);
    dbuf<int> dr(r);
    PRIM(rocprim::unique(tmp, tmp_size, dr.p, out.p, count.p, n));
    want.clear();
    for (size_t i = 0; i < n; i++) if (i == 0 || r[i] != r[i - 1]) want.push_back(r[i]);
    EXPECT(count.get()[0] == want.size(), "unique: count %u, want %zu", count.get()[0], want.size());
    SAME(out.get(want.size()), want, "unique");
  }
  { // histogram_even: 37 bins of 54 over [-1000, 998); samples outside it are in no bin
    const unsigned bins = 37;
    dbuf<unsigned> hist(bins);
    std::vector<int> f(n);
    for (size_t i = 0; i < n; i++) f[i] = a[i] + (i % 10 == 0 ? 5000 : 0);
    dbuf<int> df(f);
    PRIM(rocprim::histogram_even(tmp, tmp_size, df.p, (unsigned)n, hist.p, bins + 1, -1000, 998));
    std::vector<unsigned> want(bins);
    for (int x : f) if (x >= -1000 && x < 998) want[(x + 1000) / 54]++;
    SAME(hist.get(), want, "histogram_even");
  }
  std::printf("prim_device: n=%zu: reduce, scans (int, long long), radix and merge sorts, "
              "select, partition, unique, histogram: all equal to the host\n", n);
  return 0;
}
