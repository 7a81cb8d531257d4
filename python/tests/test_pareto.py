"""pareto: the points, the candidates and the written schedules equal the CLI's, exactly."""

import pytest

import collsynth
from collsynth._exact import exact


@pytest.mark.parametrize("name,collective", [("two_cluster.json", "allgather"),
                                             ("k22.json", "allreduce")])
def test_pareto_as_the_cli(cli, topologies, tmp_path, name, collective):
    path = topologies / name
    g = collsynth.Topology.from_file(path)
    mine_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    mine = collsynth.pareto(g, collective=collective, out=mine_dir)
    theirs = exact(cli.json("pareto", path, "--collective", collective, "-o", cli_dir, "--json"))
    for report, out in ((mine, mine_dir), (theirs, cli_dir)):
        for p in report["points"]:
            p["schedule"] = p["schedule"].replace(str(out), "OUT")
    assert mine == theirs
    points = mine["points"]
    assert points
    for a, b in zip(points, points[1:]):  # non-dominated: height up, ratio strictly down
        assert a["height_hops"] < b["height_hops"] and a["ratio"] > b["ratio"]
    for p in points:
        assert p["ratio"] >= mine["ratio_lower_bound"]
        written = p["schedule"].replace("OUT/", "")
        assert (mine_dir / written).read_bytes() == (cli_dir / written).read_bytes()
        assert collsynth.verify(g, mine_dir / written).ok


def test_pareto_errors_are_the_cli_messages(cli, topologies):
    path = topologies / "k22.json"
    with pytest.raises(collsynth.InputError) as e:
        collsynth.pareto(collsynth.Topology.from_file(path), collective="broadcast")
    code, _, err = cli.run("pareto", path, "--collective", "broadcast")
    assert code == 2 and "collsynth: " + str(e.value) == err.strip().splitlines()[-1]
