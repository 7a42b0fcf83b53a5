#!/usr/bin/env bash
# Session 6, GPU call 2: the register transpose with named scalars (tr_reg2.cl) and the PTX of both.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
.gpu/cuda_anchors > $OUT/anchors1.txt 2>&1
M=./scratch/mb
export ITERS=40
DUMP=$OUT/reg_b4_wg128.ptx TILEH=256 $M tr scratch/tr_reg.cl transpose_gray_reg "-DGR_WG=128 -DBRW=4 -DPRMT" 1 8192 8192 128 128 0 reg_ptx
DUMP=$OUT/reg2_b4_wg128.ptx TILEH=256 $M tr scratch/tr_reg2.cl transpose_gray_reg2 "-DGR_WG=128 -DBRW=4 -DPRMT" 1 8192 8192 128 128 0 reg2_ptx
DUMP=$OUT/g16.ptx $M tr kernels/transpose.cl transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_ptx
for r in 1 2 3; do
  $M copyn 67108864
  $M tr kernels/transpose.cl transpose_gray16 "-DCHANNELS=1 -DGRAY16 -DG16_TILE=128 -DG16_WG=256" 1 8192 8192 256 128 0 g16_main
  for b in 2 4 8; do gx=$((32/b))
    for wg in 64 128 256; do
      TILEH=$((16*wg/gx)) $M tr scratch/tr_reg2.cl transpose_gray_reg2 "-DGR_WG=$wg -DBRW=$b -DPRMT" 1 8192 8192 $wg $((16*gx)) 0 "reg2_b${b}_wg${wg}"
    done
  done
done 2>&1 | grep -v "^\[" | tee $OUT/tr.txt
.gpu/cuda_anchors > $OUT/anchors2.txt 2>&1
grep -i -E "copy" $OUT/anchors1.txt $OUT/anchors2.txt
cd $OUT; for f in *.ptx; do echo "$f: $(grep -c 'ld.local\|st.local' $f) local, $(grep -c 'ld.global' $f) ld.global, $(grep -c 'st.global' $f) st.global, $(grep -c prmt $f) prmt; $(grep -m3 '\.reg' $f | tr '\n' ' ')"; done
