#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (GoogleTest
# under ctest; OpenCL tests on PoCL, GL tests on Mesa llvmpipe via EGL and Xvfb).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
build=${KS_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
