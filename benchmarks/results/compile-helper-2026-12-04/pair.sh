#!/bin/bash
# Usage: pair.sh TREE -- cold start of each command alone, then beside a warmup job in a
# second process (same empty cache, the compile lock lets the command load what the
# helper compiled).
TREE=$1
cd /tmp/w/helper
PY=/work/main/.venv/bin/python
run_cmd() { # name args...
  /usr/bin/time -f "%e s wall %U s user" env PYTHONPATH=$TREE SIMCOINCHE_CACHE_DIR=$CACHE $PY -c "import sys; from simcoinche.commands.cli import console; sys.exit(console(sys.argv[1:]))" "$@" > /dev/null 2> /tmp/w/helper/err.txt; tail -1 /tmp/w/helper/err.txt
}
helper() { # job
  env PYTHONPATH=$TREE SIMCOINCHE_CACHE_DIR=$CACHE $PY -c "from simcoinche.commands.warmup import _run_job; print(_run_job('$1'))" > /tmp/w/helper/helper-$1.txt 2>&1
}
declare -A ARGS
ARGS[advise]="advise --hand AH_TH_KH_AS_7C_AD_KD_8D --auction 80H_90S --seat 2 --samples 500 --no-progress"
ARGS[parties]="parties -n 20 --no-progress --out /tmp/w/helper/p.parquet --overwrite"
ARGS[match]="match heuristic random --deals 200 --no-progress"
ARGS[simulate]="simulate -n 1000 --no-progress --out /tmp/w/helper/s.parquet --overwrite"
for spec in "advise odds" "parties simulate" "match odds" "simulate odds" "parties odds"; do
  set -- $spec; c=$1; h=$2
  args=()
  for a in ${ARGS[$c]}; do args+=("${a//_/ }"); done
  CACHE=$(mktemp -d /tmp/w/helper/cache.XXXX)
  echo "== $c alone $(date +%T): $(run_cmd "${args[@]}")"
  rm -rf $CACHE; CACHE=$(mktemp -d /tmp/w/helper/cache.XXXX)
  helper $h & hp=$!
  echo "== $c beside warmup $h $(date +%T): $(run_cmd "${args[@]}")"
  wait $hp; echo "   helper: $(tail -1 /tmp/w/helper/helper-$h.txt)"
  rm -rf $CACHE
done
