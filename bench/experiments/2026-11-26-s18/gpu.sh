#!/bin/bash
# Eighteenth session, one call on a lent 2-GPU H200 host, after the helpers' branches were merged:
#  - the GPU tests of the merged build (the split's display copy without waiting: test_interop;
#    the split itself and its energy meter: test_nbody_multi_device);
#  - issue 24: the viewer split over both GPUs at N = 1048576 with the display copy no longer waited for
#    (.gpu/new) against last session's build, which waited for it (.gpu/base), alternating, twice each;
#    the viewer on one GPU; NVIDIA's sample on 1 and 2 GPUs in the same call;
#  - issue 19: the viewer's N-body frame against its kernel at N = 65536 (tuned), base and new.
#   . .gpu/device-env.sh; bash bench/experiments/2026-11-26-s18/gpu.sh
set -u
OUT=${OUT:-/tmp/s18-gpu}
mkdir -p "$OUT"
L=$(mktemp -d)
S="$OUT/summary.txt"
say() { echo "$@" | tee -a "$S"; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee -a "$S"
K=.gpu/new/kernelscope
say "== GPU tests (merged build)"
for t in test_interop test_nbody_multi_device test_nbody_kernels test_nbody_invariants; do
  timeout 170 .gpu/new/$t > $L/$t.txt 2>&1
  say "$t rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $L/$t.txt | tr '\n' ' ')"
  grep -E '^\[  FAILED  \]|Failure' $L/$t.txt | head -5 | tee -a "$S"
done
summary() { python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.3f  frame median %.2f ms  kernel median %.2f ms  devices %s  exchange %.2f ms' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r.get('device_count'), r.get('exchange_ms') or 0))" $1; }
say "== issue 24: viewer, N = 1048576, --devices all --record 20 --warmup 5"
for rep in 1 2; do
  for bin in base new; do
    d=$(mktemp -d)
    timeout 200 .gpu/$bin/kernelscope --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 1048576 \
      --devices all --record 20 --warmup 5 --json $L/viewer-$bin-$rep.json > $L/viewer-$bin-$rep.txt 2>&1
    say "$bin $rep rc=$?: $(summary $L/viewer-$bin-$rep.json 2>&1 | tail -1)"
    grep -E "^  (split|frame breakdown)" $L/viewer-$bin-$rep.txt | sed 's/^/    /' | tee -a "$S"
  done
done
d=$(mktemp -d)
timeout 200 $K --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 1048576 --record 10 --warmup 3 \
  --json $L/viewer-one.json > $L/viewer-one.txt 2>&1
say "new, one GPU rc=$?: $(summary $L/viewer-one.json 2>&1 | tail -1)"
for D in 1 2; do
  timeout 120 .gpu/anchors/nbody_nogl -benchmark -numbodies=1048576 -numdevices=$D > $L/anchor-$D.txt 2>&1
  say "NVIDIA sample, $D GPU(s) rc=$?: $(grep -iE 'interactions per second|GFLOP' $L/anchor-$D.txt | tr '\n' ' ')"
done
say "== issue 19: viewer N = 65536, tuned kernel, --record 300 --warmup 60"
for rep in 1 2; do
  for bin in base new; do
    d=$(mktemp -d)
    timeout 120 .gpu/$bin/kernelscope --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 65536 \
      --record 300 --warmup 60 --json $L/n64k-$bin-$rep.json > $L/n64k-$bin-$rep.txt 2>&1
    say "$bin $rep rc=$?: $(summary $L/n64k-$bin-$rep.json 2>&1 | tail -1)"
  done
done
cd $L && tar czf "$OUT/s18-gpu.tgz" . 2>/dev/null; ls "$OUT"
