#!/bin/sh
# SPDX-License-Identifier: MIT
# The matrix core (MFMA) and AGPRs of gfx90a and gfx942 on the simulator: OpenCL C kernels
# calling __builtin_amdgcn_mfma_* (tests/integration/mfma/mfma.cl; f32, f16, bf16, i8 and
# f64 forms, and on gfx942 also xf32, fp8 x fp8, bf8 x fp8 and the sparse v_smfmac f16 with
# its 2-bit index set), built by clang-15 for gfx90a
# and clang-19 for gfx942, dispatched under hsa-sim on our runtime, and for gfx90a also on
# Debian's ROCR 5.2.3 (the peer); every D = A x B + C compared with the host's product
# (mfma_ref.c: bitwise, the inputs being small integers whose sums are exact in f32). Then
# the same file at -O0 for gfx90a, where clang spills VGPRs to AGPRs (v_accvgpr_write/read)
# and must still compute the same; five gfx942 forms also on gfx942-apu (MI300A).
# HSA_TEST_LIGHT=1: gfx942 on ours only.
# timeout: 300
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so, which sanitized programs cannot take"; exit 77
fi
command -v clang-15 > /dev/null || { echo "clang-15 is not installed"; exit 77; }
sim=$BUILD/bin/hsa-sim
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
unset HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
T=$SRCDIR/tests/integration/mfma
K=$SRCDIR/tests/kernels
W=$BUILD/tests/mfma
rm -rf "$W" && mkdir -p "$W"
fail() { echo "FAIL: $*"; exit 1; }

${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -Dmain=harness_main -I"$K" -I"$SRCDIR/include/hsa" \
  -c -o "$W/harness.o" "$K/harness.c" || fail "cannot build the harness"
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -I"$K" -o "$W/mfma_all" "$T/mfma_all.c" "$W/harness.o" \
  "$K/kcase.c" "$T/mfma_ref.c" -L"$BUILD/lib" -lhsa-runtime64 -ldl -lm || fail "cannot build mfma_all"

cl() { # clang cpu opt out
  "$1" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$2" -mcode-object-version=4 \
    -nogpulib "$3" -o "$4" "$T/mfma.cl"
}
both="mf_f32_32x32x1 mf_f32_4x4x1 mf_f16_32x32x8 mf_f16_16x16x16 mf_bf16_16x16x16 mf_f64_16x16x4 mf_f64_4x4x4"
status=0
run() { # label gpu libdir co cases...
  label=$1 gpu=$2 lib=$3 co=$4; shift 4
  rc=0
  LD_LIBRARY_PATH=$lib timeout 240 "$sim" --gpu "$gpu" -- "$W/mfma_all" "$co" "$@" \
    > "$W/$label.log" 2>&1 || rc=$?
  grep -E '^(PASS|FAIL)' "$W/$label.log" | sed "s/\$/ [$label]/"
  if [ $rc -ne 0 ]; then
    status=1; echo "FAIL: $label (exit $rc)"; grep -v '^\[hsa-sim\|^PASS' "$W/$label.log" | head -n 8 | sed 's/^/      | /'
  fi
}

light=${HSA_TEST_LIGHT:-0}
if [ "$light" != 1 ]; then
  cl clang-15 gfx90a -O2 "$W/gfx90a.co" || fail "clang-15 cannot compile mfma.cl for gfx90a"
  cl clang-15 gfx90a -O0 "$W/gfx90a-O0.co" || fail "clang-15 -O0"
  /usr/lib/llvm-15/bin/llvm-objdump -d --mcpu=gfx90a "$W/gfx90a-O0.co" | grep -q v_accvgpr_write ||
    fail "the -O0 code object spills no VGPR to an AGPR: the AGPR spill path is not exercised"
  # shellcheck disable=SC2086
  run gfx90a-ours gfx90a "$BUILD/lib" "$W/gfx90a.co" $both mf_i8_16x16x16 mf_bf16_32x32x2
  # shellcheck disable=SC2086
  run gfx90a-O0-ours gfx90a "$BUILD/lib" "$W/gfx90a-O0.co" mf_f32_32x32x1 mf_f16_32x32x8 mf_i8_16x16x16
  rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
  if [ -n "$rocr" ]; then
    # shellcheck disable=SC2086
    run gfx90a-rocr gfx90a "$(dirname "$rocr")" "$W/gfx90a.co" $both mf_i8_16x16x16 mf_bf16_32x32x2
  else
    echo "Debian's ROCR 5.2.3 is not installed: the peer run is skipped"
  fi
fi
if command -v clang-19 > /dev/null; then
  cl clang-19 gfx942 -O2 "$W/gfx942.co" || fail "clang-19 cannot compile mfma.cl for gfx942"
  # shellcheck disable=SC2086
  run gfx942-ours gfx942 "$BUILD/lib" "$W/gfx942.co" $both mf_i8_16x16x32 mf_xf32_16x16x8 \
    mf_fp8_16x16x32 mf_bf8fp8_32x32x16 smf_f16_16x16x32
  # MI300A (6 XCCs, memory the system's): a few forms of each kind
  [ "$light" = 1 ] ||
    run gfx942-apu-ours gfx942-apu "$BUILD/lib" "$W/gfx942.co" mf_f32_32x32x1 mf_i8_16x16x32 \
      mf_xf32_16x16x8 mf_bf8fp8_32x32x16 smf_f16_16x16x32
elif [ "$light" = 1 ]; then
  echo "clang-19 is not installed (apt install clang-19)"; exit 77
else
  echo "clang-19 is not installed: gfx942 not checked"
fi
exit $status
