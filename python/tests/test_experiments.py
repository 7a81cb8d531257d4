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
