"""Schedules: pipeline, save, load_schedule and verify agree with the CLI byte for byte."""

import json
from fractions import Fraction

import pytest

import collsynth
from collsynth._exact import exact

CASES = [
    ("k22.json", "allgather", []),
    ("two_cluster.json", "allgather", []),
    ("two_cluster.json", "allreduce", []),
    ("k22.json", "broadcast", []),
]


@pytest.mark.parametrize("name,collective,extra", CASES)
def test_pipeline_saves_the_cli_bytes_and_the_cli_verdict(cli, topologies, tmp_path, name,
                                                          collective, extra):
    path = topologies / name
    g = collsynth.Topology.from_file(path)
    s = collsynth.pipeline(g, collective=collective)
    mine, theirs = tmp_path / "py.json", tmp_path / "cli.json"
    s.save(mine)
    summary = cli.json("pipeline", path, "--collective", collective, "-o", theirs, "--json")
    assert mine.read_bytes() == theirs.read_bytes()
    assert not (tmp_path / "py.json.partial").exists()
    for key in ("ratio", "optimal_ratio", "U", "k", "format", "collective"):
        assert s.summary[key] == exact(summary)[key], key
    assert s.verdict.ok and s.verdict.verdict == summary["verdict"]
    assert s.verdict.report == exact(cli.json("verify", path, theirs, "--json"))
    assert isinstance(s.ratio, Fraction)


def test_symmetric_and_plain_paths_as_the_cli(cli, tmp_path):
    g = collsynth.topo.gen("hypercube(3)")
    topo = tmp_path / "q3.json"
    topo.write_text(g.to_json())
    sym = collsynth.pipeline(g)
    plain = collsynth.pipeline(g, symmetric=False)
    assert sym.format == "pipeline-symmetric" and plain.format == "pipeline"
    assert sym.ratio == plain.ratio == sym.summary["optimal_ratio"]
    for s, flags in ((sym, []), (plain, ["--no-symmetric"])):
        mine, theirs = tmp_path / "py.json", tmp_path / "cli.json"
        s.save(mine)
        assert cli.run("pipeline", topo, "-o", theirs, *flags)[0] == 0
        assert mine.read_bytes() == theirs.read_bytes()


def test_trees_iterate_the_document(topologies):
    g = collsynth.Topology.from_file(topologies / "k22.json")
    s = collsynth.pipeline(g)
    trees = list(s)
    assert trees == s.document()["trees"]
    assert {t["root"] for t in trees} == set(g.compute_nodes)
    for t in trees:  # every tree spans the compute nodes: N-1 edges
        assert len(t["edges"]) == len(g.compute_nodes) - 1


def test_a_mutated_schedule_is_a_verdict_not_an_exception(cli, topologies, tmp_path):
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    doc = json.loads(collsynth.pipeline(g, symmetric=False).to_json())
    doc["trees"][0]["edges"].pop()  # the tree no longer reaches every node
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    loaded = collsynth.load_schedule(g, bad)
    assert not loaded.verdict.ok and loaded.verdict.errors
    code, out, _ = cli.run("verify", path, bad, "--json")
    assert code == 1
    assert loaded.verdict.report == exact(json.loads(out))
    assert not collsynth.verify(g, bad)
    # and it cannot be saved: the checked-output path refuses it, nothing is written
    with pytest.raises(collsynth.CheckError):
        loaded.save(tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_verify_a_schedule_against_another_topology(topologies):
    s = collsynth.pipeline(collsynth.Topology.from_file(topologies / "k22.json"))
    assert collsynth.verify(s.topology, s).ok
    with pytest.raises(collsynth.InputError):  # its nodes are not in hypercube(3)
        collsynth.verify(collsynth.topo.gen("hypercube(3)"), s)
