"""tune: the report and the winning schedules equal the CLI's on the same inputs, exactly."""

from fractions import Fraction

import pytest

import collsynth
from collsynth._exact import exact


def _without_paths(report, out):
    """The report with the schedule paths made relative to the output directory."""
    for row in report["sizes"] + report["ranges"]:
        row["schedule"] = str(row["schedule"]).replace(str(out), "OUT")
    return report


def test_tune_as_the_cli(cli, tmp_path):
    g = collsynth.topo.gen("fattree(4)")
    topo = tmp_path / "ft4.json"
    topo.write_text(g.to_json())
    g = collsynth.Topology.from_file(topo)
    mine_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    mine = collsynth.tune(g, ["1KB", "256MB"], mine_dir, alpha="1us", chunks_sweep=[1, 4])
    theirs = cli.json("tune", topo, "--sizes", "1KB,256MB", "-o", cli_dir, "--alpha", "1us",
                      "--chunks-sweep", "1,4", "--json")
    assert _without_paths(mine, mine_dir) == _without_paths(exact(theirs), cli_dir)
    for row in mine["sizes"]:
        assert isinstance(row["time"], Fraction)
        assert row["time"] >= row["lower_bound"]  # no schedule beats LB(M)
        assert row["time"] == min(c["time"] for c in row["candidates"])
        name = row["schedule"].replace("OUT/", "")
        assert (mine_dir / name).read_bytes() == (cli_dir / name).read_bytes()


def test_tune_errors_are_the_cli_messages(cli, topologies, tmp_path):
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    for kwargs, flags in (({"sizes": ["1KB", "zero"]}, ["--sizes", "1KB,zero"]),
                          ({"sizes": ["1KB"], "collective": "gossip"},
                           ["--sizes", "1KB", "--collective", "gossip"])):
        with pytest.raises(collsynth.InputError) as e:
            collsynth.tune(g, out=tmp_path / "o", **kwargs)
        code, _, err = cli.run("tune", path, "-o", tmp_path / "o", *flags)
        assert code == 2 and "collsynth: " + str(e.value) == err.strip().splitlines()[-1], kwargs


def test_tune_export_as_the_cli(cli, tmp_path):
    """tune --export from Python: the same index and the same replay-checked files as the CLI."""
    g = collsynth.topo.gen("fattree(4)")
    topo = tmp_path / "ft4.json"
    topo.write_text(g.to_json())
    g = collsynth.Topology.from_file(topo)
    mine_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    mine = collsynth.tune(g, ["1KB", "256MB"], mine_dir, alpha="1us", chunks_sweep=[1, 4],
                          export="mscclpp")
    theirs = cli.json("tune", topo, "--sizes", "1KB,256MB", "-o", cli_dir, "--alpha", "1us",
                      "--chunks-sweep", "1,4", "--export", "mscclpp", "--json")
    ranges = mine["export"]["ranges"]
    assert len(ranges) == len(theirs["export"]["ranges"]) >= 1
    assert ranges[0]["min_bytes"] == 0 and ranges[-1]["max_bytes"] is None
    for a, b in zip(ranges, theirs["export"]["ranges"]):
        assert (a["min_bytes"], a["max_bytes"], a["algorithm"]) == \
            (b["min_bytes"], b["max_bytes"], b["algorithm"])
        assert open(a["file"], "rb").read() == open(b["file"], "rb").read()
