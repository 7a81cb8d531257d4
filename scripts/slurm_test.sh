#!/usr/bin/env bash
# The ctest labelled `slurm` (docs/experiments.md "From one box to a cluster"): on a one-node Slurm cluster brought up by
# scripts/slurm_local.sh, `collsynth experiment submit quick-start --slurm --shards 3 --wait`
# must give the CSV of a one-box `experiment run quick-start` (time columns aside), and a
# failing array task must make submit --wait exit 1 naming the task and its log. The daemons
# it started are stopped (by pid) whatever happens: an EXIT trap, also on INT/TERM.
#   scripts/slurm_test.sh BINARY
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d /tmp/collsynth-slurm-test.XXXXXX)" || exit 1
cluster="$work/cluster"
cleanup() {
  bash "$root/scripts/slurm_local.sh" stop "$cluster" || echo "slurm_test: stop failed" >&2
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() {
  echo "slurm_test: FAILED: $*" >&2
  for f in "$work"/out*/slurm/*.log "$cluster"/slurmctld.log "$cluster"/slurmd.log; do
    [ -s "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
  done
  exit 1
}

bash "$root/scripts/slurm_local.sh" start "$cluster" || fail "cannot start the local cluster"
# shellcheck source=/dev/null
source "$cluster/env.sh"
cd "$work" || exit 1

# 1. quick-start in 3 shards through Slurm == quick-start on one box.
start=$SECONDS
timeout 180 "$bin" experiment submit quick-start --dir "$root/experiments" --slurm --shards 3 \
  --out "$work/out" --wait --no-plots >"$work/submit.txt" 2>&1
code=$?
cat "$work/submit.txt"
[ $code -eq 0 ] || fail "submit --wait exited $code"
echo "slurm_test: 3 shards and the merge through Slurm in $((SECONDS - start)) s"
for i in 0 1 2; do
  [ -f "$work/out/shard-$i-of-3/meta.json" ] || fail "no shard $i"
done
"$bin" experiment run quick-start --dir "$root/experiments" --out "$work/single" --no-plots \
  >/dev/null || fail "one-box run failed"
python3 "$root/scripts/compare_experiments.py" --compare-dirs "$work/single" "$work/out" ||
  fail "the merged CSV differs from the one-box run"

# 2. A task that fails (its shard folder cannot be created): exit 1 naming it and its log.
mkdir -p "$work/out2" && touch "$work/out2/shard-1-of-3"
timeout 180 "$bin" experiment submit quick-start --dir "$root/experiments" --slurm --shards 3 \
  --out "$work/out2" --wait --no-plots >"$work/submit2.txt" 2>&1
code=$?
cat "$work/submit2.txt"
[ $code -eq 1 ] || fail "submit --wait with a failing task exited $code, not 1"
grep -q "task 1 of array job [0-9]* ended FAILED (exit 2:0): log $work/out2/slurm/shard-1.log" \
  "$work/submit2.txt" || fail "the failed task and its log are not named"
grep -q "cannot create shard folder" "$work/out2/slurm/shard-1.log" ||
  fail "the task's log does not say why"
echo "slurm_test: passed"
