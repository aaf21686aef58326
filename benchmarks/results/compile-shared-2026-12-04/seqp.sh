#!/bin/bash
# $1 tree: simulate, odds, advise as separate processes sharing one empty cache
T=$1; C=/tmp/w/np/$T-seqcache; rm -rf $C
run() { s=$(date +%s.%N); (cd /tmp/w/np/$T && PYTHONPATH=/tmp/w/np/$T SIMCOINCHE_CACHE_DIR=$C /work/main/.venv/bin/python -m simcoinche "$@" > /dev/null 2>/tmp/w/np/$T-seqerr); e=$(date +%s.%N); echo "$T $1 $(echo "$e - $s" | bc | cut -c1-6) $(grep -o 'compiled in [0-9]* s' /tmp/w/np/$T-seqerr)"; }
run simulate -n 1000 --out /tmp/w/np/$T-seq.parquet --overwrite --no-progress
run odds --hand "JH 9H AH TH KS 7C 8D AD" --samples 2000 --no-progress
run odds --hand "JH 9H AH TH KS 7C 8D AD" --auction "pass 80S" --samples 500 --no-progress
run advise --hand "AH TH KH AS 7C AD KD 8D" --auction 80S --samples 200 --no-progress
