# Issue 19 experiment (binary from a8c33a4, since reverted): the external path handing buffers over through
# shared Vulkan semaphores, beside main; plus test_interop on the GPU. Result in docs/BENCHMARKS.md.
. .gpu/device-env.sh >/dev/null
src=$(strings .gpu/new/test_interop | grep -m1 '/kernels$'); if [ ! -e "$src" ]; then mkdir -p "$(dirname "$(dirname "$src")")" && ln -sfn "$PWD" "$(dirname "$src")"; fi
timeout 120 .gpu/new/test_interop 2>&1 | grep -E "^\[ *(OK|FAILED|PASSED) |Failure|Which is|written again|external," | head -30
sed -n '/^python3 - <<.PY.$/,/^PY$/p' bench/experiments/2026-11-26-s13-frame/frame.sh > /tmp/mk.sh; bash /tmp/mk.sh
for bin in base new; do for rep in 1 2; do
 d=$(mktemp -d); timeout 100 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d --frames 420 --record 300 --warmup 100 --spin 30 --interop external --json /tmp/r.json /tmp/big8192.ppm > /tmp/l.txt 2>&1; echo "$bin 8192 rc=$? $(grep -E 'recording:' /tmp/l.txt)"; grep -E "interop:|breakdown" /tmp/l.txt | sed 's/.*ms): /   /'
 d=$(mktemp -d); timeout 100 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d --frames 420 --record 300 --warmup 100 --spin 30 --interop external --json /tmp/r.json /tmp/photo6000.ppm > /tmp/l.txt 2>&1; echo "$bin 6000 rc=$? $(grep -E 'recording:' /tmp/l.txt)"
 d=$(mktemp -d); timeout 100 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d --frames 420 --record 300 --warmup 100 --n 65536 --interop external --json /tmp/r.json > /tmp/l.txt 2>&1; echo "$bin nbody rc=$? $(grep -E 'recording:' /tmp/l.txt)"
done; done
timeout 60 .gpu/new/kernelscope --headless --kernels-dir kernels --config-dir $(mktemp -d) --frames 300 --spin 30 --screenshot $OUT/sem-8192.png /tmp/big8192.ppm 2>&1 | grep -E "interop|breakdown"
timeout 60 .gpu/new/kernelscope --headless --bench interop --kernels-dir kernels 2>&1 | tail -9
