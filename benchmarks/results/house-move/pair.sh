#!/bin/bash
# usage: pair.sh A B ROUNDS [PLAYERS]: kbench.py of checkouts /work/b-A and /work/b-B run at
# the same time, pinned to cores 0 and 1, swapping cores every pair; prints B/A per pair.
A=$1; B=$2; R=$3; P=${4:-heuristic}
for round in $(seq $R); do for pair in "$A $B" "$B $A"; do set -- $pair
(cd /work/b-$1 && PYTHONPATH=/work/b-$1 taskset -c 0 /work/main/.venv/bin/python /work/main/benchmarks/results/house-move/kbench.py $P 1 300000 3 > /tmp/r.$1 2>&1) &
(cd /work/b-$2 && PYTHONPATH=/work/b-$2 taskset -c 1 /work/main/.venv/bin/python /work/main/benchmarks/results/house-move/kbench.py $P 1 300000 3 > /tmp/r.$2 2>&1) &
wait; a=$(cut -d' ' -f1 /tmp/r.$A); b=$(cut -d' ' -f1 /tmp/r.$B); python3 -c "print('$B/$A', round($b/$a,3), int($a), int($b))"
done; done
