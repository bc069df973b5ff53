/* SPDX-License-Identifier: MIT */
/* dispatch_kernels.cl — kernels of the dispatch_*.sh tests (compiled at test time). */

/* Needs private (scratch) memory: a volatile array the compiler cannot keep in registers. */
kernel void priv(global uint *out, uint n) {
  volatile uint t[64];
  uint i = get_global_id(0);
  for (uint j = 0; j < 64; j++)
    t[j] = i * j + 1;
  if (i < n)
    out[i] = t[(i * 7) % 64];
}

/* Stores through whatever pointer it is given (the fault test gives it an unmapped one). */
kernel void poke(global uint *p) {
  p[get_global_id(0)] = 42;
}

/* Needs so much private memory per item (2400 bytes) that scratch for every slot of the
 * device would be too big to keep: the runtime gives this dispatch alone a single-use one. */
kernel void bigpriv(global uint *out, uint n) {
  volatile uint t[600];
  uint i = get_global_id(0);
  for (uint j = 0; j < 600; j++)
    t[j] = i * j + 1;
  if (i < n)
    out[i] = t[(i * 7) % 600];
}
