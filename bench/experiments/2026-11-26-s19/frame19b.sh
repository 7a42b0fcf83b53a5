#!/bin/bash
# Issue 19, nineteenth session: the image lab's frame with to_rgba moving four pixels a work-item (.gpu/s19disp)
# and with the smallest levels in one launch too (.gpu/s19disp2), each with its own kernels/, against the eighteenth session's build, main before this session (.gpu/new), alternating in one call,
# headless EGL, external path, started as a user starts them. Based on ../2026-11-26-s13-frame/frame.sh.
# Images: 6000x4000 and 8192x8192 RGB (PPM, made here with python3: gradients and 64-pixel checks).
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 - <<'PY'
import math
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
ls -la /tmp/photo6000.ppm /tmp/big8192.ppm
settings() {  # a config dir whose settings choose the image lab's rotation variant ("" = the default)
  local d; d=$(mktemp -d)
  [ -n "$1" ] && echo "{\"version\": 1, \"window\": {\"width\": 1280, \"height\": 800}, \"image_lab\": {\"rotate_variant\": \"$1\"}}" > $d/settings.json
  echo $d
}
summary() {  # frame and kernel medians, FPS and the stage medians of a --record JSON
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]['measurements']
st = ', '.join('%s %.3f' % (s['stage'], s['ms']) for s in r.get('stage_ms_median', []))
print('   fps %.1f  frame median %.3f ms  kernel median %.3f ms  frame/kernel %.2f' % (
    r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'],
    r['frame_ms']['median'] / max(r['kernel_ms']['median'], 1e-9)))
if st: print('   stages (medians):', st)
PY
}
run() {  # run TAG BIN VARIANT ARGS...
  local tag=$1 bin=$2 variant=$3; shift 3
  local d; d=$(settings "$variant")
  local kd=kernels; [ -d .gpu/$bin/kernels ] && kd=.gpu/$bin/kernels  # a build's own kernels where it has them
  timeout 200 .gpu/$bin/kernelscope --headless --kernels-dir $kd --config-dir $d "$@" \
    --json $OUT/$bin-$tag.json > $OUT/$bin-$tag.txt 2>&1
  echo "== $bin $tag rc=$?"; grep -E "interop:|recording:|frame breakdown" $OUT/$bin-$tag.txt | sed 's/^/   /'
  [ -f $OUT/$bin-$tag.json ] && summary $OUT/$bin-$tag.json
}
REC=(--frames 420 --record 300 --warmup 100)
for rep in 1 2; do
for bin in new s19disp s19disp2; do
  run photo6000-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  run big8192-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
done
done
src=$(strings .gpu/s19disp2/test_interop | grep -m1 '/kernels$')
KS_KERNELS_DIR=$PWD/.gpu/s19disp2/kernels timeout 200 .gpu/s19disp2/test_interop > $OUT/test_interop.txt 2>&1
echo "test_interop rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|EveryLevel" $OUT/test_interop.txt | head -10
rm -f $OUT/*.json $OUT/*.txt
