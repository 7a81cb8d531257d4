#!/usr/bin/env bash
# Builds NCCL's example tuner plugin from an NCCL checkout (its plugins/tuner/example/ carries
# its own copy of the tuner headers, so no NCCL build is needed) and asks it what it selects for
# a table `collsynth tune --export nccl-tuner` wrote (docs/tune.md "NCCL tuner table").
# Usage: scripts/nccl_tuner/run.sh NCCL_CHECKOUT TABLE.conf COLLECTIVE NRANKS NNODES BYTES...
set -euo pipefail
[[ $# -ge 6 ]] || { echo "usage: $0 NCCL_CHECKOUT TABLE.conf COLLECTIVE NRANKS NNODES BYTES..." >&2; exit 2; }
nccl=$1 table=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
example=$nccl/plugins/tuner/example
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -I"$example/nccl" -fPIC -shared -o "$work/libnccl-tuner-example.so" "$example/plugin.c"
cc -I"$example/nccl" -o "$work/probe" "$here/probe.c" -ldl
NCCL_TUNER_CONFIG_FILE=$table "$work/probe" "$work/libnccl-tuner-example.so" "$@"
