#!/usr/bin/env bash
# Session 6, GPU call 6: the code with the column-order variants: the image bench as a user runs it,
# anchors before and after, the harness on kernels/transpose.cl (row vs column order, interleaved),
# and the image-kernel tests on the GPU.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
timeout 300 ./build/kernelscope --headless --bench image --iterations 40 > $OUT/image.txt 2>&1; echo "bench rc=$?"
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
M=./scratch/mb
export ITERS=40
K=kernels/transpose.cl
for r in 1 2 3; do
  $M copyn 67108864
  $M tr $K transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 gray16_rows
  $M tr $K transpose_gray16_columns "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 gray16_columns
  $M copyn 268435456
  $M tr $K transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64" 4 8192 8192 64 64 0 block4x4_rows
  $M tr $K transpose_4x4_columns "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64" 4 8192 8192 64 64 0 block4x4_columns
  $M tr $K transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 16384 16384 256 128 0 gray16_rows
  $M tr $K transpose_gray16_columns "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 16384 16384 256 128 0 gray16_columns
done 2>&1 | grep -v "^\[" | tee $OUT/harness.txt
cd build
timeout 200 ./tests/test_image_kernels > $OUT/test_image_kernels.txt 2>&1; echo "test_image_kernels rc=$? $(tail -1 $OUT/test_image_kernels.txt)"
cd ..
cat $OUT/anchors1.txt $OUT/anchors2.txt | grep -E "copy|histogram"
grep -E "^copy|transpose" $OUT/image.txt | head -80
