#!/bin/bash
# Ninth session: the image lab's changed paths on NVIDIA (new image -> new texture, fit, open message), each interop path.
. .gpu/device-env.sh >/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=.gpu/bin/kernelscope
for interop in auto external host gl-sharing; do
  for img in .gpu/s9/gray.png .gpu/s9/rgba.png /nonexistent.png; do
    d=$(mktemp -d)
    $K --headless --frames 20 --kernels-dir kernels --no-program-cache --config-dir $d --interop $interop \
       --state-dump $d/s.json --screenshot $OUT/shot-$interop-$(basename $img).png $img > $d/out.txt 2>&1
    echo "== $interop $img exit $?"
    python3 -c "
import json,sys; j=json.load(open('$d/s.json')); i=j['image']
print(' interop', j['interop'], '| image', i['path'] or 'built-in', i['width'], i['height'], i['channels'], '| pictures', [[round(v) for v in p] for p in i['pictures']], '| profiler', j['panels'].get('Profiler'))
print(' running', i['running_rotate'], '|', i['running_histogram'], '| message', i['message'][:160].replace(chr(10),' / '))
print(' log', [l[:120] for l in j['log'][-3:]])"
  done
done
