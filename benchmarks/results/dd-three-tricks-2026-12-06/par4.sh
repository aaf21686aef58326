# par4.sh ROUNDS: ee2c5f5 (the pointer, no flat 6th trick) and the flat 6th trick side by
# side, one per core, the cores swapped every round, each tree with its own numba cache.
for i in $(seq $1); do
a=$(( i % 2 )); b=$(( 1 - a ))
SIMCOINCHE_CACHE_DIR=/tmp/w/c-ptr2 PYTHONPATH=/tmp/w/ptr taskset -c $a /work/main/.venv/bin/python bench3.py before 5 > /tmp/w/pm.txt &
SIMCOINCHE_CACHE_DIR=/tmp/w/c-three PYTHONPATH=/work/main taskset -c $b /work/main/.venv/bin/python bench3.py three 5 > /tmp/w/pe.txt &
wait; echo "round $i: before on core $a, three on core $b"; cat /tmp/w/pm.txt /tmp/w/pe.txt
done
python3 -c "
import numpy as np; a=np.load('vals-before.npy'); b=np.load('vals-three.npy'); print('values differing:', (a!=b).sum(), 'of', a.size)"
