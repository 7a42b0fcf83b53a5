#!/bin/bash
# GPU call 3 (twelfth session): cost split (staging only / blend only), register cap, group shapes.
# All rows without DBG are checked against the float reference.
. .gpu/device-env.sh >/dev/null
cd .gpu/s12
L=$OUT/log.txt
{
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
R=./rotx
PROJ() { NOCHECK=1 $R rotate.cl rotate_bilinear_image "-DUSE_IMAGES -DCHANNELS=1 -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 30 32 8 2 4; }
echo "== project kernel (unchecked)"; PROJ
K="rot12.cl rot_pair"
P="-DREQUIRE_PTX -DADDR=1"
run() { $R $K "$P -DNX=$1 -DNY=$2 -DPX=$3 -DPY=$4 $6" 8192 8192 $5 $1 $2 $3 $4; }
echo "== best of call 2, again"
run 8 16 8 2 30 "-DBOXW=6656"
run 8 8 4 4 30 "-DBOXW=3328"
echo "== register cap"
run 8 16 8 2 30 "-DBOXW=6656 -cl-nv-maxrregcount=64"
run 16 8 4 4 30 "-DBOXW=6656 -cl-nv-maxrregcount=64"
run 8 8 4 4 30 "-DBOXW=3328 -cl-nv-maxrregcount=48"
echo "== shapes (64x32 tiles, tight box)"
run 16 16 4 2 30 "-DBOXW=6656"
run 8 8 8 4 30 "-DBOXW=6656"
run 32 8 2 4 30 "-DBOXW=6656"
run 8 32 8 1 30 "-DBOXW=6656"
echo "== cost split, 8x16 8x2 tight box (timing only, wrong output)"
for d in 3 4 5; do NOCHECK=1 run 8 16 8 2 30 "-DBOXW=6656 -DDBG=$d"; done
echo "== cost split, 8x8 4x4 (32x32 tile) tight box (timing only, wrong output)"
for d in 3 4 5; do NOCHECK=1 run 8 8 4 4 30 "-DBOXW=3328 -DDBG=$d"; done
echo "== project kernel again"; PROJ
date -u
} 2>&1 | tee $L
