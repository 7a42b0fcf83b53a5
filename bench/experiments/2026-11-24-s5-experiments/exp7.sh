#!/usr/bin/env bash
# GPU call 7: the viewer as a user starts it, image lab defaults on the H200.
cd "$(dirname "$0")/.."
. .gpu/device-env.sh >/dev/null
./build/kernelscope --headless --frames 200 --config-dir $OUT/cfg --screenshot $OUT/image-lab-h200.png --state-dump $OUT/state.json scratch/photo.png 2>&1 | tail -8
./build/kernelscope --headless --frames 200 --config-dir $OUT/cfg --state-dump $OUT/state2.json scratch/photo.png 2>&1 | grep -E "programs|frames"
python3 -c "import json; j=json.load(open('$OUT/state.json')); print(j.get('image')); print([l for l in j.get('log',[])][-5:])" 2>&1 | head
