"""Duplicate parties (``simcoinche match A B --parties N``, :mod:`simcoinche.runs.partie_match`).

Partie p is played at two tables, A at seats 0/2 then at seats 1/3. Its donne k draws the
deal of stream (seed, p, k) with dealer (p + k) mod 4 whoever sits where, so each table
is exactly ``simcoinche.parties`` with the players in that order, and a player against
itself splits every pair.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import simcoinche
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError
from simcoinche.runs.partie import PARTIE_COLUMNS
from simcoinche.runs.partie_match import PARTIES_DIFFERENCE, PartieMatchResult

PARTIE_NAMES = [c.name for c in PARTIE_COLUMNS]


def _diffs_from_rows(df: pd.DataFrame) -> np.ndarray:
    """Parties won by a minus by b per pair, recomputed from the two tables' rows."""
    w0 = df[df.table == 0].set_index("partie").sort_index().winner.to_numpy()
    w1 = df[df.table == 1].set_index("partie").sort_index().winner.to_numpy()
    a_won = (w0 == 0).astype(int) + (w1 == 1)
    b_won = (w0 == 1).astype(int) + (w1 == 0)
    return a_won - b_won


def test_each_table_is_the_parties_run_with_the_players_in_that_order(tmp_path):
    out = tmp_path / "pm.parquet"
    res = simcoinche.match("heuristic", "random", parties=48, seed=5, out=out,
                           progress=False)
    assert isinstance(res, PartieMatchResult)
    df = simcoinche.read_results(out)
    assert len(df) == 96
    assert (df.partie.to_numpy() == np.repeat(np.arange(48), 2)).all()
    assert (df.table.to_numpy() == np.tile([0, 1], 48)).all()
    for t, players in ((0, ("heuristic", "random")), (1, ("random", "heuristic"))):
        tab = df[df.table == t].reset_index(drop=True)
        assert (tab.player_t0 == players[0]).all() and (tab.player_t1 == players[1]).all()
        ref = simcoinche.parties(48, seed=5, players=players, progress=False)
        pd.testing.assert_frame_equal(tab[PARTIE_NAMES], ref[PARTIE_NAMES],
                                      check_categorical=False)
    # Donne k of partie p is dealt the same at both tables: its first donne's contract
    # kind may differ with the players, but the score before it is 0-0 at both.
    t0 = df[df.table == 0].reset_index(drop=True)
    t1 = df[df.table == 1].reset_index(drop=True)
    assert all(s[0] == 0 for s in t0.score_t0) and all(s[0] == 0 for s in t1.score_t1)
    assert (t0.winner != -1).all() and (t1.winner != -1).all()
    assert (res.diffs == _diffs_from_rows(df)).all()
    assert res.wins["a"] + res.wins["b"] == 96
    meta = simcoinche.read_metadata(out)
    assert meta["kind"] == "partie_match" and meta["parties"] == 48
    assert meta["a"] == "heuristic" and meta["b"] == "random"
    assert meta["difference"] == PARTIES_DIFFERENCE


def test_the_stronger_player_wins_the_pairs_with_an_interval_above_zero():
    res = simcoinche.match("heuristic", "random", parties=300, seed=11, progress=False)
    lo, hi = res.ci95
    assert 0 < lo <= res.mean_diff <= hi <= 2
    assert res.share("a") > 0.9 and res.share("a") + res.share("b") == 1.0
    assert res.won > 0.8 and res.won + res.tied + res.lost == pytest.approx(1.0)
    assert set(np.unique(res.diffs)) <= {-2, 0, 2}


def test_a_match_of_parties_without_rows_keeps_only_its_summary_and_it_is_the_same():
    kept = simcoinche.match("heuristic", "random", parties=40, seed=12, progress=False)
    summary = simcoinche.match("heuristic", "random", parties=40, seed=12, progress=False,
                               rows=False)
    assert kept.rows is not None and len(kept.rows) == 80 and summary.rows is None
    assert np.array_equal(summary.diffs, kept.diffs)
    assert summary.to_json() | {"seconds": 0} == kept.to_json() | {"seconds": 0}


def test_a_player_against_itself_splits_every_pair():
    res = simcoinche.match("heuristic", "heuristic", parties=64, seed=2, progress=False)
    assert (res.diffs == 0).all() and res.mean_diff == 0.0
    assert res.wins["a"] == res.wins["b"] == 64
    assert res.tied == 1.0


def test_a_partie_stopped_at_the_cap_counts_for_neither_and_is_reported():
    res = simcoinche.match("heuristic", "random", parties=20, seed=1, max_donnes=1,
                           progress=False)
    assert res.unfinished == 40 and (res.diffs == 0).all()
    assert res.wins == {"a": 0, "b": 0}
    text = res.text()
    assert "all 40 reached the cap of donnes per partie" in text
    # Not a certain tie: no interval, no "split 100.0 %".
    assert "interval" not in text and "split" not in text
    assert res.to_json()["ci95"] is None and res.to_json()["unfinished"] == 40
    some = simcoinche.match("heuristic", "heuristic", parties=20, seed=1, max_donnes=10,
                            progress=False)
    assert 0 < some.unfinished < 40 and "interval" in some.text()
    assert "reached the cap of donnes per partie without a winner" in some.text()


def test_cli_json_has_the_keys_of_a_deal_match_with_parties_instead_of_deals(capsys):
    assert main(["match", "heuristic", "random", "--parties", "40", "--seed", "3",
                 "--json", "--no-progress"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["parties"] == 40 and "deals" not in res
    for key in ("a", "b", "mean_diff", "ci95", "won", "players", "tied", "lost", "sd",
                "difference", "interval", "profile", "seed", "seconds", "threads"):
        assert key in res
    assert res["players"]["a"]["parties_won"] + res["players"]["b"]["parties_won"] == 80
    assert res["players"]["a"]["share_won"] > 0.5


def test_cli_text_reports_the_interval_and_the_share_won_by_each(capsys):
    assert main(["match", "heuristic", "random", "--parties", "30", "--seed", "3",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "30 parties at two tables" in text and "95 % interval" in text
    assert "a heuristic: won" in text and "b random: won" in text


@pytest.mark.parametrize("kwargs, culprit", [
    ({"deals": 10, "parties": 10}, "one of them"),
    ({}, "one of them"),
    ({"parties": 0}, "parties"),
    ({"parties": 10, "dd": True}, "dd is for a match of deals"),
    ({"deals": 10, "max_donnes": 5}, "max_donnes is for a match of parties"),
    ({"parties": 10, "max_donnes": 0}, "max_donnes"),
    ({"deals": 10, "rows": "no"}, "rows must be True or False, got 'no'"),
    ({"parties": 10, "rows": None}, "rows must be True or False, got None"),
])
def test_api_refuses_impossible_options(kwargs, culprit):
    with pytest.raises(InputError, match=culprit):
        simcoinche.match("heuristic", "random", progress=False, **kwargs)


def test_colver_bots_play_deal_matches_only():
    with pytest.raises(InputError, match="colver's bots play matches of deals only"):
        simcoinche.match("colver-isdd", "heuristic", parties=10, progress=False)
