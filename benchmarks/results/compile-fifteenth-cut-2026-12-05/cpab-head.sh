#!/bin/bash
# cpab.sh CMD LABEL: compile profiles (helper off) of base worktree and main side by side
cmd=$1; label=$2
(cd /tmp/w/wt-head && SIMCOINCHE_COMPILE_HELPER=0 /work/main/.venv/bin/python -m benchmarks.compile_profile --command $cmd --out /tmp/w/prof/cp-$cmd-base-$label.json --top 30 > /tmp/w/prof/cp-$cmd-base-$label.txt 2>&1) &
(cd /work/main && SIMCOINCHE_COMPILE_HELPER=0 /work/main/.venv/bin/python -m benchmarks.compile_profile --command $cmd --out /tmp/w/prof/cp-$cmd-new-$label.json --top 30 > /tmp/w/prof/cp-$cmd-new-$label.txt 2>&1) &
wait
grep "s wall" /tmp/w/prof/cp-$cmd-base-$label.txt /tmp/w/prof/cp-$cmd-new-$label.txt
