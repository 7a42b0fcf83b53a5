. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
sed -n '/^python3 - <<.PY.$/,/^PY$/p' bench/experiments/2026-11-26-s13-frame/frame.sh > /tmp/mk.sh; bash /tmp/mk.sh
for rep in 1 2; do for bin in base new; do for f in big8192 photo6000; do
  d=$(mktemp -d)
  timeout 120 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d --frames 200 --record 120 --warmup 40 --spin 30 --interop host --json $OUT/$bin-$f-host-$rep.json /tmp/$f.ppm > $OUT/$bin-$f-host-$rep.txt 2>&1
  echo "== $bin $f host rc=$? $(grep -E 'recording:' $OUT/$bin-$f-host-$rep.txt)"; grep "frame breakdown" $OUT/$bin-$f-host-$rep.txt | sed 's/.*ms): /   /'
done; done; done
for bin in base new; do d=$(mktemp -d); timeout 120 .gpu/$bin/kernelscope --headless --kernels-dir kernels --config-dir $d --frames 300 --record 200 --warmup 60 --n 65536 --interop host --json $OUT/$bin-nbody-host.json > $OUT/$bin-nbody-host.txt 2>&1; echo "== $bin nbody host $(grep -E 'recording:' $OUT/$bin-nbody-host.txt)"; done
timeout 60 .gpu/new/kernelscope --headless --kernels-dir kernels --config-dir $(mktemp -d) --frames 100 --spin 30 --interop host --screenshot $OUT/host-8192.png /tmp/big8192.ppm > /dev/null 2>&1; echo "shot rc=$?"
src=$(strings .gpu/new/test_interop | grep -m1 '/kernels$'); if [ ! -e "$src" ]; then mkdir -p "$(dirname "$(dirname "$src")")" && ln -sfn "$PWD" "$(dirname "$src")"; fi
timeout 120 .gpu/new/test_interop 2>&1 | grep -E "^\[ *(OK|FAILED|PASSED) " 
(cd $OUT && tar czf host.tgz *.txt *.json && rm -f *.json)
