#!/bin/bash
# Eighteenth session, on a lent 4-GPU H200 host (the first 4-GPU kind lent): issue 24's figures.
#  - the viewer at N = 1048576 with the step split over all four GPUs, and over two, and on one
#    (headless --record 20 after 5 warm-up frames);
#  - --bench nbody at N (1048576 by default; S18_N=4194304 for the 4M call) on one device and split over 1, 2
#    and 4 GPUs (--devices), NVIDIA's CUDA nbody sample on 1, 2 and 4 GPUs in the same call, and MPI ranks
#    (mpirun -np 4 --distributed, one rank per GPU).
#   . .gpu/device-env.sh; bash bench/experiments/2026-11-26-s18/gpu4.sh            # N = 1M, viewer included
#   . .gpu/device-env.sh; S18_N=4194304 S18_IT=3 S18_LISTS='0,1 0,1,2,3' bash bench/experiments/2026-11-26-s18/gpu4.sh   # N = 4M
set -u
K=.gpu/new/kernelscope
N=${S18_N:-1048576}
IT=${S18_IT:-20}
OUT=${OUT:-/tmp/s18-gpu4}
mkdir -p "$OUT"
L=$(mktemp -d)
S="$OUT/summary.txt"
say() { echo "$@" | tee -a "$S"; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$S"
G=$(nvidia-smi -L | grep -c '^GPU ')
summary() { python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.3f  frame median %.2f ms  kernel median %.2f ms  devices %s  exchange %.2f ms' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r.get('device_count'), r.get('exchange_ms') or 0))" $1; }
if [ "$N" = 1048576 ]; then
  say "== the viewer at N = 1048576, --record 20 --warmup 5"
  for devices in all 0,1; do
    d=$(mktemp -d)
    timeout 200 $K --headless --platform nvidia --kernels-dir kernels --config-dir $d --n 1048576 --devices $devices \
      --record 20 --warmup 5 --json $L/viewer-${devices//,/-}.json > $L/viewer-${devices//,/-}.txt 2>&1
    say "viewer --devices $devices rc=$?: $(summary $L/viewer-${devices//,/-}.json 2>&1 | tail -1)"
    grep -E "^  (split|frame breakdown)" $L/viewer-${devices//,/-}.txt | sed 's/^/    /' | tee -a "$S"
  done
fi
say "== --bench nbody, N = $N, $IT iterations"
if [ "$N" = 1048576 ]; then  # at 4M each split run's "one device alone" line is the baseline (a 9 s step)
  timeout 300 $K --bench nbody --platform nvidia --n $N --iterations $IT --kernels-dir kernels > $L/bench-single.txt 2>&1
  say "single device rc=$?: $(grep -E 'billion interactions' $L/bench-single.txt | head -1)"
fi
for devices in ${S18_LISTS:-0 0,1 0,1,2,3}; do
  tag=${devices//,/-}
  timeout 300 $K --bench nbody --platform nvidia --devices $devices --n $N --iterations $IT --kernels-dir kernels \
    --json $L/split-$tag.json > $L/split-$tag.txt 2>&1
  say "--devices $devices rc=$?"
  grep -E "^(=|exchange|load balance|one device|kernelscope: error)" $L/split-$tag.txt | sed 's/^/  /' | tee -a "$S"
done
for d in 1 2 4; do
  timeout 200 .gpu/anchors/nbody_nogl -benchmark -numbodies=$N -numdevices=$d > $L/sample-$d.txt 2>&1
  say "NVIDIA sample -numdevices=$d rc=$?: $(grep -iE 'interactions per second' $L/sample-$d.txt)"
done
timeout 300 mpirun -np $G --allow-run-as-root -x OCL_ICD_FILENAMES=libnvidia-opencl.so.1 $K --headless --bench nbody \
  --distributed --platform nvidia --n $N --iterations $IT --kernels-dir kernels > $L/mpi.txt 2>&1
say "MPI -np $G rc=$?"
grep -E "^(=|rank |communication|load balance|one device|kernelscope: error)" $L/mpi.txt | sed 's/^/  /' | tee -a "$S"
cd $L && tar czf "$OUT/s18-gpu4-$N.tgz" . 2>/dev/null; ls "$OUT"
