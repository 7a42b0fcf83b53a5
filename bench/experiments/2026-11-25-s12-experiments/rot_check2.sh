#!/bin/bash
# the shapes added after the first matrix (check.sh's last five part lines), plus 45 deg for 64x64
cd "$(dirname "$0")"
export QUICK=1
eval "$(sed -n '/^part()/,/^}/p' rot_check.sh)"
part "-DNX=4 -DNY=16 -DPX=16 -DPY=2" 4 16 16 2
part "-DNX=8 -DNY=8 -DPX=8 -DPY=4" 8 8 8 4
part "-DNX=16 -DNY=4 -DPX=4 -DPY=8" 16 4 4 8
part "-DNX=8 -DNY=8 -DPX=4 -DPY=4" 8 8 4 4
part "-DNX=8 -DNY=16 -DPX=4 -DPY=4" 8 16 4 4
for s in "256 256" "1001 779"; do ./rotx rot12.cl rot_pair "-DNX=16 -DNY=8 -DPX=4 -DPY=8 -DPMOD=16 -DALLOW_CLAMP" $s 45 16 8 4 8 1; done
./rotx rot12.cl rot_pair "-DNX=16 -DNY=8 -DPX=4 -DPY=8" 64 64 30 16 8 4 8 1
