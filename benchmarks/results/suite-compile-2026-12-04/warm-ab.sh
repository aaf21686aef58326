#!/bin/bash
# Usage: make /tmp/w/old (5e26e64: git archive 5e26e64 simcoinche | tar -x -C /tmp/w/old), /tmp/w/new
# (this tree: git ls-files simcoinche | tar -cT - | tar -x -C /tmp/w/new) and an empty /tmp/w/wc
# (a neutral working directory), then run this script; output in warm-ab.log.
# Cold `simcoinche warmup --all` (2 processes), old tree (5e26e64) then new, empty caches.
cd /tmp/w/wc
for tree in old new; do
  rm -rf /tmp/w/wab-$tree-cache
  echo "== $tree $(date +%T)"
  /usr/bin/time -f "wall %e s user %U s" env PYTHONPATH=/tmp/w/$tree SIMCOINCHE_CACHE_DIR=/tmp/w/wab-$tree-cache \
    /work/main/.venv/bin/python -c "from simcoinche.commands.cli import console; console(['warmup','--all','--no-progress'])" 2>&1
done
