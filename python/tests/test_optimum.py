"""optimum: exact Fractions and certificate sets equal to `collsynth optimum --json`."""

import json
import signal
from fractions import Fraction

import pytest

import collsynth
from collsynth._exact import exact


@pytest.mark.parametrize("name", ["k22.json", "two_cluster.json", "ring8.txt"])
@pytest.mark.parametrize("method", ["dinkelbach", "binary-search"])
def test_optimum_equals_the_cli(cli, topologies, name, method):
    path = topologies / name
    mine = collsynth.optimum(collsynth.Topology.from_file(path), method=method)
    theirs = cli.json("optimum", path, "--json", "--method", method)
    assert mine == exact(theirs)
    assert isinstance(mine["ratio"], Fraction) and isinstance(mine["bottleneck_cut"], set)


@pytest.mark.parametrize("d", [2, 3, 4])
def test_hypercube_closed_form(d):
    # Q_d, unit links: every node has in-bandwidth d and must receive (N-1) shards of M/N, and
    # the single-node cut is the bottleneck (seed 004 eq. (1)): ratio* = (N-1)/d.
    n = 2 ** d
    assert collsynth.optimum(collsynth.topo.gen(f"hypercube({d})"))["ratio"] == Fraction(n - 1, d)


def test_root_option(topologies):
    g = collsynth.Topology.from_file(topologies / "k22.json")
    root = g.compute_nodes[-1]
    assert collsynth.optimum(g, root=root)["broadcast"]["root"] == root
    with pytest.raises(collsynth.InputError):
        collsynth.optimum(g, root="nowhere")


def test_ctrl_c_interrupts_a_long_call():
    # A SIGALRM handler that raises KeyboardInterrupt stands in for Ctrl-C; the library checks
    # for signals where the CLI shows progress (here each BFS source of `topo info`'s distance
    # sweep), so the call stops long before it would finish (hypercube(14), one thread: about
    # 4 s of BFS from 16,384 sources).
    g = collsynth.topo.gen("hypercube(14)")

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            g.info(threads=1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("name,flags,kwargs", [
    ("k22.json", [], {}),
    ("two_cluster.json", ["--no-relay"], {"relay": False}),
])
def test_alltoall_optimum_as_the_cli(cli, topologies, name, flags, kwargs):
    path = topologies / name
    mine = collsynth.optimum(collsynth.Topology.from_file(path), collective="alltoall", **kwargs)
    theirs = cli.json("optimum", path, "--collective", "alltoall", *flags, "--json")
    assert mine == exact(theirs)
    assert isinstance(mine["lambda"], Fraction) and mine["time"] == 1 / mine["lambda"]
    assert mine["certificate"]["lower"] == mine["certificate"]["upper"] == mine["lambda"]


def test_alltoall_optimum_with_a_demand_file(cli, topologies, tmp_path):
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    a, b = g.compute_nodes[:2]
    demand = tmp_path / "demand.json"
    demand.write_text(json.dumps({"format": "demand",
                                  "demand": [{"from": a, "to": b, "amount": "3/2"}]}))
    mine = collsynth.optimum(g, collective="alltoall", demand=demand)
    assert mine == exact(cli.json("optimum", path, "--collective", "alltoall", "--demand", demand,
                                  "--json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "demand", "demand": [{"from": a, "to": "zz",
                                                               "amount": 1}]}))
    with pytest.raises(collsynth.InputError) as e:
        collsynth.optimum(g, collective="alltoall", demand=bad)
    code, _, err = cli.run("optimum", path, "--collective", "alltoall", "--demand", bad)
    assert code == 2 and "collsynth: " + str(e.value) == err.strip().splitlines()[-1]


def test_optimum_option_errors_are_the_cli_messages(cli, topologies):
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    for kwargs, flags in (({"collective": "alltoall", "root": "a"},
                           ["--collective", "alltoall", "--root", "a"]),
                          ({"demand": "d.json"}, ["--demand", "d.json"]),
                          ({"collective": "gossip"}, ["--collective", "gossip"])):
        with pytest.raises(collsynth.InputError) as e:
            collsynth.optimum(g, **kwargs)
        code, _, err = cli.run("optimum", path, *flags)
        assert code == 2 and "collsynth: " + str(e.value) == err.strip().splitlines()[-1], kwargs


@pytest.mark.parametrize("nodes,degree,flags,kwargs", [
    (8, 2, [], {}),
    (16, 4, ["--alpha", "1us", "--size", "64KB"], {"alpha": "1us", "size": "64KB"}),
])
def test_finder_as_the_cli(cli, nodes, degree, flags, kwargs):
    mine = collsynth.finder(nodes, degree, **kwargs)
    theirs = cli.json("finder", "--nodes", nodes, "--degree", degree, *flags, "--json")
    assert mine == exact(theirs)
    assert isinstance(mine["best"]["tb"], Fraction)
    # seed 000 Thm 7: T_B >= (N-1)/N in units of M/B (B a node's egress bandwidth), with
    # equality exactly for the candidates marked bandwidth-optimal
    bound = Fraction(nodes - 1, nodes)
    assert mine["tb_lower_bound"] == bound
    for c in mine["frontier"]:
        assert c["tb"] >= bound and c["bw_optimal"] == (c["tb"] == bound), c["topology"]
    assert mine["best"] in mine["frontier"]


def test_finder_errors_are_the_cli_messages(cli):
    for kwargs, flags in (({"nodes": 8, "degree": 0}, ["--nodes", "8", "--degree", "0"]),
                          ({"nodes": 8, "degree": 2, "alpha": "3parsecs"},
                           ["--nodes", "8", "--degree", "2", "--alpha", "3parsecs"])):
        with pytest.raises(collsynth.InputError) as e:
            collsynth.finder(**kwargs)
        code, _, err = cli.run("finder", *flags)
        assert code == 2 and "collsynth: " + str(e.value) == err.strip().splitlines()[-1], kwargs


@pytest.mark.parametrize("up_to,degree,flags,kwargs", [
    (12, 2, [], {}),
    (20, 3, ["--alpha", "1us", "--size", "64KB"], {"alpha": "1us", "size": "64KB"}),
])
def test_finder_up_to_as_the_cli(cli, up_to, degree, flags, kwargs):
    mine = collsynth.finder(degree=degree, up_to=up_to, **kwargs)
    theirs = cli.json("finder", "--up-to", up_to, "--degree", degree, *flags, "--json")
    del theirs["seconds"]  # the CLI's run time
    assert mine == exact(theirs)
    assert [r["nodes"] for r in mine["results"]] == sorted({r["nodes"] for r in mine["results"]})
    assert all(2 <= r["nodes"] <= up_to for r in mine["results"])
    # The shared engine gives each N the best of that N's own frontier (the one-N call).
    for r in mine["results"][::3]:
        one = collsynth.finder(r["nodes"], degree, **kwargs)
        assert r["best"] == one["best"] and r["frontier_size"] == len(one["frontier"])


def test_finder_up_to_errors_are_the_cli_messages(cli):
    for kwargs, flags in (({"up_to": 1, "degree": 2}, ["--up-to", "1", "--degree", "2"]),
                          ({"up_to": 100001, "degree": 2}, ["--up-to", "100001", "--degree", "2"]),
                          ({"up_to": 8, "degree": 2, "size": "big"},
                           ["--up-to", "8", "--degree", "2", "--size", "big"])):
        with pytest.raises(collsynth.InputError) as e:
            collsynth.finder(**kwargs)
        code, _, err = cli.run("finder", *flags)
        assert code == 2 and "collsynth: " + str(e.value) == err.strip().splitlines()[-1], kwargs
    with pytest.raises(collsynth.InputError):
        collsynth.finder(8, 2, up_to=8)
