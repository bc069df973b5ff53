#!/bin/sh
# SPDX-License-Identifier: MIT
# sim/isa's decoder against llvm-objdump: compile the OpenCL C corpus (isa_corpus/*.cl, image.cl
# with the device libraries and clang-15 only; and
# assemble isa_corpus/*.s, instructions compilers rarely emit) with
# clang-15 and clang-14 for gfx900, gfx906 (and gfx90a with clang-15) at -O0 and -O2,
# disassemble with the matching llvm-objdump, and require that sim/isa decodes every
# instruction at the same offset with the same size and mnemonic (and the same operands
# for the formats it spells like llvm-objdump). Unknown encodings fail. The decoder is told
# the chip (gfx9 chips disagree on a few VALU opcodes). gfx90a too, with its AGPR moves and
# MFMA forms (isa_corpus/mfma.cl; empty for gfx900/gfx906). Then the trap handlers, ours and
# ROCR's (see below), on gfx900, gfx906 and gfx90a, exactly. gfx942 (CDNA3) with clang-19 and
# llvm-objdump-19 when installed: the OpenCL corpus (MFMA, xf32 and fp8 forms, -O0 AGPR
# spills) and our gfx942 trap handler, exactly.
# gfx1100 (RDNA3) and gfx1201 (RDNA4) with clang-19: the OpenCL corpus in wave32 and
# wave64, exactly.
# HSA_TEST_LIGHT=1 (the sanitizer and clang configurations): clang-15 only, and gfx942 at
# -O2 only; the first configuration compares everything.
# Speed (isa_objdump_run.py): the corpus objects are built and decoded as many at once as
# there are CPUs (HSA_TEST_JOBS), one llvm-objdump a chip disassembles them all, and the
# objects and listings come from a cache (HSA_TEST_CACHE, default build-cache/ in the source
# tree; "off": none) when an earlier configuration or run made them from the same inputs with
# the same tools: only the decoder depends on the build under test.
# timeout: 600
set -u
: "${BUILD:?}" "${SRCDIR:?}"
T=$SRCDIR/tests/integration
lite=0
if [ "${HSA_TEST_LIGHT:-0}" = 1 ] || [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then lite=1; fi
# The build's own compiler and flags: a sanitizer build's archive needs its runtime.
mk() { sed -n "s/^$1 *:= *//p" "$BUILD/config.mk" | head -n 1; }
CC=$(mk CC); CC=${CC:-cc}
BCFLAGS=$(mk CFLAGS); BLDFLAGS=$(mk LDFLAGS)
AR=$BUILD/lib/libhsa-sim-internal.a
[ -f "$AR" ] || { echo "missing $AR"; exit 1; }
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# job NAME CPU OBJDUMP BUILD-COMMAND...: queue a corpus object (the command writes $W/NAME.o)
job() {
  for a in "$@"; do
    case $a in
      *\'*) printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")" ;;
      *) printf "'%s' " "$a" ;;   # (no process for the usual word)
    esac
  done >> "$W/jobs"
  echo >> "$W/jobs"
}
# the code bytes of an assembled trap handler as an object of their own (no labels for
# objdump to print), as the library embeds them: the body of a job's build command, given
# MC MCPU OBJCOPY OUT SOURCE [MC-ARGS...] (-I src/aql: the cache key hashes the directory)
trapobj='mc=$1 cpu=$2 oc=$3 out=$4 src=$5; shift 5; '\
'"$mc" -triple=amdgcn-amd-amdhsa -mcpu=$cpu "$@" -filetype=obj -o "$out.code.o" "$src" && '\
'"$oc" -O binary --only-section=.text "$out.code.o" "$out.bin" && '\
'printf ".text\n.incbin \"%s\"\n" "$out.bin" > "$out.s" && '\
'"$mc" -triple=amdgcn-amd-amdhsa -mcpu=$cpu -filetype=obj -o "$out" "$out.s"'
# ... and of a dumped handler (MC MCPU OUT BIN); both on one line (a job is a line)
binobj='printf ".text\n.incbin \"%s\"\n" "$4" > "$3.s" && '\
'"$1" -triple=amdgcn-amd-amdhsa -mcpu=$2 -filetype=obj -o "$3" "$3.s"'
mc19=$(command -v llvm-mc-19); oc19=$(command -v llvm-objcopy-19)
: > "$W/jobs"

# shellcheck disable=SC2086
$CC -std=gnu11 -O1 $BCFLAGS -I"$SRCDIR/sim" -o "$W/decode" "$T/isa_decode_elf.c" "$AR" \
    $BLDFLAGS -lpthread -ldl -lrt -lm || { echo "cannot build the decoder tool"; exit 1; }

fail=0 ran=0 images="" dumped=""
devlibs=""
for d in /usr/lib/*/amdgcn/bitcode; do [ -f "$d/ockl.bc" ] && devlibs=$d; done
vers="15 14"; [ $lite = 1 ] && vers=15
for ver in $vers; do
  clang=clang-$ver
  objdump=/usr/lib/llvm-$ver/bin/llvm-objdump
  if ! command -v "$clang" >/dev/null || [ ! -x "$objdump" ]; then
    echo "$clang missing"; continue
  fi
  cpus="gfx900 gfx906"
  [ "$ver" = 15 ] && cpus="$cpus gfx90a"
  for cpu in $cpus; do
    for src in "$T"/isa_corpus/*.cl "$T"/isa_corpus/*.s; do
      libs=-nogpulib
      case $src in
        *_gfx12.s) continue ;;   # gfx12 words (below)
        *.s) opts=asm; [ "$cpu" = gfx90a ] && continue ;;   # gfx90a wants aligned tuples
        */image.cl)
          # the image builtins live in the device libraries, which only clang-15 reads;
          # -O0 (the plain image_sample) on gfx900 only, to keep the time down; gfx90a at -O2
          # (LLVM 15 cannot select some -O0 image forms there)
          if [ "$ver" != 15 ] || [ -z "$devlibs" ]; then continue; fi
          libs="--rocm-device-lib-path=$devlibs"
          opts=-O2; [ "$cpu" = gfx900 ] && [ $lite = 0 ] && opts="-O0 -O2" ;;
        *) opts="-O0 -O2" ;;
      esac
      for opt in $opts; do
        b=${src##*/}; name=${b%.*}-$cpu-$ver$opt
        o=$W/$name.o
        if [ "$opt" = asm ]; then
          job "$name" "$cpu" "$objdump" /usr/lib/llvm-$ver/bin/llvm-mc -arch=amdgcn -mcpu="$cpu" \
            -filetype=obj -o "$o" "$src"
        else
          # shellcheck disable=SC2086 # $libs is one word, or none
          job "$name" "$cpu" "$objdump" $clang -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa \
            -mcpu="$cpu" $libs "$opt" -c -o "$o" "$src"
        fi
      done
    done
  done
done

# The trap handlers, decoded exactly on every chip (gfx90a too: they use no AGPR): ours
# (src/aql/trap_gfx9.s) and ROCR 5.2.3's as hsa-sim receives it (the code at the TBA given to
# SET_TRAP_HANDLER, dumped by trap_dump.c from the running process), wrapped into an object
# with .incbin.
mc=/usr/lib/llvm-15/bin/llvm-mc
od=/usr/lib/llvm-15/bin/llvm-objdump
rocr=$(ls /usr/lib/*/libhsa-runtime64.so.1 2>/dev/null | head -n 1)
dump=""
if [ -n "$rocr" ] && [ "${HSA_TEST_SANITIZED:-0}" != 1 ] && [ -x "$BUILD/bin/hsa-sim" ] &&
   cc -std=gnu11 -I"$SRCDIR/include" -o "$W/trap_dump" "$T/trap_dump.c" "$rocr" \
     -Wl,-rpath,"$(dirname "$rocr")"; then
  dump=$W/trap_dump
else
  echo "ROCR's trap handler: not checked (no ROCR, no hsa-sim, or a sanitizer build)"
fi
if [ -x "$mc" ] && [ -x "$od" ]; then
  for cpu in gfx900 gfx906 gfx90a; do
    job trap-ours-$cpu $cpu "$od" sh -c "$trapobj" sh "$mc" $cpu /usr/lib/llvm-15/bin/llvm-objcopy \
      "$W/trap-ours-$cpu.o" "$SRCDIR/src/aql/trap_gfx9.s" -I "$SRCDIR/src/aql"
    # ROCR's, dumped in the background while the rest is queued (joined before the jobs run)
    if [ -n "$dump" ]; then
      ( rm -f "$W/trace-$cpu"
        "$BUILD/bin/hsa-sim" --gpu $cpu --trace="$W/trace-$cpu" -- \
          "$dump" "$W/trace-$cpu" "$W/rocr-$cpu.bin" > "$W/dump-$cpu.log" 2>&1 ||
          rm -f "$W/rocr-$cpu.bin" ) &
      dumped="$dumped $cpu"
    fi
  done
fi
# gfx942: clang-19 (LLVM 15 knows only gfx940's encodings), the corpus at -O0 and -O2.
if command -v clang-19 >/dev/null && command -v llvm-objdump-19 >/dev/null; then
  cpu=gfx942
  opts942="-O0 -O2"; [ $lite = 1 ] && opts942=-O2
  for src in "$T"/isa_corpus/*.cl; do
    case $src in */image.cl) continue ;; esac   # gfx942 has no image instructions
    for opt in $opts942; do
      b=${src##*/}; name=${b%.cl}-$cpu-19$opt
      o=$W/$name.o
      job "$name" $cpu llvm-objdump-19 clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa \
        -mcpu=$cpu -nogpulib "$opt" -c -o "$o" "$src"
    done
  done
  # our gfx942 trap handler (IB_STS from ttmp13), as the library embeds it, exactly
  if [ -x /usr/bin/llvm-mc-19 ]; then
    job trap-ours-$cpu $cpu llvm-objdump-19 sh -c "$trapobj" sh "$mc19" $cpu "$oc19" \
      "$W/trap-ours-$cpu.o" "$SRCDIR/src/aql/trap_gfx9.s" -I "$SRCDIR/src/aql" \
      --defsym=IB_STS_IN_TTMP13=1
  else
    echo "trap-ours-$cpu: no llvm-mc-19"; fail=1
  fi
else
  echo "clang-19 or llvm-objdump-19 missing: gfx942 not checked"
fi
# gfx1100 (RDNA3) and gfx1201 (RDNA4) with clang-19: the OpenCL corpus in wave32 (the default) and wave64
# (-mwavefrontsize64), isa_corpus at -O0 and -O2, tests/kernels and the integration kernels
# at -O2 (gfx1100 only, to keep the time down), every instruction exactly; llvm-objdump spells the lane masks of both as wave32
# does. HSA_TEST_LIGHT / HSA_TEST_SANITIZED: isa_corpus at -O2 only. gfx1100's image forms
# (image_kernels.cl with the device libraries). Then our gfx11/gfx12
# trap handler (src/aql/trap_gfx11.s), exactly.
if command -v clang-19 >/dev/null && command -v llvm-objdump-19 >/dev/null; then
  light=0
  if [ "${HSA_TEST_LIGHT:-0}" = 1 ] || [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then light=1; fi
  for cpu in gfx1100 gfx1201; do
    for src in "$T"/isa_corpus/*.cl "$SRCDIR"/tests/kernels/*.cl "$T"/*.cl; do
      case $src in
        */image.cl|*/image_kernels.cl) continue ;;   # gfx9 image forms only (need the device libraries)
        */isa_corpus/*) opts="-O0 -O2"; [ $light = 1 ] && opts=-O2 ;;
        */wmma_rdna.cl) opts=-O2 ;;   # the WMMA/SWMMAC forms: both chips, each its own
        *) opts=-O2   # the kernels the runtime tests dispatch: gfx1100 (gfx1201 shares the VALU)
           { [ $light = 1 ] || [ $cpu = gfx1201 ]; } && continue ;;
      esac
      for wave in w32 w64; do
        for opt in $opts; do
          b=${src##*/}; name=${b%.cl}-$cpu-$wave$opt
          o=$W/$name.o
          wf=""; [ $wave = w64 ] && wf=-mwavefrontsize64
          # shellcheck disable=SC2086
          job "$name" $cpu llvm-objdump-19 clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa \
            -mcpu=$cpu $wf -nogpulib "$opt" -c -o "$o" "$src"
        done
      done
    done
  done
  # gfx1100's MIMG and gfx1201's VIMAGE/VSAMPLE: the image_kernels.cl the runtime tests
  # dispatch (-O2, gfx1201's not when light; gfx1100 -O0 too unless light), with the device libraries devlibs19.sh
  # completes for clang-19 (isa_corpus/image.cl uses depth images clang-19's OpenCL headers do
  # not declare); then isa_corpus/image_gfx12.s (every gfx12 image form the tests run)
  if [ -n "$devlibs" ] && command -v llvm-as-19 > /dev/null; then
    . "$SRCDIR/tests/integration/lib/devlibs19.sh"
    devlibs19_make "$W/devlibs19" "$devlibs" gfx1100 gfx1201
    for cpu in gfx1100 gfx1201; do
      [ $light = 1 ] && [ $cpu = gfx1201 ] && continue
      opts=-O2; [ $light = 0 ] && [ $cpu = gfx1100 ] && opts="-O0 -O2"
      for opt in $opts; do
        src=$T/image_kernels.cl
        b=${src##*/}; name=${b%.cl}-$cpu$opt
        job "$name" $cpu llvm-objdump-19 clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa \
          -mcpu=$cpu "$opt" --rocm-device-lib-path="$W/devlibs19" -Wno-linker-warnings \
          -c -o "$W/$name.o" "$src"
        images="$images $name"
      done
    done
  fi
  if command -v llvm-mc-19 > /dev/null; then
    job image_gfx12-gfx1201 gfx1201 llvm-objdump-19 llvm-mc-19 -triple=amdgcn-amd-amdhsa \
      -mcpu=gfx1201 -filetype=obj -o "$W/image_gfx12-gfx1201.o" "$T/isa_corpus/image_gfx12.s"
  fi
  # our gfx11/gfx12 trap handler (src/aql/trap_gfx11.s) as the library embeds it: the code
  # bytes of each build, decoded exactly
  if command -v llvm-mc-19 > /dev/null; then
    for cpu in gfx1100 gfx1201; do
      ds=""; [ $cpu = gfx1201 ] && ds=--defsym=GFX12=1
      # shellcheck disable=SC2086
      job trap-ours-$cpu $cpu llvm-objdump-19 sh -c "$trapobj" sh "$mc19" $cpu \
        /usr/lib/llvm-15/bin/llvm-objcopy "$W/trap-ours-$cpu.o" "$SRCDIR/src/aql/trap_gfx11.s" \
        -I "$SRCDIR/src/aql" $ds
    done
  fi
else
  echo "clang-19 or llvm-objdump-19 missing: gfx1100/gfx1201 not checked"
fi
# the corpus jobs (isa_objdump_run.py), as many at once as there are CPUs
n=${HSA_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
cache=${HSA_TEST_CACHE:-$SRCDIR/build-cache}; [ "$cache" = off ] || cache=$cache/isa_objdump
wait   # ROCR's handlers
for cpu in $dumped; do
  if [ -s "$W/rocr-$cpu.bin" ]; then
    job trap-rocr-$cpu $cpu "$od" sh -c "$binobj" sh "$mc" $cpu "$W/trap-rocr-$cpu.o" "$W/rocr-$cpu.bin"
  else
    echo "trap-rocr-$cpu: no handler dumped: $(tail -n 2 "$W/dump-$cpu.log")"; fail=1
  fi
done
if [ -s "$W/jobs" ]; then
  python3 "$T/isa_objdump_run.py" "$W/jobs" "$W" "$W/decode" "$n" "$cache" || fail=1
  ran=$((ran + $(grep -c . "$W/jobs")))
fi
if [ -f "$W/trap-ours-gfx942.ref" ]; then
  grep -q 'ttmp13' "$W/trap-ours-gfx942.ref" || { echo "trap-ours-gfx942: IB_STS is not restored from ttmp13"; fail=1; }
fi
for name in $images; do
  grep -q 'image_' "$W/$name.ref" 2>/dev/null || { echo "$name: no image instructions"; fail=1; }
done
[ $ran -gt 0 ] || { echo "no compiler: skipped"; exit 77; }
exit $fail
