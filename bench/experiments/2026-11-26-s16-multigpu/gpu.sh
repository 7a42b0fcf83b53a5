#!/bin/bash
# Issue 24, sixteenth session: the N-body step split over the GPUs of one host
# (--bench nbody --devices), against NVIDIA's CUDA nbody sample on the same GPUs
# (-numdevices), at N = 1048576; and the plain single-device --bench nbody, to
# check that the kernel's new firstBody argument left one device's speed alone.
# Run on a lent 2- or 4-GPU machine (nvidia-h100-x2 / -x4 or their H200 forms),
# from the repository root, with this session's build in .gpu/new:
#   . .gpu/device-env.sh; bash bench/experiments/2026-11-26-s16-multigpu/gpu.sh
# $OUT receives summary.txt and s16-gpu.tgz (every log; the device tool brings
# back at most 8 files). For a dry run elsewhere: S16_BINARY, S16_PLATFORM
# (e.g. build/kernelscope and portable with POCL_DEVICES="pthread pthread"). Optional: S16_4M=1 adds N = 4194304 (about 6 more minutes on
# H100s: keep it for a call of its own); MPI ranks run only where mpirun exists
# and the build has MPI (it says so otherwise).
set -u
K=${S16_BINARY:-.gpu/new/kernelscope}
P=${S16_PLATFORM:-nvidia}
OUT=${OUT:-/tmp/s16-gpu}
mkdir -p "$OUT"
LOGS=$(mktemp -d)
SAMPLE=../shared/anchors/nbody_nogl
nvidia-smi -L | tee "$LOGS/gpus.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$LOGS/gpus.txt"
G=$(nvidia-smi -L | grep -c '^GPU ')
lists="0 0,1"
counts="1 2"
if [ "$G" -ge 4 ]; then lists="$lists 0,1,2,3"; counts="$counts 4"; fi
$K --list-devices | tee -a "$LOGS/gpus.txt"

run_n() {  # run_n N ITERATIONS
  local n=$1 it=$2
  echo "== N = $n: one device, plain --bench nbody (the single-device path, twice for the spread)" | tee -a "$OUT/summary.txt"
  for rep in 1 2; do
    timeout 300 $K --bench nbody --platform "$P" --n "$n" --iterations "$it" --kernels-dir kernels \
      > "$LOGS/bench-$n-single-$rep.txt" 2>&1
    grep -E "billion interactions" "$LOGS/bench-$n-single-$rep.txt" | sed "s/^/  single $rep: /" | tee -a "$OUT/summary.txt"
  done
  for devices in $lists; do
    local tag=${devices//,/-}
    echo "== N = $n, --devices $devices" | tee -a "$OUT/summary.txt"
    timeout 400 $K --bench nbody --platform "$P" --devices "$devices" --n "$n" --iterations "$it" --kernels-dir kernels \
      --json "$LOGS/split-$n-$tag.json" > "$LOGS/split-$n-$tag.txt" 2>&1
    echo "  exit $?" | tee -a "$OUT/summary.txt"
    grep -E "^(=|device |exchange|load balance|one device|final positions|kernelscope: error)" "$LOGS/split-$n-$tag.txt" \
      | sed 's/^/  /' | tee -a "$OUT/summary.txt"
  done
  if [ -x "$SAMPLE" ]; then
    for d in $counts; do
      echo "== N = $n, NVIDIA nbody sample, -numdevices=$d" | tee -a "$OUT/summary.txt"
      timeout 300 "$SAMPLE" -benchmark -numbodies="$n" -numdevices="$d" > "$LOGS/sample-$n-$d.txt" 2>&1
      grep -iE "interactions per second|GFLOP" "$LOGS/sample-$n-$d.txt" | sed 's/^/  /' | tee -a "$OUT/summary.txt"
    done
  else
    echo "NVIDIA's sample is not at $SAMPLE" | tee -a "$OUT/summary.txt"
  fi
  if command -v mpirun > /dev/null; then
    echo "== N = $n, MPI: mpirun -np $G (one rank per GPU)" | tee -a "$OUT/summary.txt"
    timeout 400 mpirun -np "$G" --allow-run-as-root $K --headless --bench nbody --distributed --platform "$P" \
      --n "$n" --iterations "$it" --kernels-dir kernels > "$LOGS/mpi-$n-$G.txt" 2>&1
    echo "  exit $?" | tee -a "$OUT/summary.txt"
    grep -E "^(=|rank |communication|load balance|one device|kernelscope: error)" "$LOGS/mpi-$n-$G.txt" \
      | sed 's/^/  /' | tee -a "$OUT/summary.txt"
  fi
}

run_n "${S16_N:-1048576}" 20
if [ "${S16_4M:-0}" = 1 ]; then run_n 4194304 5; fi
cp "$OUT/summary.txt" "$LOGS/"
tar czf "$OUT/s16-gpu.tgz" -C "$LOGS" . && ls -la "$OUT"
