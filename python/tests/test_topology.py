"""Topology: the package reads, converts and measures topologies exactly as the CLI does."""

import json
from fractions import Fraction

import networkx as nx
import pytest

import collsynth
from collsynth._exact import exact


@pytest.mark.parametrize("name", ["k22.json", "two_cluster.json", "ring8.txt"])
def test_info_equals_topo_info_json(cli, topologies, name):
    g = collsynth.Topology.from_file(topologies / name)
    assert g.info() == exact(cli.json("topo", "info", topologies / name, "--json"))
    info = g.info()
    assert len(g.compute_nodes) == info["compute_nodes"]
    assert len(g.switch_nodes) == info["switch_nodes"]
    assert len(g.links) == info["links"]


@pytest.mark.parametrize("expr", ["hypercube(3)", "fattree(4)", "torus(3,4)"])
def test_gen_equals_topo_gen(cli, expr):
    g = collsynth.topo.gen(expr)
    code, out, err = cli.run("topo", "gen", expr, "-o", "-")
    assert code == 0, err
    assert json.loads(g.to_json()) == json.loads(out)
    assert g.name == json.loads(out)["name"]


def test_bandwidths_are_fractions(topologies):
    g = collsynth.Topology.from_file(topologies / "two_cluster.json")
    for u, v, bandwidth, multiplicity in g.links:
        assert isinstance(bandwidth, Fraction)
        assert bandwidth > 0 and multiplicity >= 1


def test_networkx_round_trip_keeps_nodes_links_and_exact_bandwidths(topologies):
    g = collsynth.Topology.from_file(topologies / "two_cluster.json")
    d = g.to_networkx()
    assert isinstance(d, nx.DiGraph)
    assert set(d.nodes) == set(g.nodes)
    assert {v for v, k in d.nodes(data="kind") if k == "switch"} == set(g.switch_nodes)
    back = collsynth.Topology.from_networkx(d, name=g.name)
    assert sorted(back.links) == sorted(g.links)
    assert back.compute_nodes == g.compute_nodes and back.switch_nodes == g.switch_nodes
    # and the optimum (a function of the links only) is unchanged
    assert collsynth.optimum(back)["ratio"] == collsynth.optimum(g)["ratio"]


def test_from_networkx_with_fractions_and_switches():
    d = nx.DiGraph()
    d.add_node("s", kind="switch")
    for v in "abc":
        d.add_edge(v, "s", bandwidth=Fraction(3, 2))
        d.add_edge("s", v, bandwidth=Fraction(3, 2))
    g = collsynth.Topology.from_networkx(d, name="star")
    assert g.switch_nodes == ["s"] and sorted(g.compute_nodes) == ["a", "b", "c"]
    assert all(b == Fraction(3, 2) for _, _, b, _ in g.links)
    # a star of three compute nodes at bandwidth b: each node must receive 2 shards of M/3
    # through its one in-link, so T_B* = (M/N)·(N-1)/b = (M/N)·4/3.
    assert collsynth.optimum(g)["ratio"] == Fraction(4, 3)


def test_automorphisms_are_checked_name_maps(cli):
    g = collsynth.topo.gen("hypercube(3)")
    assert g.automorphisms, "hypercube(3) declares its generators"
    for perm in g.automorphisms:
        assert sorted(perm) == sorted(g.nodes) and sorted(perm.values()) == sorted(g.nodes)
        links = {(u, v) for u, v, _, _ in g.links}
        assert {(perm[u], perm[v]) for u, v in links} == links
