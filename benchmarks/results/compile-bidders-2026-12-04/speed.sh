#!/bin/bash
# usage: speed.sh A B pairs args...
A=$1; B=$2; N=$3; shift 3
for i in $(seq 1 $N); do
  for x in $( [ $((i % 2)) = 1 ] && echo "$A $B" || echo "$B $A" ); do
    out=$(cd /tmp/w/$x && SIMCOINCHE_COMPILE_HELPER=0 SIMCOINCHE_CACHE_DIR=/tmp/w/cache-$x PYTHONPATH=. /work/main/.venv/bin/python -m simcoinche "$@" --out /tmp/w/sp-$x.parquet --no-progress --overwrite 2>&1 | grep -o "in [0-9.]* s: [0-9,]* [a-z]*/s" | head -1)
    echo "$i $x $out"
  done
done
