#!/bin/bash
# Seventeenth session, second call on a lent 2-GPU H200 host, after the helpers' branches were merged:
#  - the GPU tests of the merged build;
#  - issue 24: the viewer split over both GPUs at N = 1048576 with the display values read beside each step's
#    exchange into pinned memory (.gpu/new) against the first call's build, which read them after the step
#    (.gpu/base), alternating, twice each; the viewer on one GPU;
#  - issue 23: the ceilings with the local-memory and local-atomics shapes, what binds the image kernels,
#    and the energy drift of the 4096-body cube at the preset's new step (dt 0.0008, 3 steps a frame)
#    after 1000 and 3000 steps (3000 = the simulated time of the old preset's 1000 steps, past the bounce).
#   . .gpu/device-env.sh; bash bench/experiments/2026-11-26-s17/gpu2.sh
set -u
OUT=${OUT:-/tmp/s17-gpu2}
mkdir -p "$OUT"
L=$(mktemp -d)
S="$OUT/summary.txt"
say() { echo "$@" | tee -a "$S"; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee -a "$S"
K=.gpu/new/kernelscope
D=$(mktemp -d)
say "== GPU tests (merged build)"
for t in test_interop test_nbody_kernels test_nbody_invariants test_nbody_drift test_ceilings; do
  timeout 150 .gpu/new/$t > $L/$t.txt 2>&1
  say "$t rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $L/$t.txt | tr '\n' ' ')"
done
say "== issue 24: viewer, N = 1048576, --record 20 --warmup 5"
summary() { python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.3f  frame median %.1f ms  kernel median %.1f ms  devices %s  exchange %.2f ms' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r.get('device_count'), r.get('exchange_ms') or 0))" $1; }
for rep in 1 2; do
  for bin in base new; do
    d=$(mktemp -d)
    timeout 200 .gpu/$bin/kernelscope --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 1048576 \
      --devices all --record 20 --warmup 5 --json $L/viewer-$bin-$rep.json > $L/viewer-$bin-$rep.txt 2>&1
    say "$bin $rep rc=$?: $(summary $L/viewer-$bin-$rep.json 2>&1 | tail -1)"
    grep -E "^  (split|bound|frame breakdown)" $L/viewer-$bin-$rep.txt | sed 's/^/    /' | tee -a "$S"
  done
done
d=$(mktemp -d)
timeout 200 $K --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 1048576 --record 10 --warmup 3 \
  --json $L/viewer-one.json > $L/viewer-one.txt 2>&1
say "new, one GPU rc=$?: $(summary $L/viewer-one.json 2>&1 | tail -1)"
say "== issue 23"
timeout 150 $K --headless --bench ceilings --platform nvidia --kernels-dir kernels --config-dir $D > $L/ceilings.txt 2>&1
say "ceilings rc=$?"; grep -E -A1 "^Local" $L/ceilings.txt | tee -a "$S"
timeout 150 $K --bench image --platform nvidia --kernels-dir kernels --config-dir $D > $L/bench-image.txt 2>&1
say "bench image rc=$?"; grep -oE "bound by [a-zA-Z0-9 ]+: [0-9]+ %" $L/bench-image.txt | sort | uniq -c | sort -rn | head -12 | tee -a "$S"
timeout 120 $K --bench transpose --platform nvidia --kernels-dir kernels --config-dir $D > $L/bench-transpose.txt 2>&1
say "bench transpose rc=$?"; grep -E "bound by" $L/bench-transpose.txt | tail -3 | tee -a "$S"
for steps in 1000 3000; do
  timeout 200 $K --sweep --platform nvidia --variant blocked --wg 256 --unroll 8 --bodies-per-item 2 --split 1 \
    --precision fp32,fp64,fast-math,ftz,precise-rsqrt --n 4096 --preset cube --drift-steps $steps \
    --kernels-dir kernels --config-dir $D --csv $L/drift-$steps.csv > $L/drift-$steps.txt 2>&1
  say "drift $steps steps rc=$?"; grep -E "energy drift" $L/drift-$steps.txt | sed -E 's/ +[0-9.]+ ms.*energy/: energy/' | tee -a "$S"
done
cd $L && tar czf "$OUT/s17-gpu2.tgz" . 2>/dev/null; ls "$OUT"
