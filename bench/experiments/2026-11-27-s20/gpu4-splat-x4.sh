#!/bin/bash
# Twentieth session, issue 24's viewer target on a 4-GPU host: the particles drawn by GL compute shaders (branch
# s20-splat, .gpu/splat) against main (e945118, .gpu/main, point sprites), alternating three times (section 1 of
# gpu4-splat.sh, which ran on a 2-GPU host).
#   1. the viewer at N = 1M on all four GPUs, main and splat alternating twice:
#        kernelscope --headless --platform nvidia --n 1048576 --devices all --record 20 --warmup 5 --json ...
#      and the splat build with --particle-drawing sprites (the same build, the old drawing);
#   2. one GPU, N = 1M: the drawing alone (GL's timer over the render stage), each way, --record 4 --warmup 2;
#   3. one GPU, N = 65536 (issue 19's frame against kernel): main and splat, --record 300 --warmup 100;
#   4. test_particle_render on the GPU (the splat against NVIDIA's point sprites).
set -u
. .gpu/device-env.sh >/dev/null
OUT=${OUT:-/tmp/s20-gpu4}
mkdir -p "$OUT"
S="$OUT/summary.txt"
say() { echo "$@" | tee -a "$S"; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$S"
summary() { python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['runs'][0]['measurements']
f=r['frame_ms']
print('   fps %.3f  frame median %.2f ms  p95 %.2f  kernel median %.2f ms  per-device kernel %s ms  exchange %.2f ms' % (
  r['fps'], f['median'], f.get('p95') or 0, r['kernel_ms']['median'], r.get('device_kernel_ms') or '', r.get('exchange_ms') or 0))" "$1"; }
viewer() {  # tag, build, args...
  local tag=$1 build=$2; shift 2
  local d; d=$(mktemp -d)
  timeout 240 .gpu/$build/kernelscope --headless --platform nvidia --kernels-dir kernels --config-dir "$d" "$@" \
    --json "$OUT/$tag.json" > "$OUT/$tag.txt" 2>&1
  say "$tag rc=$?: $(summary "$OUT/$tag.json" 2>&1 | tail -1)"
  grep -E "^  (particles|frame breakdown)" "$OUT/$tag.txt" | sed 's/^/    /' | tee -a "$S"
  grep -E "kernelscope: (error|warning)" "$OUT/$tag.txt" | head -3 | sed 's/^/    /' | tee -a "$S"
}
say "== the viewer at N = 1048576 on all four GPUs"
for round in 1 2 3; do
  viewer split-main-$round main --n 1048576 --devices all --record 20 --warmup 5
  viewer split-splat-$round splat --n 1048576 --devices all --record 20 --warmup 5
done
