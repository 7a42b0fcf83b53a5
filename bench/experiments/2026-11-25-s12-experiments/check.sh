#!/bin/bash
# Twelfth session: the image lab's figures for the issue-5 summary table: cuda_anchors, the image bench
# (every configuration, 8192², against a copy), cuda_anchors again, the image kernel tests on the GPU,
# and the image lab started the way a user starts it (a file on the command line, each interop request).
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
K=.gpu/bin/kernelscope
# .gpu/photo.png: a 1600x1000 RGB PNG (gradients and rings) made on the dev machine with python3 and zlib.
.gpu/anchors/cuda_anchors > $OUT/anchors1.txt 2>&1
timeout 240 $K --headless --bench image --iterations 40 --kernels-dir kernels --no-program-cache > $OUT/image.txt 2>&1
echo "bench rc=$?"
.gpu/anchors/cuda_anchors > $OUT/anchors2.txt 2>&1
# The tests read the kernels from the source tree's absolute path.
src=$(strings .gpu/bin/test_image_kernels | grep -m1 '/kernels$')
if [ ! -e "$src" ]; then mkdir -p "$(dirname "$(dirname "$src")")" && ln -sfn "$PWD" "$(dirname "$src")"; fi
timeout 200 .gpu/bin/test_image_kernels > $OUT/test_image_kernels.txt 2>&1
echo "test_image_kernels rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/test_image_kernels.txt | tr '\n' ' ')"
d=$(mktemp -d)
for ip in auto host external; do
  timeout 120 $K --headless --interop $ip --frames 60 --kernels-dir kernels --config-dir $d --state-dump $OUT/state-$ip.json \
    --screenshot $OUT/image-lab-$ip.png .gpu/photo.png > $OUT/viewer-$ip.txt 2>&1
  echo "viewer $ip rc=$?"; grep -E "device|interop|frames|last" $OUT/viewer-$ip.txt
done
cat $OUT/anchors1.txt $OUT/anchors2.txt
grep -E "^copy|transpose  (block|gray)|rotate .*bilinear|histogram" $OUT/image.txt | head -150
