#!/bin/sh
# demo.sh — the main job of the README: set up, build, and run the sample dispatch.
# On a real AMD GPU when /dev/kfd is usable; otherwise under the hsa-sim software GPU.
set -eu
cd "$(dirname "$0")/.."
sh scripts/bootstrap.sh >&2
sample=build/bin/sample_dispatch
if [ -r /dev/kfd ] && [ -w /dev/kfd ]; then
  echo "demo: /dev/kfd is usable: running on the real GPU" >&2
  exec "$sample" "$@"
elif [ -x build/bin/hsa-sim ]; then
  echo "demo: no usable /dev/kfd: running under the hsa-sim software GPU" >&2
  exec build/bin/hsa-sim -- "$sample" "$@"
else
  echo "demo: no usable /dev/kfd, and the hsa-sim simulator is not built yet in this" >&2
  echo "demo: version; running the sample without a GPU, it will say what it could do." >&2
  exec "$sample" "$@"
fi
