one() { rm -rf /tmp/w/spec/c_$1; SIMCOINCHE_CACHE_DIR=/tmp/w/spec/c_$1 PYTHONPATH=/tmp/w/spec/$1 /usr/bin/time -f "$1 %e s" /work/main/.venv/bin/python -m simcoinche simulate -n 1000 --out /tmp/w/spec/$1.parquet --overwrite --no-progress 2>&1 | grep -E "compiled|$1 " ; }
one base & one hack & wait
