"""Duplicate matches with colver's bots (:mod:`simcoinche.runs.peer_match`) and the errors a
colver player can meet: colver missing, a profile other than federal.

Tables with a colver seat are played by the Python sequencer in worker processes; the
rows, statistics and Parquet file are those of every match.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

import simcoinche
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError


def test_without_colver_a_colver_player_is_a_one_line_input_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "colver", None)  # import colver → ImportError
    with pytest.raises(InputError, match=r"pip install 'simcoinche\[peers\]'"):
        simcoinche.match("colver-ismcts", "heuristic", 4, progress=False)
    assert main(["match", "heuristic", "colver-isdd", "--deals", "4", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'simcoinche[peers]'" in err[0]


def test_colver_players_refuse_other_profiles():
    with pytest.raises(InputError, match="federal rules only; got profile classic"):
        simcoinche.match("colver-ismcts", "heuristic", 4, profile="classic", progress=False)


def test_match_command_with_a_colver_bot_in_two_worker_processes(tmp_path, capsys):
    out = tmp_path / "m.parquet"
    args = ["match", "heuristic", "colver-isdd:worlds=2", "--deals", "6", "--seed", "3",
            "--json", "--no-progress"]
    assert main([*args, "--out", str(out), "--threads", "2"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert list(d)[:7] == ["a", "b", "deals", "mean_diff", "ci95", "won", "players"]
    assert d["b"] == "colver-isdd:worlds=2" and d["deals"] == 6 and d["threads"] == 2
    tm, th = d["players"]["b"]["timing"], d["players"]["a"]["timing"]
    # Both teams play the same cards of a deal in all: 32 per played deal, over 2 tables.
    assert tm["cards"] == th["cards"] > 0 and tm["cards"] % 16 == 0
    assert tm["ms_per_card"] > 0 and tm["mirror_ms_per_decision"] > 0
    assert th["ms_per_card"] > 0 and th["mirror_ms_per_decision"] is None
    df = simcoinche.read_results(out)
    assert len(df) == 12 and (df.table.to_numpy() == np.tile([0, 1], 6)).all()
    assert set(df.player_t1[df.table == 0]) == {"colver-isdd:worlds=2"}
    t0 = df[df.table == 0].set_index("donne")
    t1 = df[df.table == 1].set_index("donne")
    diffs = (t0.marks_t0.astype(int) - t0.marks_t1) + (t1.marks_t1.astype(int) - t1.marks_t0)
    assert d["mean_diff"] == pytest.approx(diffs.mean())
    meta = simcoinche.read_metadata(out)
    assert meta["b"] == "colver-isdd:worlds=2" and meta["params"][1] == {"worlds": 2.0}
    # Same seed, one process: the same rows (colver-isdd runs in count mode, seeded).
    again = simcoinche.match("heuristic", "colver-isdd:worlds=2", 6, seed=3, threads=1,
                             progress=False)
    cols = [c for c in again.rows.columns]
    assert (again.rows[cols].reset_index(drop=True)
            .equals(df[cols].reset_index(drop=True)))
    # Its first deals are the heuristic's own deals, dealer i mod 4.
    sim = simcoinche.simulate(6, seed=3, progress=False)
    assert (df[df.table == 0].hand_0.to_numpy() == sim.hand_0.to_numpy()).all()
