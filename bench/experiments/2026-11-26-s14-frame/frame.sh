#!/bin/bash
# Issue 19, fourteenth session: the whole frame after the Profiler's figures stopped being
# re-sorted every frame. Yesterday's main (.gpu/base, 74e266b) and this build (.gpu/new) in one
# call, headless EGL, external path, started as a user starts them; plus this build with the
# Profiler panel closed and with every panel closed, to show what the panels cost on the CPU.
# Run from the repository root on the GPU machine: bash bench/experiments/2026-11-26-s14-frame/frame.sh
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
REC=(--frames 420 --record 300 --warmup 100)
for rep in 1 2; do
  for bin in base new; do
    run photo6000-spin-$rep $bin "" all "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-spin-$rep $bin "" all "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear-$rep $bin bilinear all "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run big8192-bilinear_image-$rep $bin bilinear_image all "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
    run nbody65536-$rep $bin "" all "${REC[@]}" --n 65536 --interop external
  done
  for panels in noprofiler none; do
    run photo6000-spin-$panels-$rep new "" $panels "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
    run big8192-spin-$panels-$rep new "" $panels "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
  done
done
(cd $OUT && tar czf results.tgz --exclude results.tgz * && find . -type f ! -name results.tgz -delete)
