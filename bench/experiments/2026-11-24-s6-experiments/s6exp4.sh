#!/usr/bin/env bash
# Session 6, GPU call 4: tiles taken in strips S tiles wide (DRAM locality for reads and writes),
# gray block4x16_gray and RGBA block4x4, at 8192^2 and at 256 MB, against the copy, interleaved.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
M=./scratch/mb
export ITERS=40
for r in 1 2 3; do
  for n in 8192 16384; do
    $M copyn $((n*n))
    for st in 0 1 2 4 8 16; do
      $M tr scratch/tr_sw.cl transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256 -DSTRIP=$st" 1 $n $n 256 128 0 g16_strip$st
    done
  done
  $M copyn $((8192*8192*4))
  for st in 0 1 2 4 8 16; do
    $M tr scratch/tr_sw.cl transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64 -DSTRIP=$st" 4 8192 8192 64 64 0 b4x4_strip$st
  done
done 2>&1 | grep -v "^\[" | tee $OUT/tr.txt
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
grep -i -E "copy" $OUT/anchors1.txt $OUT/anchors2.txt
