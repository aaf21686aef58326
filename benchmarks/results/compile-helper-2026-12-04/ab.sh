#!/bin/bash
# Cold start of each command as the user types it (python -m simcoinche), empty cache,
# the compile helper off (SIMCOINCHE_COMPILE_HELPER=0) then on (the default), one after
# the other; wall and CPU of the whole process tree (helper included).
cd /tmp/w/helper
PY=/work/main/.venv/bin/python
declare -A ARGS
ARGS[simulate]="simulate -n 1000 --no-progress --out /tmp/w/helper/s.parquet --overwrite"
ARGS[advise]="advise --hand AH_TH_KH_AS_7C_AD_KD_8D --auction 80H_90S --seat 2 --samples 500 --no-progress"
ARGS[parties]="parties -n 20 --no-progress --out /tmp/w/helper/p.parquet --overwrite"
ARGS[match]="match heuristic random --deals 200 --no-progress"
for c in simulate advise parties match; do
  args=()
  for a in ${ARGS[$c]}; do args+=("${a//_/ }"); done
  for h in 0 1; do
    CACHE=$(mktemp -d /tmp/w/helper/cache.XXXX)
    r=$( { /usr/bin/time -f "%e s wall, %U s CPU" env SIMCOINCHE_COMPILE_HELPER=$h SIMCOINCHE_CACHE_DIR=$CACHE PYTHONPATH=$1 $PY -m simcoinche "${args[@]}" > /dev/null 2> /tmp/w/helper/err-$c-$h.txt; } 2>&1 ; tail -1 /tmp/w/helper/err-$c-$h.txt)
    echo "$c helper=$h $(date +%T): $r"
    rm -rf $CACHE
  done
done
