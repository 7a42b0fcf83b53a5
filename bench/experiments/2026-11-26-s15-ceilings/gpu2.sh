#!/bin/bash
# Issue 23, fifteenth session, second call: which measured ceiling binds the tuned N-body kernel
# alone (--bench nbody after --bench ceilings), the clocks, power and energy NVML reports during a
# recording, and the energy drift of each precision setting after 1000 steps (--sweep --drift-steps).
# Run from the repository root on the GPU machine: bash bench/experiments/2026-11-26-s15-ceilings/gpu2.sh
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
K=.gpu/new/kernelscope
D=$(mktemp -d)
timeout 120 $K --headless --bench ceilings --kernels-dir kernels --config-dir $D > $OUT/ceilings.txt 2>&1
grep -E "multiply-add|copy|read  |native|atomic|vendor" $OUT/ceilings.txt
for n in 65536 262144; do
  echo "== --bench nbody --n $n (tuned)"
  timeout 120 $K --bench nbody --n $n --kernels-dir kernels --config-dir $D > $OUT/bench-nbody-$n.txt 2>&1
  grep -E "interactions per second|bound by" $OUT/bench-nbody-$n.txt
done
echo "== recording N-body 65536 with NVML"
timeout 200 $K --headless --n 65536 --frames 1300 --warmup 100 --record 1000 --kernels-dir kernels --config-dir $D \
  --json $OUT/nvml-runs.json --state-dump $OUT/nvml-state.json > $OUT/nvml.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv
grep -E "power:|recording:|bound:" $OUT/nvml.txt
python3 - $OUT/nvml-state.json $OUT/nvml-runs.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); print('  state dump gpu_telemetry:', json.dumps(s.get('gpu_telemetry'))[:900])
r = json.load(open(sys.argv[2]))['runs'][0]['measurements']
print('  run:', {k: r.get(k) for k in ('fps', 'energy_source', 'energy_j', 'power_w', 'energy_per_unit', 'energy_unit', 'sm_clock_mhz', 'throttled', 'throttle_reasons', 'energy_drift', 'drift_steps')})
PY
echo "== energy drift after 1000 steps, 4096-body cube, every precision setting"
timeout 200 $K --sweep --variant blocked --wg 256 --unroll 8 --bodies-per-item 2 --split 1 \
  --precision fp32,fp64,fast-math,ftz,precise-rsqrt --n 4096 --preset cube --drift-steps 1000 \
  --kernels-dir kernels --config-dir $D --csv $OUT/drift-4096.csv --json $OUT/drift-4096.json > $OUT/drift-sweep.txt 2>&1
tail -8 $OUT/drift-sweep.txt
echo "== interop tests"; timeout 120 .gpu/new/test_interop 2>&1 | tail -3
cd $OUT && tar czf s15-gpu2.tgz *.txt *.json *.csv && ls
