"""The club player: today's heuristic kept row for row (issue 21, item 1).

Every change of the auction is measured against ``club``: the heuristic player as it bid
and played before the data-fitted bidder. Its rows must stay exactly those of that
heuristic: ``tests/data/club_row_hashes.json`` holds the SHA-256 of the kernel output
(every column, the auction codes and the cards in play order, as
``benchmarks/row_hashes.py`` hashes them) of 3,000 donnes per profile, seed 1, recorded from
the ``heuristic`` player on the commit that added ``club`` (both then the same code).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from simcoinche._kernels.rng import seed_key
from simcoinche.players.registry import CLUB, HEURISTIC, get_player
from simcoinche.rules.profiles import PROFILES
from simcoinche.runs.simulation import _Buffers, _plan

RECORDED = json.loads((Path(__file__).parent / "data" / "club_row_hashes.json").read_text())
N = 3000


def run_hash(players: str, profile: str, n: int = N, seed: int = 1) -> str:
    """SHA-256 (hex) of the kernel output of donnes ``0 .. n-1`` with recording on."""
    plan = _plan(n, seed, profile, players, None, n, None, True, None)
    buf = _Buffers(n, True)
    buf.run(plan, seed_key(np.uint64(plan.seed)), 0, n)
    h = hashlib.sha256()
    for arr in (buf.out[:, :n], buf.auc, buf.auc_len, buf.play):
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_club_rows_are_the_recorded_heuristic_rows(profile):
    assert run_hash("club", profile) == RECORDED[profile]


def test_club_is_a_registered_kind_with_the_heuristic_parameters():
    assert get_player("club") is CLUB and CLUB.code != HEURISTIC.code
    assert CLUB.defaults() == HEURISTIC.defaults()
