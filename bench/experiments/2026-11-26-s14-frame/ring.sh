#!/bin/bash
# Issue 19, fourteenth session, second call: two updates in flight (SharedBufferRing).
# Yesterday's main (.gpu/base, 74e266b) and this build (.gpu/new) in one call, headless EGL,
# started as a user starts them; the interop tests on the GPU; a screenshot of the image lab.
# Run from the repository root on the GPU machine: bash bench/experiments/2026-11-26-s14-frame/ring.sh
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
settings() {  # settings() VARIANT PANELS: a config dir (rotation variant, "" = default; panels: all|noprofiler|none)
  local d; d=$(mktemp -d)
  python3 - "$d" "$1" "$2" <<'PY'
import json, sys
d, variant, panels = sys.argv[1:4]
s = {"version": 1, "window": {"width": 1280, "height": 800}}
if variant: s["image_lab"] = {"rotate_variant": variant}
if panels == "noprofiler": s["panels"] = {"profiler": False}
if panels == "none": s["panels"] = {k: False for k in ["devices", "device_info", "scene", "interop", "nbody", "image_lab", "build_log", "profiler", "log"]}
json.dump(s, open(d + "/settings.json", "w"))
PY
  echo $d
}
summary() {
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
run() {  # run TAG BIN VARIANT PANELS ARGS...
  local tag=$1 bin=$2 variant=$3 panels=$4; shift 4
  local d; d=$(settings "$variant" "$panels")
  timeout 200 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d "$@" \
    --json $OUT/$bin-$tag.json > $OUT/$bin-$tag.txt 2>&1
  echo "== $bin $tag rc=$?"; grep -E "recording:" $OUT/$bin-$tag.txt | sed 's/^/   /'
  [ -f $OUT/$bin-$tag.json ] && summary $OUT/$bin-$tag.json
}
python3 -c "
f=open('/tmp/s256.ppm','wb'); f.write(b'P6\n256 256\n255\n'); f.write(bytes((i*7)&255 for i in range(256*256*3)))"
REC=(--frames 420 --record 300 --warmup 100)
for rep in 1 2; do
  for bin in base new; do
    run photo6000-spin-$rep $bin "" all "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-spin-$rep $bin "" all "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear-$rep $bin bilinear all "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear_image-$rep $bin bilinear_image all "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run nbody65536-$rep $bin "" all "${REC[@]}" --n 65536 --interop external
    run small256-spin-none-$rep $bin "" none "${REC[@]}" --spin 30 --interop external /tmp/s256.ppm
  done
done
for bin in base new; do
  run photo6000-spin-none $bin "" none "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  run big8192-spin-none $bin "" none "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
  run big8192-spin-host $bin "" all --frames 200 --record 120 --warmup 40 --spin 30 --interop host /tmp/big8192.ppm
  run photo6000-spin-host $bin "" all --frames 300 --record 200 --warmup 60 --spin 30 --interop host /tmp/photo6000.ppm
  run nbody262144 $bin "" all --frames 130 --record 100 --warmup 20 --n 262144 --interop external
done
# The interop tests on the GPU (external path: pictures bit-exact through the three buffers).
src=$(strings .gpu/new/test_interop | grep -m1 '/kernels$')
if [ ! -e "$src" ]; then mkdir -p "$(dirname "$(dirname "$src")")" && ln -sfn "$PWD" "$(dirname "$src")"; fi
timeout 120 .gpu/new/test_interop > $OUT/test_interop.txt 2>&1
echo "test_interop rc=$?"; grep -E "^\[ *(OK|FAILED|SKIPPED|PASSED) |Failure" $OUT/test_interop.txt | head -40
timeout 60 .gpu/new/kernelscope --headless --kernels-dir kernels --config-dir $(settings "" all) --frames 200 --spin 30 \
  --screenshot $OUT/image-lab-8192.png /tmp/big8192.ppm > $OUT/image-lab-8192.txt 2>&1
echo "screenshot rc=$?"; grep -E "image lab:|breakdown" $OUT/image-lab-8192.txt
(cd $OUT && tar czf results.tgz --exclude results.tgz --exclude image-lab-8192.png * && find . -type f ! -name results.tgz ! -name '*.png' -delete)
