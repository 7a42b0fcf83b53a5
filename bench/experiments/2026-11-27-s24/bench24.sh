#!/bin/bash
# Session 24: main as session 23 left it (.gpu/s23, 27292ca) against this session's merged build (.gpu/s24),
# alternating, two rounds: issue 21's "the same figures within noise" and issue 19's targets. Then the new build at
# three window sizes (does the spinning frame's GPU floor follow the pixels drawn?) and its GPU tests.
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
write_picture /tmp/photo6000.ppm 6000 4000
write_picture /tmp/big8192.ppm 8192 8192
REC=(--frames 420 --record 300 --warmup 100)
SECONDS=0
for rep in $(seq ${ROUNDS:-2}); do
  for bin in s23 s24; do
    run photo6000-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear-$rep $bin bilinear "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear_image-$rep $bin bilinear_image "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run nbody65536-$rep $bin "" "${REC[@]}" --n 65536 --interop external
  done
  echo "-- round $rep done at ${SECONDS}s"
done
for size in 640x400 1280x800 1920x1200; do
  SIZE=$size run photo6000-spin-$size s24 "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  SIZE=$size run photo6000-still-$size s24 "" "${REC[@]}" --interop external /tmp/photo6000.ppm
done
gpu_tests s24 ${TESTS:-test_interop test_lab_renderer test_image_kernels test_program_binary_cache}
echo "total ${SECONDS}s"
