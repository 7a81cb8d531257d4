#!/usr/bin/env bash
# The checking build (docs/fuzzing.md): installs what is missing, configures build-asan/ with
# clang, -O1 with line tables (-gline-tables-only), AddressSanitizer + UndefinedBehaviorSanitizer,
# assertions on and the libFuzzer targets (COLLSYNTH_FUZZ=ON), builds it and runs the whole test suite in it with ctest.
#
#   scripts/sanitize.sh                      build everything, run the whole suite
#   scripts/sanitize.sh --build-only [T...]  only build (targets T..., default all)
#
# Environment: COLLSYNTH_JOBS (build/ctest parallelism, default nproc);
# COLLSYNTH_SANITIZE_CTEST_ARGS (extra ctest arguments, e.g. -R cli_).
# The sanitizer options are exported by scripts/sanitizer_env.sh (also used by fuzz.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${COLLSYNTH_JOBS:-$(nproc)}"
build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
bash "$root/scripts/setup.sh"
# shellcheck source=sanitizer_env.sh
source "$root/scripts/sanitizer_env.sh"
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DCOLLSYNTH_FUZZ=ON -DCOLLSYNTH_BUILD_BENCH=OFF >/dev/null
cmake --build "$root/build-asan" -j "$jobs" ${1:+--target "$@"}
if [ "$build_only" = 1 ]; then exit 0; fi
cd "$root/build-asan"
# shellcheck disable=SC2086
ctest --output-on-failure -j "$jobs" --timeout 1800 ${COLLSYNTH_SANITIZE_CTEST_ARGS:-}
