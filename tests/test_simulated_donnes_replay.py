"""Every simulated donne is legal and correctly scored: 10,000 donnes recorded with
``--record-play`` (random, heuristic and mixed teams) replayed through the reference engine
(``simcoinche.rules.verify.verify_record``, i.e. ``simcoinche score``); legality and every scored
column must agree with the kernel output."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcoinche.rules.actions import format_action
from simcoinche.rules.cards import CONTRACT_KIND_NAMES, format_card, from_mask
from simcoinche.rules.profiles import get_profile
from simcoinche.rules.verify import verify_record
from simcoinche.runs.simulation import simulate


def to_record(row: dict, profile: str = "federal") -> dict:
    """The ``simcoinche score`` input of one recorded row."""
    hands = [[format_card(c) for c in from_mask(row[f"hand_{s}"])] for s in range(4)]
    tokens = [format_action(a, get_profile(profile)) for a in bytes(row["auction"])]
    play = [] if row["passed_out"] else [format_card(c) for c in bytes(row["play"])]
    return {"profile": profile, "dealer": int(row["dealer"]), "hands": hands,
            "auction": tokens, "play": play}


def check_row(row: dict, profile: str = "federal") -> None:
    out, status = verify_record(to_record(row, profile))
    assert status == 0 and out["legal"], out["error"]
    assert out["passed_out"] == row["passed_out"]
    codes = bytes(row["auction"])
    assert row["n_bids"] == sum(1 for a in codes if a >= 8)
    if row["passed_out"]:
        assert out["contract"] is None
        assert out["score"] == [0, 0]
        assert bytes(row["play"]) == b"\xff" * 32
        return
    c = out["contract"]
    assert c["taker"] == row["taker"]
    assert c["value"] == row["bid_value"]
    assert c["suit"] == row["trump"]
    assert c["capot"] == row["capot_bid"]
    assert c["coinche"] == row["coinche"]
    assert out["to_move"] is None
    assert out["tricks_won"] == [row["tricks_t0"], row["tricks_t1"]]
    assert out["card_points"] == [row["card_points_t0"], row["card_points_t1"]]
    assert out["announcement_points"] == [row["announce_t0"], row["announce_t1"]]
    assert out["belote"] == [row["belote_t0"], row["belote_t1"]]
    assert out["made"] == row["made"]
    assert out["score"] == [row["marks_t0"], row["marks_t1"]]
    # The recorded play is the tricks' cards in order.
    cards = [card for t in out["tricks"] for card in t["cards"]]
    assert cards == [format_card(x) for x in bytes(row["play"])]


@pytest.fixture(scope="module")
def recorded() -> pd.DataFrame:
    parts = [
        simulate(2500, seed=101, players="random", record_play=True, progress=False),
        simulate(2500, seed=102, players="heuristic", record_play=True, progress=False),
        simulate(2500, seed=103, players="heuristic,random", record_play=True,
                 progress=False),
        simulate(2500, seed=104, players="random,heuristic", record_play=True,
                 progress=False),
    ]
    return pd.concat(parts, ignore_index=True)


def test_ten_thousand_recorded_donnes_replay_legal_with_identical_scores(recorded):
    assert len(recorded) == 10000
    rows = recorded.to_dict("records")
    for row in rows:
        row["trump"] = None if row["passed_out"] else str(row["trump"])
        check_row(row)


def test_recorded_sample_covers_the_interesting_cases(recorded):
    """The replayed sample is not trivial: coinches, surcoinches, capots, announcements,
    belote, failed contracts and passed-out donnes all occur."""
    played = recorded[~recorded["passed_out"]]
    assert recorded["passed_out"].sum() > 50
    assert (played["coinche"] == 2).sum() > 50
    assert (played["coinche"] == 4).sum() > 5
    assert ((played["tricks_t0"] == 8) | (played["tricks_t1"] == 8)).sum() > 20
    assert ((played["announce_t0"] + played["announce_t1"]) > 0).sum() > 500
    assert ((played["belote_t0"] + played["belote_t1"]) > 0).sum() > 500
    assert (~played["made"]).sum() > 500
    assert set(np.unique(played["trump"].astype(str))) == set(CONTRACT_KIND_NAMES[:4])


@pytest.mark.parametrize("profile", ["classic", "stephanoise", "strict"])
def test_other_profiles_simulated_donnes_replay_legal_with_identical_scores(profile):
    """The simulation reads every rule from the profile: 1,000 donnes of each other rule
    system (mixed players) replay legal with the same scores."""
    df = simulate(1000, seed=7, profile=profile, players="heuristic,random",
                  record_play=True, progress=False)
    assert df["passed_out"].mean() < 0.5
    for row in df.to_dict("records"):
        row["trump"] = None if row["passed_out"] else str(row["trump"])
        check_row(row, profile)


@pytest.mark.parametrize("profile", ["classic", "strict"])
def test_generale_is_made_only_when_the_bidder_himself_takes_all_eight_tricks(profile):
    """RULES.md générale: "one player takes all 8 tricks". Random players bid générale
    often enough; every such contract replays with the reference engine's verdict, and
    among them a team that took all 8 tricks without its bidder taking them all fails."""
    df = simulate(30000, seed=2024, profile=profile, players="random", record_play=True,
                  progress=False)
    nv = len(get_profile(profile).bid_values)
    gen = df[df["bid_level"] == nv + 1]
    assert len(gen) > 50
    team_all8 = 0
    for row in gen.to_dict("records"):
        team = row["taker"] & 1
        team_all8 += row[f"tricks_t{team}"] == 8
        row["trump"] = str(row["trump"])
        check_row(row, profile)
    assert team_all8 > gen["made"].sum()
