#!/bin/bash
# Issue 24 at N = 4194304 on a 4-GPU host: the split over 1..4 devices (--scaling), 4 MPI ranks, and
# NVIDIA's CUDA nbody sample on 1, 2 and 4 GPUs, in one call. Run from the repository root:
#   bash bench/experiments/2026-11-26-s16/gpu-4m.sh
# MPI: Open MPI's mpirun on the GPU machine passes OCL_ICD_FILENAMES on cut at its first ':', which
# leaves the ranks with PoCL only; -x names NVIDIA's OpenCL driver for them.
. .gpu/device-env.sh >/dev/null
N=4194304; K=.gpu/new/kernelscope
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
echo "== --bench nbody --devices 0,1,2,3 --scaling, N = $N"
timeout 300 $K --bench nbody --platform nvidia --devices 0,1,2,3 --scaling --n $N --iterations 3 --kernels-dir kernels \
  > $OUT/scaling-4m.txt 2>&1; echo "rc=$?"; tail -9 $OUT/scaling-4m.txt
echo "== mpirun -np 4, N = $N"
timeout 200 mpirun -np 4 --allow-run-as-root -x OCL_ICD_FILENAMES=libnvidia-opencl.so.1 $K --headless --bench nbody \
  --distributed --platform nvidia --n $N --iterations 3 --kernels-dir kernels > $OUT/mpi-4m.txt 2>&1
echo "rc=$?"; grep -v "^\[" $OUT/mpi-4m.txt | grep -E "billion|rank |communication|speed-up|error" 
for d in 4 2 1; do
  echo "== NVIDIA nbody sample, -numdevices=$d, N = $N"
  timeout 150 .gpu/anchors/nbody_nogl -benchmark -numbodies=$N -numdevices=$d > $OUT/sample-4m-$d.txt 2>&1
  grep -iE "interactions per second|GFLOP" $OUT/sample-4m-$d.txt
done
