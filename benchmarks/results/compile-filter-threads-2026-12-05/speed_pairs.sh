#!/bin/bash
# Warm speed of odds and advise in two trees (prange: /tmp/w/flt, c946c3c; threads:
# /tmp/w/ply, c7e0474), 2 threads, alternating order, each tree its own filled cache.
run() {  # tree, command...
  local t=$1; shift
  local s=$(date +%s.%N)
  (cd /tmp/w/$t && SIMCOINCHE_CACHE_DIR=/tmp/w/speed-cache-$t PYTHONPATH=/tmp/w/$t \
     SIMCOINCHE_COMPILE_HELPER=0 /work/main/.venv/bin/python -m simcoinche "$@" --threads 2 \
     --no-progress > /tmp/w/speed-$t.out 2>&1)
  echo "$t $(echo "$(date +%s.%N) - $s" | bc)"
}
ODDS=(odds --hand "JH 9H AH TH KS 7C 8D AD" --samples 400000 --seed 3)
ADV=(advise --hand "AH TH KH AS 7C AD KD 8D" --auction "80H 90S" --seat 2 --samples 4000 --seed 3)
for t in flt ply; do run $t "${ODDS[@]}" > /dev/null; run $t "${ADV[@]}" > /dev/null; done
for i in 1 2 3; do
  for t in flt ply; do echo "odds round $i $(run $t "${ODDS[@]}")"; done
  for t in ply flt; do echo "odds round $i $(run $t "${ODDS[@]}")"; done
  for t in flt ply; do echo "advise round $i $(run $t "${ADV[@]}")"; done
  for t in ply flt; do echo "advise round $i $(run $t "${ADV[@]}")"; done
done
