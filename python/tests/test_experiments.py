"""experiments.run: the rows of `collsynth experiment run NAME`'s results.csv, exact."""

import csv
from fractions import Fraction

import pytest

import collsynth
from conftest import SOURCE

TIME_COLUMNS = ("wall_seconds",)


def _drop_times(row):
    return {k: v for k, v in row.items() if k not in TIME_COLUMNS and not k.endswith("_seconds")}


@pytest.mark.parametrize("name", ["quick-start", "seed000-table7"])
def test_rows_equal_the_cli_csv(cli, tmp_path, name):
    rows = collsynth.experiments.run(name, dir=SOURCE / "experiments", frame=False)
    out = tmp_path / "cli"
    code, _, err = cli.run("experiment", "run", name, "--dir", SOURCE / "experiments", "--out",
                           out, "--no-plots")
    assert code == 0, err
    with open(out / "results.csv", newline="") as f:
        expected = [{k: collsynth._csv_value(v) for k, v in r.items()} for r in csv.DictReader(f)]
    assert [_drop_times(r) for r in rows] == [_drop_times(r) for r in expected]
    assert rows and all(isinstance(r, dict) for r in rows)


def test_out_writes_the_cli_outputs(tmp_path):
    rows = collsynth.experiments.run("quick-start", out=tmp_path, dir=SOURCE / "experiments",
                                     frame=False)
    for name in ("results.csv", "meta.json", "README.md", "quick-start.ipynb"):
        assert (tmp_path / name).exists(), name
    with open(tmp_path / "results.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == len(rows)


def test_cells_are_exact():
    assert collsynth._csv_value("7/3") == Fraction(7, 3)
    assert collsynth._csv_value("-12") == -12 and collsynth._csv_value("true") is True
    assert collsynth._csv_value("0.333333") == "0.333333"  # a decimal for people stays text
    assert collsynth._csv_value("dgx1(2)") == "dgx1(2)"


def test_unknown_experiment_is_an_input_error():
    with pytest.raises(collsynth.InputError) as e:
        collsynth.experiments.run("no-such-experiment", dir=SOURCE / "experiments")
    assert "no such experiment definition" in e.value.problem


def test_load_reads_what_run_wrote(tmp_path):
    rows = collsynth.experiments.run("quick-start", out=tmp_path, dir=SOURCE / "experiments",
                                     frame=False)
    assert collsynth.experiments.load(tmp_path, frame=False) == rows
    with pytest.raises(collsynth.InputError) as e:
        collsynth.experiments.load(tmp_path / "nothing", frame=False)
    assert e.value.problem == "no results yet"


def test_figure_series_selects_like_the_cli():
    rows = [
        {"instance": "a", "algorithm": "x", "size": 2, "t": Fraction(1, 3), "keep": True},
        {"instance": "a", "algorithm": "x", "size": 1, "t": "0.5", "keep": True},
        {"instance": "b", "algorithm": "x", "size": 1, "t": 7, "keep": True},
        {"instance": "b", "algorithm": "y", "size": 1, "t": "", "keep": True},  # no y: left out
        {"instance": "b", "algorithm": "y", "size": 3, "t": 1, "keep": False},  # where: left out
    ]
    fig = collsynth.experiments.figure_series(rows, "size", "t", group="algorithm",
                                              panels="instance", where={"keep": "true"})
    assert fig["numeric_x"] is True
    assert [p["name"] for p in fig["panels"]] == ["a", "b"]
    assert fig["panels"][0]["lines"] == [
        {"name": "x", "points": [(1, Fraction(1, 2)), (2, Fraction(1, 3))]}]
    assert fig["panels"][1]["lines"] == [{"name": "x", "points": [(1, 7)]}]
    # a text x is a category axis, numbered in order of first appearance
    cat = collsynth.experiments.figure_series(rows[:3], "instance", "t")
    assert cat["numeric_x"] is False
    assert cat["panels"][0]["categories"] == ["a", "b"]
    assert cat["panels"][0]["lines"][0]["points"] == [(0, Fraction(1, 3)), (0, Fraction(1, 2)),
                                                      (1, 7)]
