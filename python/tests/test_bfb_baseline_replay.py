"""bfb, baseline and replay agree with the CLI on the same inputs, exactly (bytes written,
--json values), and bad input raises InputError with the CLI's exit-2 message."""

import json
from fractions import Fraction

import pytest

import collsynth
from collsynth._exact import exact

# Keys of the CLI's --json that are timings or describe its own output file.
NOT_COMPARED = {"solve_seconds", "verify_seconds", "write_seconds", "output", "output_bytes",
                "output_format", "output_verified", "output_verify_seconds"}


def _cli_message(stderr):
    line = stderr.strip().splitlines()[-1]
    assert line.startswith("collsynth: ")
    return line[len("collsynth: "):]


def _same_values(summary, cli_json):
    theirs = exact(cli_json)
    keys = set(theirs) - NOT_COMPARED
    assert keys, "nothing compared"
    for key in keys:
        assert summary[key] == theirs[key], key


@pytest.mark.parametrize("name,collective,flags,kwargs", [
    ("k22.json", "allgather", [], {}),
    ("ring8.txt", "reduce-scatter", [], {}),
    ("k22.json", "allreduce", ["--no-certificates"], {"certificates": False}),
    ("ring8.txt", "allgather", ["--compact"], {"compact": True}),
    ("k22.json", "allgather", ["--chunks", "2"], {"chunks": 2}),
])
def test_bfb_as_the_cli(cli, topologies, tmp_path, name, collective, flags, kwargs):
    path = topologies / name
    g = collsynth.Topology.from_file(path)
    s = collsynth.bfb(g, collective=collective, **kwargs)
    mine, theirs = tmp_path / "py.json", tmp_path / "cli.json"
    s.save(mine)
    summary = cli.json("bfb", path, "--collective", collective, *flags, "-o", theirs, "--json")
    assert mine.read_bytes() == theirs.read_bytes()
    _same_values(s.summary, summary)
    assert s.format == summary["output_format"]
    assert isinstance(s.summary["tl"], int)
    assert isinstance(s.summary.get("tb", s.summary.get("tb_ilp")), Fraction)
    assert s.verdict.ok and s.summary["verified"]
    bfb_check = ["--bfb"] if collective == "allgather" else []  # as bfb checks before writing
    assert s.verdict.report == exact(cli.json("verify", path, theirs, *bfb_check, "--json"))


def test_bfb_bad_options_raise_the_cli_message(cli, topologies):
    path = topologies / "k22.json"
    g = collsynth.Topology.from_file(path)
    with pytest.raises(collsynth.InputError) as e:
        collsynth.bfb(g, collective="reduce-scatter", chunks=2)
    code, _, err = cli.run("bfb", path, "--collective", "reduce-scatter", "--chunks", "2")
    assert code == 2 and str(e.value) == _cli_message(err)
    with pytest.raises(collsynth.InputError) as e:
        collsynth.bfb(g, thm4=True)
    code, _, err = cli.run("bfb", path, "--thm4")
    assert code == 2 and str(e.value) == _cli_message(err)
    with pytest.raises(collsynth.InputError):
        collsynth.bfb(g, collective="broadcast")


@pytest.mark.parametrize("topology,name,flags,kwargs", [
    ("k22.json", "biring", [], {}),
    ("ring8.txt", "uniring", ["--collective", "reduce-scatter"],
     {"collective": "reduce-scatter"}),
    ("two_cluster.json", "direct", [], {}),
    ("two_cluster.json", "routed-ring", ["--ecmp-routes", "1"], {"ecmp_routes": 1}),
    ("ring8.txt", "ecmp", ["--collective", "alltoall"], {"collective": "alltoall"}),
    ("two_cluster.json", "direct", ["--collective", "alltoall", "--no-relay"],
     {"collective": "alltoall", "relay": False}),
    ("k22.json", "topoopt-forwarding", ["--collective", "alltoall"], {"collective": "alltoall"}),
])
def test_baseline_as_the_cli(cli, topologies, tmp_path, topology, name, flags, kwargs):
    path = topologies / topology
    g = collsynth.Topology.from_file(path)
    s = collsynth.baseline(g, name, **kwargs)
    mine, theirs = tmp_path / "py.json", tmp_path / "cli.json"
    s.save(mine)
    report = cli.json("baseline", name, path, "-o", theirs, *flags, "--json")
    assert mine.read_bytes() == theirs.read_bytes()
    _same_values(s.summary, report)
    assert s.verdict.ok
    assert s.verdict.report == exact(cli.json("verify", path, theirs, "--json"))


def test_baseline_errors_are_the_cli_messages(cli, topologies):
    path = topologies / "two_cluster.json"
    g = collsynth.Topology.from_file(path)
    for name, flags in (("no-such-baseline", []), ("biring", []),
                        ("biring", ["--collective", "gossip"])):
        kwargs = {"collective": flags[1]} if flags else {}
        with pytest.raises(collsynth.InputError) as e:
            collsynth.baseline(g, name, **kwargs)
        code, _, err = cli.run("baseline", name, path, "-o", "/dev/null", *flags)
        assert code == 2 and str(e.value) == _cli_message(err), name


@pytest.fixture
def exported(cli, topologies, tmp_path):
    """An MSCCL XML file and an MSCCL++ plan exported by the CLI from k22's pipeline."""
    path = topologies / "k22.json"
    schedule = tmp_path / "p.json"
    assert cli.run("pipeline", path, "-o", schedule)[0] == 0
    assert cli.run("export", "msccl", path, schedule, "-o", tmp_path / "p.xml")[0] == 0
    assert cli.run("export", "mscclpp", path, schedule, "-o", tmp_path / "pp.json")[0] == 0
    return tmp_path / "p.xml", tmp_path / "pp.json"


def test_replay_as_the_cli(cli, exported, tmp_path):
    xml, plan = exported
    for source, flags, kwargs in ((xml, [], {}), (xml, ["--profile", "rccl", "--fifo", "1"],
                                                 {"profile": "rccl", "fifo": 1}),
                                  (plan, [], {}), (plan, ["--rounds", "3"], {"rounds": 3})):
        verdict = collsynth.replay(source, **kwargs)
        assert verdict == cli.json("replay", source, *flags, "--json")
        assert verdict["ok"]
    # the text itself: the same verdict as its file
    assert collsynth.replay(xml.read_text()) == cli.json("replay", xml, "--json")
    assert collsynth.replay(plan.read_text()) == cli.json("replay", plan, "--json")
    assert collsynth.replay(plan)["notes"] == []
    assert collsynth.replay(plan, fifo=2)["notes"]  # an XML-only option, noted as by the CLI


def test_replay_rejects_a_mutant_as_the_cli(cli, exported, tmp_path):
    xml, _ = exported
    lines = xml.read_text().splitlines(keepends=True)
    cut = max(i for i, line in enumerate(lines) if "<step " in line and 'type="r"' in line)
    bad = tmp_path / "bad.xml"
    bad.write_text("".join(lines[:cut] + lines[cut + 1:]))
    verdict = collsynth.replay(bad)
    code, out, _ = cli.run("replay", bad, "--json")
    assert code == 1 and not verdict["ok"] and verdict["violations"]
    assert verdict == json.loads(out)


def test_replay_errors_are_the_cli_messages(cli, tmp_path):
    missing = tmp_path / "missing.xml"
    with pytest.raises(collsynth.InputError) as e:
        collsynth.replay(missing)
    code, _, err = cli.run("replay", missing)
    assert code == 2 and str(e.value) == _cli_message(err)
    with pytest.raises(collsynth.InputError):
        collsynth.replay("<algo/>", profile="nccl")
    with pytest.raises(collsynth.InputError):
        collsynth.replay("<algo/>", rounds=9)
