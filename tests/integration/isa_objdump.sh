#!/bin/sh
# SPDX-License-Identifier: MIT
# sim/isa's decoder against llvm-objdump: compile the OpenCL C corpus (isa_corpus/*.cl; and
# assemble isa_corpus/*.s, instructions compilers rarely emit) with
# clang-15 and clang-14 for gfx900, gfx906 (and gfx90a with clang-15) at -O0 and -O2,
# disassemble with the matching llvm-objdump, and require that sim/isa decodes every
# instruction at the same offset with the same size and mnemonic (and the same operands
# for the formats it spells like llvm-objdump). Unknown encodings fail. The decoder is told
# the chip (gfx9 chips disagree on a few VALU opcodes). gfx90a is reported only: its AGPR
# (accvgpr, MFMA) instructions are not modelled.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
# The build's own compiler and flags: a sanitizer build's archive needs its runtime.
mk() { sed -n "s/^$1 *:= *//p" "$BUILD/config.mk" | head -n 1; }
CC=$(mk CC); CC=${CC:-cc}
BCFLAGS=$(mk CFLAGS); BLDFLAGS=$(mk LDFLAGS)
T=$SRCDIR/tests/integration
AR=$BUILD/lib/libhsa-sim-internal.a
[ -f "$AR" ] || { echo "missing $AR"; exit 1; }
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# shellcheck disable=SC2086
$CC -std=gnu11 -O1 $BCFLAGS -I"$SRCDIR/sim" -o "$W/decode" "$T/isa_decode_elf.c" "$AR" \
    $BLDFLAGS -lpthread -ldl -lrt -lm || { echo "cannot build the decoder tool"; exit 1; }

fail=0 ran=0
for ver in 15 14; do
  clang=clang-$ver
  objdump=/usr/lib/llvm-$ver/bin/llvm-objdump
  if ! command -v "$clang" >/dev/null || [ ! -x "$objdump" ]; then
    echo "$clang missing"; continue
  fi
  cpus="gfx900 gfx906"
  [ "$ver" = 15 ] && cpus="$cpus gfx90a"
  for cpu in $cpus; do
    for src in "$T"/isa_corpus/*.cl "$T"/isa_corpus/*.s; do
      case $src in
        *.s) opts=asm; [ "$cpu" = gfx90a ] && continue ;;   # gfx90a wants aligned tuples
        *) opts="-O0 -O2" ;;
      esac
      for opt in $opts; do
        name=$(basename "$src" | sed 's/\.[a-z]*$//')-$cpu-$ver$opt
        o=$W/$name.o
        if [ "$opt" = asm ]; then
          /usr/lib/llvm-$ver/bin/llvm-mc -arch=amdgcn -mcpu="$cpu" -filetype=obj -o "$o" "$src" ||
            { echo "$name: assembly failed"; fail=1; continue; }
        else
          $clang -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$cpu" -nogpulib "$opt" \
                 -c -o "$o" "$src" || { echo "$name: compile failed"; fail=1; continue; }
        fi
        "$objdump" -d --mcpu="$cpu" "$o" > "$W/$name.ref" || { fail=1; continue; }
        "$W/decode" "$o" "$cpu" > "$W/$name.ours" || { echo "$name: decoder failed"; fail=1; continue; }
        if python3 "$T/isa_objdump_cmp.py" "$W/$name.ref" "$W/$name.ours" "$name"; then :
        elif [ "$cpu" = gfx90a ]; then echo "$name: (gfx90a: reported, not failed)"
        else fail=1; fi
        ran=$((ran + 1))
      done
    done
  done
done
[ $ran -gt 0 ] || { echo "no compiler: skipped"; exit 77; }
exit $fail
