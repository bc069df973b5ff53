/* SPDX-License-Identifier: MIT */
// rocRAND and hipRAND (Debian's librocrand1, libhiprand1) on the simulated GPU.
//  - Host API, generators XORWOW, MRG32k3a, Philox4x32-10 and Sobol32. Integers and uniform
//    floats are checked exactly against the host running rocRAND's own engine code
//    (rocrand_kernel.h compiled for the CPU too): Philox as one sequential stream, XORWOW
//    and MRG32k3a as 131072 interleaved subsequences, one per GPU thread (sampled: the
//    host is slow at skipping ahead), continued from one call to the next; Sobol32
//    against a host Sobol sequence (Gray code over rocRAND's Joe-Kuo direction vectors,
//    4 dimensions). Uniform doubles, normal floats (mean 3, stddev 2) and doubles are
//    checked by mean and variance, and Philox normals against Box-Muller on the host;
//    so are Poisson (small and large lambda), log-normal, MTGP32 and Sobol64 draws.
//  - hipRAND's generators must give the very numbers rocRAND gives for the same seed.
//  - Device API in our own kernel: rocrand_init/rocrand/rocrand_uniform/rocrand_normal with
//    XORWOW, MRG32k3a and Philox states (subsequence = thread, an offset per thread),
//    compared with the same calls on the host.
// Prints "digest NAME HEX" (FNV-1a of each output) so that runs on two runtimes can be
// compared bit for bit; exits 0 only when every check passed.
#include "../hip/hip_check.h"
#define FQUALIFIERS __forceinline__ __host__ __device__   // rocRAND's engines run on the host too
#include <rocrand/rocrand.h>
#include <rocrand/rocrand_kernel.h>
#include <rocrand/rocrand_sobol32_precomputed.h>
#include <hiprand/hiprand.h>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#define ROC_OK(call) do { rocrand_status s_ = (call); if (s_ != ROCRAND_STATUS_SUCCESS) { \
    std::fprintf(stderr, "%s:%d: %s: rocrand status %d\n", __FILE__, __LINE__, #call, (int)s_); \
    std::exit(1); } } while (0)
#define HR_OK(call) do { hiprandStatus_t s_ = (call); if (s_ != HIPRAND_STATUS_SUCCESS) { \
    std::fprintf(stderr, "%s:%d: %s: hiprand status %d\n", __FILE__, __LINE__, #call, (int)s_); \
    std::exit(1); } } while (0)

static const unsigned long long SEED = 0x5eed1234abcdULL;
static const size_t STATES = 131072;           // rocRAND's XORWOW and MRG32k3a host generators
static const size_t N = STATES + 4096;         // every state's first value, 4096 seconds
static const unsigned SOBOL_DIMS = 4;
static const size_t SOBOL_N = SOBOL_DIMS * 8192;

static void digest(const char *name, const void *p, size_t bytes)
{
  unsigned long long h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < bytes; i++) h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ULL;
  std::printf("digest %-28s %016llx\n", name, h);
}

template<class T> static std::vector<T> from_dev(const void *d, size_t n)
{
  std::vector<T> v(n);
  HIP_OK(hipMemcpy(v.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  return v;
}

// mean and variance within 6 standard errors of the expected ones (n samples)
template<class T> static void moments(const char *what, const std::vector<T> &v, double mean, double var)
{
  double s = 0, s2 = 0;
  for (T x : v) { EXPECT(std::isfinite((double)x), "%s: %g is not finite", what, (double)x); s += x; }
  double m = s / v.size();
  for (T x : v) s2 += (x - m) * (x - m);
  double var_got = s2 / (v.size() - 1), n = (double)v.size();
  double se_mean = std::sqrt(var / n), se_var = var * std::sqrt(2.0 / n) * 1.5;   // 1.5: fat tails allowed
  EXPECT(std::fabs(m - mean) < 6 * se_mean, "%s: mean %g, want %g +- %g", what, m, mean, 6 * se_mean);
  EXPECT(std::fabs(var_got - var) < 6 * se_var, "%s: variance %g, want %g +- %g", what, var_got, var, 6 * se_var);
}

// (v + 1) * 2^-32 as rocRAND writes it, v * 2^-32 + 2^-32: either rounding of the product
// (separately or fused) is accepted.
static bool uniform_of(float got, unsigned v)
{
  const float c = 2.3283064e-10f;
  float sep = c + (float)v * c, fused = std::fmaf((float)v, c, c);
  return got == sep || got == fused;
}

// XORWOW and MRG32k3a host generators interleave STATES subsequences, one per GPU thread,
// and go on where the previous call stopped: position p of all the values a generator
// gives is value p / STATES of subsequence p % STATES. The host state before position p:
template<class State> static State state_at(size_t p)
{
  State s;
  rocrand_init(SEED, p % STATES, 0, &s);
  for (size_t i = 0; i < p / STATES; i++) (void)rocrand(&s);
  return s;
}
static bool sampled(size_t p) { size_t sub = p % STATES; return sub < 512 || sub % 97 == 0 || sub == STATES - 1; }

template<class State> static void check_interleaved(const char *what, const std::vector<unsigned> &u)
{
  for (size_t p = 0; p < u.size(); p++) {
    if (!sampled(p)) continue;   // a sample: the host is slow at skipping ahead
    State s = state_at<State>(p);
    unsigned want = rocrand(&s);
    EXPECT(u[p] == want, "%s: value %zu is %u, want %u (value %zu of subsequence %zu)",
           what, p, u[p], want, p / STATES, p % STATES);
  }
}
template<class State> static void check_interleaved(const char *what, const std::vector<float> &f, size_t first)
{
  for (size_t i = 0; i < f.size(); i++) {
    if (!sampled(first + i)) continue;
    State s = state_at<State>(first + i);
    float want = rocrand_uniform(&s);
    EXPECT(f[i] == want, "%s: value %zu is %.9g, want %.9g", what, i, f[i], want);
  }
}

static rocrand_generator make_generator(rocrand_rng_type type)
{
  rocrand_generator g;
  ROC_OK(rocrand_create_generator(&g, type));
  if (type == ROCRAND_RNG_QUASI_SOBOL32) ROC_OK(rocrand_set_quasi_random_generator_dimensions(g, SOBOL_DIMS));
  else ROC_OK(rocrand_set_seed(g, SEED));
  return g;
}

// One rocRAND host-API generator: integers, uniform floats, uniform doubles, normal floats
// and doubles, one call after the other. Returns the integers, for hipRAND to match.
static std::vector<unsigned> host_api(rocrand_rng_type type, const char *name, size_t n)
{
  char what[96];
  rocrand_generator g = make_generator(type);
  void *d;
  HIP_OK(hipMalloc(&d, n * 8));

  ROC_OK(rocrand_generate(g, (unsigned *)d, n));
  auto u = from_dev<unsigned>(d, n);
  std::snprintf(what, sizeof what, "%s uint", name);
  digest(what, u.data(), n * 4);
  rocrand_state_philox4x32_10 philox;   // one stream: subsequence 0
  rocrand_init(SEED, 0, 0, &philox);
  switch (type) {
  case ROCRAND_RNG_PSEUDO_PHILOX4_32_10:
    for (size_t i = 0; i < n; i++) {
      unsigned want = rocrand(&philox);
      EXPECT(u[i] == want, "%s: value %zu is %u, want %u", what, i, u[i], want);
    }
    break;
  case ROCRAND_RNG_PSEUDO_XORWOW: check_interleaved<rocrand_state_xorwow>(what, u); break;
  case ROCRAND_RNG_PSEUDO_MRG32K3A: check_interleaved<rocrand_state_mrg32k3a>(what, u); break;
  case ROCRAND_RNG_QUASI_SOBOL32: { // dimension after dimension, n / dims points each
    size_t pts = n / SOBOL_DIMS;
    for (unsigned dim = 0; dim < SOBOL_DIMS; dim++)
      for (size_t i = 0; i < pts; i++) {
        unsigned gray = (unsigned)(i ^ (i >> 1)), want = 0;
        for (unsigned b = 0; b < 32; b++)
          if (gray >> b & 1) want ^= h_sobol32_direction_vectors[dim * 32 + b];
        EXPECT(u[dim * pts + i] == want, "%s: dimension %u point %zu is %08x, want %08x",
               what, dim, i, u[dim * pts + i], want);
      }
    break;
  }
  default: break;
  }

  // uniform floats, (0, 1]: the next n values of the stream (Sobol: the same points again)
  if (type == ROCRAND_RNG_QUASI_SOBOL32) { rocrand_destroy_generator(g); g = make_generator(type); }
  ROC_OK(rocrand_generate_uniform(g, (float *)d, n));
  auto f = from_dev<float>(d, n);
  std::snprintf(what, sizeof what, "%s uniform", name);
  digest(what, f.data(), n * 4);
  for (size_t i = 0; i < n; i++) EXPECT(f[i] > 0 && f[i] <= 1, "%s: value %zu is %.9g", what, i, f[i]);
  switch (type) {
  case ROCRAND_RNG_PSEUDO_PHILOX4_32_10:
    for (size_t i = 0; i < n; i++) {
      unsigned v = rocrand(&philox);
      EXPECT(uniform_of(f[i], v), "%s: value %zu is %.9g, from %u", what, i, f[i], v);
    }
    break;
  case ROCRAND_RNG_PSEUDO_XORWOW: check_interleaved<rocrand_state_xorwow>(what, f, n); break;
  case ROCRAND_RNG_PSEUDO_MRG32K3A: check_interleaved<rocrand_state_mrg32k3a>(what, f, n); break;
  case ROCRAND_RNG_QUASI_SOBOL32:
    for (size_t i = 0; i < n; i++) EXPECT(uniform_of(f[i], u[i]), "%s: value %zu is %.9g, from %u", what, i, f[i], u[i]);
    break;
  default: break;
  }
  moments(what, f, 0.5, 1.0 / 12);

  // further calls continue the sequence: uniform doubles, then normals
  ROC_OK(rocrand_generate_uniform_double(g, (double *)d, n));
  auto ud = from_dev<double>(d, n);
  std::snprintf(what, sizeof what, "%s uniform double", name);
  digest(what, ud.data(), n * 8);
  for (double x : ud) EXPECT(x > 0 && x <= 1, "%s: %.17g outside (0, 1]", what, x);
  moments(what, ud, 0.5, 1.0 / 12);

  ROC_OK(rocrand_generate_normal(g, (float *)d, n, 3.0f, 2.0f));
  f = from_dev<float>(d, n);
  std::snprintf(what, sizeof what, "%s normal(3, 2)", name);
  digest(what, f.data(), n * 4);
  moments(what, f, 3.0, 4.0);

  ROC_OK(rocrand_generate_normal_double(g, (double *)d, n, 0.0, 1.0));
  auto nd = from_dev<double>(d, n);
  std::snprintf(what, sizeof what, "%s normal double", name);
  digest(what, nd.data(), n * 8);
  moments(what, nd, 0.0, 1.0);

  if (type == ROCRAND_RNG_PSEUDO_PHILOX4_32_10) { // a fresh stream: Box-Muller of value pairs
    rocrand_destroy_generator(g);
    g = make_generator(type);
    ROC_OK(rocrand_generate_normal(g, (float *)d, n, 0.0f, 1.0f));
    f = from_dev<float>(d, n);
    for (size_t i = 0; i < 4096; i += 2) {
      float2 want = rocrand_device::detail::box_muller(u[i], u[i + 1]);
      EXPECT(std::fabs(f[i] - want.x) < 1e-4f * (1 + std::fabs(want.x)) &&
             std::fabs(f[i + 1] - want.y) < 1e-4f * (1 + std::fabs(want.y)),
             "philox normal %zu: %.7g %.7g, host Box-Muller %.7g %.7g", i, f[i], f[i + 1], want.x, want.y);
    }
  }
  rocrand_destroy_generator(g);
  HIP_OK(hipFree(d));
  return u;
}

// More of the host API: Poisson (small and large lambda, which rocRAND draws differently),
// log-normal, the MTGP32 generator and 64-bit Sobol, by their moments.
static void more_distributions()
{
  const size_t n = 1 << 16;
  void *d;
  HIP_OK(hipMalloc(&d, n * 8));
  rocrand_generator g;
  ROC_OK(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
  ROC_OK(rocrand_set_seed(g, SEED));
  for (double lambda : {4.5, 300.0}) {
    ROC_OK(rocrand_generate_poisson(g, (unsigned *)d, n, lambda));
    auto u = from_dev<unsigned>(d, n);
    char what[64];
    std::snprintf(what, sizeof what, "philox poisson(%g)", lambda);
    digest(what, u.data(), n * 4);
    moments(what, u, lambda, lambda);
  }
  ROC_OK(rocrand_generate_log_normal(g, (float *)d, n, 0.0f, 0.5f));
  auto f = from_dev<float>(d, n);
  digest("philox log-normal(0, 0.5)", f.data(), n * 4);
  moments("philox log-normal(0, 0.5)", f, std::exp(0.125), (std::exp(0.25) - 1) * std::exp(0.25));
  rocrand_destroy_generator(g);

  ROC_OK(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_MTGP32));
  ROC_OK(rocrand_set_seed(g, SEED));
  ROC_OK(rocrand_generate_uniform(g, (float *)d, n));
  f = from_dev<float>(d, n);
  digest("mtgp32 uniform", f.data(), n * 4);
  for (float x : f) EXPECT(x > 0 && x <= 1, "mtgp32 uniform: %.9g outside (0, 1]", x);
  moments("mtgp32 uniform", f, 0.5, 1.0 / 12);
  rocrand_destroy_generator(g);

  ROC_OK(rocrand_create_generator(&g, ROCRAND_RNG_QUASI_SOBOL64));
  ROC_OK(rocrand_generate_uniform_double(g, (double *)d, n));
  auto u64 = from_dev<double>(d, n);
  digest("sobol64 uniform double", u64.data(), n * 8);
  moments("sobol64 uniform double", u64, 0.5, 1.0 / 12);
  rocrand_destroy_generator(g);
  HIP_OK(hipFree(d));
}

// hipRAND over rocRAND: the same numbers for the same seed
static void hiprand_matches(hiprandRngType_t type, const char *name, const std::vector<unsigned> &want)
{
  hiprandGenerator_t g;
  HR_OK(hiprandCreateGenerator(&g, type));
  if (type == HIPRAND_RNG_QUASI_SOBOL32) HR_OK(hiprandSetQuasiRandomGeneratorDimensions(g, SOBOL_DIMS));
  else HR_OK(hiprandSetPseudoRandomGeneratorSeed(g, SEED));
  unsigned *d;
  HIP_OK(hipMalloc(&d, want.size() * 4));
  HR_OK(hiprandGenerate(g, d, want.size()));
  auto u = from_dev<unsigned>(d, want.size());
  for (size_t i = 0; i < u.size(); i++)
    EXPECT(u[i] == want[i], "hipRAND %s: value %zu is %u, rocRAND gave %u", name, i, u[i], want[i]);
  HR_OK(hiprandGenerateNormal(g, (float *)d, want.size() & ~(size_t)1, 0.0f, 1.0f));
  auto f = from_dev<float>(d, want.size() & ~(size_t)1);
  char what[64];
  std::snprintf(what, sizeof what, "hipRAND %s normal", name);
  moments(what, f, 0.0, 1.0);
  HR_OK(hiprandDestroyGenerator(g));
  HIP_OK(hipFree(d));
}

// The device API in a kernel of ours: per thread 3 integers, a uniform and a normal float
// from a state with subsequence = thread and an offset of 5 * thread.
constexpr unsigned DEV_THREADS = 2048;
template<class State>
__global__ void device_api(unsigned long long seed, unsigned *ints, float *fl)
{
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  State s;
  rocrand_init(seed, t, 5ull * t, &s);
  for (unsigned i = 0; i < 3; i++) ints[t * 3 + i] = rocrand(&s);
  fl[t * 2] = rocrand_uniform(&s);
  fl[t * 2 + 1] = rocrand_normal(&s);
}

template<class State> static void device_api_check(const char *name)
{
  unsigned *di;
  float *df;
  HIP_OK(hipMalloc(&di, DEV_THREADS * 3 * 4));
  HIP_OK(hipMalloc(&df, DEV_THREADS * 2 * 4));
  device_api<State><<<DEV_THREADS / 256, 256>>>(SEED, di, df);
  HIP_OK(hipGetLastError());
  auto ints = from_dev<unsigned>(di, DEV_THREADS * 3);
  auto fl = from_dev<float>(df, DEV_THREADS * 2);
  char what[64];
  std::snprintf(what, sizeof what, "device %s", name);
  digest(what, ints.data(), ints.size() * 4);
  for (unsigned t = 0; t < DEV_THREADS; t++) {
    State s;
    rocrand_init(SEED, t, 5ull * t, &s);
    for (unsigned i = 0; i < 3; i++) {
      unsigned want = rocrand(&s);
      EXPECT(ints[t * 3 + i] == want, "%s: thread %u value %u is %u, want %u", what, t, i, ints[t * 3 + i], want);
    }
    float u = rocrand_uniform(&s), nrm = rocrand_normal(&s);
    EXPECT(std::fabs(fl[t * 2] - u) <= 1.2e-7f, "%s: thread %u uniform %.9g, want %.9g", what, t, fl[t * 2], u);
    // the device's Box-Muller uses the fast __sincosf: a few units in the 5th digit
    EXPECT(std::fabs(fl[t * 2 + 1] - nrm) < 1e-4f * (1 + std::fabs(nrm)), "%s: thread %u normal %.7g, want %.7g",
           what, t, fl[t * 2 + 1], nrm);
  }
  HIP_OK(hipFree(di));
  HIP_OK(hipFree(df));
}

// Seconds since the previous call, for the log: where the time goes on a simulated GPU.
static void lap(const char *what)
{
  static auto t0 = std::chrono::steady_clock::now();
  auto t = std::chrono::steady_clock::now();
  std::printf("time %-28s %6.2f s\n", what, std::chrono::duration<double>(t - t0).count());
  t0 = t;
}

int main()
{
  lap("start");
  auto xorwow = host_api(ROCRAND_RNG_PSEUDO_XORWOW, "xorwow", N);
  lap("rocRAND xorwow");
  auto mrg = host_api(ROCRAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a", N);
  lap("rocRAND mrg32k3a");
  auto philox = host_api(ROCRAND_RNG_PSEUDO_PHILOX4_32_10, "philox", N);
  lap("rocRAND philox");
  auto sobol = host_api(ROCRAND_RNG_QUASI_SOBOL32, "sobol32", SOBOL_N);
  lap("rocRAND sobol32");
  more_distributions();
  lap("rocRAND poisson, log-normal, mtgp32, sobol64");
  hiprand_matches(HIPRAND_RNG_PSEUDO_XORWOW, "xorwow", xorwow);
  lap("hipRAND xorwow");
  hiprand_matches(HIPRAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a", mrg);
  lap("hipRAND mrg32k3a");
  hiprand_matches(HIPRAND_RNG_PSEUDO_PHILOX4_32_10, "philox", philox);
  lap("hipRAND philox");
  hiprand_matches(HIPRAND_RNG_QUASI_SOBOL32, "sobol32", sobol);
  lap("hipRAND sobol32");
  device_api_check<rocrand_state_xorwow>("xorwow");
  lap("device API xorwow");
  device_api_check<rocrand_state_mrg32k3a>("mrg32k3a");
  lap("device API mrg32k3a");
  device_api_check<rocrand_state_philox4x32_10>("philox");
  lap("device API philox");
  std::printf("rand: rocRAND (XORWOW, MRG32k3a, Philox, Sobol32: integers, uniform, normal), hipRAND "
              "and the device API: all checks passed\n");
  return 0;
}
