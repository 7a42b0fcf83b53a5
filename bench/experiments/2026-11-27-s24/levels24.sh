#!/bin/bash
# Session 24, third call (issue 19): what the picture's smaller levels cost a spinning frame. An experiment build
# (.gpu/exp24: PictureLevels::enqueue writes levels 1..$KS_EXP_LEVELS only, not kept) beside this session's build.
# KS_EXP_LEVELS=0 writes no smaller level (the shrunk picture is then drawn from stale levels: timing only);
# 3 writes the levels down to the one a 1280x800 frame reads for a 6000x4000 picture.
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
write_picture /tmp/photo6000.ppm 6000 4000
write_picture /tmp/big8192.ppm 8192 8192
REC=(--frames 420 --record 300 --warmup 100)
for rep in 1 2; do
  run photo6000-spin-$rep s24 "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  for last in all 3 0; do
    if [ $last = all ]; then
      run photo6000-spin-levels-all-$rep exp24 "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    else
      KS_EXP_LEVELS=$last run photo6000-spin-levels-to-$last-$rep exp24 "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    fi
  done
  run big8192-spin-$rep s24 "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
  KS_EXP_LEVELS=0 run big8192-spin-levels-to-0-$rep exp24 "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
done
