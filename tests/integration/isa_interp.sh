#!/bin/sh
# SPDX-License-Identifier: MIT
# The reference interpreter (hsa-sim --interp, HSA_SIM_INTERP=1) against the fast engine on
# a representative part of the kernel corpus (tests/kernels: atomics, divergence, private
# arrays, calls, f32/f64/int64 arithmetic, LDS, subgroups, HIP wave operations), dispatched
# by Debian's ROCR 5.2.3 on gfx900: each case must pass its host-reference check on both
# engines, and the two engines' output buffers must be identical byte for byte.
# test_isa_diff (tests/sim) compares the engines instruction by instruction.
set -u
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
[ -e /lib/x86_64-linux-gnu/libhsa-runtime64.so.1 ] || [ -e /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 ] ||
  { echo "Debian's ROCR (libhsa-runtime64-1) is not installed"; exit 77; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES LD_LIBRARY_PATH HSA_SIM_INTERP
work=$BUILD/tests/isa_interp
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR
corpus=$BUILD/tests/kernel-corpus
GPUS=gfx900 sh "$SRCDIR/tests/kernels/build.sh" "$corpus" > "$work/build.log" 2>&1 ||
  { echo "FAIL: corpus build"; tail -n 5 "$work/build.log"; exit 1; }
h=$corpus/harness
cases="atomics32:atomics.cl divergence:control.cl private_array:control.cl call_fn:control.cl
       f32_ops:float_ops.cl f64_ops:float_ops.cl int64_ops:int_ops.cl matmul_tiled:lds.cl
       reduce_stride:bench.cl subgroups:subgroups_amd.cl hip_wave_ops:wave.hip"
[ "${HSA_TEST_LIGHT:-0}" = 1 ] && cases="divergence:control.cl f32_ops:float_ops.cl matmul_tiled:lds.cl"
fail=0
for c in $cases; do
  name=${c%%:*} co=$corpus/gfx900/${c#*:}.co
  for eng in fast interp; do
    opt=""; [ $eng = interp ] && opt=--interp
    # shellcheck disable=SC2086
    if ! timeout 120 "$sim" $opt -- "$h" --timeout 90 --out "$work/$name.$eng.out" "$name" "$co" \
         > "$work/$name.$eng.log" 2>&1; then
      echo "FAIL  $name [$eng]"; grep -v '^\[hsa-sim' "$work/$name.$eng.log" | tail -n 5 | sed 's/^/      | /'
      fail=1
      continue 2
    fi
  done
  if cmp -s "$work/$name.fast.out" "$work/$name.interp.out"; then
    echo "PASS  $name (host reference on both engines, outputs identical)"
  else
    echo "FAIL  $name: the engines' outputs differ"; fail=1
  fi
done
exit $fail
