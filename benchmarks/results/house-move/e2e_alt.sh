#!/bin/bash
# 8 interleaved pairs of heuristic end to end (2 threads, 4,000,000 donnes) of the
# checkouts /work/b-fbbe06f (before the layer move) and /work/b-main (after), alternating
# which goes first; prints "pair checkout donnes/s".
for i in $(seq 8); do
  if [ $((i % 2)) -eq 1 ]; then order="fbbe06f main"; else order="main fbbe06f"; fi
  for w in $order; do d=/work/b-$w; r=$(cd $d && PYTHONPATH=$d /work/main/.venv/bin/python /work/main/benchmarks/results/house-move/e2e_one.py heuristic 2 4000000 2>/dev/null); echo "$i $w $r"; done
done
