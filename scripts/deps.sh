#!/usr/bin/env bash
# Installs the Debian 12 packages kernelscope needs to build, run and test, and
# only those that are missing (so it is quick and quiet when nothing is).
# Sourced or run by scripts/run.sh and scripts/test.sh.
set -euo pipefail

KS_PACKAGES=(
  # toolchain
  g++ cmake ninja-build pkg-config python3-glad lld
  # libraries (headers + static ImGui; GLFW's native header needs the Xrandr headers)
  libglfw3-dev libimgui-dev libglm-dev libstb-dev libegl-dev libgl-dev libvulkan-dev libx11-dev libxrandr-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers libcli11-dev nlohmann-json3-dev libgtest-dev
  # run time: an OpenCL CPU driver, Mesa's software GL (llvmpipe) for EGL and GLX, Xvfb for tests
  ocl-icd-libopencl1 pocl-opencl-icd libegl-mesa0 libgl1-mesa-dri libglx-mesa0 xvfb xauth
  # --distributed (N-body over MPI ranks, issue 24): Open MPI, found by CMake's FindMPI; the build works without it
  libopenmpi-dev openmpi-bin
  # the UI's fonts (DejaVu Sans and Sans Mono)
  fonts-dejavu-core
  # scripts/test-hardening.sh: clang with its sanitizer and libFuzzer runtimes, llvm-symbolizer for readable reports
  clang libclang-rt-14-dev llvm
)

missing=()
for p in "${KS_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "kernelscope: installing missing packages: ${missing[*]}"
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
