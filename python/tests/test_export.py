"""Schedule.export_msccl, export_mscclpp and export_chakra write what the CLI writes (byte for
byte, the files replayed from disk before they are kept) and return its --json summary with
exact values; bad options raise InputError with the CLI's message."""

from fractions import Fraction

import pytest

import collsynth
from collsynth._exact import exact

PATH_KEYS = {"file", "routes_file", "prefix"}  # where each side wrote


def _cli_message(stderr):
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("collsynth: ")
    return line[len("collsynth: "):]


@pytest.fixture
def k22(cli, topologies, tmp_path):
    """k22's pipeline schedule, from the package and as the CLI's file."""
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    s = collsynth.pipeline(g)
    s.save(tmp_path / "s.json")
    return path, s, tmp_path / "s.json"


def _compare(mine, theirs):
    for key in set(theirs) | set(mine):
        if key not in PATH_KEYS:
            assert mine[key] == theirs[key], key


@pytest.mark.parametrize("flags,options", [
    ([], {}),
    (["--proto", "LL", "--fuse", "--instances", "2"], {"proto": "LL", "fuse": True,
                                                        "instances": 2}),
])
def test_export_msccl_as_the_cli(cli, k22, tmp_path, flags, options):
    path, s, file = k22
    mine = s.export_msccl(tmp_path / "py.xml", **options)
    theirs = cli.json("export", "msccl", path, file, "-o", tmp_path / "cli.xml", *flags, "--json")
    _compare(mine, exact(theirs))
    assert (tmp_path / "py.xml").read_bytes() == (tmp_path / "cli.xml").read_bytes()
    assert (tmp_path / "py.routes.json").read_bytes() == (tmp_path / "cli.routes.json").read_bytes()
    assert isinstance(mine["achieved_ratio"], Fraction)
    assert mine["achieved_ratio"] == s.ratio  # exact chunks: the schedule's own ratio
    assert collsynth.replay(tmp_path / "py.xml")["ok"]


def test_export_mscclpp_as_the_cli(cli, k22, tmp_path):
    path, s, file = k22
    mine = s.export_mscclpp(tmp_path / "py.json", pieces=2)
    theirs = cli.json("export", "mscclpp", path, file, "-o", tmp_path / "cli.json", "--pieces",
                      "2", "--json")
    _compare(mine, exact(theirs))
    assert (tmp_path / "py.json").read_bytes() == (tmp_path / "cli.json").read_bytes()
    assert mine["optimal_ratio"] == s.summary["optimal_ratio"]


def test_export_chakra_as_the_cli(cli, k22, tmp_path):
    path, s, file = k22
    mine = s.export_chakra(tmp_path / "py", size=4096, slices=2)
    theirs = cli.json("export", "chakra", path, file, "-o", tmp_path / "cli", "--size", "4096",
                      "--slices", "2", "--json")
    _compare(mine, exact(theirs))
    assert mine["files"] == len(s.topology.compute_nodes)
    for rank in range(mine["files"]):
        assert ((tmp_path / f"py.{rank}.et").read_bytes()
                == (tmp_path / f"cli.{rank}.et").read_bytes())


def test_a_step_schedule_exports_too(cli, topologies, tmp_path):
    path = topologies / "k22.json"
    b = collsynth.bfb(collsynth.Topology.from_file(path))
    b.save(tmp_path / "b.json")
    mine = b.export_msccl(tmp_path / "py.xml")
    theirs = cli.json("export", "msccl", path, tmp_path / "b.json", "-o", tmp_path / "cli.xml",
                      "--json")
    _compare(mine, exact(theirs))
    assert (tmp_path / "py.xml").read_bytes() == (tmp_path / "cli.xml").read_bytes()


def test_export_errors(cli, k22, tmp_path):
    path, s, file = k22
    with pytest.raises(collsynth.InputError) as e:
        s.export_msccl(tmp_path / "x.xml", profile="nccl")
    code, _, err = cli.run("export", "msccl", path, file, "-o", tmp_path / "x.xml", "--profile",
                           "nccl")
    assert code == 2 and str(e.value) == _cli_message(err)
    with pytest.raises(collsynth.InputError) as e:
        s.export_chakra(tmp_path / "c", size=4095)
    code, _, err = cli.run("export", "chakra", path, file, "-o", tmp_path / "c", "--size", "4095")
    assert code == 2 and str(e.value) == _cli_message(err)
    with pytest.raises(collsynth.CheckError):  # a limit that cannot be met: nothing written
        s.export_msccl(tmp_path / "y.xml", max_chunks=1)
    code, _, _ = cli.run("export", "msccl", path, file, "-o", tmp_path / "y.xml", "--max-chunks",
                         "1")
    assert code == 1 and not (tmp_path / "y.xml").exists()
    with pytest.raises(TypeError):
        s.export_msccl(tmp_path / "z.xml", no_such_option=1)


def test_export_of_alltoall_flows_as_the_cli(cli, topologies, tmp_path):
    """An all-to-all flows schedule (the certified optimum's) exports as the CLI's alltoall,
    replayed, with the flows' exact T as both ratios."""
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    cli.json("optimum", path, "--collective", "alltoall", "-o", tmp_path / "f.json", "--json")
    s = collsynth.load_schedule(g, tmp_path / "f.json")
    mine = s.export_msccl(tmp_path / "py.xml")
    theirs = cli.json("export", "msccl", path, tmp_path / "f.json", "-o", tmp_path / "cli.xml",
                      "--json")
    _compare(mine, exact(theirs))
    assert (tmp_path / "py.xml").read_bytes() == (tmp_path / "cli.xml").read_bytes()
    assert mine["collective"] == "alltoall"
    assert mine["achieved_ratio"] == mine["optimal_ratio"] == exact(theirs)["optimal_ratio"]
    assert collsynth.replay(tmp_path / "py.xml")["ok"]
    plan = s.export_mscclpp(tmp_path / "py.plan.json")
    assert plan["collective"] == "alltoall" and plan["replay"] == "accepted"
