#!/usr/bin/env python3
"""Provenance of the shipped outputs: a Markdown table, one row per notebooks_data/NAME/meta.json.

  scripts/provenance_table.py [--at REV]

Columns: the commit the output was made at, whether that tree had local changes (git_dirty),
whether the commit is an ancestor of HEAD (`git merge-base --is-ancestor`; "no" also for a
commit this clone does not have), whether meta.json records `definition_hash`, and whether
its recorded definition equals experiments/NAME.json (as parsed JSON, at the same revision).
The definition hash itself is checked by tests/experiments/provenance_test.cc with the
runner's own function; this script only reports. --at REV reads the meta.json files and
definitions as committed in REV instead of the work tree (e.g. the state before a
regeneration). Exit 0, 2 on a usage error.
"""
import argparse, json, os, subprocess, sys


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--at", help="read the files as committed in this revision")
    a = ap.parse_args()

    def read(path):
        if a.at:
            r = git(root, "show", f"{a.at}:{path}")
            return r.stdout if r.returncode == 0 else None
        full = os.path.join(root, path)
        return open(full).read() if os.path.exists(full) else None

    if a.at:
        r = git(root, "ls-tree", "--name-only", f"{a.at}:notebooks_data")
        if r.returncode != 0:
            print(f"provenance_table.py: --at {a.at}: {r.stderr.strip()}", file=sys.stderr)
            return 2
        names = [n for n in r.stdout.split() if read(f"notebooks_data/{n}/meta.json")]
    else:
        data = os.path.join(root, "notebooks_data")
        names = [n for n in os.listdir(data) if os.path.exists(os.path.join(data, n, "meta.json"))]
    print("| experiment | commit | git_dirty | ancestor of HEAD | definition_hash | definition = tree |")
    print("|---|---|---|---|---|---|")
    for n in sorted(names):
        meta = json.loads(read(f"notebooks_data/{n}/meta.json"))
        env = meta.get("environment") or {}
        commit = env.get("git_commit")
        anc = "n/a"
        if commit:
            anc = "yes" if git(root, "merge-base", "--is-ancestor", commit, "HEAD").returncode == 0 else "no"
        tree = read(f"experiments/{n}.json")
        same = "no definition" if tree is None else (
            "yes" if json.loads(tree) == meta.get("definition") else "no")
        print(f"| {n} | {commit[:10] if commit else '(none)'} | {str(env.get('git_dirty')).lower()} "
              f"| {anc} | {'yes' if 'definition_hash' in meta else 'no'} | {same} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
