#!/usr/bin/env bash
# Configures and builds collsynth (Release) into build/. Usage: scripts/build.sh [targets...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${COLLSYNTH_JOBS:-$(nproc)}"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j "$jobs" ${1:+--target "$@"}
