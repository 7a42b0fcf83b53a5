#!/usr/bin/env bash
# Hardening checks, run by CI after the normal suite (.ci/run):
#  1. AddressSanitizer + UndefinedBehaviorSanitizer build (clang, -O1 -g) of the
#     app and the whole test suite, run on PoCL + llvmpipe with no reports;
#     LeakSanitizer (part of ASan) checks for leaks at every exit, the soak test
#     included (a short run of it), and a canary shows it still sees ours;
#  2. libFuzzer over the image-opening path for KS_FUZZ_SECONDS (60), from a
#     seed corpus of valid and damaged files generated into the build dir.
# Build dir: build-asan/ (or $KS_ASAN_BUILD_DIR). Any report fails the script.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KS_ASAN_BUILD_DIR:-$root/build-asan}
fuzz_seconds=${KS_FUZZ_SECONDS:-60}
"$root/scripts/deps.sh"
# PoCL's kernel cache must hold the suite's programs (why: see "PoCL's kernel cache"
# below). .ci/run has just run the normal suite; run alone, this script runs it first.
if [ "${KS_NORMAL_SUITE_RAN:-0}" != 1 ]; then "$root/scripts/test.sh"; fi

# ---- sanitizer options (every one, and why) ------------------------------------
# ASan: detect_leaks=1 is the default on Linux x86-64 (said here so it is
#   visible); detect_stack_use_after_return=1 also catches pointers to dead
#   stack frames. Every report stops the process with a non-zero exit (default).
#   intercept_tls_get_addr=0: clang 14's runtime (fixed in LLVM 17) guesses that a
#   dynamic TLS block carries a glibc-2.19 header whenever its address is 16 bytes
#   past a page boundary, reads garbage bounds from before it and LSan's tracer
#   dies with "Tracer caught signal 11" after the test passed (google/sanitizers
#   #1322; where malloc puts the block decides it: every test_sweep_runner exit
#   hit it, no other test did). Off, LSan does not track dynamic
#   TLS: a pointer kept only there would be reported as a leak, never hidden.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0
# PoCL's kernel cache must be warm: scripts/test.sh runs first (above, or in
#   .ci/run), whose uninstrumented tests build the same programs, so here PoCL
#   loads its cached binaries. PoCL 3.1 compiling from source leaks inside libpocl and libLLVM-15
#   (measured with POCL_KERNEL_CACHE=0: ~2.7 MB once per process, and 72 bytes per
#   thread that compiles); a suppression for it would have to name libpocl, and
#   that would also hide a cl_program or cl_mem we forgot to release.
# LSan: no suppressions. The drivers' blocks that looked like leaks (56 bytes
#   from "<unknown module>") are reachable from libraries unloaded at exit;
#   keep_libraries_loaded.so keeps them mapped (tests/sanitizers/keep_libraries_loaded.c).
# UBSan: any report is fatal (also compiled in with -fno-sanitize-recover) and shows where.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The soak test's short version: long enough to cycle every scene, config and image twice.
export KS_SOAK_FRAMES=${KS_SOAK_FRAMES:-320}

sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
    -DCMAKE_C_FLAGS_SANITIZE="-O1 -g" -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g" \
    -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DKERNELSCOPE_BUILD_HARDENING=ON >/dev/null
fi

# Everything: the app, every test, the fuzzer, the canary and the preload.
start=$SECONDS
cmake --build "$build" -j "$(nproc)"
echo "hardening: sanitizer build took $((SECONDS - start)) s"
status=0
keep_loaded="$build/tests/sanitizers/libks_keep_libraries_loaded.so"

# ---- 1. the tests, sanitized ----------------------------------------------------------
start=$SECONDS
# --no-tests=error: an empty or broken test list is a failure, not a green run.
LD_PRELOAD="$keep_loaded" ctest --test-dir "$build" --output-on-failure --no-tests=error -j "$(nproc)" || status=1
echo "hardening: sanitized tests took $((SECONDS - start)) s"

# ---- 2. LeakSanitizer still sees our leaks -------------------------------------------------
canary_out=$(LD_PRELOAD="$keep_loaded" "$build/tests/sanitizers/leak_canary" 2>&1) && canary=0 || canary=$?
if [ "$canary" = 77 ]; then
  # 77: the machine lacks EGL or OpenCL (any other error exits 1). Where
  # KS_REQUIRE says they must be there (CI), that is a failure too.
  if [ -n "${KS_REQUIRE:-}" ]; then
    echo "hardening: FAIL: leak canary skipped, but KS_REQUIRE=$KS_REQUIRE: $canary_out"; status=1
  else
    echo "hardening: leak canary skipped: $canary_out"
  fi
elif [ "$canary" != 0 ]; then
  echo "hardening: FAIL: the leak canary reported something without leaking:"; echo "$canary_out"; status=1
else
  leak_out=$(LD_PRELOAD="$keep_loaded" "$build/tests/sanitizers/leak_canary" --leak 2>&1) && leaked=0 || leaked=$?
  if [ "$leaked" != 0 ] && grep -q 'SUMMARY: AddressSanitizer: 4321 byte(s) leaked in 1 allocation' <<<"$leak_out" &&
    grep -q 'leak_canary.cpp' <<<"$leak_out"; then
    echo "hardening: leak canary: the deliberate 4321-byte leak (and nothing else) was reported"
    # For the record: what the drivers' unloading looks like without the preload.
    plain=$("$build/tests/sanitizers/leak_canary" 2>&1 | grep '^SUMMARY: AddressSanitizer' || true)
    echo "hardening: without keep_libraries_loaded.so: ${plain:-no report}"
  else
    echo "hardening: FAIL: LeakSanitizer missed the deliberate leak (exit $leaked):"; echo "$leak_out"; status=1
  fi
fi

# ---- 3. fuzzing the image-opening path -------------------------------------------------------
# Seeds: valid files of every format and damaged copies, written fresh each run.
# New inputs the fuzzer finds go to fuzz-corpus/ (kept between local runs); a
# crash is saved as fuzz-artifacts/crash-* and fails the run: turn it into a
# test in tests/test_image_file.cpp and fix io/image_file.cpp.
seeds="$build/fuzz-seeds" corpus="$build/fuzz-corpus" artifacts="$build/fuzz-artifacts"
rm -rf "$seeds" && mkdir -p "$corpus" "$artifacts"
"$build/tests/fuzz/make_image_corpus" "$seeds"
# -timeout: a file that takes 10 s is a hang (the HDR run-length loop was one);
# -rss_limit_mb / -malloc_limit_mb: the harness's limits allow 64 MiB of pixels,
#   so 1 GiB in one go means a size check is missing;
# -max_len: small files reach every header path and keep the run fast;
# -seed: fixed, so CI explores the same inputs each time (a failure repeats on
#   the next run instead of coming and going); KS_FUZZ_SEED=0 picks one at random.
start=$SECONDS
if "$build/tests/fuzz/fuzz_image_decode" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
  -malloc_limit_mb=1024 -max_len=65536 -seed="${KS_FUZZ_SEED:-1}" -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$corpus" "$seeds" >"$build/fuzz.log" 2>&1; then
  echo "hardening: fuzzed for $((SECONDS - start)) s: $(grep -E '^stat::number_of_executed_units' "$build/fuzz.log" | awk '{print $2}') inputs, no crash"
else
  echo "hardening: FAIL: the fuzzer found a crash (inputs in $artifacts):"; tail -60 "$build/fuzz.log"; status=1
fi
exit $status
