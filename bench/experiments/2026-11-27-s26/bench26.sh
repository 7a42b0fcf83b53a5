#!/bin/bash
# Session 26: last session's merged build (.gpu/s25m: main plus the ceilings measured off the frame) against this
# session's main (.gpu/s26: that change kept, a window's bounded wait for the N-body steps, the request flags made
# commands, the 1024x700 fixes), alternating, two rounds. Headless runs still step once per frame, so the figures
# should agree within their spread (issue 21: "the GPU benchmarks give the same figures within noise").
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
write_pictures
SECONDS=0
for rep in $(seq ${ROUNDS:-2}); do
  for bin in s25m s26; do standard_frames $rep $bin; done
  echo "-- round $rep done at ${SECONDS}s"
done
gpu_tests s26 ${TESTS:-test_interop test_lab_renderer test_image_kernels}
echo "total ${SECONDS}s"
