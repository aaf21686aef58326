#!/bin/bash
# timeline of a cold command: cache saves/loads with seconds since start
name=$1; shift
rm -rf /tmp/w/cache-tl-$name
t0=$(date +%s.%N)
SIMCOINCHE_CACHE_DIR=/tmp/w/cache-tl-$name NUMBA_DEBUG_CACHE=1 /work/main/.venv/bin/simcoinche "$@" 2>&1 | while IFS= read -r line; do echo "$(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5) $line"; done | grep "data saved\|data loaded\|compiled in\|donnes in\|Error\|error" | sed 's/_kernels_[0-9a-f]*\///; s/\/tmp\/w\/cache-tl-[a-z]*\/numba\/[0-9a-f]*\///; s/\[cache\] data //' > /tmp/w/tl-$name.txt
