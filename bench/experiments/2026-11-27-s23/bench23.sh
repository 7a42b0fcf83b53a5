#!/bin/bash
# Session 23 (issue 19): main as session 22 left it (.gpu/s22, 5abb6f6) against this session's merged build (.gpu/s23: the picture's level and filter chosen once per draw), alternating, two rounds.
# Headless EGL, external path, started as a user starts it. Then the new build's GPU tests.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 - <<'PY'
def write(path, W, H):
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (W, H))
        rx = bytes(x * 255 // W for x in range(W))
        checks = [bytes(((x // 64 + k) % 2) * 255 for x in range(W)) for k in (0, 1)]
        for y in range(H):
            r = bytearray(W * 3)
            r[0::3] = rx
            r[1::3] = bytes([y * 255 // H]) * W
            r[2::3] = checks[y // 64 % 2]
            f.write(r)
write('/tmp/photo6000.ppm', 6000, 4000)
write('/tmp/big8192.ppm', 8192, 8192)
PY
settings() {
  local d; d=$(mktemp -d)
  [ -n "$1" ] && echo "{\"version\": 1, \"window\": {\"width\": 1280, \"height\": 800}, \"image_lab\": {\"rotate_variant\": \"$1\"}}" > $d/settings.json
  echo $d
}
summary() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.1f  frame median %.3f ms  kernel median %.3f ms  frame/kernel %.3f' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r['frame_ms']['median'] / max(r['kernel_ms']['median'], 1e-9)))
PY
}
run() {  # run TAG BIN VARIANT ARGS...
  local tag=$1 bin=$2 variant=$3; shift 3
  local d; d=$(settings "$variant")
  local extra=()
  timeout 90 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d "$@" "${extra[@]}" --json $OUT/r.json > $OUT/r.txt 2>&1
  echo "== $bin${extra[*]:+ ${extra[*]}} $tag rc=$?"; grep -E "frame breakdown" $OUT/r.txt | sed 's/^/   /'
  if [ -f $OUT/r.json ]; then summary $OUT/r.json; else tail -5 $OUT/r.txt; fi
  rm -f $OUT/r.json $OUT/r.txt
}
REC=(--frames 420 --record 300 --warmup 100)
SECONDS=0
ROUNDS=${ROUNDS:-2}
for rep in $(seq $ROUNDS); do
  for bin in s22 s23; do
    run photo6000-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear-$rep $bin bilinear "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear_image-$rep $bin bilinear_image "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run nbody65536-$rep $bin "" "${REC[@]}" --n 65536 --interop external
  done
  echo "-- round $rep done at ${SECONDS}s"
done
for t in ${TESTS:-test_interop test_lab_renderer test_image_kernels test_program_binary_cache}; do
  KS_KERNELS_DIR=$PWD/kernels timeout 240 .gpu/s23/$t > $OUT/$t.txt 2>&1
  echo "== $t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" $OUT/$t.txt | head -12
done
echo "total ${SECONDS}s"
