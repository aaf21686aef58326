#!/bin/bash
# tl2.sh TREE LABEL OUTDIR: cold timelines (helper on) of the startup bench's commands,
# kernel cache saves/loads with seconds since the start (NUMBA_DEBUG_CACHE)
tree=$1; label=$2; out=$3
mkdir -p $out
run() {
  name=$1; shift
  rm -rf /tmp/w/cache-tl2
  t0=$(date +%s.%N)
  (cd /tmp/w && PYTHONPATH=$tree SIMCOINCHE_CACHE_DIR=/tmp/w/cache-tl2 NUMBA_DEBUG_CACHE=1 /work/main/.venv/bin/python -m simcoinche "$@" 2>&1) | while IFS= read -r line; do echo "$(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5) $line"; done | grep "data saved\|data loaded\|compiled in\|donnes in\|deals kept\|rror" | sed 's/_kernels_[0-9a-f]*\///; s/\/tmp\/w\/cache-tl2\/numba\/[0-9a-f]*\///; s/\[cache\] data //' > $out/timeline-$name-$label.txt
  echo "$label $name: $(tail -n 1 $out/timeline-$name-$label.txt | cut -c1-5) s (last line)"
}
#run simulate simulate -n 1000 --seed 1 --out /tmp/w/tl2.parquet --overwrite --no-progress
#run odds odds --hand "JH 9H AH TH KS 7C 8D AD" --samples 2000 --no-progress
#run advise advise --hand "JH 9H AH TH KS 7C 8D AD" --auction 80S --samples 500 --no-progress
#run parties parties -n 100 --seed 1 --out /tmp/w/tl2p.parquet --overwrite --no-progress
#run match match heuristic club --deals 100 --no-progress
case $4 in
pimc) run pimc simulate -n 8 --seed 1 --players pimc,heuristic --out /tmp/w/tl2pimc.parquet --overwrite --no-progress ;;
simulate) run simulate simulate -n 1000 --seed 1 --out /tmp/w/tl2.parquet --overwrite --no-progress ;;
odds) run odds odds --hand "JH 9H AH TH KS 7C 8D AD" --samples 2000 --no-progress ;;
advise) run advise advise --hand "JH 9H AH TH KS 7C 8D AD" --auction 80S --samples 500 --no-progress ;;
parties) run parties parties -n 100 --seed 1 --out /tmp/w/tl2p.parquet --overwrite --no-progress ;;
match) run match match heuristic club --deals 100 --no-progress ;;
esac
