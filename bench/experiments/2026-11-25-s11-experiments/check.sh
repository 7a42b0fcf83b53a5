#!/bin/bash
# Eleventh session: after the image lab's compute side was split into one file per operation
# (no kernel changed), the image bench against a copy and CUB/CUDA in the same call, the image
# kernel tests on the GPU, and the image lab started the way a user starts it.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
K=.gpu/bin/kernelscope
.gpu/s9/cuda_anchors > $OUT/anchors1.txt 2>&1
timeout 240 $K --headless --bench image --iterations 40 --kernels-dir kernels --no-program-cache > $OUT/image.txt 2>&1
echo "bench rc=$?"
.gpu/s9/cuda_anchors > $OUT/anchors2.txt 2>&1
# The tests read the kernels from the source tree's absolute path.
src=$(strings .gpu/bin/test_image_kernels | grep -m1 '/kernels$')
if [ ! -e "$src" ]; then mkdir -p "$(dirname "$(dirname "$src")")" && ln -sfn "$PWD" "$(dirname "$src")"; fi
timeout 200 .gpu/bin/test_image_kernels > $OUT/test_image_kernels.txt 2>&1
echo "test_image_kernels rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/test_image_kernels.txt | tr '\n' ' ')"
grep -m3 -iE "device|using" $OUT/test_image_kernels.txt
d=$(mktemp -d)
timeout 120 $K --headless --scene image --frames 60 --kernels-dir kernels --config-dir $d --state-dump $OUT/state.json \
  --screenshot $OUT/image-lab.png > $OUT/viewer.txt 2>&1
echo "viewer rc=$?"
cat $OUT/viewer.txt | head -12
cat $OUT/anchors1.txt $OUT/anchors2.txt | grep -E "copy|Histogram|transpose"
grep -E "^copy|copy|transpose|rotate|histogram" $OUT/image.txt | head -120
