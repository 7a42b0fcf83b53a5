. .gpu/device-env.sh >/dev/null
which nsys ncu; ls /usr/local/cuda*/bin 2>/dev/null | grep -iE "nsys|ncu|nsight" ; ls -d /opt/nvidia/nsight* /usr/local/cuda*/nsight* 2>/dev/null
python3 - <<'PY'
def write(path, W, H):
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (W, H))
        for y in range(H):
            f.write(bytes(((x ^ y) * 7) & 255 for x in range(W * 3)))
write('/tmp/small64.ppm', 64, 64)
write('/tmp/big8192.ppm', 8192, 8192)
PY
K=.gpu/s19img/kernelscope
one() { local tag=$1; shift; timeout 200 $K --headless --kernels-dir kernels --config-dir $(mktemp -d) "$@" --json $OUT/$tag.json > $OUT/$tag.txt 2>&1; echo "== $tag rc=$?"; grep -E "frame breakdown|recording:" $OUT/$tag.txt; }
REC=(--frames 420 --record 300 --warmup 100 --interop external)
one static8192 "${REC[@]}" /tmp/big8192.ppm
one spin64 "${REC[@]}" --spin 30 /tmp/small64.ppm
one static64 "${REC[@]}" /tmp/small64.ppm
one spin8192-small-window "${REC[@]}" --spin 30 --size 320x200 /tmp/big8192.ppm
one spin8192 "${REC[@]}" --spin 30 /tmp/big8192.ppm
one nospin-nbody1024 "${REC[@]}" --n 1024
if command -v nsys >/dev/null; then
  timeout 200 nsys profile -t opengl,cuda,osrt --opengl-gpu-workload=true -o $OUT/spin --force-overwrite true \
    $K --headless --kernels-dir kernels --config-dir $(mktemp -d) --frames 300 --spin 30 --interop external /tmp/big8192.ppm > $OUT/nsys.txt 2>&1
  echo "nsys rc=$?"; tail -5 $OUT/nsys.txt
  nsys stats -r cuda_gpu_trace,opengl_khr_gpu_range_trace,cuda_api_sum $OUT/spin.nsys-rep > $OUT/nsys-stats.txt 2>&1; head -c 3000 $OUT/nsys-stats.txt
fi
