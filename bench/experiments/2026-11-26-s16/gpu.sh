#!/bin/bash
# Sixteenth session, one call on a 4-GPU H200 host (device 0 for the single-GPU parts):
#  - the GPU tests of this build (interop, N-body kernels with the leapfrog step, invariants, drift);
#  - issue 23 on an H200: measured ceilings, what binds the tuned N-body kernel and the image kernels,
#    the energy drift of every precision setting after 1000 steps (preset dt and dt/2);
#  - issue 24: --bench nbody --devices 0,1,2,3 --scaling at N = 1048576;
#  - issue 19/22: the whole frame of this build beside main (.gpu/base) for N-body 65536 and a spinning
#    8192² picture (the image lab's worker thread is for CPU devices only: GPUs must not move), and
#    the fixed cost of a frame: 256² spinning against 256² and 8192² standing still.
# Run from the repository root: bash bench/experiments/2026-11-26-s16/gpu.sh
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader
K=.gpu/new/kernelscope
D=$(mktemp -d)
echo "== GPU tests"
for t in test_interop test_nbody_kernels test_nbody_invariants test_nbody_drift; do
  timeout 150 .gpu/new/$t > $OUT/$t.txt 2>&1; echo "$t rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $OUT/$t.txt | tr '\n' ' ')"
done
echo "== ceilings (H200)"
timeout 120 $K --headless --bench ceilings --platform nvidia --kernels-dir kernels --config-dir $D > $OUT/ceilings.txt 2>&1
grep -E "multiply-add|copy|read  |rsqrt|local|atomic|vendor" $OUT/ceilings.txt | head -12
for n in 65536 262144; do
  timeout 120 $K --bench nbody --platform nvidia --n $n --kernels-dir kernels --config-dir $D > $OUT/bench-nbody-$n.txt 2>&1
  echo "nbody $n: $(grep -E 'billion interactions|bound by' $OUT/bench-nbody-$n.txt | tr '\n' ' ')"
done
timeout 150 $K --bench image --platform nvidia --kernels-dir kernels --config-dir $D > $OUT/bench-image.txt 2>&1
echo "bench image rc=$?"; grep -E "bound by|copy" $OUT/bench-image.txt | head -30
echo "== drift, 4096-body cube, 1000 steps"
timeout 150 $K --sweep --platform nvidia --variant blocked --wg 256 --unroll 8 --bodies-per-item 2 --split 1 \
  --precision fp32,fp64,fast-math,ftz,precise-rsqrt --n 4096 --preset cube --drift-steps 1000 \
  --kernels-dir kernels --config-dir $D --csv $OUT/drift.csv > $OUT/drift.txt 2>&1
tail -8 $OUT/drift.txt
timeout 100 $K --bench nbody --platform nvidia --variant blocked --wg 256 --unroll 8 --bodies-per-item 2 --split 1 --fp64 \
  --n 4096 --preset cube --drift-steps 1000 --dt 0.00125 --kernels-dir kernels --config-dir $D > $OUT/drift-half-dt.txt 2>&1
grep -i -E "drift|error" $OUT/drift-half-dt.txt | head -4
echo "== scaling over 4 GPUs, N = 1048576"
timeout 200 $K --bench nbody --platform nvidia --devices 0,1,2,3 --scaling --n 1048576 --iterations 10 \
  --kernels-dir kernels > $OUT/scaling.txt 2>&1; echo "rc=$?"; tail -12 $OUT/scaling.txt
echo "== frames"
python3 - <<'PY'
def write(path, W, H):
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (W, H))
        rx = bytes(x * 255 // W for x in range(W))
        for y in range(H):
            r = bytearray(W * 3); r[0::3] = rx; r[1::3] = bytes([y * 255 // H]) * W; r[2::3] = bytes([(y // 64 % 2) * 255]) * W
            f.write(r)
write('/tmp/big8192.ppm', 8192, 8192); write('/tmp/small256.ppm', 256, 256)
PY
summary() { python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.1f  frame median %.3f ms  kernel median %.3f ms' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median']))" $1; }
REC=(--frames 420 --record 300 --warmup 100)
for bin in base new; do
  for spec in "nbody65536:--n 65536" "spin8192:--spin 30 /tmp/big8192.ppm" "spin256:--spin 30 /tmp/small256.ppm" \
              "still256:/tmp/small256.ppm" "still8192:/tmp/big8192.ppm"; do
    tag=${spec%%:*}; args=${spec#*:}
    [ $bin = base ] && case $tag in still*|spin256) continue;; esac
    d=$(mktemp -d)
    timeout 100 .gpu/$bin/kernelscope --headless --platform nvidia --kernels-dir kernels --config-dir $d "${REC[@]}" \
      --interop external $args --json $OUT/frame-$bin-$tag.json > $OUT/frame-$bin-$tag.txt 2>&1
    echo "$bin $tag rc=$?"; [ -f $OUT/frame-$bin-$tag.json ] && summary $OUT/frame-$bin-$tag.json
  done
done
cd $OUT && tar czf s16-gpu.tgz *.txt *.json *.csv 2>/dev/null; rm -f *.json *.csv; ls | head -20
