#!/bin/bash
# GPU call 2: the sampler's gray fetch rate with the source in L2 (small images) and in DRAM,
# linear vs nearest filtering: is the ~0.09 ms at 8192^2 a texture-unit limit?
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
./scratch/cuda_anchors
R=./scratch/rotx
K="scratch/rotx.cl rot_lean"
export NOCHECK=1
for s in 2048 4096 8192 16384; do
  for d in 0 30; do
    $R $K "-DPX=2 -DPY=4" $s $s $d 32 8 2 4 100
    $R $K "-DPX=2 -DPY=4 -DFILTER_NEAREST" $s $s $d 32 8 2 4 100
  done
done
./scratch/cuda_anchors
