#!/bin/bash
# Session 22 (issue 19): how the panels' build rate (--panel-rate) changes the N-body
# and the spinning image frames on the H200; the same build, rates alternating, two rounds.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 - <<'PY'
def write(path, W, H):
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (W, H))
        rx = bytes(x * 255 // W for x in range(W))
        for y in range(H):
            r = bytearray(W * 3)
            r[0::3] = rx
            r[1::3] = bytes([y * 255 // H]) * W
            f.write(r)
write('/tmp/photo6000.ppm', 6000, 4000)
PY
summary() {
  python3 - "$1" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))['runs'][0]['measurements']
print('   fps %.1f  frame median %.3f ms  kernel median %.3f ms  frame/kernel %.3f' % (r['fps'], r['frame_ms']['median'], r['kernel_ms']['median'], r['frame_ms']['median'] / max(r['kernel_ms']['median'], 1e-9)))
PY
}
run() {  # run TAG RATE ARGS...
  local tag=$1 rate=$2; shift 2
  local d; d=$(mktemp -d)
  timeout 90 .gpu/s22/kernelscope --headless --kernels-dir kernels --config-dir $d --panel-rate $rate "$@" --json $OUT/r.json > $OUT/r.txt 2>&1
  echo "== rate $rate $tag rc=$?"; grep -E "frame breakdown" $OUT/r.txt | sed 's/^/   /'
  if [ -f $OUT/r.json ]; then summary $OUT/r.json; else tail -5 $OUT/r.txt; fi
  rm -f $OUT/r.json $OUT/r.txt
}
REC=(--frames 620 --record 500 --warmup 100)
SECONDS=0
for rep in 1 2; do
  for rate in 0 60 120 240 1000; do
    run nbody65536-$rep $rate "${REC[@]}" --n 65536 --interop external
    run photo6000-spin-$rep $rate "${REC[@]}" --spin 30 --interop external /tmp/photo6000.ppm
  done
  echo "-- round $rep at ${SECONDS}s"
done
