#!/bin/sh
# SPDX-License-Identifier: MIT
# loader_rdebug_gdb.sh — a debugger's protocol with _amdgpu_r_debug, checked by gdb: it reads
# r_brk from the structure, breaks there, and at each stop sees r_state. Two code objects
# frozen then destroyed must stop 8 times: RT_ADD (1) then RT_CONSISTENT (0) around each
# addition, RT_DELETE (2) then RT_CONSISTENT around each removal, with the list non-empty
# from the first addition to the last removal.
# Env: BUILD (absolute build dir), SRCDIR. Exit 0 pass, 77 skip, else fail.
set -u
: "${BUILD:?}" "${SRCDIR:?}"
SIM="$BUILD/bin/hsa-sim"
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "skip: preloads libhsa-sim.so into programs not built with sanitizers"; exit 77
fi
command -v gdb >/dev/null || { echo "gdb is not installed"; exit 1; }
command -v clang-15 >/dev/null && command -v ld.lld-15 >/dev/null ||
  { echo "clang-15 / ld.lld-15 are not installed"; exit 1; }
[ -x "$SIM" ] || { echo "$SIM is not built"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-cc} -std=gnu11 -g -I"$SRCDIR/include" -o "$tmp/dump" \
  "$SRCDIR/tests/integration/loader_dump.c" -L"$BUILD/lib" -lhsa-runtime64 || exit 1
for v in 3 4; do
  clang-15 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900:xnack- -nogpulib -O2 \
    -mcode-object-version=$v -c -o "$tmp/k$v.o" "$SRCDIR/tests/integration/loader_kernels.cl" &&
    ld.lld-15 -shared -o "$tmp/k$v.co" "$tmp/k$v.o" || exit 1
done
# struct r_debug on x86-64: r_version at 0, r_map at 8, r_brk at 16, r_state at 24.
cat >"$tmp/cmds" <<'GDB'
set pagination off
set confirm off
break main
run
set $brk = *(long *)((char *)&_amdgpu_r_debug + 16)
break *$brk
commands
silent
printf "brk state=%d map=%d\n", *(int *)((char *)&_amdgpu_r_debug + 24), *(long *)((char *)&_amdgpu_r_debug + 8) != 0
continue
end
continue
GDB
LD_LIBRARY_PATH="$BUILD/lib" HSA_LOADER_QUIET=1 timeout 300 "$SIM" -- gdb -q -batch -x "$tmp/cmds" \
  --args "$tmp/dump" --rdebug --define ext_var "$tmp/k3.co" "$tmp/k4.co" >"$tmp/out" 2>&1
grep '^brk ' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'EOF2'
brk state=1 map=0
brk state=0 map=1
brk state=1 map=1
brk state=0 map=1
brk state=2 map=1
brk state=0 map=1
brk state=2 map=1
brk state=0 map=0
EOF2
if ! cmp -s "$tmp/want" "$tmp/got"; then
  echo "breakpoint stops differ (want, got):"; diff "$tmp/want" "$tmp/got"; cat "$tmp/out"; exit 1
fi
grep -q "^rdebug entries=2 state=0 brk_set=1" "$tmp/out" || { cat "$tmp/out"; exit 1; }
echo "8 stops at r_brk with the right r_state; the list held both code objects"
