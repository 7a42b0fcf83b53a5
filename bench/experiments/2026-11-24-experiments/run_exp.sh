#!/usr/bin/env bash
# Runs on the GPU machine: copy, baseline project kernels, experiments.
cd "$(dirname "$0")/.."
M=./scratch/mb
$M copy
# ---- histogram ----
P=kernels/histogram.cl
for d in random constant; do
  $M hist $P histogram_local_atomic "-DCHANNELS=4 -DCOUNT_MASK=7 -DLOCAL_ATOMIC -DWG=256 -DCOPIES=1" 4 $d 256 8 base_rgb_c1
  $M hist $P histogram_local_atomic "-DCHANNELS=1 -DLOCAL_ATOMIC -DWG=256 -DCOPIES=32" 1 $d 256 2 base_gray_c32
  $M hist $P histogram_local_atomic "-DCHANNELS=1 -DLOCAL_ATOMIC -DWG=256 -DCOPIES=1" 1 $d 256 4 base_gray_c1
done
X=scratch/hist_exp.cl
for d in random constant; do
  for opt in "" "-DUSE_ADD" "-DCOMPACT" "-DCOMPACT -DUSE_ADD" "-DCOMPACT -DLOADS=4"; do
    for cp in 1 2 4 8 16; do
      [ $cp = 16 ] && [ "$opt" = "" -o "$opt" = "-DUSE_ADD" ] && continue
      for wgg in "256 8" "512 4" "256 4" "1024 2"; do set -- $wgg; wg=$1 gpc=$2
        $M hist $X hist_exp "-DCHANNELS=4 -DCOUNT_MASK=7 -DWG=$wg -DCOPIES=$cp $opt" 4 $d $wg $gpc "rgb_c${cp}_${opt// /}"
      done
    done
  done
  $M hist $X hist_exp "-DCHANNELS=4 -DCOUNT_MASK=7 -DWG=256 -DCOPIES=8 -DCOMPACT -DWARP_COPIES" 4 $d 256 8 rgb_c8_warp
  for opt in "" "-DUSE_ADD" "-DRLE" "-DLOADS=4"; do
    for cp in 1 8 32; do for gpc in 2 4 8; do
      $M hist $X hist_exp "-DCHANNELS=1 -DWG=256 -DCOPIES=$cp $opt" 1 $d 256 $gpc "gray_c${cp}_${opt// /}"
    done; done
  done
done
# ---- rotation ----
R=kernels/rotate.cl
for ch in 4 1; do
  $M rot $R rotate_bilinear_image "-DCHANNELS=$ch -DPIXELS_PER_ITEM=4 -DUSE_IMAGES" $ch 8 32 4 1 base_bilinear_image_$ch ref
  $M rot $R rotate_nearest_image "-DCHANNELS=$ch -DPIXELS_PER_ITEM=4 -DUSE_IMAGES" $ch 16 8 4 1 base_nearest_image_$ch
  for blk in "4 1" "8 1" "2 2" "4 2" "4 4" "1 4" "2 1" "1 1" "8 2"; do set -- $blk
    [ $ch = 1 ] && [ $1 -lt 4 ] && continue
    for wg in "8 32" "16 16" "32 8" "8 8" "32 4"; do set -- $blk $wg
      $M rot scratch/rot_exp.cl rot_exp "-DCHANNELS=$ch -DPPX=$1 -DPPY=$2" $ch $3 $4 $1 $2 "exp_${1}x${2}"
    done
  done
  for sw in 2 4 8 16; do
    $M rot scratch/rot_exp.cl rot_exp "-DCHANNELS=$ch -DPPX=4 -DPPY=1 -DSWIZZLE=$sw" $ch 8 32 4 1 "exp_4x1_swz$sw"
    $M rot scratch/rot_exp.cl rot_exp "-DCHANNELS=$ch -DPPX=4 -DPPY=2 -DSWIZZLE=$sw" $ch 16 16 4 2 "exp_4x2_swz$sw"
  done
done
$M copy
