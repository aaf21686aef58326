#!/bin/bash
# $1 = tree dir; cold caches per command
T=$1
for cmd in "odds --hand JH_9H_AH_TH_KS_7C_8D_AD --samples 200 --no-progress" "advise --hand AH_TH_KH_AS_7C_AD_KD_8D --auction 80S --samples 200 --no-progress"; do
  rm -rf $T-cache
  args=$(echo $cmd | sed 's/_/ /g')
  name=$(echo $cmd | cut -d' ' -f1)
  s=$(date +%s.%N)
  # keep hand args grouped
  SIMCOINCHE_CACHE_DIR=$T-cache PYTHONPATH=$T /work/main/.venv/bin/python -c "
import sys, shlex
from simcoinche.commands.cli import main
argv = sys.argv[1].split(' ')
out=[]; i=0
# regroup: tokens after --hand/--deal until next option
while i < len(argv):
    a=argv[i]; out.append(a); i+=1
    if a in ('--hand','--auction','--deal'):
        g=[]
        while i < len(argv) and not argv[i].startswith('--'):
            g.append(argv[i]); i+=1
        out.append(' '.join(g))
sys.exit(main(out))" "$args" > $T-$name.out 2> $T-$name.err
  e=$(date +%s.%N)
  echo "$T $name rc=$? wall=$(echo "$e - $s" | bc) $(grep -o 'compiled in [0-9]* s' $T-$name.err)"
done
