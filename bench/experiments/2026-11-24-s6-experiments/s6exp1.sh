#!/usr/bin/env bash
# Session 6, GPU call 1: gray transpose with no local memory (16x16 byte blocks in registers)
# against the copy and the current block4x16_gray, interleaved; CUDA anchors in the same call.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
M=./scratch/mb
export ITERS=40
R=scratch/tr_reg.cl
for r in 1 2 3; do
  $M copyn 67108864
  $M tr kernels/transpose.cl transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_main
  for p in "" "-DPRMT"; do
    for b in 1 2 4; do gx=$((32/b))
      for wg in 64 128 256; do
        TILEH=$((16*wg/gx)) $M tr $R transpose_gray_reg "-DGR_WG=$wg -DBRW=$b $p" 1 8192 8192 $wg $((16*gx)) 0 "reg_b${b}_wg${wg}${p}"
      done
    done
  done
done 2>&1 | grep -v "^\[" | tee $OUT/tr.txt
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
grep -i -E "copy|transpose" $OUT/anchors1.txt $OUT/anchors2.txt
