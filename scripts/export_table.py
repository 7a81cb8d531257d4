#!/usr/bin/env python3
"""Regenerates the measured tables of docs/export.md from runs of the real binary.

For every row: `collsynth topo gen EXPR`, `collsynth pipeline --no-symmetric` (the optimal plain
pipeline schedule: the symmetric path chooses its k with a time-limited ILP,
solvers/pipeline/symmetric_pipeline.cc, so its schedules, and the files exported from them, can
change with the machine's load), then `collsynth export msccl` (split and --fuse) or `collsynth
export mscclpp` with default options, --json. Prints the two tables in markdown, in the
order and format of docs/export.md ("Measured: MSCCL XML files", "Measured: MSCCL++ plans").

  scripts/export_table.py [--rows small|all] [--structural] [--table msccl|mscclpp|both] BINARY

--structural leaves the last column (wall time and peak memory of the export, which depend on
the machine) empty: every other cell is a deterministic function of the exporter (block and
channel counts, steps or operations, the written file's size in bytes), and the test
Docs.ExportTablesAreCurrent (tests/export/export_table_doc_test.cc) runs `--rows small
--structural` and compares those cells with docs/export.md, so an exporter change that moves
them fails until the tables are regenerated with the command docs/export.md names.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

SMALL = ["dgx1(1)", "dgx1(2)", "fattree(4)", "dragonfly(2,2,1)", "torus(3,3)"]
LARGE = ["gpuboxes(2,8,300,25,2)", "gpuboxes(4,8,300,25,2)", "gpuboxes(8,8,300,25,2)",
         "fattree(8)"]


def run(cmd, cwd):
    """Runs cmd; returns (exit code, stdout, stderr, seconds, peak RSS of that process in MB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        seconds = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read().decode(), err.read().decode(), seconds, \
            usage.ru_maxrss / 1024.0


def schedule(binary, expr, coll, cwd):
    topo = os.path.join(cwd, "topo.json")
    if not os.path.exists(topo):
        rc, _, err, _, _ = run([binary, "topo", "gen", expr, "-o", topo], cwd)
        if rc != 0:
            sys.exit("topo gen %s failed: %s" % (expr, err))
    path = os.path.join(cwd, coll + ".json")
    rc, _, err, _, _ = run(
        [binary, "pipeline", topo, "--no-symmetric", "--collective", coll, "-o", path], cwd)
    if rc != 0:
        sys.exit("pipeline %s %s failed: %s" % (expr, coll, err))
    return topo, path


def limit_cell(err):
    """The exit-1 message of an unmet limit, as 'needs --max-channels 57'."""
    m = re.search(r"needs (--[a-z-]+) (?:>= )?(\d+)", err)
    if m:
        return "needs %s %s" % (m.group(1), m.group(2))
    m = re.search(r"limit ([^:]+):", err)
    return "refused (%s)" % (m.group(1) if m else err.strip().splitlines()[-1])


def msccl_row(binary, expr, structural):
    cells, sizes, measures = [], [], []
    with tempfile.TemporaryDirectory() as cwd:
        for coll in ("allgather", "allreduce"):
            topo, sched = schedule(binary, expr, coll, cwd)
            for fuse in (False, True):
                out = os.path.join(cwd, "%s%s.xml" % (coll, "-fused" if fuse else ""))
                cmd = [binary, "export", "msccl", topo, sched, "-o", out, "--json"]
                if fuse:
                    cmd.append("--fuse")
                rc, stdout, err, sec, mb = run(cmd, cwd)
                if rc != 0:
                    cells.append(limit_cell(err))
                    continue
                j = json.loads(stdout)
                cell = "%d/%d/%d/%d" % (j["nchunksperloop"], j["channels"], j["blocks_per_gpu"],
                                        j["max_steps_per_block"])
                if not j["exact_chunks"]:
                    cell += " (rounded)"
                cells.append(cell)
                if not fuse:
                    sizes.append("{:,}".format(os.path.getsize(out)))
                    measures.append("%.2f s, %d MB" % (sec, round(mb)))
    last = "" if structural else " / ".join(measures)
    return "| `%s` | %s | %s | %s |" % (expr, " | ".join(cells), " / ".join(sizes), last)


def mscclpp_row(binary, expr, structural):
    cells, sizes, measures = [], [], []
    with tempfile.TemporaryDirectory() as cwd:
        for coll in ("allgather", "reduce-scatter", "allreduce"):
            topo, sched = schedule(binary, expr, coll, cwd)
            out = os.path.join(cwd, coll + ".plan.json")
            rc, stdout, err, sec, mb = run(
                [binary, "export", "mscclpp", topo, sched, "-o", out, "--json"], cwd)
            if rc != 0:
                cells.append(limit_cell(err))
                continue
            j = json.loads(stdout)
            blocks = sum(len(gpu) for gpu in j["ops_per_block"])
            cell = "%d/%d/%d, %s in all" % (j["blocks_per_gpu"], j["max_ops_per_block"],
                                           j["channels_per_gpu"], "{:,}".format(blocks))
            if not j["exact_chunks"]:
                cell += " (rounded)"
            cells.append(cell)
            sizes.append("{:,}".format(os.path.getsize(out)))
            measures.append("%.2f s, %d MB" % (sec, round(mb)))
    last = "" if structural else " / ".join(measures)
    return "| `%s` | %s | %s | %s |" % (expr, " | ".join(cells), " / ".join(sizes), last)


MSCCL_HEADER = [
    "| topology (`topo gen`) | allgather | allgather `--fuse` | allreduce | allreduce `--fuse` "
    "| XML bytes (allgather / allreduce) | export time, peak memory (allgather / allreduce) |",
    "|---|---|---|---|---|---|---|",
]
MSCCLPP_HEADER = [
    "| topology (`topo gen`) | allgather | reduce-scatter | allreduce "
    "| plan bytes (AG / RS / AR) | export time, peak memory (AG / RS / AR) |",
    "|---|---|---|---|---|---|",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--rows", choices=["small", "all"], default="all")
    ap.add_argument("--structural", action="store_true")
    ap.add_argument("--table", choices=["msccl", "mscclpp", "both"], default="both")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    rows = SMALL + (LARGE if a.rows == "all" else [])
    if a.table in ("msccl", "both"):
        print("\n".join(MSCCL_HEADER))
        for expr in rows:
            print(msccl_row(binary, expr, a.structural), flush=True)
    if a.table == "both":
        print()
    if a.table in ("mscclpp", "both"):
        print("\n".join(MSCCLPP_HEADER))
        for expr in rows:
            print(mscclpp_row(binary, expr, a.structural), flush=True)


if __name__ == "__main__":
    main()
