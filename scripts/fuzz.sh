#!/usr/bin/env bash
# Builds the libFuzzer targets (scripts/sanitize.sh --build-only fuzzers: build-asan/, clang,
# ASan + UBSan) and runs each for SECONDS (default 30), COLLSYNTH_FUZZ_PARALLEL (default nproc)
# targets at a time, on a temporary copy of its corpus
# tests/fuzz_corpus/<target>/ (the repository does not grow). Before fuzzing, every saved
# crash in tests/fuzz_corpus/crashes/<target>/ is replayed once as a regression test.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 30; scripts/fuzz.sh 600 steps
#
# Limits per run: -rss_limit_mb=2048 (also the malloc limit), -timeout=10 s per input (60 s
# for expression),
# -max_len=8192. With COLLSYNTH_FUZZ_RUNS=1 (.ci/run sets it) each target runs a fixed number
# of inputs (runs_for below: about SECONDS' worth on this 2-core machine under ASan) instead of
# for SECONDS, with SECONDS x 4 as a cap: with a fixed seed the run then tries the same inputs
# whatever the machine's load, so a local run of the same commit predicts the CI stage
# (docs/fuzzing.md "CI"). Exit 0 when no target found anything; otherwise 1, after printing for every
# failing target the log tail and the path of the crashing input (kept in the temp dir, or
# COLLSYNTH_FUZZ_OUT if set). Environment: COLLSYNTH_FUZZ_OUT (output dir, default a mktemp
# dir), COLLSYNTH_FUZZ_ARGS (extra libFuzzer flags, e.g. -fork=1 -ignore_crashes=1), COLLSYNTH_FUZZ_SKIP_BUILD=1.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-30}"
shift || true
all_targets=(topology_json failed_links edge_list expression steps steps_compact pipeline symmetric_pipeline experiment_definition experiment_shards msccl_xml mscclpp_plan simulate_options export_options chakra_trace nvidia_smi nccl_xml demand flows)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=("${all_targets[@]}"); fi

if [ "${COLLSYNTH_FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  bash "$root/scripts/sanitize.sh" --build-only fuzzers
fi
# shellcheck source=sanitizer_env.sh
source "$root/scripts/sanitizer_env.sh"
out="${COLLSYNTH_FUZZ_OUT:-$(mktemp -d -t collsynth-fuzz.XXXXXX)}"
mkdir -p "$out"
echo "fuzz: $seconds s per target, output in $out"

dict_for() {
  case "$1" in
    edge_list) echo "$root/fuzz/edge_list.dict" ;;
    expression) echo "$root/fuzz/expression.dict" ;;
    msccl_xml) echo "$root/fuzz/msccl_xml.dict" ;;
    mscclpp_plan) echo "$root/fuzz/mscclpp_plan.dict" ;;
    experiment_shards) echo "$root/fuzz/experiment_shards.dict" ;;
    chakra_trace) echo "$root/fuzz/chakra_trace.dict" ;;
    nvidia_smi) echo "$root/fuzz/nvidia_smi.dict" ;;
    nccl_xml) echo "$root/fuzz/nccl_xml.dict" ;;
    *) echo "$root/fuzz/json.dict" ;;
  esac
}

# Executions per target for COLLSYNTH_FUZZ_RUNS=1 at SECONDS = 30: about 25 s of each target's
# rate under ASan measured in the CI fuzz stage on this machine (docs/fuzzing.md "CI"), scaled
# linearly for other SECONDS. A new target starts at 50000 until measured.
runs_for() {
  local n
  case "$1" in
    topology_json) n=300000 ;;
    failed_links) n=300000 ;;
    edge_list) n=110000 ;;
    expression) n=25000 ;;
    steps) n=100000 ;;
    steps_compact) n=300000 ;;
    pipeline) n=130000 ;;
    symmetric_pipeline) n=160000 ;;
    experiment_definition) n=65000 ;;
    experiment_shards) n=55000 ;;
    msccl_xml) n=95000 ;;
    mscclpp_plan) n=45000 ;;
    simulate_options) n=350000 ;;
    export_options) n=60000 ;;
    chakra_trace) n=700000 ;;
    nvidia_smi) n=120000 ;;
    nccl_xml) n=50000 ;;
    demand) n=400000 ;;
    flows) n=100000 ;;
    *) n=50000 ;;
  esac
  echo $((n * seconds / 30))
}

# One target: its messages go to $out/<target>.txt (printed whole once it ends, so parallel
# runs do not interleave), its failure to a line of $out/failed.
fuzz_one() {
  local t="$1" bin work timeout flags crashes start rc runs rate slow
  bin="$root/build-asan/fuzz/${t}_fuzzer"
  if [ ! -x "$bin" ]; then echo "fuzz: no such target $t ($bin)"; echo "$t" >>"$out/failed"; return; fi
  work="$out/$t"
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -r "$root/tests/fuzz_corpus/$t/." "$work/corpus/"
  # expression: a legal 10^6-node topology takes ~2 s natively and ~15-40 s under ASan on a
  # loaded 2-core machine; 60 s still catches the unguarded sizes (> 120 s natively; docs/fuzzing.md).
  timeout=10
  if [ "$t" = expression ]; then timeout=60; fi
  # COLLSYNTH_FUZZ_SEED fixes libFuzzer's seed (.ci/run does: a CI run repeats the sequence
  # of inputs a developer ran, up to its speed, so it cannot fail by luck alone).
  flags=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout="$timeout" -max_len=8192
         ${COLLSYNTH_FUZZ_SEED:+-seed="$COLLSYNTH_FUZZ_SEED"}
         -dict="$(dict_for "$t")" -artifact_prefix="$work/artifacts/" -print_final_stats=1)
  crashes="$root/tests/fuzz_corpus/crashes/$t"
  if [ -d "$crashes" ] && [ -n "$(ls -A "$crashes")" ]; then
    echo "fuzz: $t: replaying $(ls "$crashes" | wc -l) saved crash(es) from $crashes"
    if ! "$bin" "${flags[@]}" "$crashes"/* >"$work/replay.log" 2>&1; then
      echo "fuzz: $t: a saved crash still fails; log $work/replay.log:"
      grep -E "ERROR|SUMMARY|finding|Running:|==[0-9]+==" "$work/replay.log" | head -20 || true
      echo "$t(saved crash)" >>"$out/failed"
    fi
  fi
  local budget=(-max_total_time="$seconds") what="$seconds s"
  if [ "${COLLSYNTH_FUZZ_RUNS:-0}" = 1 ]; then
    budget=(-runs="$(runs_for "$t")" -max_total_time="$((seconds * 4))")
    what="$(runs_for "$t") inputs (cap $((seconds * 4)) s)"
  fi
  echo "fuzz: $t: $what on $(ls "$work/corpus" | wc -l) corpus file(s)"
  start=$(date +%s)
  set +e
  # shellcheck disable=SC2086
  "$bin" "${flags[@]}" "${budget[@]}" ${COLLSYNTH_FUZZ_ARGS:-} "$work/corpus" \
    >"$work/fuzz.log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -1)
  echo "fuzz: $t: exit $rc, ${runs:-?} executions, ${rate:-?} exec/s, $(( $(date +%s) - start )) s"
  # slow-unit-* files are libFuzzer's notes of inputs slower than 10 s (legal topologies near
  # the size limits, under ASan): listed, not failures; -timeout turns a real hang into a
  # timeout-* artifact and a non-zero exit.
  slow=$(find "$work/artifacts" -name 'slow-unit-*' | wc -l)
  if [ "$slow" -gt 0 ]; then echo "fuzz: $t: $slow slow input(s) (> 10 s, not failures) in $work/artifacts"; fi
  if [ $rc -ne 0 ] || [ -n "$(find "$work/artifacts" -type f ! -name 'slow-unit-*')" ]; then
    echo "$t" >>"$out/failed"
    echo "fuzz: $t FAILED; log $work/fuzz.log; crashing input(s):"
    find "$work/artifacts" -type f ! -name 'slow-unit-*' | sed 's/^/  /' || true
    grep -E "==ERROR|ERROR: libFuzzer|SUMMARY|collsynth fuzz finding|runtime error| in collsynth::" "$work/fuzz.log" \
      | grep -v "collsynth::fuzz::" | cut -c1-300 | head -12 || true
  fi
}

# COLLSYNTH_FUZZ_PARALLEL targets at a time (default: the number of cores): each target still
# gets SECONDS of its own, on one core, so the stage takes about SECONDS x targets / cores.
parallel="${COLLSYNTH_FUZZ_PARALLEL:-$(nproc)}"
: >"$out/failed"
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  (set +e; fuzz_one "$t" >"$out/$t.txt" 2>&1; cat "$out/$t.txt") &
  running=$((running + 1))
done
wait || true
mapfile -t failed <"$out/failed"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs under $out/<target>/artifacts/)"
  exit 1
fi
echo "fuzz: all ${#targets[@]} target(s) ran without a finding"
