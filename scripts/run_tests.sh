#!/usr/bin/env bash
# README command 2: set up, build (Release) and run the whole test suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/check_layering.sh"
bash "$root/scripts/check_format.sh"
bash "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "${COLLSYNTH_JOBS:-$(nproc)}" --timeout 900
