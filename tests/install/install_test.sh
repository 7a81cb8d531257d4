#!/usr/bin/env bash
# The ctest Install.PackageBinaryPythonAndCompletion (docs/install.md): installs the build tree
# into a temporary prefix P with `cmake --install` (no rebuild) and checks what a user of P gets:
#   1. the layout: binary, headers under P/include/collsynth, static libraries, the CMake
#      package, the experiment definitions, the bash completion; the exported targets carry
#      no precompiled header and no path into the source or build tree;
#   2. a project outside the tree (tests/install/consumer/) finds the package with
#      find_package(collsynth CONFIG), links collsynth::collsynth and prints the exact allgather
#      optimum of the hypercube Q_d, which must be seed 004 eq. (1)'s (2^d - 1)/d (every node
#      receives N-1 shards over in-bandwidth d; the single-node cut is the bottleneck);
#   3. P/bin/collsynth run from another folder finds P/share/collsynth/experiments: `experiment
#      list` names every definition of the tree, and `experiment run quick-start` runs;
#      COLLSYNTH_DATA_DIR overrides it and a missing definition is exit 2 in one line;
#   4. the installed Python package (when built) imports from P alone and computes the same
#      optimum;
#   5. the installed completion script offers, for every command, exactly the subcommands and
#      options its --help lists; another shell than bash is exit 2.
#   tests/install/install_test.sh BUILD_DIR SOURCE_DIR PYTHON_SUBDIR PYTHON
# PYTHON_SUBDIR (relative to P) and PYTHON are empty when the Python package is not built.
set -uo pipefail
build="$(cd "$1" && pwd)"
source_dir="$(cd "$2" && pwd)"
python_subdir="${3:-}"
python="${4:-}"
work="$(mktemp -d /tmp/collsynth-install-test.XXXXXX)" || exit 1
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
fail() {
  echo "install_test: FAILED: $*" >&2
  exit 1
}
start=$SECONDS
step() { echo "install_test: $* ($((SECONDS - start)) s)"; }

# 1. Install and check the layout.
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install"; }
step "installed into $prefix"
for f in bin/collsynth include/collsynth/core/rational.h \
  include/collsynth/graphs/generators/seed000_generators.h \
  include/collsynth/solvers/pipeline/allgather_optimum.h include/collsynth/cli/optimum_report.h \
  lib/libcollsynth_core.a lib/libcollsynth_cli_support.a lib/cmake/collsynth/collsynthConfig.cmake \
  lib/cmake/collsynth/collsynthTargets.cmake share/collsynth/experiments/quick-start.json \
  share/bash-completion/completions/collsynth; do
  [ -s "$prefix/$f" ] || fail "$f is not installed"
done
# Every header of the tree's library folders, at the same relative path.
(cd "$source_dir" && find core graphs theory schedules proofs_check export simulate solvers \
  experiments cli -name '*.h') | while read -r h; do
  [ -f "$prefix/include/collsynth/$h" ] || { echo "$h"; break; }
done | grep . && fail "a header is not installed (above)"
grep -l "PRECOMPILE_HEADERS" "$prefix"/lib/cmake/collsynth/*.cmake &&
  fail "the exported targets carry the precompiled header"
grep -lF -e "$source_dir" -e "$build" "$prefix"/lib/cmake/collsynth/*.cmake &&
  fail "the exported targets name a path in the source or build tree"

# 2. The consumer project: configure, build (Release, one file), run.
cmake -S "$source_dir/tests/install/consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log" >&2; fail "configuring the consumer"; }
cmake --build "$work/consumer" -j 2 >>"$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log" >&2; fail "building the consumer"; }
step "consumer built"
gcd() { local a=$1 b=$2 t; while [ "$b" -ne 0 ]; do t=$((a % b)); a=$b; b=$t; done; echo "$a"; }
expected=""
for d in 2 3 4 6; do
  n=$(((1 << d) - 1)) g=$(gcd $(((1 << d) - 1)) $d)
  expected+="$d $((n / g))/$((d / g))"$'\n'
done
got="$("$work/consumer/consumer" 2 3 4 6)" || fail "the consumer exited $?"
[ "$got"$'\n' = "$expected" ] || fail "consumer printed '$got', expected '$expected'"

# 3. The installed binary, run from a folder with no experiments/ of its own.
mkdir -p "$work/elsewhere" && cd "$work/elsewhere" || exit 1
names="$(env -u COLLSYNTH_DATA_DIR "$prefix/bin/collsynth" experiment list | awk '{print $1}' | sort)"
want="$(cd "$source_dir/experiments" && ls -- *.json | sed 's/\.json$//' | sort)"
[ -n "$want" ] && [ "$names" = "$want" ] ||
  fail "installed 'experiment list' from $PWD gave '$names', expected '$want'"
env -u COLLSYNTH_DATA_DIR "$prefix/bin/collsynth" experiment run quick-start --no-plots \
  --out "$work/quick" >"$work/quick.log" 2>&1 || { cat "$work/quick.log" >&2; fail "experiment run"; }
[ -s "$work/quick/results.csv" ] || fail "experiment run wrote no results.csv"
# ./experiments, when there is one, comes before the installed definitions; COLLSYNTH_DATA_DIR
# before both.
mkdir -p "$work/data/experiments" "$work/local/experiments"
cp "$source_dir/experiments/quick-start.json" "$work/data/experiments/"
cp "$source_dir/experiments/discrete-chunks.json" "$work/local/experiments/"
names="$(cd "$work/local" && env -u COLLSYNTH_DATA_DIR "$prefix/bin/collsynth" experiment list | awk '{print $1}')"
[ "$names" = "discrete-chunks" ] || fail "./experiments: 'experiment list' gave '$names'"
names="$(cd "$work/local" && COLLSYNTH_DATA_DIR="$work/data" "$prefix/bin/collsynth" experiment list | awk '{print $1}')"
[ "$names" = "quick-start" ] || fail "COLLSYNTH_DATA_DIR: 'experiment list' gave '$names'"
COLLSYNTH_DATA_DIR="$work/data" "$prefix/bin/collsynth" experiment run no-such-thing \
  >/dev/null 2>"$work/err"
status=$?
[ $status -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
  grep -qF "$work/data/experiments/no-such-thing.json" "$work/err" ||
  fail "a missing definition: exit $status, stderr '$(cat "$work/err")'"
step "installed binary checked"

# 4. The Python package from P alone (PYTHONPATH, no build tree).
if [ -n "$python_subdir" ]; then
  [ -f "$prefix/$python_subdir/collsynth/__init__.py" ] || fail "no $python_subdir/collsynth"
  got="$(PYTHONPATH="$prefix/$python_subdir" "$python" -c '
import collsynth, sys
assert collsynth.__file__.startswith(sys.argv[1]), collsynth.__file__
for d in (2, 3, 4, 6):
    print(d, collsynth.optimum(collsynth.topo.gen(f"hypercube({d})"))["ratio"])
' "$prefix")" || fail "the installed Python package"
  [ "$got"$'\n' = "$expected" ] || fail "Python printed '$got', expected '$expected'"
  step "Python package checked"
fi

# 5. The completion script against --help, for every command reachable from the root.
# shellcheck source=/dev/null
source "$prefix/share/bash-completion/completions/collsynth" || fail "sourcing the completion"
help_subcommands() {
  "$prefix/bin/collsynth" "$@" --help | awk '/^[A-Za-z]*[Ss]ubcommands:$/ {s = 1; next}
    /^$/ {s = 0} s && /^  [^ ]/ {print $1}'
}
help_options() {
  "$prefix/bin/collsynth" "$@" --help | awk '/^  -/ {n = split($1, a, ","); for (i = 1; i <= n; i++) print a[i]}'
}
complete_words() {  # the completions of "collsynth ARGS...", the last argument being completed
  COMP_WORDS=(collsynth "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _collsynth
  printf '%s\n' "${COMPREPLY[@]}" | grep . | sort
}
commands=0
queue=("")
while [ ${#queue[@]} -gt 0 ]; do
  path="${queue[0]}"
  queue=("${queue[@]:1}")
  read -r -a words <<<"$path"
  want="$(help_subcommands "${words[@]}" | sort)"
  got="$(complete_words "${words[@]}" "")"
  [ "$got" = "$want" ] || fail "completion of 'collsynth $path': '$got', --help lists '$want'"
  want="$(help_options "${words[@]}" | sort)"
  got="$(complete_words "${words[@]}" "-")"
  [ "$got" = "$want" ] || fail "option completion of 'collsynth $path': '$got', --help lists '$want'"
  commands=$((commands + 1))
  for sub in $(help_subcommands "${words[@]}"); do queue+=("${path:+$path }$sub"); done
done
[ $commands -gt 20 ] || fail "only $commands commands walked"
"$prefix/bin/collsynth" completion zsh >/dev/null 2>"$work/err"
status=$?
[ $status -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] ||
  fail "completion zsh: exit $status, stderr '$(cat "$work/err")'"
step "completion checked for $commands commands"
echo "install_test: passed"
