#!/bin/bash
# Seventeenth session, one call on a lent 2-GPU host (4-GPU kinds were not lent):
#  - the GPU tests of this build (interop, N-body kernels and invariants, drift, ceilings);
#  - issue 24: the viewer's N-body step split over the GPUs (headless --record, N = 1048576), against the
#    viewer on one GPU and --bench nbody --devices in the same call; --bench nbody --distributed --scaling
#    over MPI ranks (one per GPU);
#  - issue 23: measured ceilings (local memory and local atomics re-measured), what binds the tuned N-body
#    kernel, and the fp64 / fp32 energy drift of the 4096-body cube after 1000 steps at the preset's settings.
# Run from the repository root with this session's build in .gpu/new:
#   . .gpu/device-env.sh; bash bench/experiments/2026-11-26-s17/gpu.sh
# $OUT gets summary.txt and s17-gpu.tgz (every log).
set -u
K=.gpu/new/kernelscope
OUT=${OUT:-/tmp/s17-gpu}
mkdir -p "$OUT"
L=$(mktemp -d)
S="$OUT/summary.txt"
say() { echo "$@" | tee -a "$S"; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$S"
G=$(nvidia-smi -L | grep -c '^GPU ')
D=$(mktemp -d)

say "== GPU tests"
for t in test_interop test_nbody_kernels test_nbody_invariants test_nbody_drift test_ceilings; do
  [ -x .gpu/new/$t ] || continue
  timeout 150 .gpu/new/$t > $L/$t.txt 2>&1
  say "$t rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $L/$t.txt | tr '\n' ' ')"
done

say "== issue 24: the viewer at N = 1048576, headless --record 20 after 5 warm-up frames"
summary() { python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.2f  frame median %.1f ms  kernel median %.1f ms  devices %s  exchange %s ms' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r.get('device_count'), r.get('exchange_ms')))" $1; }
for spec in "one:" "all:--devices all"; do
  tag=${spec%%:*}; args=${spec#*:}
  d=$(mktemp -d)
  timeout 200 $K --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 1048576 $args \
    --record 20 --warmup 5 --json $L/viewer-1m-$tag.json > $L/viewer-1m-$tag.txt 2>&1
  say "viewer $tag rc=$?"
  grep -E "^(recording|split)" $L/viewer-1m-$tag.txt | sed 's/^/  /' | tee -a "$S"
  [ -f $L/viewer-1m-$tag.json ] && summary $L/viewer-1m-$tag.json | tee -a "$S"
done
timeout 200 $K --bench nbody --platform nvidia --devices all --n 1048576 --iterations 10 --kernels-dir kernels \
  > $L/split-1m.txt 2>&1
say "bench --devices all rc=$?"; grep -E "^(=|device |exchange|load balance|one device)" $L/split-1m.txt | sed 's/^/  /' | tee -a "$S"

say "== issue 24: MPI --scaling, N = 1048576, one rank per GPU"
if command -v mpirun > /dev/null; then
  timeout 300 mpirun -np "$G" --allow-run-as-root -x OCL_ICD_FILENAMES=libnvidia-opencl.so.1 $K --headless --bench nbody \
    --distributed --scaling --platform nvidia --n 1048576 --iterations 10 --kernels-dir kernels --csv $L/mpi-scaling.csv \
    > $L/mpi-scaling.txt 2>&1
  say "rc=$?"; tail -6 $L/mpi-scaling.txt | tee -a "$S"
else
  say "no mpirun on this machine"
fi

say "== issue 23: ceilings (H200), N-body bound, drift"
timeout 150 $K --headless --bench ceilings --platform nvidia --kernels-dir kernels --config-dir $D > $L/ceilings.txt 2>&1
say "ceilings rc=$?"; grep -E "multiply-add|copy|read|rsqrt|local|atomic|vendor" $L/ceilings.txt | head -14 | tee -a "$S"
timeout 120 $K --bench nbody --platform nvidia --n 65536 --kernels-dir kernels --config-dir $D > $L/bench-nbody-65536.txt 2>&1
say "nbody 65536: $(grep -E 'billion interactions|bound by' $L/bench-nbody-65536.txt | tr '\n' ' ')"
timeout 150 $K --bench image --platform nvidia --kernels-dir kernels --config-dir $D > $L/bench-image.txt 2>&1
say "bench image rc=$?"; grep -E "bound by .*(local|atomic)" $L/bench-image.txt | head -8 | tee -a "$S"
timeout 200 $K --sweep --platform nvidia --variant blocked --wg 256 --unroll 8 --bodies-per-item 2 --split 1 \
  --precision fp32,fp64,fast-math,ftz,precise-rsqrt --n 4096 --preset cube --drift-steps 1000 \
  --kernels-dir kernels --config-dir $D --csv $L/drift.csv > $L/drift.txt 2>&1
say "drift rc=$?"; tail -8 $L/drift.txt | tee -a "$S"
cd $L && tar czf "$OUT/s17-gpu.tgz" . 2>/dev/null; ls "$OUT"
