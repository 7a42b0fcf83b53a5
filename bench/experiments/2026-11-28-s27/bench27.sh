#!/bin/bash
# Session 27: last session's main (.gpu/s26) against this session's (.gpu/s27: image-lab recordings named by their
# kernels, UI fixes, issue 21's descriptor subsets and shared measurement starters, NBodySimulation::adoptState),
# alternating, two rounds. Nothing here should move a headless frame, so the figures should agree within their
# spread (issue 21: "the GPU benchmarks give the same figures within noise").
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
write_pictures
SECONDS=0
for rep in $(seq ${ROUNDS:-2}); do
  for bin in s26 s27; do standard_frames $rep $bin; done
  echo "-- round $rep done at ${SECONDS}s"
done
gpu_tests s27 ${TESTS:-test_interop test_lab_renderer test_image_kernels}
echo "total ${SECONDS}s"
