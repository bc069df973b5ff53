#!/bin/sh
# SPDX-License-Identifier: MIT
# hsa-sim's OS boundary, without the driver model: the launcher's options and errors, the
# simulated sysfs/procfs as ordinary programs read it (cat, lsmod, ls), device nodes as
# libc and libdrm see them (sim_probe.c), exit statuses, and that nothing is left behind.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into system programs that are not built with sanitizers"; exit 77
fi
sim=$BUILD/bin/hsa-sim
work=$BUILD/tests/sim_os
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR   # the runs' private directories must all go away again
fail() { echo "FAIL: $*"; exit 1; }
clean() { [ -z "$(ls -A "$TMPDIR")" ] || fail "left behind in TMPDIR: $(ls -A "$TMPDIR")"; }
expect() { # file pattern what
  grep -q -- "$2" "$1" || { cat "$1"; fail "$3: no '$2'"; }
}

# --- options and their errors ---
"$sim" --help > "$work/help" || fail "--help"
expect "$work/help" "--gpus N" "--help"
"$sim" --list-gpus > "$work/list" || fail "--list-gpus"
for g in gfx900 gfx906 gfx90a; do expect "$work/list" "^$g " "--list-gpus"; done
bad() { # expected-message args...
  msg=$1; shift
  st=0; "$sim" "$@" > "$work/out" 2>&1 || st=$?
  [ "$st" -eq 2 ] || { cat "$work/out"; fail "hsa-sim $*: exit $st, not 2"; }
  expect "$work/out" "$msg" "hsa-sim $*"
}
bad "unknown GPU 'gfx1234'" --gpu gfx1234 -- true
bad "--gpus '0'" --gpus 0 -- true
bad "--gpus '99'" --gpus 99 -- true
bad "--vram '4Q'" --vram 4Q -- true
bad "unknown KFD ioctl 'NOT_AN_IOCTL'" --fail NOT_AN_IOCTL:1:ENOMEM -- true
bad "unknown errno 'EWHATEVER'" --fail ALLOC_MEMORY_OF_GPU:1:EWHATEVER -- true
bad "not KIND:N:ERRNO" --fail ALLOC_MEMORY_OF_GPU -- true
bad "unknown option '--frobnicate'" --frobnicate -- true
bad "no program to run"
bad "needs a value" --gpu
clean

# --- exit statuses are the program's ---
st=0; "$sim" -- sh -c 'exit 7' || st=$?
[ "$st" -eq 7 ] || fail "exit status $st, not 7"
st=0; "$sim" -- /nonexistent/program 2> "$work/err" || st=$?
[ "$st" -eq 127 ] || fail "missing program: exit $st, not 127"
expect "$work/err" "cannot run /nonexistent/program" "missing program"
clean

# --- the KFD topology as files ---
"$sim" -- cat /sys/class/kfd/kfd/topology/nodes/1/properties > "$work/props" || fail "cat properties"
for kv in "simd_count 256" "gfx_target_version 90000" "device_id 26751" "vendor_id 4098" \
          "drm_render_minor 128" "max_engine_clk_fcompute 1630" "cpu_cores_count 0"; do
  expect "$work/props" "^$kv\$" "gfx900 node properties"
done
"$sim" -- cat /sys/devices/virtual/kfd/kfd/topology/nodes/0/properties > "$work/cpu" || fail "cat cpu"
cores=$(getconf _NPROCESSORS_ONLN)
expect "$work/cpu" "^cpu_cores_count $cores\$" "CPU node"
"$sim" --gpu gfx906 --gpus 2 --vram 4G -- sh -c '
  ls /sys/class/kfd/kfd/topology/nodes
  cat /sys/class/kfd/kfd/topology/nodes/2/properties /sys/class/kfd/kfd/topology/nodes/2/mem_banks/0/properties
  cat /sys/class/kfd/kfd/topology/nodes/2/name' > "$work/two" || fail "gfx906 x2"
[ "$(head -n 3 "$work/two" | tr '\n' ' ')" = "0 1 2 " ] || { cat "$work/two"; fail "nodes of 2 GPUs"; }
for kv in "gfx_target_version 90006" "simd_count 240" "drm_render_minor 129" \
          "size_in_bytes 4294967296" "p2p_links_count 1" "vega20"; do
  expect "$work/two" "^$kv\$" "second gfx906"
done
# Everything else is the host's.
"$sim" -- cat /proc/cpuinfo > "$work/cpuinfo" || fail "cpuinfo"
# (clock lines vary from read to read; the rest must be the host's)
grep -v MHz "$work/cpuinfo" > "$work/cpuinfo.a"; grep -v MHz /proc/cpuinfo > "$work/cpuinfo.b"
cmp -s "$work/cpuinfo.a" "$work/cpuinfo.b" || fail "/proc/cpuinfo changed under hsa-sim"
clean

# --- /proc/modules: rocminfo's `lsmod | grep amdgpu` ---
"$sim" -- cat /proc/modules > "$work/modules" || fail "cat /proc/modules"
expect "$work/modules" "^amdgpu [0-9]* [0-9]* - Live 0x" "/proc/modules"
if command -v lsmod > /dev/null; then
  "$sim" -- sh -c 'lsmod | grep amdgpu' > "$work/lsmod" 2>&1 || { cat "$work/lsmod"; fail "lsmod finds no amdgpu"; }
  expect "$work/lsmod" "^amdgpu " "lsmod"
fi
# --- the module's parameters, as a default amdgpu publishes them ---
"$sim" -- sh -c 'cd /sys/module/amdgpu/parameters && for p in cwsr_enable sched_policy hws_max_conc_proc noretry mes queue_preemption_timeout_ms ppfeaturemask; do echo "$p=$(cat $p)"; done; ls | wc -l' \
  > "$work/params" 2>&1 || { cat "$work/params"; fail "amdgpu parameters"; }
for l in cwsr_enable=1 sched_policy=0 hws_max_conc_proc=-1 noretry=-1 mes=0 \
         queue_preemption_timeout_ms=9000 ppfeaturemask=0xfff7bfff; do
  expect "$work/params" "^$l\$" "amdgpu parameters"
done
[ "$(tail -n 1 "$work/params")" -gt 70 ] || fail "amdgpu parameters: only $(tail -n 1 "$work/params")"
# --- RAS: on the ECC boards only (gfx906: SRAM ECC; gfx90a: memory and SRAM ECC) ---
"$sim" -- sh -c 'ls /sys/class/drm/card0/device/ras' > "$work/ras" 2>&1 && fail "gfx900 has a ras directory"
"$sim" --gpu gfx906 -- sh -c 'cat /sys/class/drm/card0/device/ras/features; ls /sys/class/drm/card0/device/ras' \
  > "$work/ras" 2>&1 || { cat "$work/ras"; fail "gfx906 ras"; }
expect "$work/ras" "^feature mask: 0xe\$" "gfx906 ras"
expect "$work/ras" "^gfx_err_count\$" "gfx906 ras"
grep -q umc_err_count "$work/ras" && fail "gfx906 (no memory ECC) has a UMC error count"
"$sim" --gpu gfx90a -- sh -c 'cat /sys/class/drm/card0/device/ras/features /sys/class/drm/card0/device/ras/umc_err_count' \
  > "$work/ras" 2>&1 || { cat "$work/ras"; fail "gfx90a ras"; }
expect "$work/ras" "^feature mask: 0xef\$" "gfx90a ras"
expect "$work/ras" "^ue: 0\$" "gfx90a ras"
clean

# --- device nodes through libc and libdrm ---
cc=${CC:-cc}
# shellcheck disable=SC2046
"$cc" -o "$work/sim_probe" "$SRCDIR/tests/integration/sim_probe.c" $(pkg-config --cflags --libs libdrm) ||
  fail "cannot build sim_probe"
if "$work/sim_probe" > /dev/null 2>&1; then fail "sim_probe found /dev/kfd without hsa-sim"; fi
"$sim" --gpus 2 -- "$work/sim_probe" > "$work/probe" || { cat "$work/probe"; fail "sim_probe"; }
for l in "stat_kfd chr 235:0" "fstat_kfd chr 235:0" "fstat_kfd_dup chr 235:0" "fd_link /dev/kfd" \
         "access_kfd 0" "fstat_render chr 226:128" "node_type 2" "bustype 0" \
         "pci 0000:63:00.0 1002:687f rev c1" "drm_node /dev/dri/renderD128" \
         "primary /dev/dri/card0" "devices 2" "gpu_id_nonzero 1"; do
  expect "$work/probe" "^$l\$" "sim_probe"
done
clean

# --- a trace file is created (and emptied) by the launcher ---
echo stale > "$work/trace.log"
"$sim" --trace="$work/trace.log" -- true || fail "--trace"
[ ! -s "$work/trace.log" ] || fail "trace file not emptied"
clean
echo "ok"
