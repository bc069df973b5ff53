/* SPDX-License-Identifier: MIT */
// rocPRIM block and warp primitives used inside our own kernels (Debian's librocprim-dev):
// block_reduce (warp-reduce and raking algorithms, a partial last block through
// valid_items), block_scan (inclusive with the block's total, exclusive with an initial
// value; warp-scan and reduce-then-scan algorithms; 4 items per thread), block_radix_sort
// (keys and key/value pairs, 4 per thread), block_sort (one key/value per thread),
// block_load/block_store with a transpose, warp_reduce, warp_scan and warp_sort on full
// (64) and logical (16, 8) warps. Each block's or warp's result is compared with the
// host's; the program exits 0 only when all are equal.
#include "../hip/hip_check.h"
#include <rocprim/rocprim.hpp>
#include <algorithm>
#include <vector>

constexpr unsigned BS = 256, IPT = 4, TILE = BS * IPT;

template<rocprim::block_reduce_algorithm A>
__global__ __launch_bounds__(BS) void k_block_reduce(const int *in, int *sum, int *mx, unsigned last_valid)
{
  using reduce_t = rocprim::block_reduce<int, BS, A>;
  __shared__ typename reduce_t::storage_type st;
  int v[IPT];
  rocprim::block_load_direct_blocked(threadIdx.x, in + blockIdx.x * TILE, v);
  int r;
  reduce_t().reduce(v, r, st, rocprim::plus<int>());
  if (threadIdx.x == 0) sum[blockIdx.x] = r;
  __syncthreads();
  // one item per thread; the last block counts only its first last_valid threads
  unsigned valid = blockIdx.x == gridDim.x - 1 ? last_valid : BS;
  reduce_t().reduce(v[1], r, valid, st, rocprim::maximum<int>());
  if (threadIdx.x == 0) mx[blockIdx.x] = r;
}

template<rocprim::block_scan_algorithm A>
__global__ __launch_bounds__(BS) void k_block_scan(const int *in, int *incl, int *excl, int *tot)
{
  using scan_t = rocprim::block_scan<int, BS, A>;
  using load_t = rocprim::block_load<int, BS, IPT, rocprim::block_load_method::block_load_transpose>;
  using store_t = rocprim::block_store<int, BS, IPT, rocprim::block_store_method::block_store_transpose>;
  __shared__ union {
    typename scan_t::storage_type scan;
    typename load_t::storage_type load;
    typename store_t::storage_type store;
  } st;
  int v[IPT], o[IPT], total;
  load_t().load(in + blockIdx.x * TILE, v, st.load);
  __syncthreads();
  scan_t().inclusive_scan(v, o, total, st.scan, rocprim::plus<int>());
  __syncthreads();
  store_t().store(incl + blockIdx.x * TILE, o, st.store);
  __syncthreads();
  scan_t().exclusive_scan(v, o, (int)blockIdx.x * 1000, st.scan, rocprim::plus<int>());
  __syncthreads();
  store_t().store(excl + blockIdx.x * TILE, o, st.store);
  if (threadIdx.x == 0) tot[blockIdx.x] = total;
}

__global__ __launch_bounds__(BS) void k_block_radix_sort(const unsigned *keys, unsigned *out_keys,
                                                         unsigned *out_vals)
{
  using sort_t = rocprim::block_radix_sort<unsigned, BS, IPT, unsigned>;
  __shared__ typename sort_t::storage_type st;
  unsigned k[IPT], v[IPT];
  rocprim::block_load_direct_blocked(threadIdx.x, keys + blockIdx.x * TILE, k);
  for (unsigned i = 0; i < IPT; i++) v[i] = blockIdx.x * TILE + threadIdx.x * IPT + i;
  sort_t().sort(k, v, st);
  rocprim::block_store_direct_blocked(threadIdx.x, out_keys + blockIdx.x * TILE, k);
  rocprim::block_store_direct_blocked(threadIdx.x, out_vals + blockIdx.x * TILE, v);
}

__global__ __launch_bounds__(BS) void k_block_sort(const unsigned *keys, unsigned *out_keys, unsigned *out_vals)
{
  using sort_t = rocprim::block_sort<unsigned, BS, 1, unsigned>;
  __shared__ typename sort_t::storage_type st;
  unsigned i = blockIdx.x * BS + threadIdx.x, k = keys[i], v = i;
  sort_t().sort(k, v, st, rocprim::greater<unsigned>());
  out_keys[i] = k;
  out_vals[i] = v;
}

template<unsigned W>
__global__ __launch_bounds__(BS) void k_warp(const int *in, int *red, int *incl, int *excl, unsigned *sorted)
{
  using red_t = rocprim::warp_reduce<int, W>;
  using scan_t = rocprim::warp_scan<int, W>;
  using sort_t = rocprim::warp_sort<unsigned, W>;
  constexpr unsigned warps = BS / W;
  __shared__ typename red_t::storage_type rs[warps];
  __shared__ typename scan_t::storage_type ss[warps];
  unsigned w = threadIdx.x / W, i = blockIdx.x * BS + threadIdx.x;
  int x = in[i], r, s;
  red_t().reduce(x, r, rs[w], rocprim::plus<int>());
  if (threadIdx.x % W == 0) red[i / W] = r;
  scan_t().inclusive_scan(x, s, ss[w], rocprim::plus<int>());
  incl[i] = s;
  scan_t().exclusive_scan(x, s, -7, ss[w], rocprim::maximum<int>());
  excl[i] = s;
  unsigned k = (unsigned)x;
  sort_t().sort(k);
  sorted[i] = k;
}

static void check_warp(unsigned W, const std::vector<int> &in, const std::vector<int> &red,
                       const std::vector<int> &incl, const std::vector<int> &excl,
                       const std::vector<unsigned> &sorted)
{
  for (size_t w0 = 0; w0 < in.size(); w0 += W) {
    int sum = 0, mx = -7;
    std::vector<unsigned> ks;
    for (size_t i = w0; i < w0 + W; i++) {
      EXPECT(excl[i] == mx, "warp_scan<%u> exclusive max at %zu: %d, want %d", W, i, excl[i], mx);
      sum += in[i];
      mx = std::max(mx, in[i]);
      EXPECT(incl[i] == sum, "warp_scan<%u> inclusive at %zu: %d, want %d", W, i, incl[i], sum);
      ks.push_back((unsigned)in[i]);
    }
    EXPECT(red[w0 / W] == sum, "warp_reduce<%u> of warp %zu: %d, want %d", W, w0 / W, red[w0 / W], sum);
    std::sort(ks.begin(), ks.end());
    for (size_t i = 0; i < W; i++)
      EXPECT(sorted[w0 + i] == ks[i], "warp_sort<%u> at %zu: %u, want %u", W, w0 + i, sorted[w0 + i], ks[i]);
  }
}

template<class T> static std::vector<T> get(const T *d, size_t n)
{
  std::vector<T> v(n);
  HIP_OK(hipMemcpy(v.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  return v;
}

int main()
{
  const unsigned blocks = 6, n = blocks * TILE, last_valid = 77;
  unsigned long long seed = 9;
  std::vector<int> in(n);
  std::vector<unsigned> keys(n);
  for (auto &v : in) v = (int)(hc_rand(seed) % 20001) - 10000;
  for (auto &k : keys) k = hc_rand(seed) % 5000;   // duplicates: stability shows
  int *din, *o1, *o2, *o3;
  unsigned *dkeys, *ok, *ov;
  HIP_OK(hipMalloc(&din, n * 4)); HIP_OK(hipMalloc(&dkeys, n * 4));
  HIP_OK(hipMalloc(&o1, n * 4)); HIP_OK(hipMalloc(&o2, n * 4)); HIP_OK(hipMalloc(&o3, n * 4));
  HIP_OK(hipMalloc(&ok, n * 4)); HIP_OK(hipMalloc(&ov, n * 4));
  HIP_OK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(dkeys, keys.data(), n * 4, hipMemcpyHostToDevice));

  // block_reduce, both algorithms
  for (int alg = 0; alg < 2; alg++) {
    if (alg == 0) k_block_reduce<rocprim::block_reduce_algorithm::using_warp_reduce><<<blocks, BS>>>(din, o1, o2, last_valid);
    else k_block_reduce<rocprim::block_reduce_algorithm::raking_reduce><<<blocks, BS>>>(din, o1, o2, last_valid);
    HIP_OK(hipGetLastError());
    auto sum = get(o1, blocks), mx = get(o2, blocks);
    for (unsigned b = 0; b < blocks; b++) {
      int s = 0, m = INT32_MIN;
      for (unsigned i = 0; i < TILE; i++) s += in[b * TILE + i];
      for (unsigned t = 0; t < (b == blocks - 1 ? last_valid : BS); t++) m = std::max(m, in[b * TILE + t * IPT + 1]);
      EXPECT(sum[b] == s, "block_reduce (algorithm %d) sum of block %u: %d, want %d", alg, b, sum[b], s);
      EXPECT(mx[b] == m, "block_reduce (algorithm %d) max of block %u: %d, want %d", alg, b, mx[b], m);
    }
  }
  // block_scan, both algorithms; loads and stores transpose through LDS (block_exchange)
  for (int alg = 0; alg < 2; alg++) {
    if (alg == 0) k_block_scan<rocprim::block_scan_algorithm::using_warp_scan><<<blocks, BS>>>(din, o1, o2, o3);
    else k_block_scan<rocprim::block_scan_algorithm::reduce_then_scan><<<blocks, BS>>>(din, o1, o2, o3);
    HIP_OK(hipGetLastError());
    auto incl = get(o1, n), excl = get(o2, n), tot = get(o3, blocks);
    for (unsigned b = 0; b < blocks; b++) {
      int s = 0;
      for (unsigned i = b * TILE; i < (b + 1) * TILE; i++) {
        EXPECT(excl[i] == s + (int)b * 1000, "block_scan (algorithm %d) exclusive at %u: %d, want %d", alg, i, excl[i], s + (int)b * 1000);
        s += in[i];
        EXPECT(incl[i] == s, "block_scan (algorithm %d) inclusive at %u: %d, want %d", alg, i, incl[i], s);
      }
      EXPECT(tot[b] == s, "block_scan (algorithm %d) total of block %u: %d, want %d", alg, b, tot[b], s);
    }
  }
  { // block_radix_sort of key/value pairs: stable, values are the input positions
    k_block_radix_sort<<<blocks, BS>>>(dkeys, ok, ov);
    HIP_OK(hipGetLastError());
    auto k = get(ok, n), v = get(ov, n);
    for (unsigned b = 0; b < blocks; b++) {
      std::vector<unsigned> order(TILE);
      for (unsigned i = 0; i < TILE; i++) order[i] = b * TILE + i;
      std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) { return keys[x] < keys[y]; });
      for (unsigned i = 0; i < TILE; i++) {
        unsigned j = b * TILE + i;
        EXPECT(k[j] == keys[order[i]] && v[j] == order[i], "block_radix_sort at %u: %u/%u, want %u/%u",
               j, k[j], v[j], keys[order[i]], order[i]);
      }
    }
  }
  { // block_sort, one key per thread, descending: the keys must come out sorted and the
    // values must say where each key came from (block_sort need not be stable)
    k_block_sort<<<n / BS, BS>>>(dkeys, ok, ov);
    HIP_OK(hipGetLastError());
    auto k = get(ok, n), v = get(ov, n);
    for (unsigned b = 0; b < n / BS; b++) {
      std::vector<unsigned> want(keys.begin() + b * BS, keys.begin() + (b + 1) * BS), seen(BS);
      std::sort(want.begin(), want.end(), std::greater<unsigned>());
      for (unsigned i = 0; i < BS; i++) {
        unsigned j = b * BS + i;
        EXPECT(k[j] == want[i], "block_sort at %u: %u, want %u", j, k[j], want[i]);
        EXPECT(v[j] / BS == b && keys[v[j]] == k[j] && !seen[v[j] % BS]++,
               "block_sort at %u: value %u does not name a distinct input holding %u", j, v[j], k[j]);
      }
    }
  }
  // warps: the hardware's 64 and logical warps of 16 and 8
  k_warp<64><<<blocks * IPT, BS>>>(din, o1, o2, o3, ok);
  HIP_OK(hipGetLastError());
  check_warp(64, in, get(o1, n / 64), get(o2, n), get(o3, n), get(ok, n));
  k_warp<16><<<blocks * IPT, BS>>>(din, o1, o2, o3, ok);
  HIP_OK(hipGetLastError());
  check_warp(16, in, get(o1, n / 16), get(o2, n), get(o3, n), get(ok, n));
  k_warp<8><<<blocks * IPT, BS>>>(din, o1, o2, o3, ok);
  HIP_OK(hipGetLastError());
  check_warp(8, in, get(o1, n / 8), get(o2, n), get(o3, n), get(ok, n));
  std::printf("prim_block: block_reduce, block_scan, block_radix_sort, block_sort, block load/store, "
              "warp_reduce, warp_scan, warp_sort (64, 16, 8): all equal to the host\n");
  return 0;
}
