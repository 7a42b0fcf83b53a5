#!/bin/bash
# GPU sweep for the experimental ALU rotation kernel scratch/rot_alu.cl (gray8, bilinear).
# Run from anywhere; works from the repository root.  Target: 8192x8192 @ 30 deg ~ 53 us.
# Each line: label [options] size angle pattern lws  ms  GB/s (=2*W*H/ms/1e6)  max diff vs CPU ref.
cd "$(dirname "$0")/.." || exit 1
K=scratch/rot_alu.cl
if command -v g++ >/dev/null; then
  g++ -O2 -std=c++17 -o scratch/rotb scratch/rotb.cpp -lOpenCL || echo "(rebuild failed, using existing scratch/rotb)"
fi
B="-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=8 -DPAD=1"

echo "== correctness on the GPU (full CPU reference) =="
# 8192x8192 with the reference (one config), plus cheap small-size checks of the prmt asm path
BEST="-DTW=64 -DTH=64 -DPX=8 -DPY=4 -DCW=8 -DPAD=4 -DCOORD=0 -DRB=8 -DUSE_PRMT=1"   # best seen so far
LABEL=check ./scratch/rotb $K "$BEST" 8192 8192 30
for o in "$BEST" "$B -DCOORD=1 -DUSE_PRMT=1" "$B -DCOORD=0 -DUSE_PRMT=1" "$B -DCOORD=1 -DUSE_PRMT=0"; do
  for g in "1000 777 -17.3 200" "17 13 200 9" "4099 3 90 0" "1024 1024 45 0"; do
    ITERS=2 LABEL=small ./scratch/rotb $K "$o" $g
  done
done

echo "== sweep 8192x8192 @ 30 deg (SKIPREF=1) =="
export SKIPREF=1
run() { LABEL=sweep ./scratch/rotb $K "$1" 8192 8192 30; }
# baseline shape, both coordinate pipes, with and without the prmt asm
run "$B -DCOORD=1 -DUSE_PRMT=1"
run "$B -DCOORD=0 -DUSE_PRMT=1"
run "$B -DCOORD=1 -DUSE_PRMT=0"
run "$B -DCOORD=0 -DUSE_PRMT=0"
# tile shape / pixels per item / work-group size
run "-DTW=64 -DTH=32 -DPX=4 -DPY=2 -DCW=8 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"    # 256 items, 8 px/item
run "-DTW=64 -DTH=32 -DPX=8 -DPY=4 -DCW=8 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"    # 64 items, 32 px/item
run "-DTW=64 -DTH=32 -DPX=16 -DPY=1 -DCW=8 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"   # 128 items, uint4 stores
run "-DTW=64 -DTH=64 -DPX=8 -DPY=2 -DCW=8 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"    # 256 items, less staging/px
run "-DTW=64 -DTH=64 -DPX=8 -DPY=4 -DCW=16 -DPAD=4 -DCOORD=1 -DUSE_PRMT=1"   # 128 items, 32 px/item
run "-DTW=64 -DTH=64 -DPX=8 -DPY=2 -DCW=8 -DPAD=1 -DCOORD=0 -DUSE_PRMT=1"
run "-DTW=128 -DTH=32 -DPX=8 -DPY=2 -DCW=8 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"   # 256 items
run "-DTW=32 -DTH=32 -DPX=4 -DPY=2 -DCW=8 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"    # 128 items, small tile
# staging chunk width
run "-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=4 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"
run "-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=16 -DPAD=1 -DCOORD=1 -DUSE_PRMT=1"
# local pitch (bank conflicts of the rotated reads; PAD%4==0 enables 128-bit local stores)
run "-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=8 -DPAD=0 -DCOORD=1 -DUSE_PRMT=1"
run "-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=8 -DPAD=4 -DCOORD=1 -DUSE_PRMT=1"
run "-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=8 -DPAD=0 -DPMOD=1 -DCOORD=1 -DUSE_PRMT=1"
run "-DTW=64 -DTH=32 -DPX=8 -DPY=2 -DCW=8 -DPAD=0 -DPMOD=4 -DCOORD=1 -DUSE_PRMT=1"
# staging batches (RB) on the best shape
run "-DTW=64 -DTH=64 -DPX=8 -DPY=4 -DCW=8 -DPAD=4 -DCOORD=0 -DRB=4 -DUSE_PRMT=1"
run "$BEST"
run "-DTW=64 -DTH=64 -DPX=8 -DPY=4 -DCW=8 -DPAD=4 -DCOORD=1 -DRB=8 -DUSE_PRMT=1"
run "-DTW=64 -DTH=64 -DPX=16 -DPY=2 -DCW=8 -DPAD=4 -DCOORD=0 -DRB=8 -DUSE_PRMT=1"
# where the time goes (results WRONG by design): DBG=1 staging + blend ALU (no local reads),
# DBG=2 blend only (no staging), DBG=3 conflict-free local read addresses
for d in 1 2 3; do LABEL=dbg$d ./scratch/rotb $K "$BEST -DDBG=$d" 8192 8192 30; done
