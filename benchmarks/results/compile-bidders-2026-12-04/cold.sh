#!/bin/bash
# cold.sh CMD TREE... : cold start of CMD (helper on) for each tree, one after the other
PY=/work/main/.venv/bin/python
declare -A ARGS
ARGS[simulate]="simulate -n 1000 --no-progress --out /tmp/w/cold-s.parquet --overwrite"
ARGS[advise]="advise --hand AH_TH_KH_AS_7C_AD_KD_8D --auction 80H_90S --seat 2 --samples 500 --no-progress"
ARGS[parties]="parties -n 20 --no-progress --out /tmp/w/cold-p.parquet --overwrite"
ARGS[match]="match heuristic random --deals 200 --no-progress"
ARGS[matchclub]="match heuristic club --deals 200 --no-progress"
c=$1; shift
args=()
for a in ${ARGS[$c]}; do args+=("${a//_/ }"); done
for t in "$@"; do
  CACHE=$(mktemp -d /tmp/w/coldcache.XXXX)
  r=$( { /usr/bin/time -f "%e s wall, %U s CPU" env SIMCOINCHE_CACHE_DIR=$CACHE PYTHONPATH=/tmp/w/$t $PY -m simcoinche "${args[@]}" > /dev/null 2> /tmp/w/cold-err-$c-$t.txt; } 2>&1 ; tail -1 /tmp/w/cold-err-$c-$t.txt)
  echo "$c $t $(date +%T): $r"
  rm -rf $CACHE
done
