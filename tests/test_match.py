"""Duplicate matches (``simcoinche match``, :mod:`simcoinche.runs.duplicate`).

A deal is played at two tables with the same cards and dealer, player a at seats 0/2 then
at seats 1/3. The deal of donne i depends only on (seed, i) (counters ``STREAM_DEAL``);
the players' decisions draw from one stream per donne (``STREAM_PLAYERS``), so a player
against itself plays the same run at both tables and every deal scores exactly 0.
"""

from __future__ import annotations

import json
import re

import numba
import numpy as np
import pandas as pd
import pytest

import simcoinche
from simcoinche._kernels import donne as D
from simcoinche._kernels.dd import solve_many
from simcoinche.commands.cli import main
from simcoinche.players.registry import parse_player_spec, spec_name
from simcoinche.rules.cards import parse_hand
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.duplicate import DIFFERENCE, MatchResult, dd_takers

HAND_COLS = ["dealer", "hand_0", "hand_1", "hand_2", "hand_3"]


def _diffs_from_rows(df: pd.DataFrame) -> np.ndarray:
    """The deal differences recomputed from the two tables' rows."""
    t0 = df[df.table == 0].set_index("donne").sort_index()
    t1 = df[df.table == 1].set_index("donne").sort_index()
    d = (t0.marks_t0.astype(int) - t0.marks_t1) + (t1.marks_t1.astype(int) - t1.marks_t0)
    return d.to_numpy()


def test_both_tables_hold_the_same_cards_and_dealer_and_are_simulate_runs(tmp_path):
    out = tmp_path / "m.parquet"
    res = simcoinche.match("heuristic", "random", 300, seed=5, out=out, progress=False)
    df = simcoinche.read_results(out)
    assert len(df) == 600
    assert (df.donne.to_numpy() == np.repeat(np.arange(300), 2)).all()
    assert (df.table.to_numpy() == np.tile([0, 1], 300)).all()
    t0 = df[df.table == 0].reset_index(drop=True)
    t1 = df[df.table == 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(t0[HAND_COLS], t1[HAND_COLS])
    assert (t0.player_t0 == "heuristic").all() and (t0.player_t1 == "random").all()
    assert (t1.player_t0 == "random").all() and (t1.player_t1 == "heuristic").all()
    # Each table is the plain simulation of the same seed with those teams.
    for tab, players in ((t0, "heuristic,random"), (t1, "random,heuristic")):
        sim = simcoinche.simulate(300, seed=5, players=players, progress=False)
        pd.testing.assert_frame_equal(tab[list(sim.columns)], sim, check_categorical=False)
    # The auctions differ between the tables (not the same run twice).
    assert (t0.taker != t1.taker).any()
    assert (res.diffs == _diffs_from_rows(df)).all()
    meta = simcoinche.read_metadata(out)
    assert meta["kind"] == "match" and meta["a"] == "heuristic" and meta["b"] == "random"
    assert meta["difference"] == DIFFERENCE


@pytest.mark.parametrize("spec", ["heuristic", "random", "heuristic:bid_margin=5"])
def test_a_player_against_itself_scores_exactly_zero_on_every_deal(spec):
    res = simcoinche.match(spec, spec, 500, seed=2, progress=False)
    assert res.n == 500 and len(res.diffs) == 500
    assert (res.diffs == 0).all()
    assert res.mean_diff == 0.0 and res.ci95 == (0.0, 0.0)
    assert (res.won, res.tied, res.lost) == (0.0, 1.0, 0.0)
    a, b = res.stats["a"], res.stats["b"]
    assert (a.contracts, a.made, a.coinches, a.coinches_won) == \
        (b.contracts, b.made, b.coinches, b.coinches_won)


def test_heuristic_against_random_is_far_above_zero():
    res = simcoinche.match("heuristic", "random", 500, seed=3, progress=False)
    lo, hi = res.ci95
    assert lo > 200, res.ci95
    d = _diffs_from_rows(res.rows)
    assert (res.diffs == d).all()
    assert res.mean_diff == pytest.approx(d.mean())
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(len(d))
    assert (lo, hi) == pytest.approx((d.mean() - half, d.mean() + half))
    assert res.won == pytest.approx((d > 0).mean()) and res.won > 0.8
    assert res.won + res.tied + res.lost == pytest.approx(1.0)
    # The heuristic takes good contracts and coinches well; the random player does not.
    a, b = res.stats["a"].as_dict(False), res.stats["b"].as_dict(False)
    assert a["made"] > 0.8 > 0.5 > b["made"]
    assert a["coinches_won"] > 0.8 > 0.3 > b["coinches_won"]


def _rows(**cols) -> np.ndarray:
    """A kernel output chunk (``int32[N_OUT, k]``) with the given O_* rows set."""
    k = len(next(iter(cols.values())))
    out = np.zeros((D.N_OUT, k), dtype=np.int32)
    for name, values in cols.items():
        out[getattr(D, name)] = values
    return out


def test_statistics_of_constructed_tables_are_counted_by_hand():
    # Three deals. Table 0: a is team 0; table 1: a is team 1.
    # deal 0: t0 a takes (seat 0) and makes 250-0, t1 a takes (seat 1) and fails, b gets 160.
    # deal 1: t0 b takes (seat 3), a coinches, contract fails: a 320; t1 passed out.
    # deal 2: t0 passed out; t1 b takes (seat 2), surcoinched after a's coinche, made: b 640.
    # (Deal 0 at t0 is a capot: 250 card points in the profile's rows, 252 in DD terms.)
    t0 = _rows(O_PASSED=[0, 0, 1], O_TAKER=[0, 3, -1], O_COINCHE=[1, 2, 0],
               O_MADE=[1, 0, 0], O_MARKS=[250, 320, 0], O_CARD_POINTS=[250, 40, 0],
               O_TRICKS=[8, 2, 0], O_VALUE=[250, 90, 0])
    t0[D.O_MARKS + 1] = [0, 0, 0]
    t0[D.O_CARD_POINTS + 1] = [0, 122, 0]
    t0[D.O_TRICKS + 1] = [0, 6, 0]
    t1 = _rows(O_PASSED=[0, 1, 0], O_TAKER=[1, -1, 2], O_COINCHE=[1, 0, 4],
               O_MADE=[0, 0, 1], O_MARKS=[160, 0, 640], O_CARD_POINTS=[90, 0, 100],
               O_VALUE=[80, 0, 100])
    t1[D.O_MARKS + 1] = [0, 0, 0]
    t1[D.O_CARD_POINTS + 1] = [72, 0, 62]
    dd = np.array([[252, 50, -1], [100, -1, 110]], dtype=np.int16)
    res = MatchResult(3, 0.0, 1, ("heuristic", "random"), "federal", 0)
    res.dd = True
    res.add_chunk((t0, t1, dd))
    res.finish()
    # deal 0: (250 - 0) + (0 - 160); deal 1: (320 - 0) + 0; deal 2: 0 + (0 - 640).
    assert res.diffs.tolist() == [90, 320, -640]
    assert (res.won, res.tied, res.lost) == pytest.approx((2 / 3, 0, 1 / 3))
    a, b = res.stats["a"], res.stats["b"]
    assert (a.contracts, a.made, a.coinches, a.coinches_won) == (2, 1, 2, 1)
    assert (b.contracts, b.made, b.coinches, b.coinches_won) == (2, 1, 0, 0)
    # The contract mix over the 6 donnes each player sat at: a bid a capot (250) and 80,
    # b 90 and 100; a coinched twice.
    da, db = a.as_dict(False), b.as_dict(False)
    assert (da["donnes"], da["take_rate"], da["mean_bid"], da["capots"]) == \
        (6, pytest.approx(2 / 6), pytest.approx(165.0), 1)
    assert (db["take_rate"], db["mean_bid"], db["capots"]) == \
        (pytest.approx(2 / 6), pytest.approx(95.0), 0)
    assert (da["coinche_rate"], db["coinche_rate"]) == (pytest.approx(2 / 6), 0.0)
    # a took deal 0 twice: DD 252 vs a capot made, DD 100 vs 72 made → loses 0 and 28.
    assert a.as_dict(True)["dd_loss_taking"] == pytest.approx(14.0)
    # b took deal 1 at t0 (DD 50, made 122) and deal 2 at t1 (DD 110, made 100).
    assert b.as_dict(True)["dd_loss_taking"] == pytest.approx(((50 - 122) + (110 - 100)) / 2)
    assert a.as_dict(True)["dd_loss_defending"] == pytest.approx(((122 - 50) + (100 - 110)) / 2)
    assert b.as_dict(True)["dd_loss_defending"] == pytest.approx(-14.0)
    lo, hi = res.ci95
    assert (lo + hi) / 2 == pytest.approx(-230 / 3)


def test_same_match_whatever_the_thread_count_or_chunk():
    two = min(2, numba.config.NUMBA_NUM_THREADS)
    one = simcoinche.match("heuristic", "random:p_open=0.5", 700, seed=11, threads=1,
                           progress=False)
    many = simcoinche.match("heuristic", "random:p_open=0.5", 700, seed=11, threads=two,
                            chunk_size=97, progress=False)
    assert (one.diffs == many.diffs).all()
    pd.testing.assert_frame_equal(one.rows, many.rows)
    assert one.to_json()["players"] == many.to_json()["players"]


def test_a_match_without_rows_keeps_only_its_summary_and_it_is_the_same():
    # The command line prints the summary only: it asks for no rows, so a long match
    # holds no DataFrame and a warm `match` does not import pandas (issue 24).
    kept = simcoinche.match("heuristic", "random", 300, seed=6, chunk_size=128,
                            progress=False)
    summary = simcoinche.match("heuristic", "random", 300, seed=6, chunk_size=128,
                               progress=False, rows=False)
    assert kept.rows is not None and len(kept.rows) == 600 and summary.rows is None
    assert np.array_equal(summary.diffs, kept.diffs)
    assert summary.to_json() | {"seconds": 0} == kept.to_json() | {"seconds": 0}


def test_the_command_line_asks_for_the_summary_only(monkeypatch, capsys):
    # It prints the summary alone: no rows kept, no DataFrame built, no pandas imported.
    import simcoinche.runs.match as run_match

    asked = {}
    real = run_match.match

    def spy(*args, **kwargs):
        asked.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(run_match, "match", spy)
    assert main(["match", "heuristic", "random", "--deals", "20", "--no-progress"]) == 0
    assert asked["rows"] is False
    assert "match heuristic (a) vs random (b): 20 deals" in capsys.readouterr().out


def test_dd_values_are_the_takers_double_dummy_card_points(tmp_path, capsys):
    out = tmp_path / "dd.parquet"
    assert main(["match", "heuristic", "random", "--deals", "6", "--seed", "4", "--dd",
                 "--out", str(out), "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    df = simcoinche.read_results(out)
    played = df[~df.passed_out].reset_index(drop=True)
    assert len(played) > 0 and (df[df.passed_out].dd_takers == -1).all()
    prof = get_profile("federal").packed
    hands = np.ascontiguousarray(played[["hand_0", "hand_1", "hand_2", "hand_3"]]
                                 .to_numpy(dtype=np.uint32))
    c0 = np.zeros(len(played), dtype=np.int16)
    solve_many(hands, played.dealer.to_numpy(np.int64), played.trump.cat.codes
               .to_numpy(np.int64), prof, 1, c0, np.zeros(len(played), dtype=np.int64))
    team = played.taker.to_numpy() & 1
    dd = played.dd_takers.to_numpy()
    assert (dd[team == 0] == c0[team == 0]).all()
    # Team 1's value: 162 - C0, except where C0 is 0 or 252 (capots).
    plain = (team == 1) & (c0 != 0) & (c0 != 252)
    assert (team == 0).any() and plain.any()
    assert (dd[plain] == 162 - c0[plain]).all()
    # The reported loss is the mean of DD minus the card points the takers made.
    made_pts = np.where(team == 1, played.card_points_t1, played.card_points_t0)
    for role, name in (("a", "heuristic"), ("b", "random")):
        took = np.where(played.table == 0, team == 0, team == 1)
        if role == "b":
            took = ~took
        p = report["players"][role]
        assert p["name"] == name and p["contracts"] == int(took.sum())
        assert p["dd_loss_taking"] == pytest.approx((dd - made_pts)[took].mean())
        assert p["dd_loss_defending"] == pytest.approx((made_pts - dd)[~took].mean())


def test_dd_of_team_one_takers_sees_their_capot():
    # Seat 1 holds all eight hearts and leads (dealer 0): team 1 takes every trick at
    # hearts, a capot worth 252 to them, while team 0's value is 0 (162 - 0 would be wrong).
    hands = np.array([[parse_hand("7S 8S 9S TS JS QS KS AS"),
                       parse_hand("7H 8H 9H TH JH QH KH AH"),
                       parse_hand("7D 8D 9D TD JD QD KD AD"),
                       parse_hand("7C 8C 9C TC JC QC KC AC")]], dtype=np.uint32)
    prof = get_profile("federal").packed
    both = dd_takers(np.repeat(hands, 2, axis=0), np.array([0, 0]), np.array([1, 1]),
                     np.array([0, 1]), prof, 1)
    assert both.tolist() == [0, 252]


def test_player_specs_parse_and_print_canonically():
    kind, over = parse_player_spec("heuristic:bid_margin=5, coinche_margin=12.5")
    assert kind.name == "heuristic" and over == {"bid_margin": 5.0, "coinche_margin": 12.5}
    assert spec_name(kind, over) == "heuristic:bid_margin=5,coinche_margin=12.5"
    assert spec_name(*parse_player_spec("Random")) == "random"


def test_cli_json_layout(capsys):
    assert main(["match", "heuristic", "heuristic:bid_margin=5", "--deals", "300",
                 "--seed", "1", "--json", "--no-progress"]) == 0
    cap = capsys.readouterr()
    assert cap.err == ""
    d = json.loads(cap.out)
    assert list(d)[:7] == ["a", "b", "deals", "mean_diff", "ci95", "won", "players"]
    assert d["a"] == "heuristic" and d["b"] == "heuristic:bid_margin=5" and d["deals"] == 300
    lo, hi = d["ci95"]
    assert lo <= d["mean_diff"] <= hi
    assert 0 <= d["won"] <= 1 and d["won"] + d["tied"] + d["lost"] == pytest.approx(1)
    assert set(d["players"]) == {"a", "b"}
    assert set(d["players"]["a"]) == {"name", "donnes", "contracts", "take_rate", "made",
                                      "mean_bid", "capots", "coinches", "coinche_rate",
                                      "coinches_won"}
    assert d["players"]["b"]["name"] == "heuristic:bid_margin=5"


def test_cli_text_summary(capsys):
    assert main(["match", "heuristic", "random", "--deals", "200", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "match heuristic (a) vs random (b): 200 deals" in text
    assert "95 % interval" in text and "fewer than 300 deals" in text
    assert "a heuristic:" in text and "b random:" in text
    assert re.search(r"a heuristic: took [0-9.]+ % of the donnes \([0-9,]+ contracts\), "
                     r"[0-9.]+ % made, mean bid [0-9.]+, [0-9,]+ capots bid; coinched", text)


@pytest.mark.parametrize("args, culprit", [
    (["nobody", "random", "--deals", "10"], "unknown player 'nobody'"),
    (["heuristic:bid_margni=5", "random", "--deals", "10"], "bid_margni"),
    (["heuristic:bid_margin=x", "random", "--deals", "10"], "bid_margin"),
    (["heuristic:bid_margin", "random", "--deals", "10"], "name=value"),
    (["heuristic", "random", "--deals", "0"], "deals"),
    (["heuristic", "colver-foo", "--deals", "10"],
     "unknown player 'colver-foo'; colver's bots are colver-ismcts, colver-isdd"),
    (["colver-ismcts:time=0.01", "colver-fo", "--deals", "10"],
     "unknown player 'colver-fo'; colver's bots are colver-ismcts, colver-isdd"),
    (["heuristic", "random", "--deals", "99999999999999999999999"], "deals must be at most"),
    (["heuristic", "random", "--deals", "10", "--profile", "nope"], "nope"),
    (["heuristic", "random", "--deals", "10", "--threads", "99"], "threads"),
    (["heuristic", "random", "--deals", "10", "--seed", "-1"], "seed"),
    (["heuristic", "random", "--deals", "ten"], "ten"),
    (["heuristic", "random"], "--deals"),
    # A match of parties (tests/test_partie_match.py).
    (["heuristic", "random", "--deals", "10", "--parties", "10"], "--parties"),
    (["heuristic", "random", "--parties", "0"], "parties"),
    (["heuristic", "random", "--parties", "10", "--dd"], "dd"),
])
def test_cli_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, args,
                                                             culprit):
    out = tmp_path / "m.parquet"
    try:
        status = main(["match", *args, "--out", str(out), "--no-progress"])
    except SystemExit as exc:
        status = exc.code
    assert status == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], cap.err
    assert list(tmp_path.iterdir()) == []


def test_cli_refuses_an_existing_output_or_a_missing_directory(tmp_path, capsys):
    out = tmp_path / "m.parquet"
    out.write_text("keep me")
    assert main(["match", "heuristic", "random", "--deals", "10", "--out", str(out)]) == 2
    assert "exists; use --overwrite" in capsys.readouterr().err
    assert out.read_text() == "keep me"
    missing = tmp_path / "no" / "m.parquet"
    assert main(["match", "heuristic", "random", "--deals", "10", "--out", str(missing)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_cli_overwrite_without_an_output_is_refused(capsys):
    """--overwrite replaces --out: without --out it would be silently ignored."""
    status = main(["match", "heuristic", "random", "--deals", "10", "--overwrite",
                   "--no-progress"])
    cap = capsys.readouterr()
    assert status == 2 and cap.out == ""
    assert cap.err == "simcoinche: error: overwrite is for an output file (--out)\n"
