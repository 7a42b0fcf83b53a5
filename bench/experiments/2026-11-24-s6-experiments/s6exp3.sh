#!/usr/bin/env bash
# Session 6, GPU call 3: is the gray transpose's gap to the copy a fixed cost per launch?
# The copy and the transposes over image sizes (same bytes each), interleaved.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
M=./scratch/mb
export ITERS=40
for r in 1 2 3; do
  for n in 4096 8192 11520 16384 23040; do
    $M copyn $((n*n))
    $M tr kernels/transpose.cl transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 $n $n 256 128 0 g16_main
    TILEH=128 $M tr scratch/tr_reg2.cl transpose_gray_reg2 "-DGR_WG=64 -DBRW=4 -DPRMT" 1 $n $n 64 128 0 reg2_b4_wg64
  done
  for n in 4096 5760 8192 11520; do
    $M copyn $((n*n*4))
    $M tr kernels/transpose.cl transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64" 4 $n $n 64 64 0 b4x4_rgba
  done
done 2>&1 | grep -v "^\[" | tee $OUT/tr.txt
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
grep -i -E "copy" $OUT/anchors1.txt $OUT/anchors2.txt
