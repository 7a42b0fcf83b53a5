#!/bin/bash
# Session 24, second call: the spinning and the still 6000x4000 picture at three frame sizes (--size; the first
# call's sizes went through settings.json, which a headless run does not read, so all three were 1280x800).
. .gpu/device-env.sh >/dev/null
. bench/experiments/lib.sh
write_picture /tmp/photo6000.ppm 6000 4000
REC=(--frames 420 --record 300 --warmup 100)
for rep in 1 2; do
  for size in 640x400 1280x800 1920x1200; do
    SIZE=$size run photo6000-spin-$size-$rep s24 "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    SIZE=$size run photo6000-still-$size-$rep s24 "" "${REC[@]}" --interop external /tmp/photo6000.ppm
  done
done
