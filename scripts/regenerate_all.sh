#!/usr/bin/env bash
# Regenerates the shipped experiment outputs (notebooks_data/NAME/) from a clean HEAD, so each
# meta.json records a commit that is in the history, git_dirty false and the definition hash
# of the definition in the tree (tests/experiments/provenance_test.cc checks the last).
#
#   scripts/regenerate_all.sh [--only quick|long|all] [--slurm --shards N] [--jobs J]
#                             [--binary PATH] [NAME ...]
#
# --only quick (default) regenerates the shipped experiments not in LONG of
# scripts/compare_experiments.py, long only those, all both; NAMEs pick experiments by name.
# One box by default (`collsynth experiment run NAME --jobs J`); with --slurm each experiment
# is `collsynth experiment submit NAME --slurm --shards N --wait` (docs/experiments.md "From
# one box to a cluster"; needs a file system shared with the nodes: the scratch folder is
# build/regenerate/ under the repository root).
#
# All runs first write to build/regenerate/NAME/ only (ignored by git), so the tree stays clean
# for every run (it is checked before each: a change stops the script, exit 2); then each
# output's CSVs are compared with the committed ones, time columns ignored
# (scripts/compare_experiments.py --compare-dirs). Identical: the outputs are copied into
# notebooks_data/NAME/. Different: nothing is copied, the difference is printed and the exit
# code is 1 (a changed result is never shipped silently: look at it, then copy it by hand).
# Exit 0 all regenerated, 1 a run failed or differs, 2 usage error or a dirty tree.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

only=quick slurm=0 shards=0 jobs=2 binary="$root/build/collsynth"
names=()
usage() { echo "usage: $0 [--only quick|long|all] [--slurm --shards N] [--jobs J] [--binary PATH] [NAME ...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
    --slurm) slurm=1; shift ;;
    --shards) [ $# -ge 2 ] || usage; shards=$2; shift 2 ;;
    --jobs|-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "regenerate_all.sh: unknown option $1" >&2; usage ;;
    *) names+=("$1"); shift ;;
  esac
done
case "$only" in quick|long|all) ;; *) echo "regenerate_all.sh: --only: '$only' is not quick, long or all" >&2; exit 2 ;; esac
if [ "$slurm" = 1 ] && ! [[ "$shards" =~ ^[1-9][0-9]*$ ]]; then
  echo "regenerate_all.sh: --slurm needs --shards N (N >= 1)" >&2; exit 2
fi
if [ "$slurm" = 0 ] && [ "$shards" != 0 ]; then
  echo "regenerate_all.sh: --shards needs --slurm" >&2; exit 2
fi
if ! git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  echo "regenerate_all.sh: $root is not a git tree: the outputs could not record a commit" >&2; exit 2
fi
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "regenerate_all.sh: the tree has local changes; commit or stash them first (outputs must come from a clean HEAD):" >&2
  git -C "$root" status --short --untracked-files=no >&2
  exit 2
fi
[ -x "$binary" ] || { echo "regenerate_all.sh: no binary $binary (build it: cmake --build build --target collsynth)" >&2; exit 2; }

# The LONG set, from the one place that defines it.
long=$(python3 -c "import sys; sys.path.insert(0, 'scripts'); import compare_experiments as c; print(' '.join(sorted(c.LONG)))")
is_long() { case " $long " in *" $1 "*) return 0 ;; esac; return 1; }

if [ ${#names[@]} -eq 0 ]; then
  for d in notebooks_data/*/; do
    n=$(basename "$d")
    [ -f "experiments/$n.json" ] || { echo "regenerate_all.sh: notebooks_data/$n has no experiments/$n.json: skipped" >&2; continue; }
    if is_long "$n"; then [ "$only" = quick ] && continue; else [ "$only" = long ] && continue; fi
    names+=("$n")
  done
fi

head=$(git -C "$root" rev-parse HEAD)
echo "regenerating ${#names[@]} experiment(s) at $head ($([ "$slurm" = 1 ] && echo "Slurm, $shards shards each" || echo "one box, --jobs $jobs")): ${names[*]}"
scratch="$root/build/regenerate"
mkdir -p "$scratch"
clean() { [ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ]; }
failed=() differs=() done_=() ran=()
# Phase 1: every run, into the scratch folder only, so the tree stays clean for all of them.
for n in "${names[@]}"; do
  out="$scratch/$n"
  if ! clean || [ "$(git -C "$root" rev-parse HEAD)" != "$head" ]; then
    echo "regenerate_all.sh: the tree changed during the runs (local changes or a new HEAD); stopped before $n" >&2
    exit 2
  fi
  rm -rf "$out"
  mkdir -p "$out"
  start=$(date +%s)
  if [ "$slurm" = 1 ]; then
    cmd=("$binary" experiment submit "$n" --slurm --shards "$shards" --out "$out" --wait)
  else
    # Memory-bound experiments run one task at a time (figure7-large-n-2000 peaks at 9.9 GB per
    # task: two at once do not fit in 24 GB).
    j=$jobs
    case "$n" in figure7-large-n-2000) j=1 ;; esac
    cmd=("$binary" experiment run "$n" --jobs "$j" --out "$out")
  fi
  echo "== $n: ${cmd[*]}"
  "${cmd[@]}" >"$scratch/$n.log" 2>&1
  rc=$?
  if [ $rc != 0 ]; then
    echo "   FAILED (exit $rc), log: $scratch/$n.log"; tail -5 "$scratch/$n.log" | sed 's/^/   /'
    failed+=("$n"); continue
  fi
  echo "   ran in $(( $(date +%s) - start )) s"
  ran+=("$n")
done
# Phase 2: compare each with the committed CSVs; copy the identical ones into the tree.
for n in "${ran[@]}"; do
  out="$scratch/$n"
  if ! python3 scripts/compare_experiments.py --compare-dirs "notebooks_data/$n" "$out" | sed 's/^/   /'; then
    echo "   $n DIFFERS from the committed CSVs: not copied (outputs in $out)"
    differs+=("$n"); continue
  fi
  # The outputs are flat files; shard folders and Slurm scripts stay in the scratch folder.
  find "$out" -maxdepth 1 -type f -exec cp {} "notebooks_data/$n/" \;
  echo "   copied -> notebooks_data/$n/"
  done_+=("$n")
done
echo "regenerated: ${done_[*]:-(none)}"
[ ${#differs[@]} -gt 0 ] && echo "differ from the committed CSVs (not copied): ${differs[*]}"
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
if [ ${#differs[@]} -gt 0 ] || [ ${#failed[@]} -gt 0 ]; then exit 1; fi
echo "now commit notebooks_data/ (and drop regenerated names from tests/experiments/provenance_allowlist.txt)"
exit 0
