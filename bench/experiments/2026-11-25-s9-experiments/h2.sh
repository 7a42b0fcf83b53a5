#!/bin/bash
# GPU call 2 (ninth session): why the hybrid's costs add. Timing-only diagnostics (DBG).
. .gpu/device-env.sh >/dev/null
cd .gpu/s9
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
export NOCHECK=1
R=./rotx; K="roth.cl rot_hybrid"
for r in 1 2; do
for dbg in 0 1 2 3; do
  echo "== DBG=$dbg (0 real, 1 conflict-free local reads, 2 no local reads, 3 no staging loads)"
  for a in 0 2 4; do $R $K "-DALU_ROWS=$a -DDBG=$dbg" 8192 8192 30 16 16 4 4; done
  $R $K "-DNY=8 -DPY=8 -DALU_ROWS=8 -DDBG=$dbg" 8192 8192 30 16 8 4 8
  $R $K "-DNY=8 -DPY=8 -DALU_ROWS=4 -DDBG=$dbg" 8192 8192 30 16 8 4 8
done
done
