#!/usr/bin/env bash
# Installs exactly the Debian 12 packages collsynth needs that are missing.
# Non-interactive, idempotent, safe to re-run; needs root (or sudo) only when something is missing.
set -euo pipefail
PACKAGES=(
  build-essential cmake pkg-config
  coinor-libclp-dev coinor-libcbc-dev liblemon-dev libeigen3-dev
  libboost-dev libgmp-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libbenchmark-dev
  # the Chakra trace reader of the checker (proofs_check/chakra_trace.proto)
  libprotobuf-dev protobuf-compiler
  # NCCL's topology XML, read by `collsynth topo import nccl-xml` (graphs/machine_import.h)
  libtinyxml2-dev
  gnuplot-nox git
  # `collsynth draw` renders with Graphviz's dot (docs/draw.md)
  graphviz
  # scripts/compare_experiments.py (the experiments regression test)
  python3
  # the Python package (python/, docs/python.md): pybind11 bindings for Debian's python3, its
  # networkx interop and its pytest suite
  python3-dev pybind11-dev python3-networkx python3-pytest
  # the pictures as a person sees them (python/tests/test_screenshot.py, docs/draw.md
  # "Screenshot"): headless Chromium renders a drawing, Pillow reads its pixels
  chromium python3-pil
  # the checking build (scripts/sanitize.sh, scripts/fuzz.sh): clang 14, its ASan/UBSan and
  # libFuzzer runtimes, llvm-symbolizer for readable sanitizer stack traces
  clang libclang-rt-14-dev libfuzzer-14-dev llvm
  # the house-style check (scripts/check_format.sh)
  clang-format
  # `experiment submit --slurm` and its test on a one-node local cluster (scripts/slurm_local.sh)
  slurmctld slurmd slurm-client munge
)
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
