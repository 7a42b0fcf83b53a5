# Issue 19, nineteenth session: which part of a spinning image-lab frame costs what (experiment build with
# KS_X_* switches, s19-exp19 branch; not product code). H200, headless EGL, external path, 1280x800.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 - <<'PY'
def write(path, W, H):
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (W, H))
        for y in range(H):
            f.write(bytes(((x ^ y) * 7) & 255 for x in range(W * 3)))
write('/tmp/big8192.ppm', 8192, 8192)
write('/tmp/photo6000.ppm', 6000, 4000)
PY
K=.gpu/probe/kernelscope
one() { local tag=$1 envs=$2; shift 2; env $envs timeout 200 $K --headless --kernels-dir .gpu/probe/kernels --config-dir $(mktemp -d) \
  --frames 420 --record 300 --warmup 100 --interop external --spin 30 "$@" > $OUT/$tag.txt 2>&1
  echo "== $tag [$envs] rc=$?"; grep -E "frame breakdown|pipeline runs" $OUT/$tag.txt | sed 's/.*ms): //'; }
for rep in 1 2; do
  for img in big8192 photo6000; do
    one $img-two-$rep "KS_X_TWO=1" /tmp/$img.ppm
    one $img-two-words-$rep "KS_X_TWO=1 KS_X_TORGBA_WORDS=1" /tmp/$img.ppm
    one $img-two-quads-$rep "KS_X_TWO=1 KS_X_TORGBA_QUADS=1" /tmp/$img.ppm
    one $img-two-copy-$rep "KS_X_TWO=1 KS_X_TORGBA_COPY=1" /tmp/$img.ppm
    one $img-two-none-$rep "KS_X_TWO=1 KS_X_NO_TORGBA=1" /tmp/$img.ppm
    one $img-two-quads-nolevels-$rep "KS_X_TWO=1 KS_X_TORGBA_QUADS=1 KS_X_NO_LEVELS=1" /tmp/$img.ppm
  done
done
rm -f $OUT/*.txt
