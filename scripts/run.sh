#!/usr/bin/env bash
# Installs what is missing, builds, and starts the viewer. With no display it
# renders 300 frames headless through EGL, prints a summary and saves a screenshot.
# Extra arguments go to kernelscope (e.g. --device nvidia).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
build=${KS_BUILD_DIR:-$root/build}
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  shot="$build/kernelscope-headless.png"
  echo "kernelscope: no display; rendering headless, screenshot to $shot"
  exec "$build/kernelscope" --headless --frames 300 --screenshot "$shot" "$@"
fi
exec "$build/kernelscope" "$@"
