#!/bin/bash
# side by side: base and memo trees, one per core, each command cold
cd /tmp/w
for cmd in "$@"; do
  for t in base memo; do
    (cd /tmp/w/$t && PYTHONPATH=/tmp/w/$t SIMCOINCHE_COMPILE_HELPER=0 /work/main/.venv/bin/python -m benchmarks.compile_profile --command $cmd --out /tmp/w/sbs/cp-$cmd-$t.json --top 8 > /tmp/w/sbs/cp-$cmd-$t.txt 2>&1) &
  done
  wait
  echo "$cmd: base $(sed -n 3p /tmp/w/sbs/cp-$cmd-base.txt | grep -o '[0-9.]* s wall, [0-9.]* s compiling')  memo $(sed -n 3p /tmp/w/sbs/cp-$cmd-memo.txt | grep -o '[0-9.]* s wall, [0-9.]* s compiling')"
done
