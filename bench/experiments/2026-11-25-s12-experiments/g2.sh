#!/bin/bash
# GPU call 2 (twelfth session): batched staging loads (SR rows per batch), tight box allocation
# (BOXW, for 30 deg), dp2a addresses (ADDR=1); SASS of two configurations. All rot_pair rows checked.
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
P="-DREQUIRE_PTX"
run() { $R $K "$P -DNX=$1 -DNY=$2 -DPX=$3 -DPY=$4 $6" 8192 8192 $5 $1 $2 $3 $4; }
echo "== v1 (call 1's kernel) again"
$R rot12_v1.cl rot_pair "$P -DNX=16 -DNY=8" 8192 8192 30 16 8 4 4
echo "== batched staging, 30 deg"
for sr in 2 4; do run 16 8 4 4 30 "-DSR=$sr"; done
run 8 16 8 2 30
run 8 16 4 4 30
run 8 8 4 4 30
echo "== + tight box (30 deg only)"
run 16 8 4 4 30 "-DBOXW=6656"
run 8 16 8 2 30 "-DBOXW=6656"
run 8 8 4 4 30 "-DBOXW=3328"
run 8 8 4 4 30 "-DBOXW=3328 -DSR=2"
run 16 16 4 4 30 "-DBOXW=12224 -DALLOW_CLAMP"
echo "== + dp2a addresses"
run 16 8 4 4 30 "-DADDR=1"
run 16 8 4 4 30 "-DADDR=1 -DBOXW=6656"
run 8 8 4 4 30 "-DADDR=1 -DBOXW=3328"
run 8 16 8 2 30 "-DADDR=1 -DBOXW=6656"
echo "== angles, default box"
for d in 45 90; do run 16 8 4 4 $d "-DADDR=1"; done
echo "== diagnostic: no staging loads (timing only, wrong output)"
NOCHECK=1 run 16 8 4 4 30 "-DADDR=1 -DBOXW=6656 -DDBG=3"
NOCHECK=1 run 8 8 4 4 30 "-DADDR=1 -DBOXW=3328 -DDBG=3"
echo "== project kernel again"; PROJ
echo "== SASS"
NV=$(dirname $(which nvcc 2>/dev/null || ls /usr/local/cuda*/bin/nvcc | head -1))
for a in 0 1; do
  DUMP=/tmp/p$a.bin NOCHECK=1 $R $K "$P -DNX=16 -DNY=8 -DPX=4 -DPY=4 -DADDR=$a -DBOXW=6656" 256 256 30 16 8 4 4 1 >/dev/null
  tr -d '\000' < /tmp/p$a.bin > /tmp/p$a.ptx
  $NV/ptxas -arch=sm_90 -o /tmp/p$a.cubin /tmp/p$a.ptx && $NV/cuobjdump -sass /tmp/p$a.cubin > $OUT/sass_16x8_4x4_addr$a.txt
  echo "sass ADDR=$a: $(grep -cE '^ +/\*[0-9a-f]{4}\*/' $OUT/sass_16x8_4x4_addr$a.txt) instructions"
done
date -u
} 2>&1 | tee $L
