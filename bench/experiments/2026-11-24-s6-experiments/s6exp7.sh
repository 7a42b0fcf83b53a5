#!/usr/bin/env bash
# Session 6, GPU call 7: the merged code on the H200: the GPU tests touched this session (forward rotation
# exact with FP_CONTRACT OFF, statistics kernel percentiles, pixel-view mipmaps, the too-big result),
# and the viewer as a user starts it with a photo (image lab defaults: column-order transposes).
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
.gpu/cuda_anchors > $OUT/anchors.txt 2>&1
cd build
for t in test_image_kernels test_interop test_session test_program_cache; do
  timeout 200 ./tests/$t > $OUT/$t.txt 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/$t.txt | tr '\n' ' ')"
  grep -E "^\[  FAILED|SKIPPED|Failure" $OUT/$t.txt | head -5
done
cd ..
./build/kernelscope --headless --frames 200 --config-dir $OUT/cfg --screenshot $OUT/image-lab-h200.png --state-dump $OUT/state.json scratch/photo.png 2>&1 | tail -6
python3 -c "import json; j=json.load(open('$OUT/state.json')); im=j.get('image'); print({k: im[k] for k in im if k in ('running','runningRotate','runningTranspose','runningHistogram','resultWidth','path')} if isinstance(im, dict) else im)" 2>&1 | head -5
head -3 $OUT/anchors.txt
