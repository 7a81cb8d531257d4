#!/usr/bin/env bash
# Output regression corpus (outputs stay byte-identical across refactors).
#   scripts/output_corpus.sh write BINARY DIR   — runs BINARY over every file format collsynth
#       writes (topo gen/convert JSON and edge lists; pipeline for every collective, --fixed-k,
#       both packing/splitting modes, -o -; bfb steps, steps-compact, --thm4, --chunks;
#       baseline; schedule expand) on experiments/topologies/ and generated topologies, a
#       topology whose names need escapes (quotes, backslashes, unicode) and one with
#       bandwidths and multiplicities beyond 2^63; ~230 files, a few seconds.
#   scripts/output_corpus.sh compare OLD_DIR NEW_DIR — every file must be byte-identical;
#       stdout captures and logs are compared without timings. Exit 1 on any difference.
# Typical use: write with the binary of the base commit, write with the new one, compare.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"

write_corpus() {
B="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; O="$2"; T="$root/experiments/topologies"
rm -rf "$O"; mkdir -p "$O"; O="$(cd "$O" && pwd)"; cd "$O" || exit 3
run() { "$@" > /dev/null 2>>"$O/stderr.log" || echo "exit $? : $*" >> "$O/exits.log"; }
# topologies (WriteTopologyJson, edge list)
for e in 'hypercube(3)' 'torus(3,3)' 'fattree(4)' 'gpuboxes(2,4,300,25,2)' 'circulant(8,1,3)' 'genkautz(2,6)' 'dragonfly(2,2,2)' 'line(complete(3))'; do
  f=$(echo "$e" | tr -c 'a-z0-9\n' '_')
  run "$B" topo gen "$e" -o "$f.json"; run "$B" topo gen "$e" -o "$f.txt"
done
run "$B" topo gen 'hypercube(3)' -o - ; "$B" topo gen 'hypercube(3)' -o - > gen_stdout.json 2>>stderr.log
for t in k22.json ring8.txt two_cluster.json; do run "$B" topo convert "$T/$t" "conv_$t.json"; run "$B" topo convert "$T/$t" "conv_$t.txt"; done
# a topology with names that need escapes and unicode, and a big rational bandwidth
cat > esc.txt <<'T'
name: "we\"ird \\ topo é"
compute: "a\"b" "c\\d" é→ñ 日本 "x y" 0
"a\"b" "c\\d" 3/7
"c\\d" é→ñ 3/7
é→ñ 日本 3/7
日本 "x y" 3/7
"x y" 0 3/7
0 "a\"b" 3/7
"c\\d" "a\"b" 3/7
é→ñ "c\\d" 3/7
日本 é→ñ 3/7
"x y" 日本 3/7
0 "x y" 3/7
"a\"b" 0 3/7
T
printf 'name: big\ncompute: a b c\na b 1\nb a 1\nb c 123456789012345678901234567891/7\nc b 123456789012345678901234567891/7\na c 1/123456789012345678901234567893\nc a 1/123456789012345678901234567893\n' > big.txt
run "$B" topo convert esc.txt esc.json; run "$B" topo convert big.txt big.json; run "$B" topo convert esc.json esc_back.txt
# pipeline
for t in "$T/two_cluster.json" "$T/k22.json" "$T/ring8.txt" esc.txt big.txt fattree_4_.json gpuboxes_2_4_300_25_2_.json torus_3_3_.json; do
  n=$(basename "$t")
  for c in allgather reduce-scatter allreduce broadcast; do
    run "$B" pipeline "$t" --collective $c -o "pl_${n}_$c.json"
    run "$B" pipeline "$t" --collective $c --fixed-k 3 -o "plk_${n}_$c.json"
  done
  run "$B" pipeline "$t" --packing arc-by-arc --splitting pairwise -o "pl_${n}_abc.json"
  "$B" pipeline "$t" -o - > "pl_${n}_stdout.json" 2>>stderr.log
done
# bfb (compact, steps from compact, DOM steps via --chunks)
for t in "$T/k22.json" "$T/ring8.txt" esc.txt big.txt hypercube_3_.json torus_3_3_.json genkautz_2_6_.json circulant_8_1_3_.json; do
  n=$(basename "$t")
  for c in allgather reduce-scatter allreduce; do
    run "$B" bfb "$t" --collective $c -o "bfb_${n}_$c.json"
    run "$B" bfb "$t" --collective $c -o "bfb_${n}_$c.csteps.json"
    run "$B" bfb "$t" --collective $c --no-certificates --compact -o "bfbn_${n}_$c.json"
    run "$B" bfb "$t" --collective $c --thm4 -o "bfb4_${n}_$c.json"
  done
  run "$B" bfb "$t" --chunks 2 -o "bfbc_${n}.json"
  run "$B" bfb "$t" --chunks 3 --compact -o "bfbc_${n}.csteps.json"
  "$B" bfb "$t" -o - > "bfb_${n}_stdout.json" 2>>stderr.log
done
# baselines and expansions (StepScheduleToJson().dump() today)
run "$B" baseline uniring "$T/ring8.txt" -o bl_uniring.json
run "$B" baseline biring "$T/ring8.txt" -o bl_biring.json
run "$B" baseline uniring "$T/ring8.txt" --collective allreduce -o bl_uniring_ar.json
run "$B" baseline recursive-doubling hypercube_3_.json -o bl_rd.json
run "$B" baseline recursive-halving hypercube_3_.json -o bl_rh.json
run "$B" baseline torus torus_3_3_.json -o bl_torus.json
run "$B" baseline multitree torus_3_3_.json -o bl_mt.json
run "$B" baseline uniring esc.txt --order 'a"b,c\d,é→ñ,日本,x y,0' -o bl_esc.json
run "$B" schedule expand --degree 2 "$T/ring8.txt" bl_uniring.json -o ex_deg.json --topology-out ex_deg_topo.json
run "$B" schedule expand --line "$T/ring8.txt" bl_uniring.json -o ex_line.json --topology-out ex_line_topo.txt
run "$B" schedule expand --reverse "$T/ring8.txt" bl_uniring.json -o ex_rev.json
run "$B" schedule expand --power 2 "$T/ring8.txt" bl_uniring.json -o ex_pow.json
run "$B" schedule expand --bidir hypercube_3_.json bl_rd.json -o ex_bidir.json
run "$B" schedule expand --degree 2 esc.txt bl_esc.json -o ex_esc.json --topology-out ex_esc_topo.json
rm -f *.partial
}

compare_corpus() {
old="$1"; new="$2"; bad=0; n=0
for f in "$old"/*; do
  b=$(basename "$f"); n=$((n+1))
  if [ ! -e "$new/$b" ]; then echo "missing $b"; bad=1; continue; fi
  if ! cmp -s "$f" "$new/$b"; then
    case "$b" in
      *stdout*|stderr.log|exits.log)
        # timings (decimals) and the binary's path differ between runs
        strip() { sed -E -e 's/[0-9]+\.[0-9]+(e[+-]?[0-9]+)?|[0-9]+e-[0-9]+/T/g' -e 's/^exit ([0-9]+) : [^ ]+/exit \1 :/' "$1"; }
        if ! diff -q <(strip "$f") <(strip "$new/$b") >/dev/null; then echo "DIFF $b"; bad=1; fi ;;
      *) echo "DIFF $b"; bad=1 ;;
    esac
  fi
done
[ -n "$(ls "$new" | grep -vxFf <(ls "$old"))" ] && { echo "extra files in new:"; ls "$new" | grep -vxFf <(ls "$old"); bad=1; }
echo "compared $n files, bad=$bad"; return $bad
}

case "${1:-}" in
  write) [ $# -eq 3 ] || { echo "usage: $0 write BINARY DIR" >&2; exit 2; }; write_corpus "$2" "$3" ;;
  compare) [ $# -eq 3 ] || { echo "usage: $0 compare OLD_DIR NEW_DIR" >&2; exit 2; }; compare_corpus "$2" "$3" ;;
  *) echo "usage: $0 write BINARY DIR | compare OLD_DIR NEW_DIR" >&2; exit 2 ;;
esac
