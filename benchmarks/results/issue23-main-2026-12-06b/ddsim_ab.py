"""ddsim_ab.py NAME N: simulate -n N --dd (seed 1, 2 threads) after a warm-up, as
benchmarks.run's ddsim section does; prints donnes/s."""
import sys

try:
    from simcoinche.runs.simulation import simulate, simulate_to_file
except ImportError:  # the layout before the house move
    from simcoinche.simulation import simulate, simulate_to_file

name, n = sys.argv[1], int(sys.argv[2])
simulate(2, seed=0, dd=True, threads=2, progress=False)
s = simulate_to_file(n, seed=1, out=f"/tmp/w/ddsim-{name}.parquet", threads=2, dd=True,
                     overwrite=True, progress=False)
print(f"{name} n={n} {s.donnes_per_second:.1f} donnes/s")
