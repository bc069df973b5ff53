/* SPDX-License-Identifier: MIT */
/* Local memory with barriers: a tree reduction, a tiled transpose and a tiled matrix
 * multiply. The tiles loop over the work-group's actual size, so partial work-groups at the
 * grid's edge (as HSA dispatches them) still fill and drain whole tiles. */
#define WG 256
#define T 16

__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
  size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel void reduce_lds(__global const uint *in, __global uint *partial, uint n)
{
  __local uint tmp[WG];
  size_t l = get_local_id(0), i = get_global_id(0);
  tmp[l] = i < n ? in[i] * 3u + (in[i] >> 7) : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = tmp[0];
}

static size_t lsize(uint d, uint n)
{
#ifdef __AMDGCN__
  (void)n;
  return get_local_size(d);   /* partial at the grid's edge */
#else
  /* CPU OpenCL 1.2 rounds the grid up: the same count of work-items inside the grid */
  size_t s = get_local_size(d), first = get_group_id(d) * s;
  return n - first < s ? n - first : s;
#endif
}

__kernel void transpose(__global const float *in, __global float *out, uint w, uint h)
{
  __local float tile[T][T + 1];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t bx = get_group_id(0) * T, by = get_group_id(1) * T;
  size_t sx = lsize(0, w), sy = lsize(1, h);
  int inside = lx < sx && ly < sy;   /* false only on the CPU, for items outside the grid */
  for (size_t y = ly; inside && y < T; y += sy)
    for (size_t x = lx; x < T; x += sx)
      if (by + y < h && bx + x < w) tile[y][x] = in[(by + y) * w + bx + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t y = ly; inside && y < T; y += sy)
    for (size_t x = lx; x < T; x += sx)
      if (bx + y < w && by + x < h) out[(bx + y) * h + by + x] = tile[x][y];
}

/* C (m x n) = A (m x k) * B (k x n), row major, T x T work-groups, any sizes. */
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                           uint m, uint n, uint k)
{
  __local float As[T][T], Bs[T][T];
  size_t col = get_global_id(0), row = get_global_id(1);
  size_t lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < k; t += T) {
    As[ly][lx] = row < m && t + lx < k ? A[row * k + t + lx] : 0.0f;
    Bs[ly][lx] = col < n && t + ly < k ? B[(t + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < T; j++) acc += As[ly][j] * Bs[j][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) C[row * n + col] = acc;
}
