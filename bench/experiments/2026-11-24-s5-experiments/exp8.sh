#!/usr/bin/env bash
# GPU call 8: cache hints (inline PTX) for the gray transpose and for a copy.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
M=./scratch/mb
export ITERS=40
T=scratch/tr_exp.cl
for r in 1 2 3; do
  $M copyn 67108864
  $M copyk $T copy_hint "-DHINTS=1" 67108864
  $M copyk $T copy_hint "-DHINTS=2" 67108864
  $M tr $T transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_base
  for h in "1 0" "1 1" "2 0" "2 1"; do set -- $h
    $M tr $T transpose_gray16_hint "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256 -DHINTS=$1 -DSTORE_HINT=$2" 1 8192 8192 256 128 0 "g16_hint_ld$1_st$2"
  done
done
