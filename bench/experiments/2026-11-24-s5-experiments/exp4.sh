#!/usr/bin/env bash
# GPU call 4: rectangular gray16 tiles.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
M=./scratch/mb
export ITERS=40
T=scratch/tr_exp.cl
for r in 1 2 3; do
  $M copyn 67108864
  $M tr $T transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_base
  for cfg in "128 256 256" "128 256 128" "128 64 128" "128 64 64" "256 128 256" "256 64 256" "256 64 128" "256 128 512"; do set -- $cfg
    TILEH=$2 $M tr $T transpose_gray16_rect "-DCHANNELS=1 -DGRAY16 -DG16_TILE=$1 -DG16_TH=$2 -DG16_WG=$3" 1 8192 8192 $3 $1 0 "rect_w$1_h$2_wg$3"
  done
  $M copyn 67108864
done
