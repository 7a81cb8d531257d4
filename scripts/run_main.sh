#!/usr/bin/env bash
# README command 1: set up, build (Release), run the main job on the built-in examples.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" collsynth
bin="$root/build/collsynth"
for t in two_cluster.json k22.json ring8.txt; do
  echo "== collsynth topo info experiments/topologies/$t"
  "$bin" topo info "$root/experiments/topologies/$t"
done
