"""``simcoinche.analysis.dd.table`` against the peer engine colver's double-dummy solver.

RULES.md, "Rulings on points the sources leave open": the double-dummy value is the card
points a team reaches when all four hands are visible and both sides play perfectly,
from the opening lead of seat dealer+1; 252 to a team that wins every trick. colver
(PyPI, Rust; part of the ``test`` extra) solves the same question for the four trump
suits (``Env.solve_all_suits``), and its card-play rules and points are federal's, so
on every (deal, suit) team 0's value must be the same.

Team 1's value: colver reports ``EW = 252 - NS`` whenever ``NS`` is 0 or 252; when team
0 takes only pointless tricks (not the last), team 0 has 0 card points but team 1 is not
capot, so the exact value is 162 (``simcoinche.analysis.dd``'s), not colver's 252. That is the only
difference allowed, and it is counted.

colver's answers for the 500 seeded deals are recorded (``tests/colver_dd_record.py``
wrote ``tests/data/colver_dd_500.json``): solving them again took both cores for about
40 s of every run of the suite. The installed colver is asked again, live, on a sample
of the recorded deals: a colver that deals or solves differently fails that test (then
record again) instead of leaving the record stale.
"""

from __future__ import annotations

import json

import colver
import numpy as np
import pytest
from colver_dd_record import RECORD, colver_answers, seeded_deals

from simcoinche.analysis import dd
from simcoinche.players.peers import from_colver_card

# The recorded deals colver solves again, live: every 19th (26 deals, 104 values; the
# dealer i % 4 takes every seat).
LIVE_SAMPLE = slice(7, None, 19)


def _record() -> dict:
    return json.loads(RECORD.read_text())


def test_the_record_is_what_the_installed_colver_deals_and_solves():
    record = _record()
    deals = record["deals"]
    assert [(d["dealer"], d["seed"]) for d in deals] == seeded_deals()
    sample = deals[LIVE_SAMPLE]
    live = colver_answers([(d["dealer"], d["seed"]) for d in sample], processes=1)
    assert {d["dealer"] for d in sample} == {0, 1, 2, 3}
    stale = [(d, hands, suits) for d, (hands, suits) in zip(sample, live, strict=True)
             if (d["hands"], d["suits"]) != (hands, suits)]
    if stale:
        d, hands, suits = stale[0]
        what = "deals" if d["hands"] != hands else "solves"
        pytest.fail(f"colver {colver.__version__} (recorded: {record['colver']}) {what} "
                    f"{len(stale)} of {len(sample)} sampled deals differently; first: "
                    f"dealer {d['dealer']} seed {d['seed']}, recorded {d['hands']} "
                    f"{d['suits']}, now {hands} {suits}. Run tests/colver_dd_record.py, "
                    "review the record's diff (a colver that solves worse must not become "
                    "the reference) and run this file again")


@pytest.mark.slow
def test_table_equals_colver_solve_all_suits_on_500_seeded_federal_deals():
    deals = _record()["deals"]
    assert len(deals) == 500
    mismatches = []
    pointless = 0
    for i, deal in enumerate(deals):
        dealer, seed, colver_hands, suits = (deal["dealer"], deal["seed"], deal["hands"],
                                             deal["suits"])
        hands = np.array([sum(1 << from_colver_card(c) for c in h) for h in colver_hands],
                         dtype=np.uint32)
        # One thread (the suite runs a test per core), two on every 10th deal: the values
        # do not depend on the threads.
        table = dd.table(hands, dealer, threads=2 if i % 10 == 0 else 1)
        for k, kind in enumerate("SHDC"):
            (t0, t1), (ns, ew) = table[kind], suits[k]
            if t0 == ns and t1 == ew:
                continue
            if t0 == ns == 0 and (t1, ew) == (162, 252):
                pointless += 1  # team 0 took only pointless tricks: not a capot
                continue
            mismatches.append((dealer, seed, kind, (t0, t1), (ns, ew)))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:5]}"
    # The documented exception is rare; it must not hide a systematic difference.
    assert pointless <= len(deals) * 4 // 100
