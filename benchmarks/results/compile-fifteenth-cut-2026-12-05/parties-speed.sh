#!/bin/bash
# parties -n 50,000 (2 threads, warm caches), alternating: base tree /tmp/w/base (dfa0413)
# against the work tree /work/main; the two Parquet files of the last seed compared.
cd /tmp/w
for t in base main; do if [ $t = base ]; then P=/tmp/w/wt-base; C=/tmp/w/cache-sp-base; else P=/work/main; C=/tmp/w/cache-sp-main; fi; (PYTHONPATH=$P SIMCOINCHE_CACHE_DIR=$C SIMCOINCHE_COMPILE_HELPER=0 /work/main/.venv/bin/python -m simcoinche parties -n 100 --seed 1 --out /tmp/w/pp-$t.parquet --overwrite --no-progress > /dev/null 2>&1); done
for r in 1 2 3; do for t in base main; do if [ $t = base ]; then P=/tmp/w/wt-base; C=/tmp/w/cache-sp-base; else P=/work/main; C=/tmp/w/cache-sp-main; fi; PYTHONPATH=$P SIMCOINCHE_CACHE_DIR=$C /work/main/.venv/bin/python -m simcoinche parties -n 50000 --seed $r --out /tmp/w/pp-$t.parquet --overwrite --no-progress 2>&1 | grep -i "parties in\|/s" | head -1 | sed "s/^/$t r$r: /"; done; done
cmp /tmp/w/pp-base.parquet /tmp/w/pp-main.parquet && echo IDENTICAL
