"""topo.import_machine and simulate: equal to `collsynth topo import` and `simulate --json`."""

import json
from fractions import Fraction

import pytest

import collsynth
from collsynth._exact import exact
from conftest import SOURCE

MACHINES = SOURCE / "tests" / "data" / "machines"


@pytest.mark.parametrize("fmt,name,kwargs,flags", [
    ("nvidia-smi", "dgx1_v100.nvidia-smi.txt", {}, []),
    ("nvidia-smi", "dgx1_v100.nvidia-smi.txt", {"nodes": 2, "fabric": "fattree"},
     ["--nodes", "2", "--fabric", "fattree"]),
    ("nccl-xml", "nd_h100_v5.nccl.xml", {"link_bandwidth": {"NET": Fraction(25, 2)}},
     ["--link-bandwidth", "NET=25/2"]),
])
def test_import_equals_topo_import(cli, fmt, name, kwargs, flags):
    g = collsynth.topo.import_machine(fmt, MACHINES / name, **kwargs)
    code, out, err = cli.run("topo", "import", fmt, MACHINES / name, "-o", "-", *flags)
    assert code == 0, err
    assert json.loads(g.to_json()) == json.loads(out)


def test_imported_dgx1_has_the_builtin_optimum():
    imported = collsynth.topo.import_machine(
        "nvidia-smi", MACHINES / "dgx1_v100.nvidia-smi.txt", nvlink_only=True,
        link_bandwidth={"NVLINK": 1})
    builtin = collsynth.topo.gen("dgx1(1)")
    assert collsynth.optimum(imported)["ratio"] == collsynth.optimum(builtin)["ratio"]


def test_import_errors():
    with pytest.raises(collsynth.InputError) as e:
        collsynth.topo.import_machine("lspci", MACHINES / "nd_h100_v5.nccl.xml")
    assert e.value.item == "format"
    with pytest.raises(collsynth.InputError) as e:
        collsynth.topo.import_machine("nvidia-smi", MACHINES / "nd_h100_v5.nccl.xml")
    assert e.value.file == str(MACHINES / "nd_h100_v5.nccl.xml")


@pytest.mark.parametrize("kwargs,flags", [
    ({"size": "1MB", "alpha": "1us"}, ["--size", "1MB", "--alpha", "1us"]),
    ({"size": 65536, "chunks": 4, "switch_model": "cut-through"},
     ["--size", "65536", "--chunks", "4", "--switch-model", "cut-through"]),
    ({"size": "1MB", "chunks_sweep": [1, 2, 8]}, ["--size", "1MB", "--chunks-sweep", "1,2,8"]),
])
def test_simulate_pipeline_equals_the_cli(cli, topologies, tmp_path, kwargs, flags):
    path = topologies / "two_cluster.json"
    g = collsynth.Topology.from_file(path)
    s = collsynth.pipeline(g)
    saved = tmp_path / "s.json"
    s.save(saved)
    report = collsynth.simulate(s, **kwargs)
    assert report == exact(cli.json("simulate", path, saved, "--json", *flags))
    # never faster than the bandwidth optimum: T >= (M/N) · ratio* / (1 GB/s)
    size, n = report["model"]["size_bytes"], len(g.compute_nodes)
    assert report["completion_time"] >= size / n * s.summary["optimal_ratio"] / 10**9


def test_simulate_steps_equals_the_cli(cli, topologies, tmp_path):
    path = topologies / "ring8.txt"
    out = tmp_path / "bfb.json"
    assert cli.run("bfb", path, "-o", out)[0] == 0
    g = collsynth.Topology.from_file(path)
    s = collsynth.load_schedule(g, out)
    assert s.format == "steps" and s.verdict.ok
    report = collsynth.simulate(s, size="4MB", alpha="500ns", mode="async")
    expected = cli.json("simulate", path, out, "--json", "--size", "4MB", "--alpha", "500ns",
                        "--mode", "async")
    assert report == exact(expected)
    assert isinstance(report["completion_time"], Fraction)


def test_simulate_flows_equals_the_cli(cli, topologies, tmp_path):
    path = topologies / "ring8.txt"
    out = tmp_path / "flows.json"
    assert cli.run("optimum", path, "--collective", "alltoall", "-o", out)[0] == 0
    g = collsynth.Topology.from_file(path)
    s = collsynth.load_schedule(g, out)
    assert s.format == "flows" and s.verdict.ok
    # the file's lengths certify it: the bound is exact and equals T; on the unidirectional
    # 8-ring every pair has one path and each link carries 1 + 2 + ... + 7 = 28 blocks
    assert s.verdict.report["optimal"] is True
    assert s.verdict.report["time_lower_bound"] == s.verdict.report["time"] == Fraction(28)
    report = collsynth.simulate(s, size="1MB", chunks=4)
    expected = cli.json("simulate", path, out, "--json", "--size", "1MB", "--chunks", "4")
    assert report == exact(expected)
    # never faster than the certified optimum T*·(M/N)/b
    assert report["completion_time"] >= report["bandwidth_bound"]
    swept = collsynth.simulate(s, size="1MB", alpha="1us", chunks_sweep=[4, 1])
    assert swept == exact(cli.json("simulate", path, out, "--json", "--size", "1MB", "--alpha",
                                   "1us", "--chunks-sweep", "4,1"))
    assert [row["chunks"] for row in swept["chunk_sweep"]] == [4, 1]


def test_draw_equals_the_cli(cli, topologies, tmp_path):
    path = topologies / "two_cluster.json"
    g = collsynth.Topology.from_file(path)
    s = collsynth.pipeline(g, symmetric=False)
    saved = tmp_path / "s.json"
    s.save(saved)
    for kwargs, flags in (({}, []), ({"tree": "c11:0"}, ["--tree", "c11:0"])):
        mine = collsynth.draw(g, tmp_path / "py.dot", schedule=s, **kwargs)
        assert cli.run("draw", path, saved, "-o", tmp_path / "cli.dot", *flags)[0] == 0
        assert open(mine).read() == (tmp_path / "cli.dot").read_text()
    cut = collsynth.draw(g, tmp_path / "cut.svg", cut=True)
    svg = open(cut).read()
    assert svg.count('class="node"') == len(g.nodes) + 1  # and the legend
    with pytest.raises(collsynth.InputError):
        collsynth.draw(g, tmp_path / "x.pdf")


def _timeline_bars(path):
    """[(from, to, transfer, start, end, x, width, fill)] of a --timeline-svg picture."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    bars = []
    for row in ET.parse(path).getroot().iter(ns + "g"):
        if row.get("class") != "row":
            continue
        for bar in row.iter(ns + "rect"):
            if bar.get("class") == "bar":
                bars.append((row.get("data-from"), row.get("data-to"), int(bar.get("data-transfer")),
                             Fraction(bar.get("data-start")), Fraction(bar.get("data-end")),
                             bar.get("x"), bar.get("width"), bar.get("fill")))
    return bars


def test_simulate_timeline_svg_equals_the_cli(cli, topologies, tmp_path):
    path = topologies / "two_cluster.json"
    g = collsynth.Topology.from_file(path)
    s = collsynth.pipeline(g, symmetric=False)
    saved = tmp_path / "s.json"
    s.save(saved)
    mine = tmp_path / "py.svg"
    report = collsynth.simulate(s, size="1MB", chunks=2, alpha="1us", timeline_svg=mine)
    code, _, err = cli.run("simulate", path, saved, "--size", "1MB", "--chunks", "2", "--alpha",
                           "1us", "--timeline-svg", tmp_path / "cli.svg")
    assert code == 0, err
    bars = _timeline_bars(mine)
    assert bars and bars == _timeline_bars(tmp_path / "cli.svg")
    # store-and-forward: one bar per transfer, none ending after the completion time
    assert len(bars) == report["transfers"]
    assert max(b[4] for b in bars) <= report["completion_time"]
    with pytest.raises(collsynth.InputError) as e:
        collsynth.simulate(s, size="1MB", timeline_svg=tmp_path / "x.png")
    assert e.value.item == "timeline_svg"


def test_a_new_users_path_from_nvidia_smi_to_msccl(cli, tmp_path):
    """docs/python.md "From your machine to a runtime": import `nvidia-smi topo -m`, the exact
    optimum, a picture of its bottleneck, MSCCL XML replayed from disk, and a simulation, each
    equal to what the CLI gives on the same files."""
    dump = MACHINES / "dgx1_v100.nvidia-smi.txt"
    g = collsynth.topo.import_machine("nvidia-smi", dump, nvlink_only=True,
                                      link_bandwidth={"NVLINK": 1})
    opt = collsynth.optimum(g)
    assert isinstance(opt["ratio"], Fraction)
    topo = tmp_path / "box.json"
    assert cli.run("topo", "import", "nvidia-smi", dump, "--nvlink-only", "--link-bandwidth",
                   "NVLINK=1", "-o", topo)[0] == 0
    assert opt["ratio"] == Fraction(cli.json("optimum", topo, "--json")["ratio"])
    picture = collsynth.draw(g, tmp_path / "cut.svg", cut=True)
    svg = open(picture).read()
    assert svg.count('fill="#f4a582"') == len(opt["bottleneck_cut"])
    s = collsynth.pipeline(g)
    assert s.ratio == opt["ratio"]
    exported = s.export_msccl(tmp_path / "box.xml")
    assert exported["achieved_ratio"] == opt["ratio"]
    assert cli.run("replay", tmp_path / "box.xml")[0] == 0
    report = collsynth.simulate(s, size="1MB", alpha="1us")
    saved = tmp_path / "s.json"
    s.save(saved)
    assert report == exact(cli.json("simulate", topo, saved, "--json", "--size", "1MB",
                                    "--alpha", "1us"))
    # never below the bandwidth optimum (M/N)·ratio* (1MB = 2^20 bytes, 8 GPUs, 1 GB/s per unit)
    assert report["completion_time"] >= Fraction(2**20, 8) * opt["ratio"] / 10**9
