#!/bin/bash
# Session 25 (issue 19): main (.gpu/s24, 7a233ad, with its own kernels; the commits on main since touch only the
# N-body energy meter and docs) against this session's build (.gpu/s25), alternating, two rounds: a spinning
# result now writes only the smaller level it is drawn from, in one launch (kernels/display.cl shrink_rgba),
# where every level was written one launch each. First call: d62e15d (level 0 always written too); second call:
# the level made from the kernels' output and no level 0 where the picture is shrunk. Then both builds at two
# more frame sizes, and the new build's GPU tests.
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
write_picture /tmp/photo6000.ppm 6000 4000
write_picture /tmp/big8192.ppm 8192 8192
REC=(--frames 420 --record 300 --warmup 100)
SECONDS=0
for rep in $(seq ${ROUNDS:-2}); do
  for bin in s24 s25; do
    run photo6000-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear-$rep $bin bilinear "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear_image-$rep $bin bilinear_image "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run nbody65536-$rep $bin "" "${REC[@]}" --n 65536 --interop external
  done
  echo "-- round $rep done at ${SECONDS}s"
done
for size in 640x400 1920x1200; do
  for bin in s24 s25; do
    SIZE=$size run photo6000-spin-$size $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  done
done
gpu_tests s25 ${TESTS:-test_interop test_lab_renderer test_image_kernels}
echo "total ${SECONDS}s"
