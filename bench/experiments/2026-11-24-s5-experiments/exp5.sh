#!/usr/bin/env bash
# GPU call 5: the code on main (fused one-kernel histogram, its default), anchors before and after, GPU tests,
# and the ALU gray-rotation experiment.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
timeout 300 ./build/kernelscope --headless --bench image --iterations 40 > $OUT/image.txt 2>&1; echo "bench rc=$?"
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
cd build
for t in test_image_kernels test_program_cache; do timeout 150 ./tests/$t > $OUT/$t.txt 2>&1; echo "$t rc=$? $(tail -1 $OUT/$t.txt)"; done
grep -E "Fused|SKIP" $OUT/test_image_kernels.txt
cd ..
timeout 200 bash scratch/rotb_gpu.sh > $OUT/rotb.txt 2>&1; echo "rotb rc=$?"
cat $OUT/gpu.txt $OUT/anchors1.txt $OUT/anchors2.txt
grep -E "^copy|best transpose|best bilinear|best nearest" $OUT/image.txt
tail -30 $OUT/rotb.txt
