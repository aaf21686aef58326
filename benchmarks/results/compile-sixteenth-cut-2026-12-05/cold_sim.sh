#!/bin/bash
# cold simulate -n 1000, whole process, empty cache: bbaa732 (issue 24 filed) vs main, alternating
for r in 1 2; do
  for t in base main; do
    if [ $t = base ]; then PY=/tmp/w/base24/.venv/bin/python; D=/tmp/w/base24; else PY=/work/main/.venv/bin/python; D=/work/main; fi
    rm -rf /tmp/w/cache-cold; mkdir -p /tmp/w/cache-cold
    s=$(date +%s.%N)
    (cd $D && SIMCOINCHE_CACHE_DIR=/tmp/w/cache-cold $PY -m simcoinche simulate -n 1000 --seed 1 --out /tmp/w/cold-$t.parquet --overwrite --no-progress > /tmp/w/cold-$t-$r.log 2>&1)
    e=$(date +%s.%N)
    echo "$t r$r: $(echo "$e - $s" | bc | cut -c1-6) s"
  done
done
