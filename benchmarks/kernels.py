"""Per-kernel throughput: each kernel called in a tight numba loop, and the reference engine
called on the same inputs from Python.

Inputs are generated once per run (seeded) and shared by both sides, so the kernel /
reference ratio compares the same work. Each driver returns a checksum that depends on
every call's result, so no call can be optimised away.
"""

from __future__ import annotations

import random
import time

import numpy as np
from numba import njit

from simcoinche._kernels import announce, play, scoring
from simcoinche._kernels.deal import deal_hands
from simcoinche._kernels.rng import RNG_STATE_LEN, donne_key, seed_key
from simcoinche.rules import reference as ref
from simcoinche.rules.cards import from_mask
from simcoinche.rules.profiles import FEDERAL

PROF = FEDERAL.packed


# ---- numba drivers ------------------------------------------------------------------

@njit(cache=True)
def drive_deal(n, prof):
    st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    deck = np.zeros(32, dtype=np.int8)
    hands = np.zeros(4, dtype=np.uint32)
    key = seed_key(np.uint64(12345))
    acc = np.uint64(0)
    for i in range(n):
        deal_hands(st, donne_key(key, np.uint64(i)), i & 3, prof, deck, hands)
        acc ^= np.uint64(hands[0]) + np.uint64(hands[1])
    return acc


@njit(cache=True)
def drive_legal_mask(hands, tricks, ns, trumps, reps, prof):
    acc = np.uint64(0)
    for _ in range(reps):
        for i in range(hands.shape[0]):
            acc += np.uint64(play.legal_mask(hands[i], tricks[i], ns[i], trumps[i], prof))
    return acc


@njit(cache=True)
def drive_trick_winner(tricks, trumps, reps, prof):
    acc = 0
    for _ in range(reps):
        for i in range(tricks.shape[0]):
            acc += play.trick_winner(tricks[i], 4, trumps[i], prof)
    return acc


@njit(cache=True)
def drive_announcements(deals, trumps, reps, prof):
    out = np.zeros(2, dtype=np.int32)
    declare = np.ones(4, dtype=np.uint8)
    acc = 0
    for _ in range(reps):
        for i in range(deals.shape[0]):
            acc += announce.team_announcements(deals[i], trumps[i], declare, prof, out)
            acc += out[0] + out[1]
    return acc


@njit(cache=True)
def drive_scoring(inputs, reps, prof):
    out = np.zeros(scoring.SCORE_LEN, dtype=np.int32)
    cp = np.zeros(2, dtype=np.int32)
    tw = np.zeros(2, dtype=np.int32)
    an = np.zeros(2, dtype=np.int32)
    be = np.zeros(2, dtype=np.int32)
    acc = 0
    for _ in range(reps):
        for i in range(inputs.shape[0]):
            r = inputs[i]
            cp[0], cp[1] = r[4], r[5]
            tw[0], tw[1] = r[6], r[7]
            an[0], an[1] = r[8], r[9]
            be[0], be[1] = r[10], r[11]
            acc += scoring.score_donne(r[0], r[1], r[2], r[3], cp, tw, an, be, prof, out)
            acc += out[scoring.S_MARK0] + out[scoring.S_MARK1]
    return acc


# ---- shared inputs --------------------------------------------------------------------

def make_inputs(n: int, seed: int = 1) -> dict[str, np.ndarray]:
    """Random play positions, tricks, deals and scoring inputs (all federal, suit trumps)."""
    rng = np.random.default_rng(seed)
    deals = np.zeros((n, 4), dtype=np.uint32)
    hands = np.zeros(n, dtype=np.uint32)
    tricks = np.zeros((n, 4), dtype=np.int64)
    ns = rng.integers(0, 4, n).astype(np.int64)
    trumps = rng.integers(0, 4, n).astype(np.int64)
    for i in range(n):
        perm = rng.permutation(32)
        for s in range(4):
            deals[i, s] = np.bitwise_or.reduce(np.left_shift(np.uint32(1),
                                                             perm[8 * s: 8 * s + 8].astype(
                                                                 np.uint32)))
        tricks[i] = perm[28:32]
        hands[i] = deals[i, 0]
    scoring_inputs = np.zeros((n, 12), dtype=np.int64)
    taker = rng.integers(0, 2, n)
    level = rng.integers(0, len(FEDERAL.bid_values) + 1, n)
    cards_t = rng.integers(0, 163, n)
    scoring_inputs[:, 0] = taker
    scoring_inputs[:, 1] = level
    scoring_inputs[:, 2] = trumps
    scoring_inputs[:, 3] = rng.choice([1, 2, 4], n)
    scoring_inputs[:, 4] = np.where(taker == 0, cards_t, 162 - cards_t)
    scoring_inputs[:, 5] = 162 - scoring_inputs[:, 4]
    tricks_t = rng.integers(1, 8, n)
    scoring_inputs[:, 6] = np.where(taker == 0, tricks_t, 8 - tricks_t)
    scoring_inputs[:, 7] = 8 - scoring_inputs[:, 6]
    scoring_inputs[:, 8] = rng.choice([0, 0, 20, 50, 100], n)
    scoring_inputs[:, 10] = rng.choice([0, 0, 0, 20], n)
    return {"deals": deals, "hands": hands, "tricks": tricks, "ns": ns, "trumps": trumps,
            "scoring": scoring_inputs}


def _timed(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def kernel_rates(inp: dict[str, np.ndarray], reps: int) -> dict[str, float]:
    """Calls per second of each kernel (compiled before timing)."""
    n = len(inp["hands"])
    small = {k: v[:64] for k, v in inp.items()}
    drive_deal(10, PROF)
    drive_legal_mask(small["hands"], small["tricks"], small["ns"], small["trumps"], 1, PROF)
    drive_trick_winner(small["tricks"], small["trumps"], 1, PROF)
    drive_announcements(small["deals"], small["trumps"], 1, PROF)
    drive_scoring(small["scoring"], 1, PROF)
    return {
        "deal": n * reps / _timed(drive_deal, n * reps, PROF),
        "legal_mask": n * reps / _timed(drive_legal_mask, inp["hands"], inp["tricks"],
                                         inp["ns"], inp["trumps"], reps, PROF),
        "trick_winner": n * reps / _timed(drive_trick_winner, inp["tricks"], inp["trumps"],
                                           reps, PROF),
        "announcements": n * reps / _timed(drive_announcements, inp["deals"], inp["trumps"],
                                            reps, PROF),
        "scoring": n * reps / _timed(drive_scoring, inp["scoring"], reps, PROF),
    }


def reference_rates(inp: dict[str, np.ndarray], n: int) -> dict[str, float]:
    """Calls per second of the reference engine on the first ``n`` of the same inputs."""
    hands = [from_mask(int(h)) for h in inp["hands"][:n]]
    tricks = inp["tricks"][:n].tolist()
    ns = inp["ns"][:n].tolist()
    trumps = inp["trumps"][:n].tolist()
    deals = [[from_mask(int(h)) for h in d] for d in inp["deals"][:n]]
    sc = inp["scoring"][:n].tolist()
    rnd = random.Random(1)
    out = {}
    t0 = time.perf_counter()
    for _ in range(n):
        deck = list(range(32))
        rnd.shuffle(deck)
        cut = rnd.randint(3, 29)
        deck = deck[cut:] + deck[:cut]
        [deck[8 * s: 8 * s + 8] for s in range(4)]
    out["deal"] = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for i in range(n):
        ref.legal_cards(hands[i], tricks[i][: ns[i]], trumps[i], FEDERAL)
    out["legal_mask"] = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for i in range(n):
        ref.trick_winner(tricks[i], trumps[i], FEDERAL)
    out["trick_winner"] = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for i in range(n):
        ref.team_announcements(deals[i], trumps[i], (True,) * 4, FEDERAL)
    out["announcements"] = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for r in sc:
        ref.score_donne(r[0], r[1], r[2], r[3], r[4:6], r[6:8], r[8:10], r[10:12], FEDERAL)
    out["scoring"] = n / (time.perf_counter() - t0)
    return out
