#!/bin/bash
# GPU call 1 (twelfth session): pair-word + f16x2 ALU rotation, gray 8192^2. Every rot_pair row is
# checked against rotx's float reference in the same run that timed it (median of 40, interleaved copy).
. .gpu/device-env.sh >/dev/null
cd .gpu/s12
L=$OUT/log.txt
{
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
R=./rotx
echo "== project kernel (unchecked, as every session)"
NOCHECK=1 $R rotate.cl rotate_bilinear_image "-DUSE_IMAGES -DCHANNELS=1 -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 30 32 8 2 4
K="rot12.cl rot_pair"
P="-DREQUIRE_PTX"
run() { $R $K "$P -DNX=$1 -DNY=$2 -DPX=$3 -DPY=$4 $6" 8192 8192 $5 $1 $2 $3 $4; }
echo "== shapes, 30 deg (checked)"
for pm in 8 16 24; do run 16 8 4 4 30 "-DPMOD=$pm"; done
run 32 8 2 4 30
run 16 16 4 2 30
run 8 16 8 2 30
run 8 8 8 4 30
run 4 16 16 2 30
run 16 4 4 8 30
run 8 8 4 4 30
run 8 16 4 4 30
run 16 8 4 8 30 "-DPMOD=16 -DALLOW_CLAMP"
echo "== angles, 16x8 4x4"
for d in 0 45 90 -17.3; do run 16 8 4 4 $d; done
echo "== diagnostic: no staging loads (timing only, wrong output)"
NOCHECK=1 run 16 8 4 4 30 "-DDBG=3"
NOCHECK=1 run 8 16 8 2 30 "-DDBG=3"
echo "== project kernel again"
NOCHECK=1 $R rotate.cl rotate_bilinear_image "-DUSE_IMAGES -DCHANNELS=1 -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 30 32 8 2 4
echo "== SASS"
NV=$(dirname $(which nvcc 2>/dev/null || ls /usr/local/cuda*/bin/nvcc | head -1))
for cfg in "16 8 4 4" "8 16 8 2"; do
  set -- $cfg
  DUMP=/tmp/p_$1_$3.ptx NOCHECK=1 $R $K "$P -DNX=$1 -DNY=$2 -DPX=$3 -DPY=$4" 256 256 30 $1 $2 $3 $4 1 >/dev/null
  $NV/ptxas -arch=sm_90 -o /tmp/p.cubin /tmp/p_$1_$3.ptx && $NV/cuobjdump -sass /tmp/p.cubin > $OUT/sass_$1x$2_$3x$4.txt
  cp /tmp/p_$1_$3.ptx $OUT/ptx_$1x$2_$3x$4.ptx
  echo "sass $cfg: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $OUT/sass_$1x$2_$3x$4.txt) instructions"
done
date -u
} 2>&1 | tee $L
