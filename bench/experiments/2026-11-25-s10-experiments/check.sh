#!/bin/bash
# Tenth session: on the H200, a large file decodes off the frame loop (frames go on, --frames runs
# wait for it), on every interop path; plain PGM and a too-large 16-bit PNG give their messages.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=.gpu/bin/kernelscope
mkdir -p /tmp/s10
python3 - <<'PY'
import zlib, struct, random
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
def png(path, w, h, depth, ctype, row):
    c = zlib.compressobj(1)
    data = b''.join(c.compress(row(y)) for y in range(h)) + c.flush()
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 0))
                           + chunk(b'IDAT', data) + chunk(b'IEND', b''))
random.seed(10)
noise = bytes(random.getrandbits(8) for _ in range(8192 * 3 + 256))
png('/tmp/s10/big-rgb.png', 8192, 8192, 8, 2, lambda y: b'\1' + noise[y % 256: y % 256 + 8192 * 3])
png('/tmp/s10/big16.png', 16384, 16384, 16, 6, lambda y: b'\0' + b'\x12\x34' * (16384 * 4))
open('/tmp/s10/plain.pgm', 'w').write('P2\n4 2\n255\n0 64 128 255\n255 128 64 0\n')
PY
ls -la /tmp/s10
for interop in auto host gl-sharing external; do
  for img in /tmp/s10/big-rgb.png /tmp/s10/plain.pgm /tmp/s10/big16.png; do
    d=$(mktemp -d)
    start=$(date +%s.%N)
    $K --headless --frames 5 --kernels-dir kernels --no-program-cache --config-dir $d --interop $interop \
       --state-dump $d/s.json --screenshot $OUT/shot-$interop-$(basename $img).png $img > $d/out.txt 2>&1
    code=$?
    end=$(date +%s.%N)
    echo "== $interop $img exit $code, $(python3 -c "print(round($end - $start, 2))") s wall"
    python3 -c "
import json; j=json.load(open('$d/s.json')); i=j['image']
print(' interop', j['interop'], '| frames', j['frames'], '| image', i['path'] or 'built-in', i['width'], i['height'], i['channels'], '| loading', i['loading'])
print(' running', i['running_rotate'], '|', i['running_histogram'])
print(' message', i['message'][:300].replace(chr(10), ' / '))"
  done
done
