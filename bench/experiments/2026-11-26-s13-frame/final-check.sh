# The merged build (issues 19 and 20) on the GPU: interop and N-body tests under KS_REQUIRE, --verify, the image lab
# on both paths and N-body started as a user starts them. Log: h200/final-console.txt.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in test_interop test_nbody_kernels; do
  src=$(strings .gpu/new/$t | grep -m1 '/kernels$'); if [ ! -e "$src" ]; then mkdir -p "$(dirname "$(dirname "$src")")" && ln -sfn "$PWD" "$(dirname "$src")"; fi
  KS_REQUIRE=opencl,gl timeout 200 .gpu/new/$t > $OUT/$t.txt 2>&1; echo "$t rc=$?"; grep -E "^\[ *(FAILED|PASSED|SKIPPED) |Failure" -A3 $OUT/$t.txt | head -20
done
timeout 60 .gpu/new/kernelscope --verify --n 4099 --kernels-dir kernels 2>&1 | tail -2
sed -n '/^python3 - <<.PY.$/,/^PY$/p' bench/experiments/2026-11-26-s13-frame/frame.sh > /tmp/mk.sh; bash /tmp/mk.sh
for ip in external host; do
 timeout 60 .gpu/new/kernelscope --headless --interop $ip --frames 200 --spin 30 --kernels-dir kernels --config-dir $(mktemp -d) --screenshot $OUT/final-$ip.png /tmp/photo6000.ppm 2>&1 | grep -E "interop:|frames:|image lab|breakdown"
done
timeout 60 .gpu/new/kernelscope --headless --frames 300 --n 65536 --kernels-dir kernels --config-dir $(mktemp -d) 2>&1 | grep -E "interop:|frames:|n-body|breakdown"
