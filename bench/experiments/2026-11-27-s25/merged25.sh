#!/bin/bash
# Session 25, third call: main (.gpu/s24, with its own kernels) against the merged build of this session
# (.gpu/s25m: the level change, the one image runner of issue 21, the ceilings measured off the frame with the
# N-body steps held meanwhile, issue 22), alternating, two rounds: the same figures within the spread?
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
write_picture /tmp/photo6000.ppm 6000 4000
write_picture /tmp/big8192.ppm 8192 8192
REC=(--frames 420 --record 300 --warmup 100)
SECONDS=0
for rep in 1 2; do
  for bin in s24 s25m; do
    run photo6000-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-bilinear-$rep $bin bilinear "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear_image-$rep $bin bilinear_image "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run nbody65536-$rep $bin "" "${REC[@]}" --n 65536 --interop external
  done
done
gpu_tests s25m ${TESTS:-test_interop test_image_kernels}
echo "total ${SECONDS}s"
