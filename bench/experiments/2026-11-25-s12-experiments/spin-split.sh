#!/bin/bash
# Where a spinning 8192² frame's time goes (about 9 ms outside the timed stages): the same run with
# the GL upload from the pixel-unpack buffer (KS_EXP=1) and/or the mipmap generation (KS_EXP=2)
# left out, or uploaded as BGRA (KS_EXP=4; +8: GL_UNSIGNED_INT_8_8_8_8_REV). Timing only: ks-exp is an experiment build (env switch in SharedTexture, not in the product).
. .gpu/device-env.sh >/dev/null
python3 - <<'PY'
W = H = 8192
ramp = bytes(x * 255 // W for x in range(W))
with open('/tmp/big.ppm', 'wb') as f:
    f.write(b'P6\n%d %d\n255\n' % (W, H))
    for y in range(H):
        r = bytearray(W * 3); r[0::3] = ramp; r[1::3] = bytes([y * 255 // H]) * W; r[2::3] = ramp[::-1]
        f.write(r)
PY
d=$(mktemp -d)
for ip in external host; do
  for e in ${EXPS:-0 1 2 3}; do
    KS_EXP=$e timeout 120 .gpu/bin/ks-exp --headless --interop $ip --frames 200 --record 120 --warmup 70 --spin 30 \
      --kernels-dir kernels --config-dir $d /tmp/big.ppm > /tmp/l.txt 2>&1
    echo "$ip KS_EXP=$e rc=$? $(grep recording: /tmp/l.txt)"
  done
done
