#!/usr/bin/env bash
# Mutation check: puts small deliberate bugs, one at a time, into COPIES of
# kernels/ and of the product code, runs the tests that should see each, and
# fails if any bug survives (its tests still pass). Run before each release
# (README); too slow for CI on two cores (the product mutants rebuild).
#
#   scripts/mutation-check.sh                 every mutant
#   scripts/mutation-check.sh --kernels-only  only the kernel mutants (no rebuild)
#
# Kernel mutants run the normal build's test binaries (build/ or $KS_BUILD_DIR)
# with KS_KERNELS_DIR pointing at a mutated copy of kernels/ (tests/test_devices.h,
# tests/session_fixture.h). Product mutants copy the working tree into
# build-mutation/src, mutate the copy and rebuild only the test that runs
# (build-mutation/build, kept between runs). The source tree is never touched.
# Before any mutant, each test runs once on the unmutated copy and must pass;
# KS_REQUIRE=opencl,gl makes a missing device fail there instead of skipping
# (a skipped test would "kill" every mutant).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KS_BUILD_DIR:-$root/build}
scratch=$root/build-mutation
export KS_REQUIRE=${KS_REQUIRE:-opencl,gl}
kernels_only=0
[ "${1:-}" = --kernels-only ] && kernels_only=1

# ---- the mutants ------------------------------------------------------------------
# One per line: file | sed expression (must change the file) | test binary | gtest filter | what the bug is.
kernel_mutants=(
  # The three bugs of issue 20, which every test used to pass:
  'nbody.cl|s/for (int j = 0; j < count; ++j) acc = interact/for (int j = 0; j < count - 1; ++j) acc = interact/|test_nbody_kernels|NBodyKernels.EveryVariant*|naive loop misses the last body (seen only when the last group is full)'
  'histogram.cl|/s3 += partials\[(g + 3 \* rows) \* binCount + bin\];/d|test_image_kernels|ImageKernels.*Histogram*|merge 4-way loop drops its fourth load (needs > 3 x rows groups)'
  'transpose.cl|s/const bool full = (width \& 15) == 0 \&\& (height \& 15) == 0 \&\&/const bool full = (width \& 15) == 0 \&\&/|test_image_kernels|ImageKernels.*Transpose*|gray 16-byte transpose: whole-tile test ignores the height'
  # nbody.cl
  'nbody.cl|s/j < (slice + 1) \* SLICE; j += UNROLL/j < (slice + 1) * SLICE - UNROLL; j += UNROLL/|test_nbody_kernels|NBodyKernels.EveryVariant*:NBodyKernels.Unroll*|tiled loop stops one unrolled step before the end of its slice'
  'nbody.cl|s/for (int s = 1; s < SPLIT; ++s) acc\[k\]/for (int s = 1; s < SPLIT - 1; ++s) acc[k]/|test_nbody_kernels|NBodyKernels.Unroll*|SPLIT reduction leaves out the last slice'
  'nbody.cl|s/acc \* ((real)0.5 \* dt \* dt)/acc * (dt * dt)/|test_nbody_kernels|NBodyKernels.Padding*:NBodyKernels.TwoBody*|position update without the 1/2 of a dt^2 / 2'
  # histogram.cl
  'histogram.cl|s/#define LUMA(r, g, b) ((77u \* (r) + 150u \* (g)/#define LUMA(r, g, b) ((77u * (r) + 151u * (g)/|test_image_kernels|ImageKernels.*Histogram*|luminance weight of green off by one'
  'histogram.cl|s/for (; g < count; g += rows) s0 += partials/for (; g + 1 < count; g += rows) s0 += partials/|test_image_kernels|ImageKernels.*Histogram*|merge tail loop skips the last partial histogram'
  # ceilings.cl (issue 23): each benchmark checks its kernel's output against the CPU
  'ceilings.cl|s/a7 = mad(a7, one, step);/a7 = a7;/|test_ceilings|CeilingsOnTheDevice.Every*|one of the eight multiply-add chains does no work'
  'ceilings.cl|s/atomic_inc(\&bins\[x >> 24\]);/if (i \& 1) atomic_inc(\&bins[x >> 24]);/|test_ceilings|CeilingsOnTheDevice.Every*|local atomics: every other increment skipped'
  'ceilings.cl|s/words\[lid + ((uint)i \& 3u) \* items\] = sum;/words[lid] = sum;/|test_ceilings|CeilingsOnTheDevice.Every*|local bandwidth: every write to the same word'
  'ceilings.cl|s/odd += in\[first + (k + 1) \* loopStep\];/odd += in[first + k * loopStep];/|test_ceilings|CeilingsOnTheDevice.Every*|read: each pair of float4s is the same one read twice'
  # transpose.cl
  'transpose.cl|s/const bool full = inAligned \&\& outAligned \&\&/const bool full = inAligned \&\&/|test_image_kernels|ImageKernels.*Transpose*|4x4-block transpose: whole-tile test ignores the output alignment'
  'transpose.cl|s/if (ox < height \&\& oy < width) out\[oy \* height + ox\]/if (ox < height \&\& oy < width - 1) out[oy * height + ox]/|test_image_kernels|ImageKernels.*Transpose*|tiled transpose drops the last output row'
  # rotate.cl
  'rotate.cl|s/const acc_t bottom = p01 \* (4096 - fx) + p11 \* fx;/const acc_t bottom = p01 * (4096 - fx) + p11 * fy;/|test_image_kernels|ImageKernels.*Rotat*|bilinear bottom row weighted by the y fraction'
  'rotate.cl|s/return ((uint)x < (uint)inW \&\& (uint)y < (uint)inH) ? in\[y \* inW + x\]/return ((uint)x <= (uint)inW \&\& (uint)y < (uint)inH) ? in[y * inW + x]/|test_image_kernels|ImageKernels.*Rotat*|nearest sample reads one pixel past the right edge'
  # the interop copy path (display.cl: what the image lab and pictures draw)
  'display.cl|s/out\[i\] = (uchar4)(g, g, g, 255);/out[i] = (uchar4)(g, g, g, 0);/|test_image_kernels|ImageKernels.ToRgba*|gray picture converted with alpha 0'
  'display.cl|s/const int y0 = min(2 \* y, fromH - 1), y1 = min(2 \* y + 1, fromH - 1);/const int y0 = min(2 * y, fromH - 1), y1 = y0;/|test_interop|InteropTest.Shrunk*|level chain averages one row instead of two'
  'display.cl|s/largest\[bin\] = max(largest\[bin\], largest\[bin + span\]);/largest[bin] = min(largest[bin], largest[bin + span]);/|test_interop|InteropTest.HistogramBars*|the plot full height is the smallest bin, not the largest'
)
product_mutants=(
  'compute/nbody_gpu.h|s/bool passed() const { return nonFinite.empty() \&\& maxRelativeError/bool passed() const { return maxRelativeError/|test_nbody_kernels|NBodyVerification.*:NBodyKernels.Verify*|Verify passes NaN again (issue 20)'
  'compute/interop/host_copy.cpp|s/clEnqueueReadBuffer(queue.get(), clMem_.get(), CL_FALSE, 0, bytes_, dst/clEnqueueReadBuffer(queue.get(), clMem_.get(), CL_FALSE, 0, bytes_ \/ 2, dst/|test_interop|InteropTest.Host*|host interop path copies half the buffer'
)

# ---- helpers ---------------------------------------------------------------------------
field() { cut -d'|' -f"$1" <<<"$2"; }
fail=0
survivors=()
log=$(mktemp -d "${TMPDIR:-/tmp}/ks-mutation.XXXXXX")
trap 'rm -rf "$log"' EXIT

# Runs test binary $1 (in build dir $2) with filter $3 and kernels dir $4; status as the binary's.
run_test() {
  KS_KERNELS_DIR=$4 timeout 600 "$2/tests/$1" --gtest_filter="$3" --gtest_brief=1 >"$log/out" 2>&1
}

# Applies `sed -e $2` to copy $1; fails if the file is unchanged (the mutant no longer applies).
mutate() {
  cp "$1" "$log/before"
  sed -i -e "$2" "$1"
  if cmp -s "$1" "$log/before"; then
    echo "mutation-check: the mutant no longer applies to $1 (edit the list): $2"
    return 1
  fi
}

# Runs a mutant's test; counts it as caught when the test fails.
judge() {  # $1 label, $2 binary, $3 build dir, $4 filter, $5 kernels dir
  local start=$SECONDS
  if run_test "$2" "$3" "$4" "$5"; then
    echo "  SURVIVED  $1  ($2 $4 passed, $((SECONDS - start)) s)"
    survivors+=("$1")
    fail=1
  else
    local first
    first=$(grep -m1 -E 'Failure|FAILED|Expected|error|Segmentation|Aborted' "$log/out" || tail -1 "$log/out")
    echo "  caught    $1  ($2, $((SECONDS - start)) s: ${first:0:110})"
  fi
}

# ---- kernel mutants --------------------------------------------------------------------
[ -x "$build/tests/test_nbody_kernels" ] || { echo "mutation-check: build the tests first (scripts/build.sh)"; exit 2; }
echo "mutation-check: ${#kernel_mutants[@]} kernel mutants (KS_REQUIRE=$KS_REQUIRE, build $build)"
clean=$log/kernels
cp -r "$root/kernels" "$clean"
declare -A baseline=()
for m in "${kernel_mutants[@]}"; do
  key="$(field 3 "$m")|$(field 4 "$m")"
  [ -n "${baseline[$key]:-}" ] && continue
  if ! run_test "$(field 3 "$m")" "$build" "$(field 4 "$m")" "$clean"; then
    echo "mutation-check: FAIL: $(field 3 "$m") $(field 4 "$m") fails without any mutant:"; tail -30 "$log/out"; exit 1
  fi
  baseline[$key]=ok
done
for m in "${kernel_mutants[@]}"; do
  copy=$log/mutant
  rm -rf "$copy" && cp -r "$root/kernels" "$copy"
  mutate "$copy/$(field 1 "$m")" "$(field 2 "$m")" || { fail=1; continue; }
  judge "$(field 1 "$m"): $(field 5 "$m")" "$(field 3 "$m")" "$build" "$(field 4 "$m")" "$copy"
done

# ---- product mutants ---------------------------------------------------------------------
if [ "$kernels_only" = 0 ]; then
  echo "mutation-check: ${#product_mutants[@]} product mutants (copy of the tree in $scratch/src)"
  # Tracked and untracked-but-not-ignored files: the working tree as it is.
  stage=$log/stage
  mkdir -p "$stage" "$scratch/src"
  (cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - | tar -C "$stage" -xf -)
  # Only files whose contents differ are copied, and they get a new time, so the
  # copy's build recompiles them: tar's original (older) times would leave
  # objects built from the last run's mutant in place.
  (cd "$stage" && find . -type f -print0) | while IFS= read -r -d '' f; do
    if ! cmp -s "$stage/$f" "$scratch/src/$f"; then
      mkdir -p "$(dirname "$scratch/src/$f")"
      cp "$stage/$f" "$scratch/src/$f"
    fi
  done
  if [ ! -f "$scratch/build/build.ninja" ]; then
    cmake -S "$scratch/src" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  fi
  for m in "${product_mutants[@]}"; do
    target=$(field 3 "$m")
    nice cmake --build "$scratch/build" --target "$target" -j "$(nproc)" >"$log/build" 2>&1 ||
      { echo "mutation-check: FAIL: building $target from the copy:"; tail -30 "$log/build"; exit 1; }
    run_test "$target" "$scratch/build" "$(field 4 "$m")" "$scratch/src/kernels" ||
      { echo "mutation-check: FAIL: $target $(field 4 "$m") fails without any mutant:"; tail -30 "$log/out"; exit 1; }
    file=$scratch/src/$(field 1 "$m")
    cp "$file" "$log/original"
    if mutate "$file" "$(field 2 "$m")"; then
      if nice cmake --build "$scratch/build" --target "$target" -j "$(nproc)" >"$log/build" 2>&1; then
        judge "$(field 1 "$m"): $(field 5 "$m")" "$target" "$scratch/build" "$(field 4 "$m")" "$scratch/src/kernels"
      else
        echo "  caught    $(field 1 "$m"): $(field 5 "$m")  (does not compile)"
      fi
    else
      fail=1
    fi
    cp "$log/original" "$file"  # back as it was (cp keeps a newer mtime: the next build recompiles it)
  done
fi

if [ "$fail" = 0 ]; then
  echo "mutation-check: every mutant was caught"
else
  echo "mutation-check: FAIL: ${#survivors[@]} mutant(s) survived or no longer apply:"
  for s in "${survivors[@]}"; do echo "  $s"; done
fi
exit $fail
