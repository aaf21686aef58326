"""Root cards (issue 23): how many probes each class of the opening leader's cards takes
in ``root_values``, and with other first guesses or galloping steps.

60 random federal deals (seed 5), trump ``i % 4``, opening lead by seat ``i % 4 + 1``.
The first class is solved by bisection from 81 (as ``solve_value``); every later class
by galloping from a guess and then bisection (as ``solve_near``, whose steps are 1, 2,
4, 8). The probes are replayed here with ``search_window`` so that they can be counted.

``python root_guesses.py GUESS MUL CAP [ORDER]``: ``GUESS`` ``previous`` (``root_values``:
the value of the class before) or ``best`` (the best value so far for the seat to play);
the galloping step starts at 1, is multiplied by ``MUL`` and stops above ``CAP``;
``ORDER`` ``promise`` (``root_classes``' order, most promising first), ``reversed`` or
``suit`` (by card index). Prints the probes per class and the nodes (output:
``root-guesses.txt``).
"""

import sys

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile


def main(guess_rule: str, mul: int, cap: int, order: str) -> None:
    prof = get_profile("federal").packed
    rng = np.random.default_rng(5)
    S = dd.new_scratch()
    W = S.work
    reps = np.zeros(8, np.int64)
    classes = np.zeros(32, np.int64)

    def middle(lower: int, upper: int) -> int:
        no_capot_max = W[dd.W_DD_TOTAL]
        if lower < no_capot_max < upper:
            return (lower + no_capot_max + 2) // 2
        return (lower + upper + 1) // 2

    def solve(trump: int, leader: int, child: np.ndarray, g: int, step: int) -> tuple:
        """Exact value of the position after the card in ``child``; probes made."""
        lower, upper = 0, max(252, W[dd.W_DD_TOTAL]) + 1
        g = min(max(g, 1), upper - 1)
        probes = 0
        while lower < upper:
            v = dd.search_window(S, trump, prof, leader, child, 1, 1, g - 1, g)
            probes += 1
            if v >= g:
                lower = v
                g = min(lower + step, upper) if step else middle(lower, upper)
            else:
                upper = v
                g = max(upper - step + 1, lower + 1) if step else middle(lower, upper)
            if step:
                step *= mul
                if step > cap:
                    step = 0
            if g <= lower or g > upper:
                g = middle(lower, upper)
        return lower, probes

    first_probes, later_probes, changes = [], [], []
    first_nodes = later_nodes = 0
    for i in range(60):
        perm = rng.permutation(32)
        hands = np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8]) for s in range(4)],
                         np.int64)
        trump, leader = i % 4, (i % 4 + 1) & 3
        dd.begin_solve(S, hands, trump, prof)
        k = dd.root_classes(S, trump, leader, np.zeros(4, np.int64), 0, reps, classes)
        maximizing = (leader & 1) == 0
        previous = best = -1
        cards = [int(c) for c in reps[:k]]
        if order == "reversed":
            cards = cards[:1] + cards[:0:-1]
        elif order == "suit":
            cards = cards[:1] + sorted(cards[1:])
        for j, card in enumerate(cards):
            child = np.array([card, 0, 0, 0], np.int64)
            W[dd.W_HANDS + leader] ^= 1 << card
            n0 = W[dd.W_NODES]
            if j == 0:
                v, probes = solve(trump, leader, child, 81, 0)
                first_probes.append(probes)
                first_nodes += W[dd.W_NODES] - n0
            else:
                v, probes = solve(trump, leader, child,
                                  best if guess_rule == "best" else previous, 1)
                later_probes.append(probes)
                later_nodes += W[dd.W_NODES] - n0
                changes.append(v - previous)
            W[dd.W_HANDS + leader] ^= 1 << card
            previous = v
            best = v if j == 0 else (max(best, v) if maximizing else min(best, v))
    d = np.array(changes)
    print(f"guess {guess_rule}, steps x{mul} up to {cap}, order {order}: first class "
          f"{np.mean(first_probes):.2f} probes, {first_nodes} nodes; later classes "
          f"({len(later_probes)}) "
          f"{np.mean(later_probes):.2f} probes, {later_nodes} nodes")
    print(f"  value minus the previous class's: equal {np.mean(d == 0):.2f}, within 2 "
          f"{np.mean(abs(d) <= 2):.2f}, mean |d| {np.mean(abs(d)):.1f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
         sys.argv[4] if len(sys.argv) > 4 else "promise")
