#!/bin/bash
# (rot_check.sh) PoCL matrix, first version. As first run (log part 2) the file had one more line,
# part "-DNX=8 -DNY=8 -DPX=16 -DPY=4" 8 8 16 4 (an oversized 128x32 tile), in place of the last five part lines
# (added later), and no -DALLOW_CLAMP on the 64x64 line. It sources helper names from itself only.
# PoCL correctness matrix (QUICK: one execution + the check).
cd "$(dirname "$0")"
export QUICK=1
full() {  # opts lwsx lwsy px py
  for s in "1 1" "1 9" "9 1" "17 13" "256 256" "1000 777" "4099 3" "1001 779"; do
    for d in 0 30 -17.3 45 90 200; do ./rotx rot12.cl rot_pair "$1" $s $d $2 $3 $4 $5 1; done
  done
}
part() {
  for s in "17 13" "256 256" "4099 3" "1001 779"; do
    for d in 30 -17.3 90 200; do ./rotx rot12.cl rot_pair "$1" $s $d $2 $3 $4 $5 1; done
  done
}
full "-DNX=16 -DNY=8 -DPX=4 -DPY=4" 16 8 4 4
part "-DNX=32 -DNY=8 -DPX=2 -DPY=4" 32 8 2 4
part "-DNX=8 -DNY=16 -DPX=8 -DPY=2" 8 16 8 2
part "-DNX=16 -DNY=8 -DPX=4 -DPY=8 -DPMOD=16 -DALLOW_CLAMP" 16 8 4 8
part "-DNX=4 -DNY=16 -DPX=16 -DPY=2" 4 16 16 2
part "-DNX=8 -DNY=8 -DPX=8 -DPY=4" 8 8 8 4
part "-DNX=16 -DNY=4 -DPX=4 -DPY=8" 16 4 4 8
part "-DNX=8 -DNY=8 -DPX=4 -DPY=4" 8 8 4 4
part "-DNX=8 -DNY=16 -DPX=4 -DPY=4" 8 16 4 4
