#!/bin/bash
# pimc-eq.sh TREE: a thinking PIMC seat (bid_worlds=4) in simulate and in parties, own cache
t=$1
cd /tmp/w/$t
export SIMCOINCHE_COMPILE_HELPER=0 SIMCOINCHE_CACHE_DIR=/tmp/w/cache-eq-$t PYTHONPATH=.
PY=/work/main/.venv/bin/python
/usr/bin/time -f "$t simulate %e s" $PY -m simcoinche simulate -n 24 --seed 7 --players pimc:worlds=4,bid_worlds=4,heuristic --out /tmp/w/eq-sim-$t.parquet --overwrite --no-progress > /tmp/w/eq-sim-$t.txt 2>&1
/usr/bin/time -f "$t parties %e s" $PY -m simcoinche parties -n 3 --seed 7 --players pimc:worlds=4,bid_worlds=4,heuristic --out /tmp/w/eq-par-$t.parquet --overwrite --no-progress > /tmp/w/eq-par-$t.txt 2>&1
