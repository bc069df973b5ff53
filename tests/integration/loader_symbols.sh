#!/bin/sh
# SPDX-License-Identifier: MIT
# loader_symbols.sh — code objects compiled now by clang-14 and clang-15 (v2..v5, gfx900,
# gfx906, gfx90a, gfx1030) are loaded by our runtime under hsa-sim. Checked against others:
#  - every kernel/variable symbol, its address and size, as llvm-readelf --symbols says;
#  - kernarg/group/private sizes as the compiler's metadata says (llvm-readelf --notes);
#  - relocated pointers hold the addresses of their targets (incl. a defined external);
#  - the same answers as Debian's ROCR 5.2.3 on the same simulated GPU (known differences
#    listed below);
#  - code for another target is refused (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
#  - _amdgpu_r_debug lists every frozen code object and each URI names exactly its bytes,
#    for file and memory readers.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
SIM="$BUILD/bin/hsa-sim"
ROCR=/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1
READELF=/usr/lib/llvm-15/bin/llvm-readelf

if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: preloads libhsa-sim.so into programs not built with sanitizers"; exit 77
fi
for t in clang-14 clang-15 ld.lld-15 "$READELF"; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t is not installed"; exit 1; }
done
[ -x "$SIM" ] || { echo "$SIM is not built"; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -o "$tmp/dump" \
  "$SRCDIR/tests/integration/loader_dump.c" -L"$BUILD/lib" -lhsa-runtime64 || exit 1

cp "$SRCDIR/tests/integration/loader_kernels.cl" "$tmp/k.cl"

# the objects and code objects from lib/kcache.sh's cache when another configuration or run
# built them from the same source with the same tools
. "$SRCDIR/tests/integration/lib/kcache.sh"
KCACHE_TMP=$tmp
# cc version target-for-the-name target-for-clang
compile() {
  out="$tmp/$1-v$2-$3.co"
  # Linked by lld 15 (lld 14, Debian's default ld.lld, does not know code object v5).
  { kcache "$out.o" "$1" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$4" -nogpulib \
      -O2 -mcode-object-version="$2" -c -o "$out.o" "$tmp/k.cl" &&
    kcache "$out" ld.lld-15 -shared -o "$out" "$out.o"; } 2>"$tmp/cc.err" ||
    { echo "FAIL: compile $1 v$2 $4:" >&2; cat "$tmp/cc.err" >&2; exit 1; }
  echo "$out"
}

# What llvm-readelf says: "kernel NAME base+0xADDR" / "variable NAME base+0xADDR size=N" and
# "sizes NAME kernarg=N group=N private=N" (the code objects load at vaddr 0: base = delta).
expected() { # file version
  "$READELF" --wide --symbols "$1" | awk -v v="$2" '
    /^Symbol table/ { in_symtab = ($0 ~ /.symtab/) ; next }
    in_symtab && NF >= 8 && $5 == "GLOBAL" && $7 != "UND" {
      addr = $2; sub(/^0+/, "", addr); if (addr == "") addr = "0"
      if ((v >= 3 && $4 == "OBJECT" && $8 ~ /\.kd$/) || (v == 2 && $4 == "AMDGPU_HSA_KERNEL"))
        print "kernel " $8 " base+0x" addr
      else if ($4 == "OBJECT")
        print "variable " $8 " base+0x" addr " size=" $3
    }'
  "$READELF" --notes "$1" | awk -v v="$2" '
    v >= 3 && /^ *\.group_segment_fixed_size:/ { g = $2 }
    v >= 3 && /^ *\.kernarg_segment_size:/ { k = $2 }
    v >= 3 && /^ *\.private_segment_fixed_size:/ { p = $2 }
    v >= 3 && /^ *\.symbol:/ { print "sizes " $2 " kernarg=" k " group=" g " private=" p }
    v == 2 && /^  - Name:/ { name = $3 }
    v == 2 && /KernargSegmentSize:/ { k = $2 }
    v == 2 && /GroupSegmentFixedSize:/ { g = $2 }
    v == 2 && /PrivateSegmentFixedSize:/ { p = $2; print "sizes " name " kernarg=" k " group=" g " private=" p }'
}

# The same facts from loader_dump's output.
observed() {
  awk '
    /^symbol / {
      kind = ""; for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      if (f["kind"] == 1) {
        print "kernel " $2 " " f["object"]
        print "sizes " $2 " kernarg=" f["kernarg_size"] " group=" f["group"] " private=" f["private"]
      } else if (f["address"] != "external") {
        print "variable " $2 " " f["address"] " size=" f["size"]
      }
    }' "$1"
}

status=0
fail() { echo "FAIL: $*"; status=1; }

# gpu  compiler  version  -mcpu
cases="gfx900 clang-14 2 gfx900:xnack-
gfx900 clang-14 3 gfx900:xnack-
gfx900 clang-14 4 gfx900
gfx900 clang-15 2 gfx900:xnack-
gfx900 clang-15 3 gfx900:xnack-
gfx900 clang-15 4 gfx900:xnack-
gfx900 clang-15 5 gfx900
gfx906 clang-15 3 gfx906:sramecc+:xnack-
gfx906 clang-15 4 gfx906
gfx906 clang-15 5 gfx906:sramecc+
gfx90a clang-14 4 gfx90a
gfx90a clang-15 3 gfx90a:sramecc+:xnack-
gfx90a clang-15 5 gfx90a:xnack-"

echo "$cases" | while read -r gpu cc ver mcpu; do
  co=$(compile "$cc" "$ver" "$gpu" "$mcpu") || exit 1
  name=$(basename "$co")
  LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 "$SIM" --gpu "$gpu" -- "$tmp/dump" --rdebug \
    --define ext_var "$co" >"$tmp/ours.txt" 2>"$tmp/ours.err" ||
    { fail "$name: loader_dump (ours) failed"; cat "$tmp/ours.txt" "$tmp/ours.err"; continue; }
  grep -q "load status=0x0$" "$tmp/ours.txt" || { fail "$name not loaded"; cat "$tmp/ours.txt"; continue; }
  expected "$co" "$ver" | sort >"$tmp/want.txt"
  observed "$tmp/ours.txt" | sort >"$tmp/got.txt"
  if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
    fail "$name: symbols differ from llvm-readelf"; diff "$tmp/want.txt" "$tmp/got.txt"
  fi
  for p in ptr_to_counter ptr_to_ext_var; do
    grep -q "^reloc $p ok" "$tmp/ours.txt" || fail "$name: $p not relocated to its target"
  done
  grep -q "^code bytes=match" "$tmp/ours.txt" || fail "$name: loaded code differs from the file"
  grep -q "^rdebug uri file bytes=match" "$tmp/ours.txt" || fail "$name: r_debug URI"
  grep -q "^rdebug entries=1 state=0 brk_set=1" "$tmp/ours.txt" || fail "$name: r_debug list"
  grep -q "^rdebug after destroy entries=0" "$tmp/ours.txt" || fail "$name: r_debug after destroy"
  grep -q "^lco same_handle=1 kind=2 .* delta_is_base=1 storage_size_ok=1" "$tmp/ours.txt" ||
    fail "$name: loaded code object info"
  # A memory reader: the URI is memory://, read back through /proc/PID/mem.
  LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 "$SIM" --gpu "$gpu" -- "$tmp/dump" --rdebug \
    --memory --define ext_var "$co" >"$tmp/mem.txt" 2>&1 || fail "$name: memory reader"
  grep -q "^rdebug uri memory bytes=match fragment" "$tmp/mem.txt" || fail "$name: memory URI"

  # Debian's ROCR 5.2.3 on the same GPU (not frozen: ROCR copies code to VRAM with a DMA at
  # freeze). Known differences: ROCR 5.2.3 does not answer the wavefront size (newer ROCR
  # does); it reports variables of agent code objects as program allocation and calls
  # writable variables const (a bug); we say agent allocation and const = read-only section.
  if [ -e "$ROCR" ]; then
    env -u LD_LIBRARY_PATH "$SIM" --gpu "$gpu" -- "$tmp/dump" --no-freeze --define ext_var "$co" \
      >"$tmp/rocr.txt" 2>"$tmp/rocr.err" || { fail "$name: loader_dump (ROCR) failed"; continue; }
    norm() { grep -v -e '^freeze' -e '^rdebug' "$1" | sed -e 's/ wavefront=[0-9]*//' \
      -e 's/ allocation=[0-9]* is_const=[0-9]*//'; }
    norm "$tmp/ours.txt" >"$tmp/o"; norm "$tmp/rocr.txt" >"$tmp/r"
    cmp -s "$tmp/o" "$tmp/r" || { fail "$name: ours and ROCR differ"; diff "$tmp/r" "$tmp/o"; }
  fi
  echo "ok $name on $gpu"
done >"$tmp/log" 2>&1 || status=1
cat "$tmp/log"
grep -q "^FAIL" "$tmp/log" && status=1

# A code object embedded in the program (as HIP does) and loaded from memory: its URI names
# the program file and the offset of those bytes in it.
co=$(compile clang-15 4 embed gfx900:xnack-) || exit 1
${CC:-cc} -std=gnu11 -I"$SRCDIR/include" -DEMBED_CO="\"$co\"" -o "$tmp/dump-embed" \
  "$SRCDIR/tests/integration/loader_dump.c" -L"$BUILD/lib" -lhsa-runtime64 || exit 1
LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 "$SIM" -- "$tmp/dump-embed" --embedded --rdebug \
  --define ext_var "$co" >"$tmp/embed.txt" 2>&1
if grep -q "^rdebug uri file bytes=match fragment" "$tmp/embed.txt"; then
  echo "ok embedded code object: file URI into the program"
else
  echo "FAIL: embedded code object URI"; cat "$tmp/embed.txt"; status=1
fi

# Another target is refused, with ROCR's status, by both runtimes. (v2 has no sramecc
# setting and means sramecc-: the simulated gfx906 has SRAM ECC on.)
for spec in "gfx900 clang-15 4 gfx906" "gfx906 clang-15 4 gfx90a" "gfx90a clang-15 5 gfx1030" \
            "gfx900 clang-15 3 gfx900:xnack+" "gfx906 clang-15 3 gfx906:sramecc-:xnack-" \
            "gfx906 clang-14 2 gfx906:xnack-"; do
  set -- $spec
  before=$status
  co=$(compile "$2" "$3" "x$1" "$4") || exit 1
  LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 "$SIM" --gpu "$1" -- "$tmp/dump" "$co" \
    >"$tmp/mis.txt" 2>&1
  grep -q "load status=0x100d$" "$tmp/mis.txt" ||
    { echo "FAIL: $4 code on $1 not refused with INCOMPATIBLE_ARGUMENTS"; cat "$tmp/mis.txt"; status=1; }
  if [ -e "$ROCR" ]; then
    env -u LD_LIBRARY_PATH "$SIM" --gpu "$1" -- "$tmp/dump" --no-freeze "$co" >"$tmp/mis.r" 2>&1
    grep -q "load status=0x100d$" "$tmp/mis.r" ||
      { echo "FAIL: ROCR does not refuse $4 on $1 the same way"; cat "$tmp/mis.r"; status=1; }
  fi
  [ $status = "$before" ] && echo "ok $4 refused on $1"
done
exit $status
