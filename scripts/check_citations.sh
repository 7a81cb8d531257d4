#!/usr/bin/env bash
# The repository explains itself: code, docs, READMEs, scripts, tests and experiment
# definitions cite papers (seed number, section), docs/ pages and runtimes' sources by
# repository and path, never a tracker's issue number nor the runtime notes file that lives
# outside the repository (see PATTERN). The facts such citations pointed to are in docs/
# (e.g. docs/export.md "Runtime facts").
#   scripts/check_citations.sh [ROOT]   — exit 0 if no file under ROOT (the repository by
#       default; tracked files when ROOT is a git tree, else every file) has such a citation,
#       else exit 1 listing each FILE:LINE: TEXT.
#   scripts/check_citations.sh --self-test — plants offending and harmless lines in a temporary
#       tree and checks that exactly the offending ones are reported (the check can fail).
# Exempt: notebooks_data/ (generated outputs: their README and meta.json copy the experiment
# definition) and the definitions listed in EXEMPT below, whose text is pinned by the
# definition_hash of their shipped outputs (docs/experiments.md "Provenance"): change such a
# definition only together with regenerating its output, then drop it from the list.
# Run by ctest (tests/CMakeLists.txt, Docs.*). Reads files only: well under a second.
set -u

EXEMPT=(
  experiments/table6-generation-time.json
)
# The word issue (any case) followed by a number, with or without '#'; the notes file.
PATTERN='\<[Ii][Ss][Ss][Uu][Ee][[:space:]]+#?[0-9]|executors\.md'

list_files() {
  local root="$1"
  if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git -C "$root" ls-files
  else
    (cd "$root" && find . -type f ! -path './.git/*' | sed 's|^\./||')
  fi
}

check_tree() {
  local root="$1" f e skip
  local -a files=()
  while IFS= read -r f; do
    case "$f" in
      notebooks_data/*) continue ;;
    esac
    skip=0
    for e in "${EXEMPT[@]}"; do [ "$f" = "$e" ] && skip=1; done
    [ "$skip" = 1 ] || [ ! -f "$root/$f" ] || files+=("$f")
  done < <(list_files "$root")
  [ "${#files[@]}" -gt 0 ] || return 0
  # One grep over all files (-I skips binary files); exit 1 from grep means no match.
  if (cd "$root" && printf '%s\0' "${files[@]}" | xargs -0 grep -InHE "$PATTERN" --); then
    return 1
  fi
  return 0
}

self_test() {
  local t out rc
  t="$(mktemp -d)"
  trap 'rm -rf "$t"' RETURN
  mkdir -p "$t/docs" "$t/src" "$t/notebooks_data/x" "$t/experiments"
  # The offending words are assembled at run time so that this file does not cite them.
  local is='iss''ue' ex='executors''.md'
  printf '// fine: seed 004 §2, docs/export.md "Runtime facts", TEST(P, Issue4Exact)\n' > "$t/src/ok.cc"
  printf 't%s 3 cells; %ss are tracked elsewhere\n' "$is" "$is" > "$t/docs/ok.md"
  printf '// the fix (%s 14 §1)\n' "$is" > "$t/src/bad1.cc"
  printf 'See Iss%s #7.\n' 'ue' > "$t/docs/bad2.md"
  printf 'facts in ../shared/%s\n' "$ex" > "$t/docs/bad3.md"
  printf '%s 5\n' "$is" > "$t/notebooks_data/x/README.md"
  printf '"%s 20"\n' "$is" > "$t/experiments/table6-generation-time.json"
  out="$(check_tree "$t")"
  rc=$?
  local want
  want="docs/bad2.md:1:See Iss""ue #7.
docs/bad3.md:1:facts in ../shared/$ex
src/bad1.cc:1:// the fix ($is 14 §1)"
  if [ "$rc" != 1 ] || [ "$(printf '%s\n' "$out" | sort)" != "$want" ]; then
    echo "check_citations.sh --self-test: expected exit 1 and exactly:" >&2
    printf '%s\n' "$want" >&2
    echo "got exit $rc and:" >&2
    printf '%s\n' "$out" >&2
    return 1
  fi
  echo "check_citations.sh --self-test: ok"
}

if [ "${1:-}" = "--self-test" ]; then
  self_test
  exit $?
fi
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
if ! out="$(check_tree "$root")"; then
  printf '%s\n' "$out"
  echo "check_citations.sh: cite a docs/ section (or a paper, or a runtime's repository and path)" \
    "instead of an issue number or a file outside the repository" >&2
  exit 1
fi
echo "check_citations.sh: no issue numbers or outside files cited"
