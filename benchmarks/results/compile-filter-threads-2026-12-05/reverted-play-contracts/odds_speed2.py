# ruff: noqa  (an ad hoc script of the reverted attempt, kept as it was run)
import functools
import sys

import simcoinche._kernels.threads as T

import simcoinche._kernels.batch as B

if sys.argv[2] != "4":
    B.share_blocks = functools.partial(T.share_blocks, per_task=int(sys.argv[2]))
from simcoinche import odds

HAND = "JH 9H AH TH KS 7C 8D AD"
odds(HAND, samples=1000, seed=3, threads=2, progress=False)
for i in range(3):
    r = odds(HAND, samples=400000, seed=3, threads=int(sys.argv[1]), progress=False)
    print(round(r.seconds, 3), end=" ")
print()
