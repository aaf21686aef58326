"""The Python donne sequencer (:mod:`simcoinche.players.table`) against the batch kernel and the
reference engine.

With kernel players only, a :class:`~simcoinche.players.table.Table` must play every donne of a
run exactly as ``run_batch`` does: same row, same auction record, same play record, bit
for bit, on every profile. With Python players at some seats, every recorded donne must
replay legally through the reference engine (``reference.replay_donne``, the oracle of
``simcoinche score``) to the same result, and an illegal answer must raise, never be
replaced.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from simcoinche._kernels.auction import auction_check
from simcoinche._kernels.batch import run_batch
from simcoinche._kernels.donne import (
    MAX_ACTIONS,
    N_OUT,
    O_CARD_POINTS,
    O_HAND,
    O_MADE,
    O_MARKS,
    O_PASSED,
    O_TAKER,
    O_TRICKS,
    Outputs,
    Players,
)
from simcoinche._kernels.kinds import kinds_of
from simcoinche._kernels.pimc import PIMC_TT_LOG2
from simcoinche._kernels.rng import seed_key
from simcoinche.players.registry import PLAYERS, param_array
from simcoinche.players.table import IllegalPlayerAction, SeatView, Table, play_donnes
from simcoinche.rules import reference as ref
from simcoinche.rules.cards import from_mask
from simcoinche.rules.profiles import PROFILES, get_profile
from simcoinche.runs.simulation import think_arg

PAIRS = [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]
N_DIFF = 400
N_PIMC = 40


def _team_arrays(kinds, overrides=({}, {}), profile="federal"):
    codes = np.array([PLAYERS[k].code for k in kinds], dtype=np.int32)
    params = np.stack([param_array(k, o, profile=profile)
                       for k, o in zip(kinds, overrides, strict=True)])
    return codes, params


def _batch(key, start, n, codes, params, prof, think=None):
    # A view with a spare column, as simulate's buffer: run_batch compiles once for both.
    out = np.zeros((N_OUT, n + 1), dtype=np.int32)[:, :n]
    auc = np.zeros((n, MAX_ACTIONS), dtype=np.uint8)
    auc_len = np.zeros(n, dtype=np.int16)
    play = np.zeros((n, 32), dtype=np.uint8)
    faults = np.zeros(n, dtype=np.int32)
    run_batch(key, np.int64(start), np.int64(n), np.int64(0), np.int64(n), -1,
              Players(codes, params, kinds_of(codes)), prof, True,
              Outputs(out, auc, auc_len, play, faults), think)
    # The kernel players of these runs answer legally: no decision was replaced.
    assert not faults.any()
    return out, auc, auc_len, play


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("kinds", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_sequencer_with_kernel_players_equals_run_batch_bit_for_bit(profile, kinds):
    prof = get_profile(profile).packed
    codes, params = _team_arrays(kinds, profile=profile)
    key = np.uint64(seed_key(np.uint64(20261130)))
    start = 1_000
    want = _batch(key, start, N_DIFF, codes, params, prof)
    got = play_donnes(Table(prof, codes, params), key, start, N_DIFF, record=True)
    for name, w, g in zip(("rows", "auction", "auction length", "play"), want, got,
                          strict=True):
        assert w.dtype == g.dtype and w.shape == g.shape, name
        bad = np.flatnonzero((w != g).reshape(w.shape[0], -1).any(axis=1))
        assert len(bad) == 0, f"{name} differ at {bad[:10]}"
    # The run covers contracts of both teams (not a trivial run; the data-fitted heuristic
    # bidder practically never lets a donne be passed out).
    rows = want[0]
    played = rows[O_PASSED] == 0
    assert played.sum() > N_DIFF // 2 and set(rows[O_TAKER][played] % 2) == {0, 1}


@pytest.mark.parametrize(("kinds", "bid_worlds"),
                         [(("pimc", "heuristic"), 0), (("random", "pimc"), 0),
                          (("pimc", "heuristic"), 8)],
                         ids=["pimc-heuristic", "random-pimc", "thinking-bidder"])
def test_sequencer_with_a_pimc_player_equals_run_batch_bit_for_bit(kinds, bid_worlds):
    # The PIMC player reads the whole public info (voids, belote, cards shown) and draws
    # its worlds from the players' stream, at the auction too when it thinks there: any
    # difference would show.
    prof = get_profile("federal").packed
    over = tuple({"worlds": 2.0, "bid_worlds": float(bid_worlds)} if k == "pimc" else {}
                 for k in kinds)
    codes, params = _team_arrays(kinds, over)
    # The think spec: the solver's table, and the thinking bidder only where one thinks.
    think = think_arg(codes, params)
    assert think == ((PIMC_TT_LOG2, True) if bid_worlds else PIMC_TT_LOG2)
    key = np.uint64(seed_key(np.uint64(8)))
    want = _batch(key, 0, N_PIMC, codes, params, prof, think)
    got = play_donnes(Table(prof, codes, params, think=think), key, 0, N_PIMC, record=True)
    for w, g in zip(want, got, strict=True):
        assert np.array_equal(w, g)
    assert (want[0][O_PASSED] == 0).sum() > N_PIMC // 2


def test_a_pimc_player_thinking_at_the_auction_in_a_run_compiled_without_its_thinker_is_a_fault():
    # "Nothing fails silently": with the think spec of card play only, the thinking bidder
    # is not compiled in; a PIMC player whose bid_worlds is positive then makes an illegal
    # call, counted as a fault of its seats, never a call of the tables in its place.
    prof = get_profile("federal").packed
    codes, params = _team_arrays(("pimc", "heuristic"),
                                 ({"worlds": 2.0, "bid_worlds": 8.0}, {}))
    n = 4
    out = np.zeros((N_OUT, n + 1), dtype=np.int32)[:, :n]
    faults = np.zeros(n, dtype=np.int32)
    run_batch(np.uint64(seed_key(np.uint64(8))), np.int64(0), np.int64(n), np.int64(0),
              np.int64(n), -1, Players(codes, params, kinds_of(codes)), prof, True,
              Outputs(out, np.zeros((n, MAX_ACTIONS), dtype=np.uint8),
                      np.zeros(n, dtype=np.int16), np.zeros((n, 32), dtype=np.uint8),
                      faults), np.int64(PIMC_TT_LOG2))
    # Every donne: team 0 (seats 0 and 2) speaks, and its first call is refused.
    called = (faults >> 4) & 0xF
    assert (faults >> 8 >= 1).all() and ((called & 0b1010) == 0).all()
    assert ((called & 0b0101) != 0).all()


def test_think_arg_compiles_the_thinking_bidder_in_only_where_a_pimc_player_thinks():
    plain = _team_arrays(("pimc", "heuristic"))
    thinking = _team_arrays(("heuristic", "pimc"), ({}, {"bid_worlds": 4.0}))
    assert think_arg(*_team_arrays(("heuristic", "random"))) is None
    assert think_arg(*plain) == PIMC_TT_LOG2 and isinstance(think_arg(*plain), np.int64)
    assert think_arg(*thinking) == (PIMC_TT_LOG2, True)
    # A run with no auction (odds, advise) plays cards only.
    assert think_arg(thinking[0]) == PIMC_TT_LOG2


def test_sequencer_with_changed_parameters_equals_run_batch():
    prof = get_profile("federal").packed
    codes, params = _team_arrays(("heuristic", "heuristic"), ({"bid_margin": 5.0}, {}))
    key = np.uint64(seed_key(np.uint64(3)))
    want = _batch(key, 0, 300, codes, params, prof)
    got = play_donnes(Table(prof, codes, params), key, 0, 300, record=True)
    for w, g in zip(want, got, strict=True):
        assert np.array_equal(w, g)


class LegalRandom:
    """A Python player drawing uniformly among the legal actions (its own stream)."""

    def __init__(self, name: str, prof: np.ndarray, seed: int) -> None:
        self.name = name
        self.prof = prof
        self.rng = random.Random(seed)
        self.views: list[SeatView] = []

    def bid(self, view: SeatView) -> int:
        self.views.append(view)
        legal = [a for a in range(8 + 6 * 12) if auction_check(view.astate, a, self.prof) == 0]
        return 0 if self.rng.random() < 0.6 else self.rng.choice(legal)

    def card(self, view: SeatView) -> int:
        self.views.append(view)
        return self.rng.choice([c for c in range(32) if (view.legal >> c) & 1])


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_python_players_donnes_replay_legally_to_the_same_score_in_the_reference_engine(
        profile):
    prof = get_profile(profile).packed
    codes, params = _team_arrays(("heuristic", "heuristic"), profile=profile)
    key = np.uint64(seed_key(np.uint64(11)))
    for python in ((LegalRandom("py", prof, 1), None), (None, LegalRandom("py", prof, 2))):
        table = Table(prof, codes, params, python)
        out, auc, auc_len, play = play_donnes(table, key, 0, 150, record=True)
        played = 0
        for j in range(150):
            hands = [from_mask(int(out[O_HAND + s, j].view(np.uint32))) for s in range(4)]
            cards = [int(c) for c in play[j] if c != 255]
            rep = ref.replay_donne(hands, j & 3, [int(a) for a in auc[j, :auc_len[j]]],
                                   cards, profile=profile)
            assert rep.error is None, (j, rep.error)
            if out[O_PASSED, j]:
                assert cards == []
                continue
            played += 1
            assert rep.auction.bidder == out[O_TAKER, j]
            assert list(rep.tricks_won) == list(out[O_TRICKS:O_TRICKS + 2, j])
            assert list(rep.card_points) == list(out[O_CARD_POINTS:O_CARD_POINTS + 2, j])
            assert list(rep.score.marks) == list(out[O_MARKS:O_MARKS + 2, j])
            assert rep.score.made == bool(out[O_MADE, j])
        assert played > 50
        # The Python player was asked for its own team's seats only, with its own hand.
        player = python[0] or python[1]
        team = 0 if python[0] else 1
        assert player.views and all(v.seat & 1 == team for v in player.views)
        for v in player.views:
            dealt = int(out[O_HAND + v.seat, v.index].view(np.uint32))
            assert v.dealt == dealt and v.hand & ~v.dealt == 0


class Cheater:
    """Answers a fixed illegal action."""

    name = "cheater"

    def __init__(self, bid: int | None = None, card: int | None = None) -> None:
        self._bid, self._card = bid, card

    def bid(self, view: SeatView) -> int:
        return 0 if self._bid is None else self._bid

    def card(self, view: SeatView) -> int:
        if self._card is not None:
            return self._card
        # A card of the hand that is not legal when there is one, else a card not held.
        bad = view.hand & ~view.legal
        if bad:
            return (bad & -bad).bit_length() - 1
        return next(c for c in range(32) if not (view.hand >> c) & 1)


def test_an_illegal_card_from_a_python_player_raises_naming_player_seat_and_card():
    prof = get_profile("federal").packed
    codes, params = _team_arrays(("heuristic", "heuristic"))
    table = Table(prof, codes, params, (None, Cheater()))
    key = np.uint64(seed_key(np.uint64(5)))
    out = np.zeros((N_OUT, 1), dtype=np.int32)
    with pytest.raises(IllegalPlayerAction, match=r"^cheater \(seat [13], donne \d+, trick \d, "
                       r"card \d of the trick\) played [0-9TJQKA][SHDC], not a legal card"):
        for index in range(40):
            table.play(key, index, index & 3, out, 0)


def test_an_illegal_bid_from_a_python_player_raises():
    prof = get_profile("federal").packed
    codes, params = _team_arrays(("heuristic", "heuristic"))
    # Coinche with no bid to coinche: seat 1 speaks first with dealer 0.
    table = Table(prof, codes, params, (None, Cheater(bid=1)))
    out = np.zeros((N_OUT, 1), dtype=np.int32)
    with pytest.raises(IllegalPlayerAction,
                       match=r"cheater \(seat 1, donne 0, auction action 1\) answered "
                       r"coinche \(code 1\): no bid to coinche"):
        table.play(np.uint64(seed_key(np.uint64(1))), 0, 0, out, 0)
