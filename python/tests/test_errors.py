"""Errors: bad input raises collsynth.InputError with the CLI's exit-2 message."""

import networkx as nx
import pytest

import collsynth


def _cli_message(stderr):
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("collsynth: ")
    return line[len("collsynth: "):]


def test_bad_expression_message_equals_the_cli(cli):
    with pytest.raises(collsynth.InputError) as e:
        collsynth.topo.gen("biring(3)")
    code, _, err = cli.run("topo", "gen", "biring(3)", "-o", "-")
    assert code == 2
    assert str(e.value) == _cli_message(err)
    assert e.value.file == "<expr>" and "wrong number of arguments" in e.value.problem
    assert isinstance(e.value, ValueError)


def test_bad_topology_file_names_file_and_item(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"nodes": [{"name": "a"}, {"name": "b"}], '
                   '"links": [{"from": "a", "to": "b", "bandwidth": 1.5}]}')
    with pytest.raises(collsynth.InputError) as e:
        collsynth.Topology.from_file(bad)
    code, _, err = cli.run("topo", "info", bad)
    assert code == 2
    assert str(e.value) == _cli_message(err)
    assert e.value.file == str(bad) and e.value.item.startswith("links[0]")


def test_bad_option_and_missing_bandwidth():
    g = collsynth.topo.gen("hypercube(2)")
    with pytest.raises(collsynth.InputError) as e:
        collsynth.optimum(g, method="newton")
    assert e.value.item == "--method"
    with pytest.raises(collsynth.InputError) as e:
        collsynth.pipeline(g, collective="gossip")
    assert "unknown collective 'gossip'" in e.value.problem
    d = nx.DiGraph()
    d.add_edge("a", "b")
    with pytest.raises(collsynth.InputError) as e:
        collsynth.Topology.from_networkx(d)
    assert e.value.problem == "has no 'bandwidth' attribute"
