#!/bin/bash
# Twentieth session, issue 24: what does drawing a million points cost on the GPU, and why (8.4 ms of GL a frame on
# GPU 0 in the split viewer at N = 1M)? An experiment build (.gpu/probe20, branch s20-probe) reads KS_X_POINT_SIZE
# (overrides the point size) and KS_X_SKIP_DRAW (draws no particles). One device, N-body viewer headless, external path:
#   kernelscope --headless --platform nvidia --n N --size WxH --record 4 --warmup 2 [--preset P]
# The frame breakdown's "on the GPU: ... render X" is GL's timer over the whole render stage.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
K=.gpu/probe20/kernelscope
run() {  # label, env..., -- args
  local label=$1; shift
  local d; d=$(mktemp -d)
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 120 $K --headless --platform nvidia --kernels-dir kernels --config-dir "$d" --record 4 --warmup 2 "$@" > /tmp/run.txt 2>&1
  echo "== $label rc=$? : $(grep -oE 'on the GPU: .*' /tmp/run.txt | tail -1)  | $(grep -oE 'frame breakdown[^:]*: frame [0-9.]+' /tmp/run.txt | tail -1)"
  grep -E "kernelscope: (error|warning)" /tmp/run.txt | head -3
}
for n in 65536 262144 1048576; do run "n=$n 1280x800" X=1 -- --n $n; done
for s in 640x400 2560x1600; do run "n=1048576 $s" X=1 -- --n 1048576 --size $s; done
for p in 1 2 6; do run "n=1048576 point size $p" KS_X_POINT_SIZE=$p -- --n 1048576; done
run "n=1048576 no particles drawn" KS_X_SKIP_DRAW=1 -- --n 1048576
for pr in shell disk; do run "n=1048576 preset $pr" X=1 -- --n 1048576 --preset $pr; done
run "n=1048576 host path" X=1 -- --n 1048576 --interop host
