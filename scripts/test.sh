#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (GoogleTest
# under ctest; OpenCL tests on PoCL, GL tests on Mesa llvmpipe via EGL and Xvfb).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
build=${KS_BUILD_DIR:-$root/build}
status=0
# --no-tests=error: a build that registered no tests (or a -R that matches
# none) fails instead of passing with nothing run.
ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$(nproc)" "$@" || status=$?
# ctest lists skipped tests without saying why; the reasons are in its log.
log="$build/Testing/Temporary/LastTest.log"
if [ -f "$log" ] && grep -q ': Skipped$' "$log"; then
  echo "Why tests were skipped:"
  grep -A1 ': Skipped$' "$log" | grep -v -e ': Skipped$' -e '^--$' | sort | uniq -c | sed 's/^/  /'
fi
exit $status
