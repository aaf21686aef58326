#!/bin/bash
# Cold then warm start of one command, whole process (helper on, as make bench), in two
# trees side by side, one per core, each with its own empty cache:
#   pair.sh NAME -- simulate args...
# Trees: /tmp/w/base (fdc36b0, main before) and /tmp/w/new (b0c7e1b).
name=$1; shift; shift
out=/tmp/w/pair; mkdir -p $out
for t in base new; do
  (cd /tmp/w/$t && rm -rf $out/cache-$name-$t && for run in cold warm; do
     s=$(date +%s.%N)
     SIMCOINCHE_CACHE_DIR=$out/cache-$name-$t PYTHONPATH=/tmp/w/$t /work/main/.venv/bin/python -m simcoinche "$@" --no-progress --overwrite --out $out/$name-$t.parquet > $out/$name-$t-$run.txt 2>&1
     echo "$name $t $run $(echo "$(date +%s.%N) - $s" | bc) s exit $?" >> $out/$name-$t.times
   done) &
done
wait
cat $out/$name-base.times $out/$name-new.times
/work/main/.venv/bin/python -c "
import pandas as pd, sys
a = pd.read_parquet('$out/$name-base.parquet'); b = pd.read_parquet('$out/$name-new.parquet')
print('$name: rows', len(a), len(b), 'identical' if a.equals(b) else 'DIFFERENT')"
