"""The PIMC player's time per card decided: worlds solved together against every world
solved in full, on the same positions, in one run (issue 23, criterion 2).

Positions: seeded random deals of every contract kind, played at random among the legal
cards up to trick ``t`` (0-6, equally often) and 0-3 cards of the next; the seat to play
sees its hand, the cards played, the voids of every suit another seat lacks and the
tricks won. Positions with nothing to decide (one legal card, or one class of equivalent
cards) are skipped. For each position both decisions start from the same random stream:

- **together**: :func:`simcoinche._kernels.pimc.pimc_card` (the player);
- **in full**: :func:`simcoinche._kernels.pimc.every_world_card` (each world solved for
  every legal card as soon as drawn: the player before issue 23).

The two run one after the other on each position (interleaved: machine noise hits both),
one thread, 32 worlds, federal. Reported: seconds per card for each, their ratio, and
whether every card and every random stream after it is the same.

Usage::

    python -m benchmarks.pimc_cards [-n 300] [--worlds 32]   # prints one JSON object
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from itertools import islice
from typing import Any

import numpy as np

from simcoinche._kernels import pimc as P
from simcoinche._kernels.play import WIN_KEY, legal_mask
from simcoinche._kernels.players import (
    I_BELOTE_SEAT,
    I_KIND,
    I_LEADER,
    I_PLAYED,
    I_SEAT,
    I_TRICK,
    I_TRICKS,
    I_VOID,
    INFO_LEN,
    PARAM_LEN,
)
from simcoinche._kernels.rng import RNG_STATE_LEN, STREAM_PLAYERS, rng_seed, seed_key
from simcoinche.rules.profiles import FEDERAL

SEED = 20_261_203


def _bits(m: int) -> list[int]:
    return [c for c in range(32) if (m >> c) & 1]


def position(r: random.Random) -> tuple[np.uint32, np.ndarray, int, np.ndarray]:
    """One random position: ``(hand, trick, n, info)`` of the seat to play."""
    prof = FEDERAL.packed
    deck = list(range(32))
    r.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * s:8 * s + 8]) for s in range(4)]
    kind = r.randrange(6)
    leader = r.randrange(4)
    tricks_done = r.randrange(7)
    n = r.randrange(4)
    won = [0, 0]
    played = 0
    trick = np.zeros(4, dtype=np.int32)
    for t in range(tricks_done + 1):
        for p in range(n if t == tricks_done else 4):
            s = (leader + p) & 3
            c = r.choice(_bits(int(legal_mask(np.uint32(hands[s]), trick, p, kind, prof))))
            trick[p] = c
            hands[s] &= ~(1 << c)
            played |= 1 << c
        if t < tricks_done:
            led = int(trick[0]) >> 3
            leader = (leader + max(range(4), key=lambda p: WIN_KEY[kind, led, trick[p]])) & 3
            won[leader & 1] += 1
    seat = (leader + n) & 3
    info = np.zeros(INFO_LEN, dtype=np.int64)
    info[I_SEAT] = seat
    info[I_LEADER] = leader
    info[I_KIND] = kind
    info[I_TRICK] = tricks_done
    info[I_PLAYED] = played
    info[I_BELOTE_SEAT] = -1
    info[I_TRICKS:I_TRICKS + 2] = won
    for s in range(4):
        if s != seat:
            info[I_VOID + s] = sum(1 << x for x in range(4) if not (hands[s] >> (8 * x)) & 0xFF)
    return np.uint32(hands[seat]), trick, n, info


def _stream(seed: int) -> np.ndarray:
    st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    rng_seed(st, np.uint64(seed_key(np.uint64(seed))), STREAM_PLAYERS)
    return st


def decisions(r: random.Random) -> Iterator[tuple[np.uint32, np.uint32, np.ndarray, int,
                                                  np.ndarray, np.ndarray]]:
    """The positions timed, endlessly: ``(hand, legal, trick, n, info, stream)``, those
    with nothing to decide (one legal card, or one class of equivalent cards) skipped,
    each with the random stream its decisions start from."""
    prof = FEDERAL.packed
    while True:
        hand, trick, k, info = position(r)
        kind = int(info[I_KIND])
        legal = np.uint32(legal_mask(hand, trick, k, kind, prof))
        on_table = sum(1 << int(c) for c in trick[:k])
        if legal & (legal - np.uint32(1)) == 0 or P.one_class(
                legal, (0xFFFFFFFF & ~int(info[I_PLAYED])) | on_table, kind, prof):
            continue
        yield hand, legal, trick, k, info, _stream(r.randrange(1, 1 << 20))


def run(n: int, worlds: int, progress: bool = True) -> dict[str, Any]:
    """Time ``n`` decisions each way; see the module docstring."""
    prof = FEDERAL.packed
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = worlds
    together = P.new_think(np.int64(P.PIMC_TT_LOG2))
    in_full = P.new_think(np.int64(P.PIMC_TT_LOG2))
    r = random.Random(SEED)
    # Compile (or load) both before timing.
    hand, trick, k, info = position(r)
    legal = np.uint32(legal_mask(hand, trick, k, int(info[I_KIND]), prof))
    P.pimc_card(together, hand, legal, trick, k, info, params, 0, prof, _stream(0))
    P.every_world_card(in_full, hand, legal, trick, k, info, params, 0, prof, _stream(0))
    t_together = 0.0
    t_full = 0.0
    same_card = 0
    same_stream = 0
    by_trick: dict[int, list[float]] = {}
    for done, (hand, legal, trick, k, info, st) in enumerate(islice(decisions(r), n), 1):
        st_full = st.copy()
        t0 = time.perf_counter()
        a = P.pimc_card(together, hand, legal, trick, k, info, params, 0, prof, st)
        t1 = time.perf_counter()
        b = P.every_world_card(in_full, hand, legal, trick, k, info, params, 0, prof, st_full)
        t2 = time.perf_counter()
        t_together += t1 - t0
        t_full += t2 - t1
        row = by_trick.setdefault(int(info[I_TRICK]), [0, 0.0, 0.0])
        row[0] += 1
        row[1] += t1 - t0
        row[2] += t2 - t1
        same_card += int(a == b)
        same_stream += int((st == st_full).all())
        if progress and done % 50 == 0:
            print(f"pimc_cards: {done}/{n} decisions", file=sys.stderr, flush=True)
    return {
        "decisions": n,
        "worlds": worlds,
        "seed": SEED,
        "seconds_per_card_together": t_together / n,
        "seconds_per_card_in_full": t_full / n,
        "ratio_together_over_in_full": t_together / t_full,
        "same_card": same_card,
        "same_stream": same_stream,
        "by_trick": {str(t): {"decisions": v[0], "together_s": v[1], "in_full_s": v[2],
                              "ratio": v[1] / v[2]} for t, v in sorted(by_trick.items())},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300, help="decisions timed (default 300)")
    ap.add_argument("--worlds", type=int, default=32, help="worlds per decision (32)")
    args = ap.parse_args(argv)
    if args.n < 1 or not 1 <= args.worlds <= P.MAX_WORLDS:
        print(f"pimc_cards: -n must be >= 1 and --worlds 1..{P.MAX_WORLDS}", file=sys.stderr)
        return 2
    print(json.dumps(run(args.n, args.worlds), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
