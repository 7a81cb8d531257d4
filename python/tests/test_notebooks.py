"""The shipped notebooks (notebooks_data/NAME/NAME.ipynb) compute through the package: each
notebook's code cells run here, as Jupyter would run them from their folder, with the built
package on PYTHONPATH (no Jupyter needed: the cells are executed in order in one namespace;
matplotlib is optional in them). The lines of every figure the notebook computes
(``collsynth.experiments.figure_series``) must be the data blocks of the gnuplot file the CLI
wrote beside it (PLOT.dat, experiments/outputs.cc): two independent selections of the same rows.
The shipped rows are read (COLLSYNTH_RECOMPUTE=0) except for quick-start, which is recomputed
through ``experiments.run`` and must equal its results.csv, times aside."""

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import SOURCE

NOTEBOOKS = sorted((SOURCE / "notebooks_data").glob("*/*.ipynb"))


def _run_cells(notebook, recompute):
    cells = json.loads(notebook.read_text())["cells"]
    namespace = {"__name__": "__main__"}
    old_cwd, old_env = os.getcwd(), os.environ.get("COLLSYNTH_RECOMPUTE")
    os.chdir(notebook.parent)
    os.environ["COLLSYNTH_RECOMPUTE"] = "1" if recompute else "0"
    try:
        for cell in cells:
            if cell["cell_type"] == "code":
                exec(compile("".join(cell["source"]), str(notebook), "exec"), namespace)
    finally:
        os.chdir(old_cwd)
        if old_env is None:
            del os.environ["COLLSYNTH_RECOMPUTE"]
        else:
            os.environ["COLLSYNTH_RECOMPUTE"] = old_env
    return namespace


def _dat_blocks(path):
    """[(header, [(x, y), ...])] of a gnuplot data file: blocks split by blank lines."""
    blocks = []
    for text in path.read_text().split("\n\n"):
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            continue
        assert lines[0].startswith("# "), path
        points = [tuple(float(v) for v in line.split()) for line in lines[1:]]
        blocks.append((lines[0][2:], points))
    return blocks


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 20


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.parent.name)
def test_notebook_figures_are_the_cli_plot_data(notebook, capsys):
    ns = _run_cells(notebook, recompute=False)
    assert ns["rows"] == ns["shipped"] and ns["rows"], notebook
    plots = sorted(p.name for p in notebook.parent.glob("*.gp"))
    assert sorted(Path(f).stem + ".gp" for f in ns["figures"]) == plots
    for name, fig in ns["figures"].items():
        want = _dat_blocks(notebook.parent / (Path(name).stem + ".dat"))
        got = []
        for panel in fig["panels"]:
            for line in panel["lines"]:
                header = line["name"] if panel["name"] is None else panel["name"] + " / " + line["name"]
                assert all(isinstance(v, (int, Fraction)) for point in line["points"] for v in point)
                got.append((header, [(float(x), float(y)) for x, y in line["points"]]))
        assert [h for h, _ in got] == [h for h, _ in want], name
        for (header, points), (_, expected) in zip(got, want):
            assert points == pytest.approx(expected, rel=1e-12), f"{name}: {header}"


def test_quick_start_notebook_recomputes_the_shipped_rows(capsys):
    notebook = SOURCE / "notebooks_data" / "quick-start" / "quick-start.ipynb"
    ns = _run_cells(notebook, recompute=True)
    assert ns["same"] is True
    assert len(ns["rows"]) == len(ns["shipped"]) > 0
    assert "equal to the shipped results.csv (times aside): True" in capsys.readouterr().out
