/* SPDX-License-Identifier: MIT */
// hip_texture.hip — HIP texture and surface objects (hip_texture.sh): hipCreateTextureObject
// over a hipArray (float4; uchar4 read as normalized floats) with each address mode, point and
// linear filtering, normalized and unnormalized coordinates, read by tex2D; tex1Dfetch over
// linear memory; a surface object (float4) read and written by surf2Dread/surf2Dwrite. Every result
// against a host reference of the CUDA/HIP texture rules, texel-space coordinates snapped to
// 1/256 (the texture unit's sub-texel precision) (bit-exact for point sampling,
// fetches and surfaces; linear filtering within 1/256 of the blended texels' span per
// dimension: the texture unit's weights keep 8 fraction bits). Exit 0 when all are right.
#include "hip_check.h"

#include <cmath>
#include <cstring>
#include <vector>

__global__ void k_tex2d(hipTextureObject_t t, const float2 *c, float4 *o)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

// explicit level (image_sample_l) and gradients (image_sample_d): on an image without mip
// levels they pick the magnification or minification filter only, the same here
__global__ void k_lod_grad(hipTextureObject_t t, const float2 *c, float4 *o, int grad)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (grad)
    o[i] = tex2DGrad<float4>(t, c[i].x, c[i].y, make_float2(0.3f, 0.1f), make_float2(-0.2f, 0.4f));
  else
    o[i] = tex2DLod<float4>(t, c[i].x, c[i].y, (float)(i % 5) - 2.0f);
}

__global__ void k_gather(hipTextureObject_t t, const float2 *c, float4 *o)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // the G channel of the 2x2 footprint: Debian's HIP 5.2 maps comp 1 to R, 2 to G, 3 to B
  // and 0 to A (CUDA: 0 x, 1 y, ...)
  o[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 2);
}

__global__ void k_fetch(hipTextureObject_t t, float *o)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = tex1Dfetch<float>(t, i);
}

__global__ void k_surf(hipSurfaceObject_t s, int w, int h)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h) return;
  int x = i % w, y = i / w;
  float4 v;
  surf2Dread(&v, s, x * 16, y);   // x in bytes
  v.x += 1.0f;
  v.y *= -2.0f;
  v.z = (float)x;
  v.w = (float)y;
  surf2Dwrite(v, s, x * 16, y);
}

static const int W = 8, H = 4, N = 256;

// texel index of coordinate u (texel space) under an address mode; -1: border
static int address(hipTextureAddressMode m, int i, int n)
{
  switch (m) {
  case hipAddressModeWrap: return ((i % n) + n) % n;
  case hipAddressModeMirror: { int k = i < 0 ? -1 - i : i; k %= 2 * n; return k < n ? k : 2 * n - 1 - k; }
  case hipAddressModeClamp: return i < 0 ? 0 : i >= n ? n - 1 : i;
  default: return i < 0 || i >= n ? -1 : i;
  }
}

static void ref(const std::vector<float4> &img, hipTextureAddressMode m, bool linear, float u, float v,
                float out[4], float *span)
{
  auto at = [&](int x, int y, float *t) {
    int a = address(m, x, W), b = address(m, y, H);
    if (a < 0 || b < 0) { t[0] = t[1] = t[2] = t[3] = 0; return; }
    const float4 &p = img[b * W + a];
    t[0] = p.x, t[1] = p.y, t[2] = p.z, t[3] = p.w;
  };
  *span = 0;
  // point: the device library floors the coordinate before sampling (exact rule); linear:
  // the texture unit keeps 8 sub-texel bits, rounded
  if (!linear) { at((int)std::floor(u), (int)std::floor(v), out); return; }
  u = std::rint(u * 256) / 256, v = std::rint(v * 256) / 256;
  float uu = u - 0.5f, vv = v - 0.5f, a = uu - std::floor(uu), b = vv - std::floor(vv);
  int x = (int)std::floor(uu), y = (int)std::floor(vv);
  float t[4][4];
  at(x, y, t[0]), at(x + 1, y, t[1]), at(x, y + 1, t[2]), at(x + 1, y + 1, t[3]);
  for (int c = 0; c < 4; c++) {
    out[c] = (1 - b) * ((1 - a) * t[0][c] + a * t[1][c]) + b * ((1 - a) * t[2][c] + a * t[3][c]);
    float lo = t[0][c], hi = t[0][c];
    for (int k = 1; k < 4; k++) lo = std::fmin(lo, t[k][c]), hi = std::fmax(hi, t[k][c]);
    *span = std::fmax(*span, hi - lo);
  }
}

int main()
{
  unsigned long long seed = 11;
  // ---- float4 array, every mode ----
  std::vector<float4> img(W * H);
  for (auto &p : img)
    p = make_float4((float)(hc_rand(seed) % 1000) / 64.0f - 7, (float)(hc_rand(seed) % 100),
                    (float)(hc_rand(seed) % 7), -(float)(hc_rand(seed) % 300) / 8.0f);
  hipChannelFormatDesc cd = hipCreateChannelDesc<float4>();
  hipArray_t arr;
  HIP_OK(hipMallocArray(&arr, &cd, W, H, hipArrayDefault));
  HIP_OK(hipMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float4), W * sizeof(float4), H,
                            hipMemcpyHostToDevice));
  float2 *c;
  float4 *o;
  HIP_OK(hipMallocManaged(&c, N * sizeof(float2)));
  HIP_OK(hipMallocManaged(&o, N * sizeof(float4)));
  const hipTextureAddressMode modes[] = {hipAddressModeClamp, hipAddressModeBorder, hipAddressModeWrap,
                                         hipAddressModeMirror};
  int checked = 0;
  for (auto m : modes)
    for (int linear = 0; linear < 2; linear++)
      for (int norm = 0; norm < 2; norm++) {
        if (!norm && (m == hipAddressModeWrap || m == hipAddressModeMirror)) continue;
        hipResourceDesc rd;
        std::memset(&rd, 0, sizeof rd);
        rd.resType = hipResourceTypeArray;
        rd.res.array.array = arr;
        hipTextureDesc td;
        std::memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = m;
        td.filterMode = linear ? hipFilterModeLinear : hipFilterModePoint;
        td.readMode = hipReadModeElementType;
        td.normalizedCoords = norm;
        hipTextureObject_t t;
        HIP_OK(hipCreateTextureObject(&t, &rd, &td, nullptr));
        for (int i = 0; i < N; i++) {
          // odd multiples of 1/512 in texel space: never on a texel edge, weights exact in 8 bits
          // (every other one), the others anywhere; from 2 texels before to 2 after the image
          float u = i % 2 ? (float)(hc_rand(seed) % 12000) / 1000.0f - 2
                          : (float)(2 * (int)(hc_rand(seed) % 3072) + 1) / 256.0f - 2;
          float v = i % 2 ? (float)(hc_rand(seed) % 8000) / 1000.0f - 2
                          : (float)(2 * (int)(hc_rand(seed) % 2048) + 1) / 256.0f - 2;
          c[i] = norm ? make_float2(u / W, v / H) : make_float2(u, v);
        }
        // tex2D, then (linear, normalized) tex2DLod and tex2DGrad, which must agree with it
        int rounds = linear && norm ? 3 : 1;
        for (int rd_ = 0; rd_ < rounds; rd_++) {
        if (rd_ == 0) hipLaunchKernelGGL(k_tex2d, dim3(N / 64), dim3(64), 0, 0, t, c, o);
        else hipLaunchKernelGGL(k_lod_grad, dim3(N / 64), dim3(64), 0, 0, t, c, o, rd_ - 1);
        HIP_OK(hipDeviceSynchronize());
        for (int i = 0; i < N; i++) {
          float u = norm ? c[i].x * W : c[i].x, v = norm ? c[i].y * H : c[i].y, want[4], span;
          ref(img, m, linear, u, v, want, &span);
          const float got[4] = {o[i].x, o[i].y, o[i].z, o[i].w};
          for (int k = 0; k < 4; k++) {
            bool ok = linear ? std::fabs(got[k] - want[k]) <= 2 * span / 256 + 1e-5f * (1 + std::fabs(want[k]))
                             : std::memcmp(&got[k], &want[k], 4) == 0;
            EXPECT(ok, "%s mode %d linear %d norm %d sample %d at (%g, %g) channel %d: %a, want %a",
                   rd_ == 0 ? "tex2D" : rd_ == 1 ? "tex2DLod" : "tex2DGrad", (int)m, linear, norm, i, u,
                   v, k, got[k], want[k]);
            checked++;
          }
        }
        }
        HIP_OK(hipDestroyTextureObject(t));
      }
  std::printf("tex2D float4: %d channels right\n", checked);

  // ---- tex2Dgather: G of texels (i0, j1), (i1, j1), (i1, j0), (i0, j0), clamped ----
  {
    hipResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = hipResourceTypeArray;
    rd.res.array.array = arr;
    hipTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
    td.filterMode = hipFilterModeLinear;   // point would have the library floor the coordinate
    td.readMode = hipReadModeElementType;
    hipTextureObject_t t;
    HIP_OK(hipCreateTextureObject(&t, &rd, &td, nullptr));
    for (int i = 0; i < N; i++)
      c[i] = make_float2((float)(hc_rand(seed) % 1200) / 100.0f - 2, (float)(hc_rand(seed) % 800) / 100.0f - 2);
    hipLaunchKernelGGL(k_gather, dim3(N / 64), dim3(64), 0, 0, t, c, o);
    HIP_OK(hipDeviceSynchronize());
    for (int i = 0; i < N; i++) {
      int i0 = (int)std::floor(std::rint(c[i].x * 256) / 256 - 0.5f);
      int j0 = (int)std::floor(std::rint(c[i].y * 256) / 256 - 0.5f);
      const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
      const float got[4] = {o[i].x, o[i].y, o[i].z, o[i].w};
      for (int k = 0; k < 4; k++) {
        int x = address(hipAddressModeClamp, i0 + dx[k], W), y = address(hipAddressModeClamp, j0 + dy[k], H);
        float want = img[y * W + x].y;
        EXPECT(got[k] == want, "gather %d at (%g, %g) result %d: %g want %g", i, c[i].x, c[i].y, k, got[k], want);
      }
    }
    HIP_OK(hipDestroyTextureObject(t));
    std::printf("tex2Dgather: %d footprints right\n", N);
  }

  // ---- uchar4 read as normalized floats (point) ----
  std::vector<uchar4> img8(W * H);
  for (auto &p : img8)
    p = make_uchar4(hc_rand(seed) & 255, hc_rand(seed) & 255, hc_rand(seed) & 255, hc_rand(seed) & 255);
  // explicitly unsigned: Debian's HIP 5.2 hipCreateChannelDesc<uchar4>() says
  // hipChannelFormatKindSigned, which makes an SNORM image
  hipChannelFormatDesc cd8 = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  hipArray_t arr8;
  HIP_OK(hipMallocArray(&arr8, &cd8, W, H, hipArrayDefault));
  HIP_OK(hipMemcpy2DToArray(arr8, 0, 0, img8.data(), W * 4, W * 4, H, hipMemcpyHostToDevice));
  {
    hipResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = hipResourceTypeArray;
    rd.res.array.array = arr8;
    hipTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
    td.filterMode = hipFilterModePoint;
    td.readMode = hipReadModeNormalizedFloat;
    hipTextureObject_t t;
    HIP_OK(hipCreateTextureObject(&t, &rd, &td, nullptr));
    for (int i = 0; i < N; i++) c[i] = make_float2((float)(i % W) + 0.5f, (float)(i / W % H) + 0.5f);
    hipLaunchKernelGGL(k_tex2d, dim3(N / 64), dim3(64), 0, 0, t, c, o);
    HIP_OK(hipDeviceSynchronize());
    for (int i = 0; i < N; i++) {
      const uchar4 &p = img8[(i / W % H) * W + i % W];
      EXPECT(o[i].x == p.x / 255.0f && o[i].y == p.y / 255.0f && o[i].z == p.z / 255.0f &&
             o[i].w == p.w / 255.0f, "uchar4 texel %d: (%a %a %a %a)", i, o[i].x, o[i].y, o[i].z, o[i].w);
    }
    HIP_OK(hipDestroyTextureObject(t));
    std::printf("tex2D uchar4 normalized: %d texels right\n", N);
  }

  // ---- tex1Dfetch over linear memory ----
  {
    float *lin, *out;
    HIP_OK(hipMalloc(&lin, N * sizeof(float)));
    HIP_OK(hipMallocManaged(&out, N * sizeof(float)));
    std::vector<float> h(N);
    for (int i = 0; i < N; i++) h[i] = (float)i * 0.75f - 20;
    HIP_OK(hipMemcpy(lin, h.data(), N * sizeof(float), hipMemcpyHostToDevice));
    hipResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = hipResourceTypeLinear;
    rd.res.linear.devPtr = lin;
    rd.res.linear.desc = hipCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = N * sizeof(float);
    hipTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.readMode = hipReadModeElementType;
    hipTextureObject_t t;
    HIP_OK(hipCreateTextureObject(&t, &rd, &td, nullptr));
    hipLaunchKernelGGL(k_fetch, dim3(N / 64), dim3(64), 0, 0, t, out);
    HIP_OK(hipDeviceSynchronize());
    for (int i = 0; i < N; i++) EXPECT(out[i] == h[i], "tex1Dfetch %d: %g want %g", i, out[i], h[i]);
    HIP_OK(hipDestroyTextureObject(t));
    std::printf("tex1Dfetch: %d elements right\n", N);
  }

  // ---- a surface over the float4 array: read, change, write back (HIP 5.2's surf2D
  // functions convert through float, so an integer surface would not round-trip) ----
  {
    hipResourceDesc rd;
    std::memset(&rd, 0, sizeof rd);
    rd.resType = hipResourceTypeArray;
    rd.res.array.array = arr;
    hipSurfaceObject_t s;
    HIP_OK(hipCreateSurfaceObject(&s, &rd));
    hipLaunchKernelGGL(k_surf, dim3(1), dim3(64), 0, 0, s, W, H);
    HIP_OK(hipDeviceSynchronize());
    std::vector<float4> back(W * H);
    HIP_OK(hipMemcpy2DFromArray(back.data(), W * 16, arr, 0, 0, W * 16, H, hipMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++) {
      const float4 &p = img[i], &g = back[i];
      EXPECT(g.x == p.x + 1.0f && g.y == p.y * -2.0f && g.z == (float)(i % W) && g.w == (float)(i / W),
             "surface texel %d: %g %g %g %g", i, g.x, g.y, g.z, g.w);
    }
    HIP_OK(hipDestroySurfaceObject(s));
    std::printf("surf2Dread/surf2Dwrite: %d texels right\n", W * H);
  }
  HIP_OK(hipFreeArray(arr));
  HIP_OK(hipFreeArray(arr8));
  HIP_OK(hipFree(c));
  HIP_OK(hipFree(o));
  std::printf("PASS\n");
  return 0;
}
