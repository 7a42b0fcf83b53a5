#!/bin/bash
# Twelfth session: what one change of a parameter costs in the image lab, started the way a user
# starts it. --spin turns the picture every frame, so every frame runs rotate + histogram + display
# again; --record gives the frame times. Files: the 1600x1000 RGB PNG of check.sh, and 8192² RGB
# (PPM) and gray (PGM) images made here with python3.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=.gpu/bin/kernelscope
python3 - <<'PY'
W = H = 8192
ramp = bytes(x * 255 // W for x in range(W))
with open('/tmp/big.ppm', 'wb') as f, open('/tmp/big.pgm', 'wb') as g:
    f.write(b'P6\n%d %d\n255\n' % (W, H)); g.write(b'P5\n%d %d\n255\n' % (W, H))
    for y in range(H):
        r = bytearray(W * 3); r[0::3] = ramp; r[1::3] = bytes([y * 255 // H]) * W; r[2::3] = ramp[::-1]
        f.write(r); g.write(bytes((v + y) & 255 for v in ramp[:64]) * (W // 64))
PY
ls -la /tmp/big.ppm /tmp/big.pgm
d=$(mktemp -d)
for file in .gpu/photo.png /tmp/big.ppm /tmp/big.pgm; do
  for ip in external host; do
    for spin in 30 0; do
      tag=$(basename $file)-$ip-spin$spin
      args=(--headless --interop $ip --frames 200 --record 150 --warmup 40 --kernels-dir kernels --config-dir $d)
      [ $spin != 0 ] && args+=(--spin $spin)
      timeout 150 $K "${args[@]}" --json $OUT/rec-$tag.json --state-dump /tmp/st-$tag.json $file > /tmp/log-$tag.txt 2>&1
      echo "== $tag rc=$?"; grep -E "image lab:|last kernel run|recording:" /tmp/log-$tag.txt
      python3 -c "
import json,sys
j=json.load(open('/tmp/st-$tag.json'))
s=j['profiler']['series']
print('  profiler medians (ms):', ', '.join('%s %.3f (p95 %.3f)'%(k,v['median_ms'],v['p95_ms']) for k,v in s.items() if not v['kernel']))
print('  kernels medians (ms):', ', '.join('%s %.3f'%(k,v['median_ms']) for k,v in s.items() if v['kernel']))
print('  pipeline runs', j['image']['pipeline_runs'], 'frames', j['frames'], 'angle %.1f'%j['image']['angle'])
" 2>&1
    done
  done
done
