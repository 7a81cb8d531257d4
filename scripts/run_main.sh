#!/usr/bin/env bash
# README command 1: set up, build (Release), and run the main job on built-in examples:
# exact optimum with its certificate, an optimal pipeline schedule and a BFB schedule, each
# written only after the independent model checker accepted it, then re-verified from disk.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" collsynth collsynth_python
bin="$root/build/collsynth"
out="$root/build/main_job"
mkdir -p "$out"
run() { echo; echo "\$ collsynth $*"; "$bin" "$@"; }

topo="$root/experiments/topologies/two_cluster.json"   # seed 004 Figure 1
run topo info "$topo"
run optimum "$topo"
run pipeline "$topo" -o "$out/two_cluster_allgather.json"
run verify "$topo" "$out/two_cluster_allgather.json"
run draw "$topo" "$out/two_cluster_allgather.json" -o "$out/two_cluster_loads.svg"   # docs/draw.md
run pipeline "$topo" --collective allreduce -o "$out/two_cluster_allreduce.json"
run verify "$topo" "$out/two_cluster_allreduce.json"

run topo gen 'torus(4,6)' -o "$out/torus46.json"     # seed 000 Thm 13: BFB is BW optimal
run topo info "$out/torus46.json"
run bfb "$out/torus46.json" -o "$out/torus46_bfb.json"
run verify --bw-optimal "$out/torus46.json" "$out/torus46_bfb.json"

# The same from Python (docs/python.md): exact Fractions, the certificate as a set, the schedule
# checked, simulated in exact time.
echo
echo "\$ python3 (import collsynth)"
PYTHONPATH="$root/build/python" /usr/bin/python3 - "$topo" <<'PY'
import sys

import collsynth

g = collsynth.Topology.from_file(sys.argv[1])
opt = collsynth.optimum(g)
print("optimum ratio*", opt["ratio"], "with bottleneck cut", sorted(opt["bottleneck_cut"]))
s = collsynth.pipeline(g)
print("pipeline schedule:", s.verdict.verdict, "ratio", s.ratio)
t = collsynth.simulate(s, size="1MB", alpha="1us")["completion_time"]
print("simulated allgather of 1 MB:", t, "s =", float(t) * 1e6, "us")
PY

# A quick reproducible experiment end to end (seconds): every algorithm on four 16-node
# topologies, each schedule checked; CSV, meta.json, plots, notebook and README. Definitions
# and outputs are relative to the current directory (docs/cli.md), so run it from the root.
cd "$root"
run experiment run quick-start
echo
echo "main job done: schedules in $out, experiment outputs in $root/notebooks_data/quick-start"
