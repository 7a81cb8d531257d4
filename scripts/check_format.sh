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
bad=0
for f in "${files[@]}"; do
  if ! "$fmt" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "check_format: $f differs from .clang-format (scripts/check_format.sh --fix)"
    bad=$((bad + 1))
  fi
done
if [ $bad -ne 0 ]; then
  echo "check_format: $bad of ${#files[@]} files differ"
  exit 1
fi
echo "check_format: ${#files[@]} files ok"
