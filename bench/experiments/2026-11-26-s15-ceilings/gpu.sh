#!/bin/bash
# Issue 23, fifteenth session: the ceilings measured on the GPU (--bench ceilings), the ceiling that
# binds each running kernel (the headless summary's "bound:" lines and the state dump), and the
# N-body energy drift the viewer measures, as a user starts each. .gpu/new is this session's build.
# Run from the repository root on the GPU machine: bash bench/experiments/2026-11-26-s15-ceilings/gpu.sh
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
K=.gpu/new/kernelscope
cfg() {  # cfg JSON: a fresh config dir whose settings.json is JSON
  local d; d=$(mktemp -d); echo "$1" > $d/settings.json; echo $d
}
echo "== ceilings, twice"
for rep in 1 2; do
  timeout 120 $K --headless --bench ceilings --kernels-dir kernels --config-dir $(mktemp -d) 2>&1 | tee $OUT/ceilings-$rep.txt
done
echo "== the image bench's copy (the copy ceiling should be within 5 % of it)"
timeout 300 $K --bench image --image-size 8192x8192 --kernels-dir kernels 2>&1 > $OUT/bench-image.txt
grep -iE "copy" $OUT/bench-image.txt | head -8
python3 - <<'PY'
def write(path, W, H):
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (W, H))
        rx = bytes(x * 255 // W for x in range(W))
        for y in range(H):
            r = bytearray(W * 3)
            r[0::3] = rx
            r[1::3] = bytes([y * 255 // H]) * W
            r[2::3] = bytes([(y // 64) % 2 * 255]) * W
            f.write(r)
write('/tmp/big8192.ppm', 8192, 8192)
PY
echo "== the viewer: N-body 65536 tuned, what binds it"
D=$(cfg '{"version": 1}')
timeout 200 $K --headless --frames 600 --n 65536 --kernels-dir kernels --config-dir $D --state-dump $OUT/nbody65536.json > $OUT/nbody65536.txt 2>&1
grep -E "n-body:|bound:|frames:" $OUT/nbody65536.txt
echo "== the viewer: image lab 8192^2 spinning, transpose on (default variants), what binds each kernel"
D=$(cfg '{"version": 1, "image_lab": {"transpose": true}}')
timeout 200 $K --headless --frames 400 --spin 30 --kernels-dir kernels --config-dir $D --state-dump $OUT/image8192.json /tmp/big8192.ppm > $OUT/image8192.txt 2>&1
grep -E "image lab:|bound:|frames:" $OUT/image8192.txt
echo "== energy drift, 4096-body cube, 1000 steps (one step a frame; measured every 50 steps)"
for opts in "--fp64" "" "--fast-math" "--ftz" "--precise-rsqrt"; do
  D=$(cfg '{"version": 1}')
  timeout 200 $K --headless --frames 1001 --n 4096 --preset cube $opts --kernels-dir kernels --config-dir $D \
    --state-dump $OUT/drift$opts.json > $OUT/drift$opts.txt 2>&1
  python3 - "$OUT/drift$opts.json" "$opts" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = d['nbody']; c = n['conservation']
print('  %-16s %s: energy drift %s over steps %s..%s, momentum %s, angular momentum %s, sums in double %s' % (
    sys.argv[2] or '(fp32 default)', n['config'], c['energy_drift'], c['baseline_step'], c['last_step'],
    c['momentum_drift'], c['angular_momentum_drift'], c['sums_in_double']))
PY
done

echo "== interop tests"; timeout 120 .gpu/new/test_interop 2>&1 | tail -5
cd $OUT && tar czf s15-gpu.tgz *.txt *.json && ls -la
