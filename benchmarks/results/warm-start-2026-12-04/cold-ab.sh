#!/bin/bash
# coldab.sh TAG ARGS... : cold run of simcoinche ARGS in base24 and new25 at once, fresh caches
tag=$1; shift
cd /tmp/w/wc
for tree in base24 new25; do
  rm -rf /tmp/w/wc/cold-$tree-$tag; mkdir -p /tmp/w/wc/cold-$tree-$tag
  ( NUMBA_CACHE_DIR=/tmp/w/wc/cold-$tree-$tag PYTHONPATH=/tmp/w/$tree /usr/bin/time -f "$tree $tag %e s" /work/main/.venv/bin/python -m simcoinche "$@" > /tmp/w/wc/cold-$tree-$tag.out 2> /tmp/w/wc/cold-$tree-$tag.err; tail -n1 /tmp/w/wc/cold-$tree-$tag.err ) &
done
wait
