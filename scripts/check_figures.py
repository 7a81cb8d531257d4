#!/usr/bin/env python3
"""The figures, notebooks and READMEs shipped in notebooks_data/ are what `collsynth experiment
report` writes today from the shipped results (docs/experiments.md "Figures").

  scripts/check_figures.py [--binary build/collsynth] [--update] [NAME ...]

For each shipped experiment (every folder notebooks_data/NAME with experiments/NAME.json; or the
NAMEs given), results.csv and meta.json are copied into a temporary folder, `collsynth
experiment report NAME --out TMP` re-renders everything from them (no recomputation), and every
file it writes (README.md, NAME.ipynb, per plot PLOT.dat, PLOT.gp and the PNG gnuplot renders
from them) must be byte-identical to the shipped one. With --update the fresh files replace the
shipped ones instead: the documented command that regenerates every figure. Without gnuplot on
PATH the PNGs are not compared (said on stdout). The PNGs are compared byte for byte: they are
reproducible with the gnuplot and cairo of scripts/setup.sh's Debian packages.
Exit 0 when everything matches (or was updated), 1 otherwise (each differing file named), 2 on a
usage error.
"""
import argparse, filecmp, os, shutil, subprocess, sys, tempfile


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(root, "build", "collsynth"))
    ap.add_argument("--update", action="store_true")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    data = os.path.join(root, "notebooks_data")
    defs = os.path.join(root, "experiments")
    names = a.names or sorted(
        d for d in os.listdir(data)
        if os.path.isdir(os.path.join(data, d)) and os.path.exists(os.path.join(defs, d + ".json")))
    gnuplot = shutil.which("gnuplot") is not None
    if not gnuplot:
        print("gnuplot is not on PATH: the PNGs are not compared")
    ok = True
    for name in names:
        shipped = os.path.join(data, name)
        if not os.path.exists(os.path.join(shipped, "results.csv")):
            print(f"{name}: no {shipped}/results.csv", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory() as tmp:
            for f in ("results.csv", "meta.json"):
                if os.path.exists(os.path.join(shipped, f)):
                    shutil.copy(os.path.join(shipped, f), tmp)
            cmd = [a.binary, "experiment", "report", name, "--dir", defs, "--out", tmp]
            if not gnuplot:
                cmd.append("--no-plots")
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print(f"{name}: experiment report failed ({p.returncode}): {p.stderr.strip()}")
                ok = False
                continue
            for f in sorted(os.listdir(tmp)):
                if f in ("results.csv", "meta.json"):
                    continue
                fresh, old = os.path.join(tmp, f), os.path.join(shipped, f)
                if a.update:
                    if not os.path.exists(old) or not filecmp.cmp(fresh, old, shallow=False):
                        shutil.copy(fresh, old)
                        print(f"{name}/{f}: updated")
                elif not os.path.exists(old):
                    print(f"{name}/{f}: written by report but not shipped")
                    ok = False
                elif not filecmp.cmp(fresh, old, shallow=False):
                    print(f"{name}/{f}: differs from what report writes today "
                          f"(regenerate: scripts/check_figures.py --update {name})")
                    ok = False
            written = set(os.listdir(tmp))
            for f in sorted(os.listdir(shipped)):
                stale = f.endswith((".gp", ".dat", ".ipynb")) or (gnuplot and f.endswith(".png"))
                if stale and f not in written:
                    print(f"{name}/{f}: shipped but no longer written by report")
                    ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
