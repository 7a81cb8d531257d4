#!/usr/bin/env bash
# Layering check (docs/architecture.md): every project #include points down the stack
#   core <- every layer (core/ includes nothing else of the project)
#   graphs <- theory, schedules <- proofs_check <- solvers/backends <- solvers/pipeline
#   (solvers/alltoall stands beside solvers/pipeline, on the same floor)
#   <- solvers/bfb <- {solvers/baselines, solvers/finder} <- experiments <- cli
#   and graphs <- theory, schedules <- export <- {experiments, cli}
#   and graphs <- theory, schedules <- simulate <- {experiments, cli} (the simulator reads checked schedules only;
#   it may include proofs_check's MSCCL XML reader headers and the replay result types, and no
#   other proofs_check header) (export never includes proofs_check or
#   solvers: the replay checker must stay independent of the exporter it checks)
# and checkers never include a producer header. Prints each offending include and exits 1.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 3

# folder -> the folders its files may include (besides itself)
declare -A allowed=(
  [core]=""
  [graphs]=""
  [theory]="graphs"
  [schedules]="graphs"
  [proofs_check]="graphs theory schedules"
  [export]="graphs theory schedules"
  [simulate]="graphs theory schedules"
  [solvers/backends]="graphs"
  [solvers/pipeline]="graphs schedules proofs_check solvers/backends"
  [solvers/alltoall]="graphs schedules proofs_check solvers/backends"
  [solvers/bfb]="graphs theory schedules proofs_check solvers/backends solvers/pipeline"
  [solvers/baselines]="graphs theory schedules proofs_check solvers/backends solvers/pipeline solvers/bfb"
  [solvers/finder]="graphs theory schedules proofs_check solvers/backends solvers/pipeline solvers/bfb"
  [experiments]="graphs theory schedules proofs_check export simulate solvers/backends solvers/pipeline solvers/alltoall solvers/bfb solvers/baselines solvers/finder"
)

folder_of() {  # the layer a path belongs to
  case "$1" in
    solvers/*/*) echo "${1%/*}" | cut -d/ -f1-2 ;;
    *) echo "${1%%/*}" ;;
  esac
}

status=0
for layer in "${!allowed[@]}"; do
  while IFS= read -r file; do
    while IFS= read -r inc; do
      target="$(folder_of "$inc")"
      [ "$target" = "$layer" ] && continue
      # core/ is below every layer
      [ "$target" = core ] && [ "$layer" != core ] && continue
      ok=0
      for a in ${allowed[$layer]}; do
        [ "$target" = "$a" ] && ok=1
      done
      # simulate/ reads MSCCL XML with the replay checker's reader (docs/architecture.md)
      if [ "$layer" = simulate ]; then
        case "$inc" in
          proofs_check/msccl_xml_lexer.h | proofs_check/msccl_schema.h | \
            proofs_check/msccl_model.h | proofs_check/replay_report.h) ok=1 ;;
        esac
      fi
      if [ $ok -eq 0 ]; then
        echo "layering: $file includes $inc ($layer may not depend on $target)"
        status=1
      fi
    done < <(sed -n 's/^#include "\([a-z_]*\/[^"]*\)".*/\1/p' "$file")
  done < <(find "$layer" -maxdepth $([ "${layer%%/*}" = solvers ] && echo 1 || echo 2) \
             -name '*.h' -o -name '*.cc' -o -name '*.inc' | sort)
done
if [ -n "$(ls solvers/*.h solvers/*.cc 2>/dev/null)" ]; then
  echo "layering: files directly in solvers/ (each belongs to one of its subfolders)"
  status=1
fi
[ $status -eq 0 ] && echo "layering: ok"
exit $status
