#!/usr/bin/env bash
# House style (docs/architecture.md): every C++ source and header matches the checked-in
# .clang-format (Google style, 100 columns). Run by scripts/run_tests.sh, so by CI.
#   scripts/check_format.sh          list the files that differ, exit 1 if any
#   scripts/check_format.sh --fix    reformat them in place
# clang-format 14 (Debian 12's `clang-format` package) is the reference version: other
# versions format a few constructs differently.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 3
fmt="$(command -v clang-format-14 || command -v clang-format || true)"
if [ -z "$fmt" ]; then
  echo "check_format: clang-format not found (scripts/setup.sh installs it)"
  exit 2
fi
mapfile -t files < <(git ls-files '*.h' '*.cc' 2>/dev/null || \
                     find . -path ./build\* -prune -o \( -name '*.h' -o -name '*.cc' \) -print)
if [ "${1:-}" = "--fix" ]; then
  "$fmt" -i --style=file "${files[@]}"
  exit 0
fi
# One clang-format process per 40 files, as many at a time as there are cores (one process per
# file took 96 s of the CI's tests stage; a batch reports each differing file by name in its
# "code should be clang-formatted" diagnostics, which is all this check prints).
jobs="${COLLSYNTH_JOBS:-$(nproc)}"
out="$(printf '%s\0' "${files[@]}" | xargs -0 -n 40 -P "$jobs" "$fmt" --style=file --dry-run -Werror 2>&1)"
rc=$?
mapfile -t bad_files < <(printf '%s\n' "$out" |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ $rc -ne 0 ] && [ ${#bad_files[@]} -eq 0 ]; then  # clang-format failed otherwise
  printf '%s\n' "$out" | head -5
  echo "check_format: clang-format failed (exit $rc) without naming a file"
  exit 1
fi
for f in "${bad_files[@]}"; do
  echo "check_format: $f differs from .clang-format (scripts/check_format.sh --fix)"
done
if [ ${#bad_files[@]} -ne 0 ]; then
  echo "check_format: ${#bad_files[@]} of ${#files[@]} files differ"
  exit 1
fi
echo "check_format: ${#files[@]} files ok"
