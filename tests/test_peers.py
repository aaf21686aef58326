"""colver's bots as opponents (:mod:`simcoinche.players.peers`, :mod:`simcoinche.runs.peer_match`).

colver (the ``test`` extra installs it) indexes a card ``suit*8 + rank`` with ranks
``7 8 9 J Q K T A`` and codes its auction actions 0 pass, 1..40 bids, 41 coinche,
42 surcoinche. The mappings are pinned against colver's own names; the mirror rests on
colver's auction and card rules being federal's, which is checked on random positions;
whole donnes with each bot must be legal (replayed by the reference engine); an illegal
colver answer must raise, never be replaced.
"""

from __future__ import annotations

import random

import colver
import numpy as np
import pytest

from simcoinche._kernels.auction import (
    A_STATUS,
    A_TO_SPEAK,
    AUCTION_STATE_LEN,
    auction_apply,
    auction_check,
    auction_start,
)
from simcoinche._kernels.donne import N_OUT, O_HAND, O_MARKS, O_PASSED
from simcoinche._kernels.play import legal_mask, trick_winner
from simcoinche._kernels.rng import seed_key
from simcoinche.players.peers import (
    ColverPlayer,
    IllegalPeerAction,
    _fill,
    from_colver_action,
    from_colver_card,
    parse_peer_spec,
    to_colver_action,
    to_colver_card,
)
from simcoinche.players.registry import param_array
from simcoinche.players.table import SeatView, Table, play_donnes
from simcoinche.rules import reference as ref
from simcoinche.rules.actions import format_action
from simcoinche.rules.cards import format_card, from_mask
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import FEDERAL

PROF = FEDERAL.packed
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _colver_name(name: str) -> str:
    """colver's card or bid name in our notation (``10♠`` → ``TS``, ``Capot♥`` →
    ``capotH``)."""
    for sym, letter in SUIT.items():
        name = name.replace(sym, letter)
    return name.replace("10", "T") if len(name) == 3 and name.startswith("10") else name


# --- encodings ----------------------------------------------------------------------------


def test_card_mapping_matches_colvers_card_names_both_ways():
    for c in range(32):
        assert _colver_name(colver.Env.card_name(c)) == format_card(from_colver_card(c))
        assert to_colver_card(from_colver_card(c)) == c
        assert from_colver_card(to_colver_card(c)) == c
    # Named cards: colver's 10 of spades is its card 6, our TS is 3; jack 3 vs 4.
    assert to_colver_card(3) == 6 and to_colver_card(4) == 3 and from_colver_card(31) == 31


def test_auction_action_mapping_matches_colvers_action_names_both_ways():
    for a in range(43):
        ours = from_colver_action(a)
        name = colver.Env.action_name(a, 0)
        want = {"Pass": "pass", "Coinche": "coinche", "Surcoinche": "surcoinche"}.get(name)
        if want is None:
            want = _colver_name(name).replace("Capot", "capot")
        assert format_action(ours, FEDERAL) == want
        assert to_colver_action(ours) == a
    with pytest.raises(ValueError):
        from_colver_action(43)
    with pytest.raises(ValueError):
        to_colver_action(8 + 10 * 6)  # no générale in federal, nor in colver


def test_colvers_auction_rules_are_federals_on_random_auctions():
    # The mirror replays simcoinche's auctions in colver: both must accept the same
    # actions at every step and end the auction at the same time.
    rng = random.Random(1)
    for t in range(600):
        dealer = t & 3
        env = colver.Env.deal(dealer=dealer, seed=t)
        st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        auction_start(st, dealer)
        while env.phase() == 0:
            assert env.current_player() == st[A_TO_SPEAK]
            mine = {a for a in range(43) if auction_check(st, from_colver_action(a), PROF) == 0}
            assert set(env.legal_actions()) == mine
            r = rng.random()
            legal = sorted(mine)
            a = (0 if r < 0.55 else 41 if 41 in mine and r < 0.7 else
                 42 if 42 in mine and r < 0.85 else rng.choice(legal[:6]))
            env.step(a)
            auction_apply(st, from_colver_action(a), PROF)
        assert st[A_STATUS] == {1: 1, 2: 2}[env.phase()]


def test_colvers_legal_cards_are_federals_on_random_plays():
    rng = random.Random(2)
    for t in range(300):
        dealer, trump = t & 3, rng.randrange(4)
        env = colver.Env.deal(dealer=dealer, seed=5000 + t)
        env.set_contract(trump, 80, t & 1, 0)
        env.set_phase_playing()
        hands = [sum(1 << from_colver_card(c) for c in h) for h in env.get_hands()]
        trick = np.zeros(4, dtype=np.int32)
        n, leader = 0, (dealer + 1) & 3
        for _ in range(32):
            seat = env.current_player()
            assert seat == (leader + n) & 3
            legal = int(legal_mask(np.uint32(hands[seat]), trick, n, trump, PROF))
            assert {from_colver_card(c) for c in env.legal_actions()} == set(from_mask(legal))
            c = rng.choice(from_mask(legal))
            env.step(to_colver_card(c))
            hands[seat] &= ~(1 << c)
            trick[n] = c
            n += 1
            if n == 4:
                leader = (leader + trick_winner(trick, 4, trump, PROF)) & 3
                n = 0
        assert env.is_terminal()


def test_peer_specs_parse_with_defaults_and_reject_bad_values():
    assert parse_peer_spec("colver-ismcts").values == {"time": 0.05}
    assert parse_peer_spec("colver-ismcts").name == "colver-ismcts"
    s = parse_peer_spec("Colver-ISDD:worlds=16")
    assert s.values == {"worlds": 16.0} and s.name == "colver-isdd:worlds=16"
    for bad, msg in (("colver-isdd:worlds=0.5", "must be an integer"),
                     ("colver-ismcts:time=0", "must be a number in 0.001..10"),
                     ("colver-ismcts:depth=3", "unknown parameter 'depth'"),
                     ("colver-ismcts:time", "is not name=value")):
        with pytest.raises(InputError, match=msg):
            parse_peer_spec(bad)


# --- the mirror's filler -------------------------------------------------------------------


def test_filler_deals_the_hidden_cards_with_the_right_counts_and_no_shown_void():
    rng = random.Random(3)
    for _ in range(300):
        pool = rng.sample(range(32), 18)
        # Real hands consistent with some voids: seat s lacks the suits it was given none of.
        real = {1: pool[:7], 2: pool[7:13], 3: pool[13:]}
        voids = [0] * 4
        for s, cards in real.items():
            held = {c >> 3 for c in cards}
            voids[s] = sum(1 << u for u in range(4) if u not in held and rng.random() < 0.7)
        need = {s: len(c) for s, c in real.items()}
        fill = _fill(pool, [1, 2, 3], need, voids, rng)
        assert sorted(c for s in (1, 2, 3) for c in fill[s]) == sorted(pool)
        for s in (1, 2, 3):
            assert len(fill[s]) == need[s]
            assert all(not (voids[s] >> (c >> 3)) & 1 for c in fill[s])


# --- whole donnes ---------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["colver-ismcts:time=0.004", "colver-isdd:worlds=2"])
def test_colver_bots_bid_and_play_legal_whole_donnes_seeing_no_hidden_card(spec):
    key = np.uint64(seed_key(np.uint64(9)))
    h = np.array([1, 1], dtype=np.int32)
    params = np.stack([param_array("heuristic", profile="federal")] * 2)
    bot = ColverPlayer(spec, int(key))
    mirrors: list[tuple[SeatView, list[list[int]]]] = []
    hands_of = bot._hands

    def record(view: SeatView) -> list[list[int]]:
        # The four hands every colver Env of a decision is dealt (redeal_with_hands).
        mirror = hands_of(view)
        mirrors.append((view, mirror))
        return mirror

    bot._hands = record
    n = 6
    out, auc, auc_len, play = play_donnes(Table(PROF, h, params, (None, bot)), key, 0, n,
                                          record=True)
    played, seats_cards = 0, {}
    for j in range(n):
        hands = [from_mask(int(out[O_HAND + s, j].view(np.uint32))) for s in range(4)]
        cards = [int(c) for c in play[j] if c != 255]
        rep = ref.replay_donne(hands, j & 3, [int(a) for a in auc[j, :auc_len[j]]], cards)
        assert rep.error is None, (j, rep.error)
        seats_cards[j] = [((t.leader + i) & 3, c) for t in rep.tricks
                          for i, c in enumerate(t.cards)]
        if not out[O_PASSED, j]:
            played += 1
            assert list(rep.score.marks) == list(out[O_MARKS:O_MARKS + 2, j])
    assert played >= 3
    # Every card of team 1 in a played donne went through colver (16 per donne), and
    # every auction action.
    assert bot.timing.cards == 16 * played
    assert bot.timing.bids == sum(1 for j in range(n) for k in range(auc_len[j])
                                  if ((j & 3) + 1 + k) & 1 == 1)
    # Fairness: a mirror holds the seat's own dealt hand, each other seat's played cards,
    # and for their unplayed cards a filler: it places about a third of them at their real
    # seat (a mirror of the real hands would place all of them).
    right = total = 0
    assert len(mirrors) == bot.timing.cards + bot.timing.bids
    for view, mirror in mirrors:
        real = [set(from_mask(int(out[O_HAND + s, view.index].view(np.uint32))))
                for s in range(4)]
        got = [{from_colver_card(c) for c in mirror[s]} for s in range(4)]
        assert got[view.seat] == real[view.seat]
        before = seats_cards[view.index][:len(view.plays)]
        for s in range(4):
            if s == view.seat:
                continue
            shown = {c for seat, c in before if seat == s}
            assert shown <= got[s] and len(got[s]) == 8
            right += len((got[s] - shown) & (real[s] - shown))
            total += len(got[s] - shown)
    assert total > 500 and right / total < 0.6, right / total


def _table_with_lying_bot(spec: str, team: int):
    """A table of heuristic players with colver bot ``spec`` (playing :class:`_Lying`
    positions) for team ``team``; returns ``(run key, table, one-row output)``."""
    key = np.uint64(seed_key(np.uint64(4)))
    bot = ColverPlayer(spec, int(key))

    class Liar:
        class Env:
            @staticmethod
            def deal(dealer, seed):
                return _Lying(colver.Env.deal(dealer=dealer, seed=seed))

    bot.colver = Liar
    table = Table(PROF, np.array([1, 1], dtype=np.int32),
                  np.stack([param_array("heuristic", profile="federal")] * 2),
                  (bot, None) if team == 0 else (None, bot))
    return key, table, np.zeros((N_OUT, 1), dtype=np.int32)


def test_an_illegal_colver_card_raises_naming_bot_seat_and_card():
    key, table, out = _table_with_lying_bot("colver-ismcts:time=0.002", 0)
    with pytest.raises(IllegalPeerAction, match=r"^colver-ismcts:time=0.002 \(seat [02], donne "
                       r"\d+, trick \d, card \d of the trick\) answered [0-9TJQKA][SHDC] "
                       r"\(colver card \d+\), not a legal card \(legal: "):
        for index in range(20):
            table.play(key, index, index & 3, out, 0)


class _Lying:
    """A colver Env whose searches answer a card the seat does not hold, and whose bidder
    coinches when nobody bid when asked to lie at the auction."""

    lie_at_auction = False

    def __init__(self, env) -> None:
        self._env = env

    def action_smart_ismcts(self, time_ms):
        hand = set(self._env.get_hands()[self._env.current_player()])
        return next(c for c in range(32) if c not in hand)

    def bid_improved(self):
        return 41 if self.lie_at_auction else self._env.bid_improved()

    def __getattr__(self, name):
        return getattr(self._env, name)


def test_an_illegal_colver_bid_raises(monkeypatch):
    monkeypatch.setattr(_Lying, "lie_at_auction", True)
    key, table, out = _table_with_lying_bot("colver-isdd", 1)
    # Dealer 0: seat 1 (the bot) speaks first; coinche with no bid.
    with pytest.raises(IllegalPeerAction, match=r"^colver-isdd \(seat 1, donne 0, auction "
                       r"action 1\) answered coinche \(colver action 41\): no bid to coinche"):
        table.play(key, 0, 0, out, 0)
