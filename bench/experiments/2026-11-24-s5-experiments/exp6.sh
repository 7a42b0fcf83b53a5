#!/usr/bin/env bash
# GPU call 6: rectangular RGBA transpose tiles.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
M=./scratch/mb
export ITERS=40
T=scratch/tr_exp.cl
for r in 1 2 3; do
  $M copy
  $M tr $T transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64" 4 8192 8192 64 64 0 b4_base
  for cfg in "64 128 128" "64 128 256" "128 64 128" "128 64 256" "128 32 128" "64 64 64"; do set -- $cfg
    TILEH=$2 $M tr $T transpose_4x4_rect "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=$1 -DB4_TH=$2 -DB4_WG=$3" 4 8192 8192 $3 $1 0 "r4_w$1_h$2_wg$3"
  done
done
$M copy
