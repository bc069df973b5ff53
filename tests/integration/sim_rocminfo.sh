#!/bin/sh
# SPDX-License-Identifier: MIT
# Debian's rocminfo on Debian's ROCR 5.2.3 (libhsa-runtime64-1, libhsakmt1) under hsa-sim:
# hsa_init succeeds, rocminfo exits 0 and prints the simulated agents with the properties
# the simulated topology (made from the board catalogue) gives; one and two GPUs, three
# boards; afterwards no process of the run and no file is left.
set -eu
if [ "${HSA_TEST_SANITIZED:-0}" = 1 ]; then
  echo "preloads libhsa-sim.so into Debian's rocminfo, which is not built with sanitizers"; exit 77
fi
[ -x /usr/bin/rocminfo ] || { echo "Debian's rocminfo is not installed (apt install rocminfo)"; exit 1; }
ls /usr/lib/*/libhsa-runtime64.so.1 > /dev/null 2>&1 ||
  { echo "Debian's ROCR is not installed (apt install libhsa-runtime64-1)"; exit 1; }
unset LD_LIBRARY_PATH HSA_OVERRIDE_GFX_VERSION ROCR_VISIBLE_DEVICES  # Debian's ROCR, as installed
sim=$BUILD/bin/hsa-sim
work=$BUILD/tests/sim_rocminfo
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR=$work/tmp; export TMPDIR
fail() { echo "FAIL: $*"; exit 1; }
shm_before=$(ls /dev/shm)

# The value of "key value" in a simulated topology file.
prop() { # file key
  awk -v k="$2" '$1 == k { print $2 }' "$1"
}
# Lines "  Key:   value" of rocminfo's GPU agents, value trimmed.
field() { # output key
  sed -n "s/^ *$2: *\(.*[^ ]\) *$/\1/p" "$1"
}

check_board() { # gpu-model gpus
  out=$work/rocminfo.$1.$2
  st=0
  timeout 120 "$sim" --gpu "$1" --gpus "$2" -- rocminfo > "$out" 2>&1 || st=$?
  [ "$st" -eq 0 ] || { cat "$out"; fail "rocminfo on $2 x $1: exit $st"; }
  grep -q "ROCk module is loaded" "$out" || fail "$1: rocminfo did not find amdgpu loaded"
  grep -q '^\*\*\* Done \*\*\*' "$out" || fail "$1: rocminfo did not finish"
  topo=$work/topo.$1.$2
  "$sim" --gpu "$1" --gpus "$2" -- sh -c 'cat /sys/class/kfd/kfd/topology/nodes/1/properties \
    /sys/class/kfd/kfd/topology/nodes/1/mem_banks/0/properties' > "$topo"

  n=$(grep -c 'Device Type: *GPU' "$out")
  [ "$n" -eq "$2" ] || fail "$1: $n GPU agents, not $2"
  [ "$(grep -c 'Device Type: *CPU' "$out")" -eq 1 ] || fail "$1: not one CPU agent"
  # Every GPU agent says the same; compare the first one's lines with the topology.
  gpu=$work/gpu.$1.$2
  awk '/^Agent /{a++} a >= 2' "$out" > "$gpu"   # from the second agent (the first GPU) on
  want() { # key expected
    got=$(field "$gpu" "$1" | head -n 1)
    [ "$got" = "$2" ] || { cat "$out"; fail "$1 on $2 x $1: '$got', expected '$2'"; }
  }
  simd=$(prop "$topo" simd_count); per=$(prop "$topo" simd_per_cu)
  dev=$(prop "$topo" device_id); vram=$(prop "$topo" size_in_bytes)
  want "Name" "$1"
  want "Compute Unit" "$((simd / per))"
  want "SIMDs per CU" "$per"
  want "Chip ID" "$dev($(printf '0x%x' "$dev"))"
  want "Max Clock Freq. (MHz)" "$(prop "$topo" max_engine_clk_fcompute)"
  want "BDFID" "$(prop "$topo" location_id)"
  want "Shader Engines" "$(prop "$topo" array_count)"
  want "Wavefront Size" "$(prop "$topo" wave_front_size)($(printf '0x%x' "$(prop "$topo" wave_front_size)"))"
  want "Vendor Name" "AMD"
  want "Device Type" "GPU"
  kb=$((vram / 1024))
  grep -q "Size: *$kb($(printf '0x%x' "$kb")) KB" "$gpu" || { cat "$gpu"; fail "$1: no VRAM pool of $kb KB"; }
  grep -q "Segment: *GROUP" "$gpu" || fail "$1: no group segment pool"
  grep -q "Name: *amdgcn-amd-amdhsa--$1" "$gpu" || fail "$1: no ISA amdgcn-amd-amdhsa--$1"
  # And the marketing name the board's PCI id has in libdrm's table.
  name=$("$sim" --list-gpus | awk -v g="$1" '$1 == g { $1 = ""; print }' | sed 's/^ *//; s/ *[0-9a-f]\{4\}:[0-9a-f]\{4\}.*//')
  want "Marketing Name" "$name"
}

check_board gfx900 1
check_board gfx900 2
check_board gfx906 1
check_board gfx90a 1

# Nothing left behind: the run's directory, processes of the run, shared memory.
[ -z "$(ls -A "$TMPDIR")" ] || fail "left behind in TMPDIR: $(ls -A "$TMPDIR")"
for e in /proc/[0-9]*/environ; do
  if grep -qs "root=$TMPDIR" "$e"; then fail "a process of the run is still alive: $e"; fi
done
[ "$(ls /dev/shm)" = "$shm_before" ] || fail "/dev/shm changed: $(ls /dev/shm)"
echo "ok"
