"""Illegal decisions are errors (issue 20, item 1).

A kernel that has to replace a player's card (an illegal one, or none) or call (an
illegal one) finishes the donne safely but records it; every command refuses the run
with exit status 1 and one line naming the player kind, the profile and the donne, and
leaves no output behind.

The plants are test-only player kinds: random players whose parameter ``RP_ILLEGAL_CARD``
or ``RP_ILLEGAL_CALL`` (0 for every registered player) makes them answer illegally with
probability ``p_illegal`` per decision, given names here by patching the player registry. With a
small ``p_illegal`` the first fault comes after the first chunk, so the writers have
already written part of the output when the error comes.
"""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest

import simcoinche
from simcoinche._kernels import players as K
from simcoinche.commands.cli import main
from simcoinche.players import registry as R
from simcoinche.players.faults import check_faults, fault_text
from simcoinche.rules.errors import IllegalDecisionError, RunError

HAND = "JH 9H AH TH KS 7C 8D AD"
CARD_LINE = re.compile(
    r"^simcoinche: error: player illegal-card(:p_illegal=[0-9.e-]+)? \(team (\d), seat "
    r"(\d)\) made an illegal card \(or none\) in (.+) under profile (\w+); the kernel "
    r"replaced it \(\d+ decisions? replaced in \d+ rows?\): the run is refused$")
CALL_LINE = re.compile(
    r"^simcoinche: error: player illegal-call(:p_illegal=[0-9.e-]+)? \(team (\d), seat "
    r"(\d)\) made an illegal call in (.+) under profile (\w+); the kernel "
    r"replaced it \(\d+ decisions? replaced in \d+ rows?\): the run is refused$")


def _plant(name: str, index: int) -> R.PlayerKind:
    return R.PlayerKind(name, K.PLAYER_RANDOM,
                        "test plant: a random player answering illegally",
                        (*R.RANDOM.params,
                         R.Param("p_illegal", index, 1.0,
                                 "probability of an illegal answer per decision",
                                 minimum=0.0, maximum=1.0)))


@pytest.fixture
def plants(monkeypatch):
    """The two plants under the names ``illegal-card`` and ``illegal-call``."""
    monkeypatch.setitem(R.PLAYERS, "illegal-card", _plant("illegal-card",
                                                          K.RP_ILLEGAL_CARD))
    monkeypatch.setitem(R.PLAYERS, "illegal-call", _plant("illegal-call",
                                                          K.RP_ILLEGAL_CALL))


def _error_line(capsys, pattern: re.Pattern[str]) -> re.Match[str]:
    """The one line on stderr, matched against ``pattern``."""
    lines = capsys.readouterr().err.strip().splitlines()
    # Progress bars are off: the error is the only line (after the first-run notes on
    # compiling the kernels, when the cache was empty).
    err = [x for x in lines if not x.startswith(("simcoinche: compiling",
                                                 "simcoinche: kernels compiled"))]
    assert len(err) == 1, lines
    m = pattern.match(err[0])
    assert m is not None, err[0]
    return m


def _donne(where: str) -> int:
    return int(re.fullmatch(r"donne (\d+)", where).group(1))


# --- the kernels count, the helper names -------------------------------------------------


def test_fault_words_name_the_first_row_and_count_every_replacement():
    faults = np.zeros(10, dtype=np.int32)
    check_faults(faults, ("heuristic", "random"), "federal", str)  # all legal: no error
    faults[3] = card_bit(seat=1) + 2 * 256
    faults[7] = call_bit(seat=2) + 256
    with pytest.raises(IllegalDecisionError) as exc:
        check_faults(faults, ("heuristic", "random"), "classic", lambda i: f"donne {i}")
    msg = str(exc.value)
    assert msg == ("player random (team 1, seat 1) made an illegal card (or none) in donne 3 "
                   "under profile classic; the kernel replaced it (3 decisions replaced in "
                   "2 rows): the run is refused")
    assert isinstance(exc.value, RunError)
    # A call is named before a card of the same row (the auction comes first).
    assert "illegal call" in fault_text(call_bit(0) | card_bit(1) | 512, (1, 0), "strict", "x")
    # Kernel codes are named from the registry.
    assert fault_text(card_bit(0) | 256, (K.PLAYER_HEURISTIC, 0), "federal", "x") \
        .startswith("player heuristic (team 0, seat 0)")


def card_bit(seat: int) -> int:
    from simcoinche._kernels.layout import F_CARD
    return F_CARD << seat


def call_bit(seat: int) -> int:
    from simcoinche._kernels.layout import F_CALL
    return F_CALL << seat


def test_run_batch_counts_each_replaced_decision_in_its_row(plants):
    from simcoinche._kernels.batch import run_batch
    from simcoinche._kernels.donne import MAX_ACTIONS, N_OUT, O_PASSED, Outputs, Players
    from simcoinche._kernels.kinds import kinds_of
    from simcoinche._kernels.layout import F_CALL, F_CARD, F_ONE
    from simcoinche.rules.profiles import get_profile
    from simcoinche.runs.simulation import team_players

    n = 400
    prof = get_profile("federal").packed
    for spec, mask in (("illegal-card,random", F_CARD * 0b0101),
                       ("random,illegal-call", F_CALL * 0b1010)):
        _, codes, params = team_players(spec, None, get_profile("federal"))
        # A view with a spare column, as simulate's buffer (one compiled run_batch).
        out = np.zeros((N_OUT, n + 1), dtype=np.int32)[:, :n]
        faults = np.full(n, -1, dtype=np.int32)
        run_batch(np.uint64(5), np.int64(0), np.int64(n), np.int64(0), np.int64(n), -1,
                  Players(codes, params, kinds_of(codes)), prof,
                  False, Outputs(out, np.zeros((0, MAX_ACTIONS), np.uint8),
                                 np.zeros(0, np.int16), np.zeros((0, 32), np.uint8),
                                 faults), None)
        # p_illegal 1: every decision of the plant's team was replaced, only its seats.
        assert ((faults & 0xFF) & ~mask == 0).all()
        played = out[O_PASSED] == 0
        assert 0 < played.sum() < n
        if mask == F_CARD * 0b0101:
            # The plant's two seats play 8 cards each in a played donne, none otherwise.
            assert (faults[played] // F_ONE == 16).all()
            assert (faults[played] & 0xFF == mask).all()
            assert (faults[~played] == 0).all()
        else:
            # Every seat speaks at least once: each donne has the plant's calls replaced.
            assert (faults // F_ONE >= 1).all()
            assert (faults != 0).all()


# --- every command ----------------------------------------------------------------------


@pytest.mark.parametrize("spec,pattern", [
    ("illegal-card:p_illegal=0.0001,random", CARD_LINE),
    ("random,illegal-call:p_illegal=0.0005", CALL_LINE),
])
def test_simulate_refuses_the_run_and_leaves_no_file(plants, capsys, tmp_path, spec,
                                                     pattern):
    out = tmp_path / "run.parquet"
    status = main(["simulate", "-n", "20000", "--seed", "1", "--players", spec,
                   "--chunk-size", "100", "--threads", "2", "--out", str(out),
                   "--no-progress"])
    assert status == 1
    m = _error_line(capsys, pattern)
    assert m.group(5) == "federal"
    # After the first chunk: its row group was written before the error came.
    assert _donne(m.group(4)) >= 100
    assert list(tmp_path.iterdir()) == []


def test_simulate_in_memory_raises(plants):
    with pytest.raises(IllegalDecisionError, match=r"in donne \d+ under profile classic"):
        simcoinche.simulate(2000, seed=3, profile="classic", players="illegal-card",
                            progress=False)


def test_parties_refuse_the_run_and_leave_no_file(plants, capsys, tmp_path):
    out = tmp_path / "parties.parquet"
    status = main(["parties", "-n", "2000", "--seed", "2", "--players",
                   "random,illegal-call:p_illegal=0.0002", "--chunk-size", "8",
                   "--threads", "2", "--out", str(out), "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CALL_LINE)
    where = re.fullmatch(r"partie (\d+), donne (\d+)", m.group(4))
    assert where is not None and int(where.group(1)) >= 8
    assert list(tmp_path.iterdir()) == []


def test_match_refuses_the_run_and_leaves_no_file(plants, capsys, tmp_path):
    out = tmp_path / "match.parquet"
    status = main(["match", "heuristic", "illegal-card:p_illegal=0.0002", "--deals",
                   "6000", "--seed", "4", "--threads", "2", "--out", str(out),
                   "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CARD_LINE)
    where = re.fullmatch(r"deal (\d+) \(table (\d)\)", m.group(4))
    assert where is not None
    # Player B sits in team 1 at table 0 and in team 0 at table 1.
    assert int(m.group(2)) == 1 - int(where.group(2))
    assert list(tmp_path.iterdir()) == []


def test_odds_refuses_an_illegal_card(plants, capsys):
    status = main(["odds", "--hand", HAND, "--trump", "H", "--samples", "300",
                   "--players", "illegal-card", "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CARD_LINE)
    assert re.fullmatch(r"deal \d+", m.group(4))
    assert capsys.readouterr().out == ""


def test_odds_refuses_an_illegal_call_of_the_auction_filter(plants, capsys):
    status = main(["odds", "--hand", HAND, "--trump", "H", "--samples", "300",
                   "--auction", "80H", "--dealer", "3", "--players", "illegal-call",
                   "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CALL_LINE)
    assert re.fullmatch(r"deal \d+", m.group(4))


def test_advise_refuses_an_illegal_card(plants, capsys):
    status = main(["advise", "--hand", HAND, "--samples", "200", "--players",
                   "illegal-card", "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CARD_LINE)
    assert re.fullmatch(r"final contract \d+", m.group(4))


def test_advise_refuses_an_illegal_call(plants, capsys):
    # Every deal passes the filter when nobody has spoken; the continuation of the
    # auction after each candidate asks the model bidders (all plants here).
    status = main(["advise", "--hand", HAND, "--samples", "200", "--players",
                   "illegal-call", "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CALL_LINE)
    assert re.fullmatch(r"deal \d+ after \S+", m.group(4))


def test_a_dask_task_refuses_the_run_and_leaves_no_dataset(plants, capsys, tmp_path):
    from distributed import Client, LocalCluster

    simcoinche.simulate(10, players="random", progress=False)  # kernels loaded first
    out = tmp_path / "ds"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      protocol="tcp", dashboard_address=":0",
                      silence_logs=logging.ERROR) as lc, Client(lc):
        status = main(["simulate", "-n", "2000", "--seed", "1", "--players",
                       "illegal-card:p_illegal=0.0002,random", "--engine", "dask",
                       "--scheduler", lc.scheduler_address, "--task-size", "100",
                       "--chunk-size", "50", "--out", str(out), "--no-progress"])
    assert status == 1
    m = _error_line(capsys, CARD_LINE)
    assert _donne(m.group(4)) >= 100  # not in the first task: a part was written
    assert list(tmp_path.iterdir()) == []


def test_the_python_table_refuses_a_kernel_players_illegal_decision(plants):
    # The sequencer of the colver matches (runs.peer_match) raises the same error.
    from simcoinche.players.table import Table, play_donnes
    from simcoinche.rules.profiles import get_profile
    from simcoinche.runs.simulation import team_players

    prof = get_profile("stephanoise").packed
    for spec, what in (("random,illegal-card", "illegal card"),
                       ("illegal-call,random", "illegal call")):
        _, codes, params = team_players(spec, None, get_profile("stephanoise"))
        with pytest.raises(IllegalDecisionError, match=f"made an {what}.* in donne \\d+ "
                                                       "under profile stephanoise"):
            play_donnes(Table(prof, codes, params), np.uint64(1), 0, 4)
