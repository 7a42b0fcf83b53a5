#!/usr/bin/env bash
# GPU call 2: fence probe, wide loads, last-group histogram with device-scope fences.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
M=./scratch/mb
export ITERS=40
for o in "" "-cl-std=CL3.0 -DFENCE_CL2" "-cl-std=CL3.0 -DCOUNTER_CL2" "-cl-std=CL2.0 -DFENCE_CL2" "-DFENCE_ASM"; do
  lab=$(echo "p$o" | tr -c 'A-Za-z0-9\n' '_'); $M probe "$o" $lab 2>&1 | grep -v "^\[" | head -20
  grep -a -h "membar\|fence\|atom.global" $OUT/$lab.ptx | head -8
done
H=scratch/hist1.cl
for fence in "-cl-std=CL3.0 -DFENCE_CL2" "-DFENCE_ASM"; do
for d in constant random; do
  for wide in "" "-DWIDE"; do
    for cfg in "512 2 1" "1024 2 1" "256 8 1" "1024 1 32" "1024 2 32" "512 2 32" "1024 2 8"; do set -- $cfg
      $M hist1 $H histogram_local_atomic "$fence $wide -DCHANNELS=1 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=$1 -DCOPIES=$3" 1 $d $1 $2 "lg_gray_c$3$wide"
    done
  done
done
for wide in "" "-DWIDE"; do
  for cfg in "1024 2 16" "512 4 16" "1024 1 16"; do set -- $cfg
    $M hist1 $H histogram_local_atomic "$fence $wide -DCHANNELS=4 -DCOUNT_MASK=7 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=$1 -DCOPIES=$3" 4 random $1 $2 "lg_rgb_c$3$wide"
  done
  $M hist1 $H histogram_local_atomic "$fence $wide -DCHANNELS=4 -DLOCAL_ATOMIC -DLAST_GROUP -DWG=512 -DCOPIES=8" 4 random 512 2 "lg_rgba5_c8$wide"
done
done
.gpu/cuda_anchors
