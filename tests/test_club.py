"""The club player: today's heuristic kept row for row (issue 21, item 1).

Every change of the auction is measured against ``club``: the heuristic player as it bid
and played before the data-fitted bidder. Its rows must stay exactly those of that
heuristic: ``tests/data/club_row_hashes.json`` holds the SHA-256 of the kernel output
(every column, the auction codes and the cards in play order:
``run_hash`` of ``benchmarks/row_hashes.py``) of 3,000 donnes per profile, seed 1, recorded from
the ``heuristic`` player on the commit that added ``club`` (both then the same code).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from simcoinche._kernels import heuristic as H
from simcoinche.players.registry import CLUB, HEURISTIC, Param, get_player
from simcoinche.rules.profiles import PROFILES

# The hash benchmarks/row_hashes.py records (loaded from its file: tests do not import
# the benchmarks package).
_spec = importlib.util.spec_from_file_location(
    "row_hashes", Path(__file__).resolve().parent.parent / "benchmarks" / "row_hashes.py")
row_hashes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(row_hashes)

RECORDED = json.loads((Path(__file__).parent / "data" / "club_row_hashes.json").read_text())
N = 3000


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_club_rows_are_the_recorded_heuristic_rows(profile):
    assert row_hashes.run_hash("club", profile, N) == RECORDED[profile]


def test_club_is_a_registered_kind_with_the_old_heuristic_parameters():
    # Every parameter of the club conventions, at the defaults the heuristic player had;
    # the heuristic player keeps the card play's (same offset, same default).
    assert get_player("club") is CLUB and CLUB.code != HEURISTIC.code
    assert CLUB.params == tuple(Param(*p) for p in H.PARAMS)
    def contest(kind):
        (p,) = [p for p in kind.params if p.name == "contest_points"]
        return p.offset, p.default

    assert contest(HEURISTIC) == contest(CLUB)
