# ruff: noqa  (an ad hoc timing script, kept as it was run: PYTHONPATH=<tree> python odds_speed.py THREADS)
import sys

from simcoinche import odds

HAND = "JH 9H AH TH KS 7C 8D AD"
odds(HAND, samples=1000, seed=3, threads=2, progress=False)
for i in range(3):
    r = odds(HAND, samples=400000, seed=3, threads=int(sys.argv[1]), progress=False)
    print(round(r.seconds, 3), end=" ")
print()
