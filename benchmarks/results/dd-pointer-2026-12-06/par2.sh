# par2.sh ROUNDS: the base tree (ee6bc19) and the pointer tree side by side, one per core,
# the cores swapped every round.
for i in $(seq $1); do
a=$(( i % 2 )); b=$(( 1 - a ))
SIMCOINCHE_CACHE_DIR=/tmp/w/c-base PYTHONPATH=/tmp/w/base taskset -c $a /work/main/.venv/bin/python bench3.py base 5 > /tmp/w/pm.txt &
SIMCOINCHE_CACHE_DIR=/tmp/w/c-ptr PYTHONPATH=/work/main taskset -c $b /work/main/.venv/bin/python bench3.py pointer 5 > /tmp/w/pe.txt &
wait; echo "round $i: base on core $a, pointer on core $b"; cat /tmp/w/pm.txt /tmp/w/pe.txt
done
python3 -c "
import numpy as np; a=np.load('vals-base.npy'); b=np.load('vals-pointer.npy'); print('values differing:', (a!=b).sum(), 'of', a.size)"
