#!/usr/bin/env bash
# Session 6, GPU call 5: gray transposes at 8192^2 with the tiles taken in strips (STRIP=S tiles
# wide; 0 = row-major as on main): block4x16_gray, whole-row writes, 128x256 tiles, T=64, registers.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
M=./scratch/mb
export ITERS=40
T=scratch/tr_exp6.cl
G="-DCHANNELS=1 -DGRAY16"
for r in 1 2 3; do
  $M copyn 67108864
  for st in 0 1 2; do
    $M tr $T transpose_gray16 "$G -DG16_TILE=128 -DG16_WG=256 -DSTRIP=$st" 1 8192 8192 256 128 0 g16_s$st
    $M tr $T transpose_gray16_rows "$G -DG16_TILE=128 -DG16_WG=256 -DSTRIP=$st" 1 8192 8192 256 128 0 rows_s$st
    TILEH=256 $M tr $T transpose_gray16_rect "$G -DG16_TILE=128 -DG16_TH=256 -DG16_WG=256 -DSTRIP=$st" 1 8192 8192 256 128 0 rect128x256_s$st
    TILEH=128 $M tr scratch/tr_reg2.cl transpose_gray_reg2 "-DGR_WG=64 -DBRW=4 -DPRMT -DSTRIP=$st" 1 8192 8192 64 128 0 reg2_b4_wg64_s$st
  done
  $M copyn 67108864
  for st in 1 4; do
    $M tr $T transpose_gray16 "$G -DG16_TILE=128 -DG16_WG=128 -DSTRIP=$st" 1 8192 8192 128 128 0 g16_wg128_s$st
    $M tr $T transpose_gray16 "$G -DG16_TILE=64 -DG16_WG=64 -DSTRIP=$st" 1 8192 8192 64 64 0 g16_T64_wg64_s$st
    TILEH=128 $M tr $T transpose_gray16_rect "$G -DG16_TILE=256 -DG16_TH=128 -DG16_WG=256 -DSTRIP=$st" 1 8192 8192 256 256 0 rect256x128_s$st
    TILEH=128 $M tr scratch/tr_reg2.cl transpose_gray_reg2 "-DGR_WG=128 -DBRW=2 -DPRMT -DSTRIP=$st" 1 8192 8192 128 256 0 reg2_b2_wg128_s$st
  done
done 2>&1 | grep -v "^\[" | tee $OUT/tr.txt
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
grep -i -E "copy" $OUT/anchors1.txt $OUT/anchors2.txt
