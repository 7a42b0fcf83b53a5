#!/bin/bash
# Session 22: where a spinning 6000x4000 frame's CPU time goes on the H200. perf runs on the
# device (as root): carry it with its libraries, made on the development machine with
#   mkdir -p /tmp/perfpkg/lib .gpu/prof && cp /usr/bin/perf /tmp/perfpkg/ &&
#   ldd /usr/bin/perf | awk '/=>/{print $3}' | grep -v -E "libc.so|libm.so|libstdc|libgcc_s|ld-linux" |
#     xargs -I{} cp -L {} /tmp/perfpkg/lib/ && tar -C /tmp -cJf .gpu/prof/perf.tar.xz perfpkg &&
#   strip --strip-debug -o .gpu/prof/kernelscope build/kernelscope && cp agg.py .gpu/prof/
# (the binary keeps its symbols, not its debug info: 5 MB). agg.py sums the main thread's samples
# under a function by the callee chain below it.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
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
PY
tar -C /tmp -xJf .gpu/prof/perf.tar.xz
P="env LD_LIBRARY_PATH=/tmp/perfpkg/lib /tmp/perfpkg/perf"
cat /proc/sys/kernel/perf_event_paranoid
$P stat -e task-clock true 2>&1 | tail -4
KS=.gpu/prof/kernelscope
d=$(mktemp -d)
ARGS=(--headless --kernels-dir kernels --config-dir $d --interop external --spin 30 /tmp/photo6000.ppm)
timeout 60 $KS "${ARGS[@]}" --frames 1500 --record 1000 --warmup 300 > $OUT/plain.txt 2>&1; echo "plain rc=$?"; grep -E "frame breakdown|recording:" $OUT/plain.txt
# flat profile: whole run, every thread
timeout 120 $P record -F 4999 -o /tmp/flat.data -- $KS "${ARGS[@]}" --frames 3000 > /tmp/flat.txt 2>&1; echo "flat rc=$?"
grep -E "frame breakdown" /tmp/flat.txt
pid=$($P report -i /tmp/flat.data --sort pid --stdio 2>/dev/null | grep -oE "kernelscope:?[0-9]+|[0-9]+:kernelscope" | head -1 | grep -oE "[0-9]+")
echo "main pid $pid"
{ echo "== by thread"; $P report -i /tmp/flat.data --sort tid --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -20
  echo "== main thread by dso"; $P report -i /tmp/flat.data --tid=$pid --sort dso --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -25
  echo "== main thread by symbol"; $P report -i /tmp/flat.data --tid=$pid --sort dso,sym --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -120
} > $OUT/flat-report.txt 2>&1
head -60 $OUT/flat-report.txt
# call graphs (dwarf) of a shorter run, main thread, aggregated by the caller chain below the frame's stages
timeout 200 $P record -F 2999 --call-graph dwarf,32768 -o /tmp/dw.data -- $KS "${ARGS[@]}" --frames 1200 > /tmp/dw.txt 2>&1; echo "dwarf rc=$?"
ls -la /tmp/dw.data
pid2=$($P report -i /tmp/dw.data --sort pid --stdio 2>/dev/null | grep -oE "kernelscope:?[0-9]+|[0-9]+:kernelscope" | head -1 | grep -oE "[0-9]+")
$P script -i /tmp/dw.data --tid=$pid2 -F tid,ip,sym,dso 2>/dev/null > /tmp/dw-script.txt; wc -l /tmp/dw-script.txt
{ for r in 'ks::Session::applyRequests' 'ks::Session::update' 'ks::Session::draw' 'ks::ImGuiLayer::newFrame' 'ks::ImageScene::update' 'ks::ImageScene::runPipeline' 'ks::drawPanels' 'ks::ImGuiLayer::render' 'ks::LabRenderer::render' 'ks::ImageScene::collectResults' 'ks::FrameProfiler'; do
    for dep in 1 2; do echo "==== $r depth $dep"; python3 .gpu/prof/agg.py /tmp/dw-script.txt "$r" $dep | head -25; done; done
  echo "==== main (depth 1,2,3)"; for dep in 1 2 3; do python3 .gpu/prof/agg.py /tmp/dw-script.txt 'main' $dep | head -25; done
} > $OUT/callers.txt 2>&1
head -c 3000 $OUT/callers.txt
