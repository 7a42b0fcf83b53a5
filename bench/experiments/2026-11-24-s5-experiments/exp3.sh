#!/usr/bin/env bash
# GPU call 3: gray transpose layouts; the app's image bench with the one-kernel histogram.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
M=./scratch/mb
export ITERS=40
T=scratch/tr_exp.cl
.gpu/cuda_anchors
for r in 1 2 3; do
  $M copyn 67108864
  $M tr $T transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_base
  for wg in 256 128 64; do $M tr $T transpose_gray16_rows "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=$wg" 1 8192 8192 $wg 128 0 g16_rows; done
  for wg in 256 128; do $M tr $T transpose_gray16_diagonal "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=$wg" 1 8192 8192 $wg 128 0 g16_diag; done
done
timeout 300 ./build/kernelscope --headless --bench image --iterations 40 > $OUT/image.txt 2>&1; echo "bench rc=$?"
grep -E "^copy|best|fused" $OUT/image.txt | sort -k8 -n -r | head -40
.gpu/cuda_anchors
