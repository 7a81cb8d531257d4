"""optimum: exact Fractions and certificate sets equal to `collsynth optimum --json`."""

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
