#!/bin/bash
# Session 21: the headless viewer hung at start on the H200. Starts it, waits 25 s, lists its threads and
# takes every thread's backtrace with cuda-gdb (the device has no gdb). .gpu/dbg/kernelscope: build/kernelscope
# with only its debug sections stripped, so that functions keep their names.
. .gpu/device-env.sh >/dev/null
D=$(mktemp -d)
.gpu/dbg/kernelscope --headless --kernels-dir kernels --config-dir $D --frames 420 --record 300 --warmup 100 --spin 30 --interop external /tmp/photo6000.ppm > $OUT/app.txt 2>&1 &
P=$!
sleep 25
echo "alive: $(kill -0 $P 2>/dev/null && echo yes || echo no)"; cat $OUT/app.txt
ls /proc/$P/task | wc -l
for t in /proc/$P/task/*; do echo "$t $(cat $t/comm) $(cat $t/wchan)"; done
GDB=$(command -v gdb || echo /usr/local/cuda/bin/cuda-gdb)
timeout 60 $GDB -batch -p $P -ex "set pagination off" -ex "thread apply all bt 25" 2>&1 | grep -v "^\[New LWP" | head -300
kill -9 $P
