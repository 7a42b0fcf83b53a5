# Issue 19: with KS_X_POLL (a run starts only once the last one is done, never waited for), how many kernel
# runs a second does the spinning image lab make, against frames? Experiment build (s19-exp19).
. .gpu/device-env.sh >/dev/null
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
settings() { local d; d=$(mktemp -d); [ -n "$1" ] && echo "{\"version\": 1, \"window\": {\"width\": 1280, \"height\": 800}, \"image_lab\": {\"rotate_variant\": \"$1\"}}" > $d/settings.json; echo $d; }
one() { local tag=$1 envs=$2 variant=$3; shift 3; local s=$(date +%s.%N)
  env $envs timeout 200 $K --headless --kernels-dir kernels --config-dir $(settings "$variant") \
  --frames 1000 --record 600 --warmup 300 --interop external --spin 30 "$@" > $OUT/$tag.txt 2>&1
  echo "== $tag [$envs] rc=$? wall $(echo "$(date +%s.%N) - $s" | bc)"; grep -E "frame breakdown|pipeline runs|recording:" $OUT/$tag.txt | sed -e 's/.*ms): //' -e 's/.*pipeline runs/  pipeline runs/'; }
for rep in 1 2; do
  for img in big8192 photo6000; do
    one $img-three-$rep "KS_X_NONE=1" "" /tmp/$img.ppm
    one $img-poll-$rep "KS_X_POLL=1" "" /tmp/$img.ppm
    one $img-poll-two-$rep "KS_X_POLL=1 KS_X_TWO=1" "" /tmp/$img.ppm
  done
  for v in bilinear bilinear_image; do
    one big8192-$v-three-$rep "KS_X_NONE=1" $v /tmp/big8192.ppm
    one big8192-$v-poll-$rep "KS_X_POLL=1" $v /tmp/big8192.ppm
  done
done
rm -f $OUT/*.txt
