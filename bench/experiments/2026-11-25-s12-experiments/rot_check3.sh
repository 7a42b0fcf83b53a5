#!/bin/bash
# PoCL correctness matrix for the final rot12.cl (QUICK: one execution + the check).
cd "$(dirname "$0")"
export QUICK=1
eval "$(sed -n '/^full()/,/^}/p;/^part()/,/^}/p' rot_check.sh)"
full "-DNX=16 -DNY=8 -DPX=4 -DPY=4" 16 8 4 4
full "-DNX=8 -DNY=16 -DPX=8 -DPY=2 -DSR=2" 8 16 8 2
part "-DNX=8 -DNY=8 -DPX=4 -DPY=4" 8 8 4 4
part "-DNX=32 -DNY=8 -DPX=2 -DPY=4" 32 8 2 4
part "-DNX=4 -DNY=16 -DPX=16 -DPY=2" 4 16 16 2
part "-DNX=16 -DNY=16 -DPX=4 -DPY=2" 16 16 4 2
part "-DNX=8 -DNY=32 -DPX=8 -DPY=1" 8 32 8 1
part "-DNX=16 -DNY=8 -DPX=4 -DPY=8 -DPMOD=16 -DALLOW_CLAMP" 16 8 4 8
# tight boxes (sized for 30 deg; only 30 and -17.3 deg fit)
for s in "17 13" "256 256" "1001 779"; do for d in 30 -17.3; do
  ./rotx rot12.cl rot_pair "-DNX=8 -DNY=16 -DPX=8 -DPY=2 -DBOXW=6656" $s $d 8 16 8 2 1
  ./rotx rot12.cl rot_pair "-DNX=8 -DNY=8 -DPX=4 -DPY=4 -DBOXW=3328" $s $d 8 8 4 4 1
done; done
