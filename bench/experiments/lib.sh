# Shared by the sessions' GPU scripts (sourced from the project's root on the device machine, $OUT set by the
# device tool). Each session's script keeps only what it measures; these are the parts they all repeat.

# The test picture of the frame benchmarks: a red ramp across, a green ramp down, 64-pixel blue checks.
write_picture() {  # write_picture PATH WIDTH HEIGHT
  python3 - "$@" <<'PY'
import sys
path, W, H = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
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
PY
}

# A fresh config dir, its settings.json choosing a rotation variant ($1) and a window size ($2, default 1280x800).
settings() {
  local d; d=$(mktemp -d)
  local size=${2:-1280x800}
  local w=${size%x*} h=${size#*x}
  if [ -n "$1" ]; then
    echo "{\"version\": 1, \"window\": {\"width\": $w, \"height\": $h}, \"image_lab\": {\"rotate_variant\": \"$1\"}}" > $d/settings.json
  else
    echo "{\"version\": 1, \"window\": {\"width\": $w, \"height\": $h}}" > $d/settings.json
  fi
  echo $d
}

# One line from a --json record: FPS, the frame's and the kernels' medians.
summary() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.1f  frame median %.3f ms  kernel median %.3f ms  frame/kernel %.3f' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r['frame_ms']['median'] / max(r['kernel_ms']['median'], 1e-9)))
PY
}

# run TAG BIN VARIANT ARGS...: the headless viewer of .gpu/BIN as a user starts it; prints the frame breakdown
# and the summary line. $SIZE (WxH) sets the frame (--size: a headless run does not read the window's size
# from settings.json). The kernels are the source tree's, or .gpu/BIN/kernels where a build carries its own
# (an older build whose kernels differ from today's).
run() {
  local tag=$1 bin=$2 variant=$3; shift 3
  local d; d=$(settings "$variant" "${SIZE:-1280x800}")
  local size=() kernels=kernels
  [ -n "$SIZE" ] && size=(--size "$SIZE")
  [ -d .gpu/$bin/kernels ] && kernels=.gpu/$bin/kernels
  timeout 90 .gpu/$bin/kernelscope --headless --kernels-dir $kernels --config-dir $d "${size[@]}" "$@" --json $OUT/r.json > $OUT/r.txt 2>&1
  echo "== $bin $tag rc=$?"; grep -E "frame breakdown" $OUT/r.txt | sed 's/^/   /'
  if [ -f $OUT/r.json ]; then summary $OUT/r.json; else tail -5 $OUT/r.txt; fi
  rm -f $OUT/r.json $OUT/r.txt
}

# gpu_tests BIN TEST...: the named test binaries of .gpu/BIN against the source tree's kernels.
gpu_tests() {
  local bin=$1; shift
  for t in "$@"; do
    KS_KERNELS_DIR=$PWD/kernels timeout 240 .gpu/$bin/$t > $OUT/$t.txt 2>&1
    echo "== $t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran" $OUT/$t.txt | head -12
  done
}

# standard_frames REP BIN: the frame benchmarks every issue-19 comparison repeats (the 6000x4000 photo and the
# 8192² picture spinning, the two bilinear rotations' FPS, N-body 65536), on the external-memory path. Needs
# write_pictures first.
REC=(--frames 420 --record 300 --warmup 100)
write_pictures() {
  write_picture /tmp/photo6000.ppm 6000 4000
  write_picture /tmp/big8192.ppm 8192 8192
}
standard_frames() {
  local rep=$1 bin=$2
  run photo6000-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  run big8192-spin-$rep $bin "" "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
  run big8192-bilinear-$rep $bin bilinear "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
  run big8192-bilinear_image-$rep $bin bilinear_image "${REC[@]}" --spin 30 --interop external /tmp/big8192.ppm
  run nbody65536-$rep $bin "" "${REC[@]}" --n 65536 --interop external
}
