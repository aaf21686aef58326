#!/bin/bash
# usage: warm-ab.sh ROUNDS [nobytecode] — warm starts, python -m simcoinche, base vs new,
# interleaved, in one filled numba cache. base: a checkout of 0085e33's simcoinche/ in
# /tmp/w/base24; new: /work/main (e5a343d). "nobytecode": PYTHONDONTWRITEBYTECODE=1 for
# both (warm-ab-no-bytecode.log), else unset (warm-ab-bytecode.log). Run it from a neutral
# directory: with /work/main as the working directory, '' on sys.path shadows PYTHONPATH.
cd "${WORK:-/tmp/w/wc}"
export NUMBA_CACHE_DIR=/tmp/w/wc/cache
if [ "${2:-}" = nobytecode ]; then export PYTHONDONTWRITEBYTECODE=1; else unset PYTHONDONTWRITEBYTECODE; fi
rec=/work/main/tests/data/donne_failed_90S.json
hand="JH 9H AH TH KS 7C 8D AD"
run() { # tree name args...
  local tree=$1 name=$2; shift 2
  local pp=/work/main; [ "$tree" = base ] && pp=/tmp/w/base24
  local t0=$(date +%s.%N)
  PYTHONPATH=$pp /work/main/.venv/bin/python -m simcoinche "$@" >/dev/null 2>/tmp/w/wc/err || { echo "FAIL $tree $name"; tail -2 /tmp/w/wc/err; }
  local t1=$(date +%s.%N)
  echo "$tree $name $(echo "$t1 - $t0" | bc)"
}
for r in $(seq $1); do for tree in base new; do
run $tree simulate simulate -n 1000 --seed 1 --out /tmp/w/wc/s-$tree.parquet --overwrite --no-progress
run $tree odds odds --hand "$hand" --samples 2000 --no-progress
run $tree advise advise --hand "$hand" --auction 80S --samples 500 --no-progress
run $tree parties parties -n 100 --seed 1 --out /tmp/w/wc/p-$tree.parquet --overwrite --no-progress
run $tree match match heuristic club --deals 100 --no-progress
run $tree dd dd $rec --no-progress
done; done
