#!/bin/bash
# alternate: base tree vs work tree, simulate -n N heuristic, warm caches
N=${1:-2000000}
for t in base main; do
  if [ $t = base ]; then P=/tmp/w/wt-base; C=/tmp/w/cache-sp-base; else P=/work/main; C=/tmp/w/cache-sp-main; fi
  (cd /tmp/w && PYTHONPATH=$P SIMCOINCHE_CACHE_DIR=$C SIMCOINCHE_COMPILE_HELPER=0 /work/main/.venv/bin/python -m simcoinche simulate -n 1000 --seed 1 --out /tmp/w/sp-$t.parquet --overwrite --no-progress >/dev/null 2>&1)
done
for r in 1 2 3 4; do
  for t in base main; do
    if [ $t = base ]; then P=/tmp/w/wt-base; C=/tmp/w/cache-sp-base; else P=/work/main; C=/tmp/w/cache-sp-main; fi
    (cd /tmp/w && PYTHONPATH=$P SIMCOINCHE_CACHE_DIR=$C /work/main/.venv/bin/python -m simcoinche simulate -n $N --seed $r ${PLAYERS:+--players $PLAYERS} --out /tmp/w/sp-$t.parquet --overwrite --no-progress 2>&1 | grep "donnes/s" | sed "s/^/$t r$r: /")
  done
done
