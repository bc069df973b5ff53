/* SPDX-License-Identifier: MIT */
/* trap_kernels.cl — kernels that stop on a device trap, for trap_device.sh. */

/* Stores before a trap are volatile: LLVM 19 deletes a plain store that only a trap follows
 * (nothing in the program reads it again), and the tests look for it. */

/* Every work-item stores, then the wave executes llvm.trap (s_trap 2): what abort() is. */
kernel void trap_all(global int *out) {
  ((volatile global int *)out)[get_global_id(0)] = 1;
  __builtin_trap();
}

/* An assert: only the work-item whose check fails aborts; the others finish. */
kernel void check_abort(global int *out, int bad) {
  size_t i = get_global_id(0);
  ((volatile global int *)out)[i] = 2;
  if (i == (size_t)bad)
    __builtin_trap();
  out[i] = 4;
}

/* llvm.debugtrap (s_trap 3) with no debugger attached: a no-op (AMDGPUUsage). */
kernel void debug_trap(global int *out) {
  __builtin_debugtrap();
  out[get_global_id(0)] = 3;
}

/* Work for a queue created after a trap stopped another one. */
kernel void fill(global int *out) {
  out[get_global_id(0)] = 5;
}

/* Every work-item stores, then the wave meets an encoding no gfx9 chip has (llvm-objdump
 * cannot decode 0xffffffff): an illegal-instruction exception, which the runtime's
 * second-level handler reports. */
kernel void illegal_inst(global int *out) {
  ((volatile global int *)out)[get_global_id(0)] = 6;
  __asm__ volatile(".long 0xffffffff");
}

/* x * x overflows for x = 1e38: trap_device.sh builds it a second time with the overflow
 * exception enabled in COMPUTE_PGM_RSRC2 (.amdhsa_exception_fp_ieee_overflow 1). */
kernel void fp_overflow(global float *out, float x) {
  out[get_global_id(0)] = x * x;
}
