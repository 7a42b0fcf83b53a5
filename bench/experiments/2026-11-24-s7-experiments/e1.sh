#!/bin/bash
# GPU call 1: gray bilinear rotation, texture path lean variants, lane layouts, hybrid.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
./scratch/cuda_anchors
R=./scratch/rotx
P="kernels/rotate.cl rotate_bilinear_image"
B="-DUSE_IMAGES -DCHANNELS=1"
export NOCHECK=1
echo "== project kernel"
$R $P "$B -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 30 32 8 2 4
$R $P "$B -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 30 16 16 2 4
$R $P "$B -DPIXELS_PER_ITEM=1 -DROWS_PER_ITEM=1" 8192 8192 30 32 8 1 1
$R $P "$B -DPIXELS_PER_ITEM=1 -DROWS_PER_ITEM=1" 8192 8192 0 32 8 1 1
$R $P "$B -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 0 32 8 2 4
K="scratch/rotx.cl rot_lean"
echo "== lean contiguous"
for g in "32 8" "16 16" "64 4" "8 32"; do
  for p in "1 1" "2 2" "2 4" "4 2" "4 4" "8 2" "1 4"; do
    set -- $p; $R $K "-DPX=$1 -DPY=$2" 8192 8192 30 $g $1 $2
  done
done
echo "== lean strided"
for g in "32 8" "32 4" "16 16" "8 32" "64 4" "32 2"; do
  for p in "1 2" "1 4" "2 4" "1 8" "2 2" "4 2"; do
    set -- $p; $R $K "-DPX=$1 -DPY=$2 -DSTRIDED" 8192 8192 30 $g $1 $2
  done
done
echo "== lean at 0 and 45 degrees"
for d in 0 45 90; do
  $R $K "-DPX=2 -DPY=4" 8192 8192 $d 32 8 2 4
  $R $K "-DPX=1 -DPY=4 -DSTRIDED" 8192 8192 $d 32 8 1 4
done
echo "== hybrid (ALU rows)"
for a in 1 2; do
  $R $K "-DPX=1 -DPY=4 -DSTRIDED -DALU_ROWS=$a" 8192 8192 30 32 8 1 4
  $R $K "-DPX=2 -DPY=4 -DSTRIDED -DALU_ROWS=$a" 8192 8192 30 32 8 2 4
  $R $K "-DPX=4 -DPY=4 -DALU_ROWS=$a" 8192 8192 30 32 8 4 4
  $R $K "-DPX=2 -DPY=4 -DALU_ROWS=$a" 8192 8192 30 32 8 2 4
done
$R $K "-DPX=1 -DPY=8 -DSTRIDED -DALU_ROWS=3" 8192 8192 30 32 8 1 8
$R $K "-DPX=1 -DPY=4 -DSTRIDED -DALU_ROWS=4" 8192 8192 30 32 8 1 4
echo "== checked"
unset NOCHECK
$R $K "-DPX=1 -DPY=4 -DSTRIDED -DALU_ROWS=1" 8192 8192 30 32 8 1 4 5
$R $K "-DPX=2 -DPY=4" 8192 8192 30 32 8 2 4 5
./scratch/cuda_anchors
