#!/bin/sh
# SPDX-License-Identifier: MIT
# trap_device.sh — device traps reach the queue's callback, under hsa-sim on gfx900, gfx906
# and gfx90a, on ours and on ROCR 5.2.3 (the peer; each runtime installs its own second-level
# trap handler, which the simulator runs behind its model of the kernel's first level):
#  - trap: every wave of a kernel runs __builtin_trap (s_trap 2): HSA_STATUS_ERROR_EXCEPTION,
#    the dispatch never completes, a new queue then runs work;
#  - abort: one work-item of 256 fails a check and aborts: HSA_STATUS_ERROR_EXCEPTION, the
#    other work-groups finish;
#  - ours names the kernel and the offset of the s_trap, as llvm-objdump gives them;
#  - debugtrap (ours): __builtin_debugtrap with no debugger goes on (ROCR 5.2.3's handler
#    halts the wave there and waits for a debugger, so it is not run as a peer for this);
#  - illegal (gfx900, gfx90a, gfx942; ours and ROCR 5.2.3 where it knows the chip): an
#    encoding the hardware rejects enters the handler with TRAPSTS.ILLEGAL_INST:
#    HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, the dispatch never completes; ours names the
#    kernel and the offset of the `.long 0xffffffff` as llvm-objdump gives them, and
#    hsa-sim's trace the exception's address and the instruction's word;
#  - a HIP device assert (Debian's HIP 5.2; ours and ROCR on the three, ROCR on gfx900 alone
#    under HSA_TEST_LIGHT=1): the assertion
#    is printed, HIP's queue callback gets HSA_STATUS_ERROR_EXCEPTION and aborts the process;
#  - fpexcp (gfx900): a kernel built with the overflow exception enabled in COMPUTE_PGM_RSRC2
#    enters the handler (TRAPSTS.EXCP); ours goes on to the end, ROCR 5.2.3's parks the wave;
#  - gfx942 (MI300X, --gpu gfx942, and the MI300A APU, --gpu gfx942-apu; ROCR 5.2.3 does not
#    know them, HIP 5.2 cannot build for them):
#    trap, abort, debugtrap, illegal and fault on ours, kernels from clang-19 as kernels_gfx942.sh builds
#    them (our gfx942 handler comes from llvm-mc 17+, and the model's first level keeps
#    IB_STS in ttmp13 there); skipped with a line when clang-19 is missing.
#  - gfx1100 and gfx1201 (RDNA3/RDNA4, wave32; clang-19 with the device libraries as
#    devlibs19.sh makes them): trap, abort, debugtrap, illegal and fault on ours, through our
#    gfx11/gfx12 handler (trap_gfx11.s) behind the model's gfx10+/gfx12 first level: the
#    statuses above, the message naming the kernel and the s_trap's offset as llvm-objdump-19
#    gives it; abort in wave64 too; under HSA_TEST_LIGHT=1 gfx1201 alone.
#  - fault (ours; gfx900, gfx942, gfx1100, gfx1201): fill's output pointer at an address the GPU does
#    not map: HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, and a message naming `fill.kd`.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads the sanitizer-built libhsa-sim.so into a client built without sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
[ -x "$sim" ] || { echo "$sim is not built"; exit 1; }
command -v clang-15 > /dev/null || { echo "clang-15 is not installed"; exit 77; }
objdump15=$(command -v llvm-objdump-15 || command -v llvm-objdump) ||
  { echo "llvm-objdump is not installed"; exit 77; }
devlibs=""
for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && devlibs=$d; done
[ -n "$devlibs" ] || { echo "rocm-device-libs is not installed"; exit 77; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES HSA_CU_MASK
work=$BUILD/tests/trap_device
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

src=$SRCDIR/tests/integration/trap_client.c
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/ours" "$src" -L"$BUILD/lib" -lhsa-runtime64 \
  -Wl,-rpath,"$BUILD/lib" || fail "cannot build the client"
peer=0
if [ -n "$rocr" ]; then
  ${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$work/rocr" "$src" "$rocr" \
    -Wl,-rpath,"$(dirname "$rocr")" || fail "cannot build the ROCR client"
  peer=1
fi

# "kernel `K.kd` + 0xREL (offset 0xADDR": where llvm-objdump puts the s_trap N of kernel K
where() {
  set -- $("$objdump" -d --mcpu="$1" "$2" | awk -v k="<$3>:" -v t="${5:-s_trap $4}" '
    $2 == k { base = $1; inside = 1; next }
    / <[^>]*>:$/ { inside = 0 }
    inside && index($0, t) { n = split($0, a, "// "); print base, substr(a[n], 1, 12); exit }') "$3"
  [ $# = 3 ] || return 0
  printf 'kernel `%s.kd` + 0x%x (offset 0x%x ' "$3" $((0x$2 - 0x$1)) $((0x$2))
}

# the kernels come from lib/kcache.sh's cache when another configuration or run compiled them
. "$SRCDIR/tests/integration/lib/kcache.sh"
KCACHE_TMP=$work   # (its path differs between configurations; what is under it does not)

# gfx942: clang-19, Debian's device libraries plus the gfx942 ISA version constant (as
# kernels_gfx942.sh makes it), llvm-objdump-19
gpus="gfx900 gfx906 gfx90a"
if command -v clang-19 > /dev/null && command -v llvm-as-19 > /dev/null &&
   command -v llvm-objdump-19 > /dev/null; then
  . "$SRCDIR/tests/integration/lib/devlibs19.sh"
  devlibs19_make "$work/devlibs19" "$devlibs" gfx942 gfx1100 gfx1201
  gpus="$gpus gfx942 gfx942-apu gfx1100 gfx1201"
  [ "${HSA_TEST_LIGHT:-0}" = 1 ] && gpus="gfx900 gfx906 gfx90a gfx942 gfx1201"
else
  echo "clang-19, llvm-as-19 or llvm-objdump-19 is not installed: gfx942 is not checked"
fi

for gpu in $gpus; do
  co=$work/$gpu.co
  case $gpu in gfx9??) clang19=0 ;; *) clang19=1 ;; esac
  [ $gpu = gfx942 ] && clang19=1
  if [ $gpu = gfx942-apu ]; then   # the same chip: gfx942's code object
    co=$work/gfx942.co
    objdump=llvm-objdump-19
  elif [ $clang19 = 1 ]; then
    kcache "$co" clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header \
      -target amdgcn-amd-amdhsa -mcpu=$gpu -mcode-object-version=4 \
      --rocm-device-lib-path="$work/devlibs19" -O2 -Wno-linker-warnings -o "$co" "$SRCDIR/tests/integration/trap_kernels.cl" ||
      fail "cannot compile trap_kernels.cl for $gpu with clang-19"
    objdump=llvm-objdump-19
  else
    kcache "$co" clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$gpu -O2 \
      --rocm-device-lib-path="$devlibs" -o "$co" "$SRCDIR/tests/integration/trap_kernels.cl" ||
      fail "cannot compile trap_kernels.cl for $gpu"
    objdump=$objdump15
  fi
  modes="trap abort debugtrap"
  case $gpu in gfx900|gfx90a) modes="$modes illegal" ;; gfx942|gfx1100|gfx1201) modes="$modes illegal fault" ;; esac
  [ $gpu = gfx900 ] && modes="$modes fault"
  for mode in $modes; do
    out=$work/$gpu.$mode.ours
    trace=""
    [ $mode = illegal ] && trace=--trace="$out.trace"
    timeout 120 "$sim" --gpu $gpu $trace -- "$work/ours" $mode "$co" > "$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc = 0 ] || fail "$mode on our runtime, $gpu (exit $rc)"
    if [ $mode = illegal ]; then
      want=$(where $gpu "$co" illegal_inst 0 ".long 0xffffffff")
      [ -n "$want" ] || fail "no .long 0xffffffff in illegal_inst for $gpu in llvm-objdump's output"
      grep -qF "a wave stopped at an illegal instruction at" "$out" && grep -qF "$want" "$out" ||
        fail "illegal, $gpu: the message does not say $want"
      addr=$(sed -n 's/.*illegal instruction at \(0x[0-9a-f]*\):.*/\1/p' "$out" | head -n 1)
      grep -q "exception (TRAPSTS 0x800) at $addr, .*: 0xffffffff" "$out.trace" ||
        fail "illegal, $gpu: hsa-sim's trace has no exception at $addr with the word 0xffffffff"
    fi
    kernel=trap_all
    [ $mode = abort ] && kernel=check_abort
    if [ $mode = trap ] || [ $mode = abort ]; then
      want=$(where ${gpu%-apu} "$co" $kernel 2)
      [ -n "$want" ] || fail "no s_trap 2 in $kernel for $gpu in llvm-objdump's output"
      grep -qF "a wave stopped at s_trap 2" "$out" && grep -qF "$want" "$out" ||
        fail "$mode, $gpu: the message does not say $want"
    fi
    [ $mode != fault ] || grep -qF 'fill.kd' "$out" || fail "fault, $gpu: no message names fill.kd"
    [ $peer = 1 ] && [ $mode != debugtrap ] && [ $mode != fault ] && [ $clang19 = 0 ] || continue
    timeout 120 "$sim" --gpu $gpu -- "$work/rocr" $mode "$co" > "$out.rocr" 2>&1
    rc=$?
    cat "$out.rocr"
    [ $rc = 0 ] || fail "$mode on ROCR 5.2.3, $gpu (exit $rc): $(tail -n 3 "$out.rocr")"
  done
  case $gpu in gfx1100|gfx1201)
    # wave64 (-mwavefrontsize64): an aborting work-item through the same handler
    kcache "$work/$gpu.w64.co" clang-19 -x cl -cl-std=CL2.0 -Xclang -finclude-default-header \
      -target amdgcn-amd-amdhsa -mcpu=$gpu -mcode-object-version=4 \
      --rocm-device-lib-path="$work/devlibs19" -O2 -Wno-linker-warnings -mwavefrontsize64 \
      -o "$work/$gpu.w64.co" \
      "$SRCDIR/tests/integration/trap_kernels.cl" || fail "cannot compile trap_kernels.cl for $gpu wave64"
    out=$work/$gpu.abort.w64.ours
    timeout 120 "$sim" --gpu $gpu -- "$work/ours" abort "$work/$gpu.w64.co" > "$out" 2>&1 ||
      { cat "$out"; fail "abort on our runtime, $gpu wave64"; }
    cat "$out"
    want=$(where $gpu "$work/$gpu.w64.co" check_abort 2)
    [ -n "$want" ] && grep -qF "$want" "$out" || fail "abort, $gpu wave64: the message does not say $want"
    ;;
  esac
  echo "ok $gpu"
done

# A math exception enabled in COMPUTE_PGM_RSRC2 (gfx900): fp_overflow assembled again with
# .amdhsa_exception_fp_ieee_overflow 1. The wave enters the handler with TRAPSTS.EXCP
# overflow (the trace says so); ours returns and the dispatch completes with +inf; ROCR
# 5.2.3's parks the wave for a debugger (SQ interrupt with bit 23 set), no queue error.
kcache "$work/fpx.s" clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900 -O2 \
  --rocm-device-lib-path="$devlibs" -S -o "$work/fpx.s" "$SRCDIR/tests/integration/trap_kernels.cl" ||
  fail "cannot compile trap_kernels.cl to assembly"
awk '/\.amdhsa_kernel fp_overflow/ { k = 1 }
     k && /amdhsa_exception_fp_ieee_overflow 0/ { sub(/ 0$/, " 1"); k = 0 } { print }' \
  "$work/fpx.s" > "$work/fpx_en.s"
grep -q 'amdhsa_exception_fp_ieee_overflow 1' "$work/fpx_en.s" || fail "no overflow enable bit to set"
clang-15 -target amdgcn-amd-amdhsa -mcpu=gfx900 -x assembler -o "$work/fpx.co" "$work/fpx_en.s" ||
  fail "cannot assemble the kernels with the overflow exception enabled"
for rt in ours rocr; do
  [ $rt = ours ] || [ $peer = 1 ] || continue
  mode=fpexcp
  [ $rt = rocr ] && mode=fpexcp_halts
  out=$work/fpexcp.$rt
  timeout 120 "$sim" --gpu gfx900 --trace="$out.trace" -- "$work/$rt" $mode "$work/fpx.co" > "$out" 2>&1
  rc=$?
  cat "$out"
  [ $rc = 0 ] || fail "fpexcp on $rt (exit $rc)"
  grep -q 'exception (TRAPSTS 0x28) .*second-level handler: floating-point exception 0x8' "$out.trace" ||
    fail "fpexcp on $rt: the trace shows no overflow exception entering the handler"
done
echo "ok math exception, gfx900"

if ! command -v hipcc > /dev/null 2>&1; then
  echo "hipcc is not installed: the HIP assert is not checked"
else
  hipcc --offload-arch=gfx900 --offload-arch=gfx906 --offload-arch=gfx90a -O2 \
    -o "$work/trap_assert" "$SRCDIR/tests/integration/trap_assert.hip" > "$work/hipcc.log" 2>&1 ||
    { cat "$work/hipcc.log"; fail "hipcc cannot build trap_assert.hip"; }
  for gpu in gfx900 gfx906 gfx90a; do
    for rt in ours rocr; do
      # the peer on every family ROCR 5.2.3 knows (under HSA_TEST_LIGHT=1 once: CI time)
      [ $rt = ours ] || { [ $peer = 1 ] && { [ "${HSA_TEST_LIGHT:-0}" != 1 ] || [ $gpu = gfx900 ]; }; } ||
        continue
      out=$work/hip.$gpu.$rt
      if [ $rt = ours ]; then
        LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$sim" --gpu $gpu -- "$work/trap_assert" > "$out" 2>&1
      else
        timeout 120 "$sim" --gpu $gpu -- "$work/trap_assert" > "$out" 2>&1
      fi
      rc=$?
      cat "$out"
      [ $rc = 134 ] || fail "HIP assert on $rt, $gpu: exit $rc, not SIGABRT from HIP's queue callback"
      grep -qF "Device-side assertion \`i != bad' failed." "$out" || fail "HIP assert on $rt, $gpu: no assertion text"
      grep -qF "aborting with error : HSA_STATUS_ERROR_EXCEPTION" "$out" ||
        fail "HIP assert on $rt, $gpu: HIP's callback did not get HSA_STATUS_ERROR_EXCEPTION"
      [ $rt = rocr ] || grep -q 'a wave stopped at s_trap 2 .*was running kernel `_Z5checkPii.kd`' "$out" ||
        { tr '\n' ' ' < "$out" | grep -q 'a wave stopped at s_trap 2.*was running kernel `_Z5checkPii.kd`'; } ||
        fail "HIP assert on ours, $gpu: the message does not name the kernel"
    done
    echo "ok HIP assert, $gpu"
  done
fi
echo "ok"
