#!/usr/bin/env bash
# GPU call 1 of session 5: transpose persistence, single-kernel histogram, copies.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
M=./scratch/mb
export ITERS=40
.gpu/cuda_anchors
$M copy
$M copyn 67108864
T=scratch/tr_exp.cl
for r in 1 2; do
$M tr $T transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_base
for gpc in 2 4 6 8; do $M tr $T transpose_gray16_persistent "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 $gpc g16_pers; done
for gpc in 4 8 12; do $M tr $T transpose_gray16_persistent "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=128" 1 8192 8192 128 128 $gpc g16_pers_wg128; done
for gpc in 8 16; do $M tr $T transpose_gray16_persistent "-DCHANNELS=1 -DGRAY16 -DG16_TILE=64 -DG16_WG=64" 1 8192 8192 64 64 $gpc g16_pers_T64; done
$M tr $T transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64" 4 8192 8192 64 64 0 b4_base
$M tr $T transpose_4x4 "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=128" 4 8192 8192 128 64 0 b4_base_wg128
for gpc in 4 8 16; do $M tr $T transpose_4x4_persistent "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=64" 4 8192 8192 64 64 $gpc b4_pers; done
for gpc in 2 4 8; do $M tr $T transpose_4x4_persistent "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=128" 4 8192 8192 128 64 $gpc b4_pers_wg128; done
for gpc in 2 4; do $M tr $T transpose_4x4_persistent "-DCHANNELS=4 -DBLOCK4X4 -DB4_TILE=64 -DB4_WG=256" 4 8192 8192 256 64 $gpc b4_pers_wg256; done
done
P=kernels/histogram.cl
H=scratch/hist1.cl
for d in constant random; do
  $M hist $P histogram_local_atomic "-DCHANNELS=1 -DLOCAL_ATOMIC -DWG=512 -DCOPIES=1" 1 $d 512 2 base_gray_c1
  $M hist $P histogram_local_atomic "-DCHANNELS=1 -DLOCAL_ATOMIC -DWG=512 -DCOPIES=32" 1 $d 512 2 base_gray_c32
  for wgg in "256 4" "256 8" "512 2" "512 4" "1024 1" "1024 2"; do set -- $wgg
    for cp in 1 8 32; do
      [ $cp = 32 ] && [ $1 = 256 ] && continue
      DUMP=$([ $cp = 1 ] && [ $1 = 512 ] && echo 1) $M hist1 $H histogram_local_atomic "-DCHANNELS=1 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=$1 -DCOPIES=$cp" 1 $d $1 $2 lg_gray_c$cp
    done
  done
done
$M hist $P histogram_local_atomic "-DCHANNELS=4 -DCOUNT_MASK=7 -DLOCAL_ATOMIC -DWG=1024 -DCOPIES=16" 4 random 1024 2 base_rgb_c16
for wgg in "1024 2" "512 4" "256 8"; do set -- $wgg
  $M hist1 $H histogram_local_atomic "-DCHANNELS=4 -DCOUNT_MASK=7 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=$1 -DCOPIES=16" 4 random $1 $2 lg_rgb_c16
done
$M hist1 $H histogram_local_atomic "-DCHANNELS=4 -DCOUNT_MASK=7 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=1024 -DCOPIES=16" 4 constant 1024 2 lg_rgb_c16
$M hist1 $H histogram_local_atomic "-DCHANNELS=4 -DCOUNT_MASK=31 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=512 -DCOPIES=8" 4 random 512 2 lg_rgba5_c8
timeout 200 ./build/kernelscope --headless --bench image --iterations 40 > $OUT/image.txt 2>&1; echo "bench rc=$?"
grep -E "^copy|best|hist (rand|const) +local_atomic wg=512 copies=(1|32) groups/CU=2" $OUT/image.txt
.gpu/cuda_anchors
