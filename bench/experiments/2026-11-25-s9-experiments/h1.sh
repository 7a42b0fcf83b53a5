#!/bin/bash
# GPU call 1 (ninth session): texture + ALU hybrid for gray bilinear rotation.
. .gpu/device-env.sh >/dev/null
cd .gpu/s9
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
./cuda_anchors 2>&1 | tail -25
export NOCHECK=1
R=./rotx
echo "== project kernel"
$R rotate.cl rotate_bilinear_image "-DUSE_IMAGES -DCHANNELS=1 -DPIXELS_PER_ITEM=2 -DROWS_PER_ITEM=4" 8192 8192 30 32 8 2 4
K="roth.cl rot_hybrid"
echo "== 16x16 items, 4 rows each, ALU rows 0..4"
for a in 0 1 2 3 4; do $R $K "-DALU_ROWS=$a" 8192 8192 30 16 16 4 4; done
echo "== 16x8 items, 8 rows"
for a in 0 3 4 5 8; do $R $K "-DNY=8 -DPY=8 -DALU_ROWS=$a" 8192 8192 30 16 8 4 8; done
echo "== 8x32 items, 2 rows / 4 rows"
for a in 0 1 2; do $R $K "-DNX=8 -DNY=32 -DPY=2 -DALU_ROWS=$a" 8192 8192 30 8 32 4 2; done
for a in 2 3; do $R $K "-DNX=8 -DNY=16 -DPY=4 -DALU_ROWS=$a" 8192 8192 30 8 16 4 4; done
echo "== 32x8 items, 4 rows"
for a in 1 2 3; do $R $K "-DNX=32 -DNY=8 -DPY=4 -DALU_ROWS=$a" 8192 8192 30 32 8 4 4; done
echo "== 16x16 items, angles"
for d in 0 45 90; do for a in 0 2 4; do $R $K "-DALU_ROWS=$a" 8192 8192 $d 16 16 4 4; done; done
echo "== checked"
unset NOCHECK
$R $K "-DALU_ROWS=2" 8192 8192 30 16 16 4 4 5
$R $K "-DALU_ROWS=4" 8192 8192 30 16 16 4 4 5
$R $K "-DNY=8 -DPY=8 -DALU_ROWS=4" 8192 8192 30 16 8 4 8 5
