#!/bin/bash
# Where a warm start's time goes: in the process until main() returns, then the exit.
# For each command, 4 rounds of: main() with Python's default collector ("plain"), and
# console() (threshold 10,000, gc.freeze at the end). Prints: mode command in-process wall.
# Run from a neutral directory with PYTHONPATH=<tree> and a filled NUMBA_CACHE_DIR.
rec=/work/main/tests/data/donne_failed_90S.json
hand="JH 9H AH TH KS 7C 8D AD"
py=${PY:-/work/main/.venv/bin/python}
for r in 1 2 3 4; do
  for mode in plain console; do
    for cmd in "simulate -n 1000 --seed 1 --out /tmp/exit-cost.parquet --overwrite --no-progress" \
               "odds --hand '$hand' --samples 2000 --no-progress" \
               "match heuristic club --deals 100 --no-progress" \
               "dd $rec --no-progress"; do
      t0=$(date +%s.%N)
      inproc=$($py -c "
import contextlib, io, shlex, sys, time
t0 = time.perf_counter()
from simcoinche.commands.cli import console, main
argv = shlex.split(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()):
    status = (main if sys.argv[2] == 'plain' else console)(argv)
print(f'{time.perf_counter() - t0:.3f}')
" "$cmd" $mode 2>/dev/null)
      t1=$(date +%s.%N)
      echo "$mode ${cmd%% *} $inproc $(echo "$t1 - $t0" | bc)"
    done
  done
done
