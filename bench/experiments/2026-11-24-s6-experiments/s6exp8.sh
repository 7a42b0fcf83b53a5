#!/usr/bin/env bash
# Session 6, GPU call 8: super-block tile orders (SW x SH tiles, column by column inside),
# gray 8192^2 (64x64 tiles) and RGBA 8192^2 (128x128 tiles), against the copy, interleaved.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
M=./scratch/mb
export ITERS=40
T=scratch/tr_sw2.cl
for r in 1 2 3 4 5; do
  $M copyn 67108864
  for o in "1 64" "64 1" "32 32" "16 32" "32 16" "16 16" "32 64" "8 64"; do set -- $o
    $M tr $T transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256 -DSW=$1 -DSH=$2" 1 8192 8192 256 128 0 "gray_sw$1_sh$2"
  done
  $M copyn 67108864
done 2>&1 | grep -v "^\[" | tee $OUT/gray.txt
for r in 1 2 3; do
  $M copyn 268435456
  for o in "1 128" "128 1" "32 32" "64 64" "16 128" "32 64"; do set -- $o
    $M tr $T transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64 -DSW=$1 -DSH=$2" 4 8192 8192 64 64 0 "rgba_sw$1_sh$2"
  done
  $M copyn 268435456
done 2>&1 | grep -v "^\[" | tee $OUT/rgba.txt
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
grep -h copy $OUT/anchors1.txt $OUT/anchors2.txt
