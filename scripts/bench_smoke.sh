#!/usr/bin/env bash
# CI stage "bench" (.ci/run): builds every benchmark bench/*_bench.cc in the Release build
# build/ (they are EXCLUDE_FROM_ALL, so scripts/build.sh does not build them) and runs each
# once on its smallest input, so a benchmark cannot rot: one that no longer compiles, crashes,
# or fails its own cross-check (each returns nonzero then) fails the stage. The figures of a
# smoke run mean nothing; the real runs and their commands are in docs/performance.md.
# A new benchmark must get its smoke arguments below (a missing entry fails the stage).
#
# Environment: COLLSYNTH_JOBS (build parallelism, default nproc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${COLLSYNTH_JOBS:-$(nproc)}"

declare -A smoke_args=(
  [baselines_bench]="1"
  [bfb_bench]="--quick --no-base"
  [checker_bench]="6"
  [export_bench]="--only gpu1 --collective both"
  [generators_bench]="--quick ."
  [pipeline_bench]="--only torus4"
  [polarstar_bench]="8"
  [repair_bench]="--k 4"
  [simulate_bench]="--quick"
  [symmetric_bench]="--only fattree16 --plain"
  [alltoall_symmetric_bench]="--only fattree(4)"
  [schedule_writer_bench]="--dim 4 --boxes 2 --fattree 4 --reps 1"
  [topo_info_bench]="2000"
)

mapfile -t benches < <(cd "$root/bench" && ls -- *_bench.cc | sed 's/\.cc$//')
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DCOLLSYNTH_BUILD_BENCH=ON >/dev/null
cmake --build "$root/build" -j "$jobs" --target "${benches[@]}"

status=0
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for b in "${benches[@]}"; do
  if [ -z "${smoke_args[$b]+set}" ]; then
    echo "bench_smoke: $b has no smoke arguments (add them to scripts/bench_smoke.sh)"
    status=1
    continue
  fi
  start=$SECONDS
  # shellcheck disable=SC2086
  if (cd "$scratch" && timeout 300 "$root/build/bench/$b" ${smoke_args[$b]}) \
      >"$scratch/$b.log" 2>&1; then
    echo "bench_smoke: $b ${smoke_args[$b]}: ok in $((SECONDS - start)) s"
  else
    code=$?
    echo "bench_smoke: $b ${smoke_args[$b]}: FAILED (exit $code) after $((SECONDS - start)) s"
    tail -n 20 "$scratch/$b.log"
    status=1
  fi
done
exit $status
