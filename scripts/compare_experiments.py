#!/usr/bin/env python3
"""Regression check for refactorings (docs/architecture.md): re-run shipped experiments into a
temporary folder and compare every CSV with the committed one in notebooks_data/, column by
column, ignoring the columns that measure the machine (wall/generation/LP/MILP seconds).

  scripts/compare_experiments.py [--binary build/collsynth] [--jobs 2] [NAME ...]
  scripts/compare_experiments.py --compare-dirs OLD NEW
  scripts/compare_experiments.py --list
  scripts/compare_experiments.py --checking-build [--binary build-asan/collsynth] NAME ...

--list prints the quick experiments, one per line as "NAME COST": tests/CMakeLists.txt makes one
ctest of each, so ctest -j spreads them over the cores, and COST (the seconds a Release run took on
the 2-core box, COST_SECONDS) makes ctest start the longest first.

Without names it runs the quick experiments (all but the long ones listed in LONG; name them
to include them). Exit 0 when every compared CSV matches, 1 otherwise (the differing cells are
printed), 2 on a usage error. The time-limited step-MILP rows of ilp-vs-polynomial and
table6-generation-time legitimately depend on the machine's load (experiments/README.md).

--checking-build (tests/CMakeLists.txt passes it in the ASan + UBSan build, where everything runs
6 to 10 times slower): the experiments in CHECKING_BUILD_EXCLUDED_CASES run without their largest
cases, from a copy of the definition without them, and their rows are compared with the
committed rows of the other cases. Smaller inputs, the same checks: the Release build compares
every row (docs/fuzzing.md "Stage budget").
"""
import argparse, csv, json, os, subprocess, sys, tempfile

TIME_COLUMNS = {"wall_seconds", "generation_seconds", "lp_seconds", "milp_seconds",
                "export_seconds", "replay_seconds", "time_to_optimal"}
LONG = {"alltoall-reproduction-long", "figure7-large-n", "figure7-large-n-2000", "ilp-vs-polynomial", "table6-generation-time", "polarstar-scale-spectralfly",
        "table4-time", "figure7-time", "time-vs-size-full", "time-vs-size-hardware", "time-gap"}

# Seconds of `experiment run NAME -j 1` in the Release build on the 2-core box (2026-11-27); only
# the order in which ctest starts the regression tests depends on them. Unlisted: about 1 s.
COST_SECONDS = {"seed000-base-search": 65, "export-replay-mscclpp": 18, "theorem-sweeps": 11,
                "export-replay": 7, "time-vs-size": 4, "multitree-link-utilisation": 4,
                "table4-pareto-1024": 3, "table8-model-topologies": 3,
                "alltoall-reproduction": 10}

# The cases (by their "label", which is the CSV's "instance") that the checking build leaves to
# the Release build. The two 128-GPU cases are 82% of export-replay-mscclpp's time (29 of 35 s in
# Release, about 225 of 273 s under ASan) and 66% of export-replay's; the 8- to 72-node cases
# left run the same exporters and replay checkers.
# theorem-sweeps has sweeps, not cases: s004-thm5-floor-routed (the exhaustive routed packing of
# 341 instances) is 62% of its Release time (12 of 19.5 s) and about 90 of 141 s under ASan; the
# other 22 sweeps run there.
CHECKING_BUILD_EXCLUDED_CASES = {
    "export-replay-mscclpp": {"16 boxes x 8 GPUs, 8 rails", "fat-tree k=8"},
    "export-replay": {"16 boxes x 8 GPUs, 8 rails", "fat-tree k=8"},
    "theorem-sweeps": {"s004-thm5-floor-routed"},
}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def compare(name, committed, fresh, excluded=frozenset()):
    """Compare every CSV of committed/ with fresh/; committed rows whose "instance" is in
    excluded were not run and are left out."""
    ok = True
    for fname in sorted(os.listdir(committed)):
        if not fname.endswith(".csv"):
            continue
        new = os.path.join(fresh, fname)
        if not os.path.exists(new):
            print(f"{name}/{fname}: not produced by the new run")
            ok = False
            continue
        h1, r1 = read(os.path.join(committed, fname))
        h2, r2 = read(new)
        if excluded and "instance" in h1:
            at = h1.index("instance")
            r1 = [row for row in r1 if row[at] not in excluded]
        if h1 != h2:
            print(f"{name}/{fname}: header differs:\n  {h1}\n  {h2}")
            ok = False
            continue
        if len(r1) != len(r2):
            print(f"{name}/{fname}: {len(r1)} rows committed, {len(r2)} now")
            ok = False
        shown = 0
        for i, (a, b) in enumerate(zip(r1, r2)):
            for col, x, y in zip(h1, a, b):
                if col in TIME_COLUMNS or col.endswith("_seconds") or x == y:
                    continue
                ok = False
                if shown < 10:
                    print(f"{name}/{fname}: row {i + 1} column {col}: {x!r} -> {y!r}")
                shown += 1
        if shown > 10:
            print(f"{name}/{fname}: ... {shown - 10} more differing cells")
    return ok


def write_without_cases(definition, excluded, folder, committed):
    """Copy of the experiment definition without the cases labelled in excluded, into folder.
    A theorem-sweeps definition names sweeps instead (none = all: then the sweeps are the
    instances of the committed results in the folder committed)."""
    with open(definition) as f:
        spec = json.load(f)
    params = spec["params"]
    if "cases" in params:
        key, name_of = "cases", lambda c: c.get("label")
    else:
        key, name_of = "sweeps", lambda w: w
    items = params.get(key) or [row[0] for row in read(os.path.join(committed, "results.csv"))[1]]
    kept = [i for i in items if name_of(i) not in excluded]
    if len(kept) + len(excluded) != len(items):
        raise SystemExit(f"{definition}: the {key} to exclude {sorted(excluded)} are not all there")
    params[key] = kept
    os.makedirs(folder)
    with open(os.path.join(folder, os.path.basename(definition)), "w") as f:
        json.dump(spec, f)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(root, "build", "collsynth"))
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--compare-dirs", nargs=2, metavar=("OLD", "NEW"),
                    help="compare the CSVs of two output folders (e.g. a merged sharded run "
                         "and a one-box run); runs nothing")
    ap.add_argument("--list", action="store_true",
                    help="print the quick experiments as NAME COST lines and exit")
    ap.add_argument("--checking-build", action="store_true",
                    help="leave CHECKING_BUILD_EXCLUDED_CASES out (the ASan + UBSan build)")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    if a.compare_dirs:
        old, new = a.compare_dirs
        same = compare(os.path.basename(os.path.normpath(new)), old, new)
        print(f"{old} vs {new}: {'identical' if same else 'DIFFERS'} (time columns ignored)")
        return 0 if same else 1
    data = os.path.join(root, "notebooks_data")
    names = a.names or sorted(d for d in os.listdir(data)
                              if os.path.isdir(os.path.join(data, d)) and d not in LONG)
    if a.list:
        for name in names:
            print(name, COST_SECONDS.get(name, 1))
        return 0
    all_ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            out = os.path.join(tmp, name)
            definitions = os.path.join(root, "experiments")
            excluded = frozenset()
            if a.checking_build and name in CHECKING_BUILD_EXCLUDED_CASES:
                excluded = CHECKING_BUILD_EXCLUDED_CASES[name]
                definitions = os.path.join(tmp, "definitions-" + name)
                write_without_cases(os.path.join(root, "experiments", name + ".json"),
                                    excluded, definitions, os.path.join(data, name))
            r = subprocess.run([a.binary, "experiment", "run", name, "--dir", definitions,
                                "--out", out, "--no-plots", "-j", a.jobs],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{name}: exit {r.returncode}: {r.stderr.strip()}")
                all_ok = False
                continue
            same = compare(name, os.path.join(data, name), out, excluded)
            print(f"{name}: {'identical' if same else 'DIFFERS'} (time columns ignored)")
            all_ok &= same
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
