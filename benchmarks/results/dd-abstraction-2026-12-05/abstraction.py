"""How much could a table keyed more coarsely than the exact cards merge (issue 23)?

After each of the 360 classic solves of ``dd-depth-2026-12-04/three.py`` (here per kind:
a trump suit, sans-atout, tout-atout), the table's points entries of that solve are read
back (the key holds the cards still in play, the seat to lead and the capot flag; the
deal gives who holds each card). Two counts of the distinct positions:

- **exact**: the key itself;
- **lengths + point cards**: each seat's suit lengths and the cards with points it
  holds, the leader and the capot flag. This forgets which 0-point cards are left, the
  only cards whose identity a points search could hope to ignore (a card with points
  always changes the value by going to one team or the other). It is not exact (a
  0-point card can still win a trick), so it bounds from above what partition search
  (DDS's "winning ranks") could merge.

Output: ``abstraction.txt``.
"""

import numpy as np

from simcoinche._kernels import dd
from simcoinche._kernels.dd_scratch import W_TABLE
from simcoinche.rules.profiles import get_profile


def main() -> None:
    prof = get_profile("classic").packed
    rng = np.random.default_rng(11)
    deals = []
    for _ in range(60):
        perm = rng.permutation(32)
        deals.append([sum(1 << int(x) for x in perm[8 * s:8 * s + 8]) for s in range(4)])
    S = dd.new_scratch()
    W = S.work
    for kind, name in ((0, "spades"), (4, "sans-atout"), (5, "tout-atout")):
        exact = coarse = 0
        for i, hands in enumerate(deals):
            dd.solve_deal(S, np.array(hands, np.uint32), i % 4, kind, prof, 81)
            keys = W[W_TABLE::2]
            keys = keys[((keys >> 39) == W[dd.W_STAMP]) & (((keys >> 37) & 3) == 0)]
            pointed = sum(1 << c for c in range(32) if W[dd.W_POINTS + c] > 0)
            positions = set()
            abstract = set()
            for key in keys.tolist():
                rem, lead = key & 0xFFFFFFFF, (key >> 32) & 0x1F
                held = [h & rem for h in hands]
                lengths = tuple(((x >> (8 * su)) & 0xFF).bit_count() for x in held
                                for su in range(4))
                positions.add((rem, lead))
                abstract.add((lengths, tuple(x & pointed for x in held), lead))
            exact += len(positions)
            coarse += len(abstract)
        print(f"{name}: {exact} distinct positions stored, {coarse} with lengths + point "
              f"cards: {1 - coarse / exact:.1%} merged")


if __name__ == "__main__":
    main()
