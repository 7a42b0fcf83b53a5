#!/bin/bash
# Issue 19, session 21: does ordering OpenCL's and GL's work one after the other on the CPU
# (no overlap, so the GPU never time-slices between the two contexts) shorten the image lab's
# spinning frame? .gpu/main = main (0a20db1) with the start-up fix (the rsqrt check) and the particle
# drawing's small changes, .gpu/x19 = the same + KS_X_SERIAL switches
# (branch s21-x19): bit 1 glFinish before a run, bit 2 the run waited for before GL draws.
# Headless EGL, external path, started as a user starts it; alternating, two rounds.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "start $(date +%T)"
[ -f /tmp/big8192.ppm ] || python3 - <<'PY'
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
st = ', '.join('%s %.3f' % (s['stage'], s['ms']) for s in r.get('stage_ms_median', []))
print('   fps %.1f  frame median %.3f ms  kernel median %.3f ms' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median']))
if st: print('   stages (medians):', st)
PY
}
run() {  # run TAG BIN SERIAL VARIANT ARGS...
  local tag=$1 bin=$2 serial=$3 variant=$4; shift 4
  local d; d=$(settings "$variant")
  KS_X_SERIAL=$serial timeout 60 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d "$@" \
    --json $OUT/r.json > $OUT/r.txt 2>&1
  echo "== $bin serial=$serial $tag rc=$?"; grep -E "recording:|frame breakdown" $OUT/r.txt | sed 's/^/   /'
  [ -f $OUT/r.json ] && summary $OUT/r.json
  [ -f $OUT/r.json ] || tail -5 $OUT/r.txt
  rm -f $OUT/r.json $OUT/r.txt
}
REC=(--frames 420 --record 300 --warmup 100 --spin 30 --interop external)
T0=$(date +%s)
timed() { local t=$(date +%s); if [ $((t - T0)) -gt 420 ]; then echo "skipped (time): $*"; return; fi; run "$@"; echo "   took $(( $(date +%s) - t )) s"; }
for rep in 1 2; do
timed photo6000 main 0 "" "${REC[@]}" /tmp/photo6000.ppm
timed photo6000 x19 3 "" "${REC[@]}" /tmp/photo6000.ppm
timed photo6000 x19 1 "" "${REC[@]}" /tmp/photo6000.ppm
timed photo6000 x19 2 "" "${REC[@]}" /tmp/photo6000.ppm
timed big8192-bilinear main 0 bilinear "${REC[@]}" /tmp/big8192.ppm
timed big8192-bilinear_image main 0 bilinear_image "${REC[@]}" /tmp/big8192.ppm
timed big8192-bilinear x19 3 bilinear "${REC[@]}" /tmp/big8192.ppm
timed big8192-bilinear_image x19 3 bilinear_image "${REC[@]}" /tmp/big8192.ppm
done
