"""A donne played from Python: the sequencer for tables where a seat is a Python player.

:func:`simcoinche._kernels.donne.play_one` plays a whole donne inside numba, so every
player must be a kernel (``random``, ``heuristic``). A player that lives in Python — the
peer engine's bots of :mod:`simcoinche.players.peers` — cannot be called from there. A
:class:`Table` plays donne ``index`` of a run exactly as ``play_one`` does, one decision
at a time from Python:

- the same deal from the same key (:func:`.deal.deal_hands` on ``donne_key(run_key,
  index)``), the same auction hands (:func:`.annul.auction_hands`), the same dealer;
- the same players' random stream (``rng_seed(st, key, STREAM_PLAYERS)``), passed to the
  kernel players' own entry points :func:`.donne.seat_action` and
  :func:`.donne.choose_card` (with the PIMC player's ``think`` scratch) in the same order,
  so that they draw the same numbers;
- the same rules, by calling the kernels' rule functions: the auction state machine
  (:func:`.auction.auction_apply`), legal cards (:func:`.play.legal_mask_win`), trick
  winner (:func:`.play.beats`), card points, announcements, belote, scoring;
- the same public ``info`` array (offsets ``I_*`` of :mod:`.players`), updated at the
  same moments, and the same output row (``O_*`` of :mod:`.donne`), auction record and
  play record.

That a :class:`Table` with kernel players only reproduces ``run_batch`` bit for bit is
checked by ``tests/test_table.py`` on every profile. With a Python player at a seat, that
seat's decisions come from :class:`SeatPlayer` instead and draw nothing from the
players' stream (the kernel players at the other seats still do, in order).

A Python player's answer is never corrected: an illegal auction action or card raises
:class:`IllegalPlayerAction` naming the player, the donne, the seat and the action. A
kernel player's illegal answer, which ``play_one`` would replace (a pass, the lowest
legal card) and record as a fault, raises
:class:`~simcoinche.rules.errors.IllegalDecisionError` with the message the batch
facades give (:mod:`simcoinche.players.faults`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from simcoinche._kernels.announce import MAX_DECL, belote_points
from simcoinche._kernels.announce import team_announcements as _team_announcements
from simcoinche._kernels.annul import auction_hands
from simcoinche._kernels.auction import (
    A_BIDDER,
    A_COINCHE,
    A_KIND,
    A_LEVEL,
    A_N_BIDS,
    A_STATUS,
    A_TO_SPEAK,
    AUCTION_STATE_LEN,
    auction_apply,
    auction_check,
    auction_start,
)
from simcoinche._kernels.deal import deal_hands
from simcoinche._kernels.donne import (
    MAX_ACTIONS,
    N_OUT,
    NO_CARD,
    O_DEALER,
    O_HAND,
    O_N_BIDS,
    Players,
    choose_card,
    close_card_points,
    declared_cards,
    has_declarable,
    note_card,
    seat_action,
    start_play_info,
    write_contract,
    write_passed_out,
    write_result,
)
from simcoinche._kernels.kinds import Kinds, kinds_of
from simcoinche._kernels.layout import (
    F_CALL,
    F_CARD,
    F_ONE,
    P_AUCTION_CARDS,
    P_SHOW_AFTER_CARD,
    P_SHOW_AFTER_CARD_SA,
)
from simcoinche._kernels.play import beats, card_points, legal_mask_win
from simcoinche._kernels.players import (
    I_LEADER,
    I_POINTS,
    I_SEAT,
    I_SHOWN,
    I_TRICK,
    I_TRICKS,
    I_VOID,
    INFO_LEN,
    PLAYER_RANDOM,
    random_card,
)
from simcoinche._kernels.rng import (
    RNG_STATE_LEN,
    STREAM_PLAYERS,
    donne_key,
    rng_seed,
)
from simcoinche._kernels.scoring import (
    SCORE_LEN,
    score_donne,
)
from simcoinche._kernels.thinking import think_scratch
from simcoinche.players.faults import fault_text
from simcoinche.rules.actions import AUCTION_REASONS, format_action
from simcoinche.rules.cards import format_card
from simcoinche.rules.errors import IllegalDecisionError, RunError

_U32 = np.uint32


class IllegalPlayerAction(RunError):
    """A Python player answered an action the rules forbid (never replaced silently)."""


@dataclass
class SeatView:
    """What a seat may see when it must decide (everything public, plus its own hand).

    ``hand`` is the seat's cards now (bitboard; during the auction, the cards it holds
    while bidding), ``dealt`` its whole 8-card hand (known to it from the deal; the same
    as ``hand`` during a federal auction). ``auction`` holds the auction's action codes
    so far (:mod:`simcoinche.rules.actions`), ``astate`` a copy of the public auction state
    (:mod:`simcoinche._kernels.auction`). During the play, ``contract`` is ``(taker,
    level, kind, coinche)``, ``plays`` the cards played so far in order from the first
    lead (trick ``len(plays) // 4``, position ``len(plays) % 4``), ``legal`` the cards
    this seat may play, ``voids[s]`` the suits (bit ``s``) seat ``s`` has shown it lacks
    (the engine's public inference), ``shown[s]`` the cards seat ``s`` has shown in
    counted announcements, ``info`` a copy of the public ``info`` array.
    """

    index: int
    seat: int
    dealer: int
    hand: int
    dealt: int
    auction: list[int]
    astate: np.ndarray
    contract: tuple[int, int, int, int] | None = None
    plays: list[int] = field(default_factory=list)
    legal: int = 0
    voids: tuple[int, int, int, int] = (0, 0, 0, 0)
    shown: tuple[int, int, int, int] = (0, 0, 0, 0)
    info: np.ndarray | None = None


@dataclass
class Timing:
    """Time a player spent deciding: for a colver bot, in colver's calls (the search; the
    mirror's set-up apart, ``mirror_seconds``); for a kernel player, in
    ``seat_action`` / ``choose_card`` called from Python."""

    bids: int = 0
    bid_seconds: float = 0.0
    cards: int = 0
    card_seconds: float = 0.0
    mirror_seconds: float = 0.0

    def add(self, other: Timing) -> None:
        self.bids += other.bids
        self.bid_seconds += other.bid_seconds
        self.cards += other.cards
        self.card_seconds += other.card_seconds
        self.mirror_seconds += other.mirror_seconds

    def as_dict(self) -> dict[str, Any]:
        return {
            "cards": self.cards,
            "ms_per_card": 1000 * self.card_seconds / self.cards if self.cards else None,
            "bids": self.bids,
            "ms_per_bid": 1000 * self.bid_seconds / self.bids if self.bids else None,
            "mirror_ms_per_decision": (1000 * self.mirror_seconds / (self.cards + self.bids)
                                       if self.mirror_seconds else None),
        }


class SeatPlayer(Protocol):
    """A player living in Python: one object per team, asked for each of its seats."""

    name: str

    def bid(self, view: SeatView) -> int:
        """Auction action code (:mod:`simcoinche.rules.actions`) of ``view.seat`` now."""
        ...

    def card(self, view: SeatView) -> int:
        """Card (``0..31``, our encoding) ``view.seat`` plays now."""
        ...


class Table:
    """Plays donnes of one run, one decision at a time, for two teams of players.

    Parameters
    ----------
    prof : int32[PROFILE_LEN]
        Packed profile.
    codes : int32[2]
        Kernel player code per team (read for a team without a Python player).
    params : float64[2, PARAM_LEN]
        Parameter row per team (the kernel players').
    python : pair of SeatPlayer or None
        The Python player of each team (``None``: the kernel player ``codes[t]``).
    think : int, (int, True) or None
        The kernels' ``think`` argument, the think spec of
        :mod:`simcoinche._kernels.thinking`: None when no kernel team is a PIMC player,
        else the log2 of its solver table, paired with True when one thinks at the auction
        (``_RunPlan.think``, :func:`simcoinche.runs.simulation.think_arg`). The scratch
        is made once per table (``run_batch`` makes one per block, of one donne with a
        PIMC player); the PIMC player's card does not depend on what the scratch held
        before (its solver stamps each solve), which the differential test checks.
    kinds : Kinds or None
        The optional player kinds the kernels compile (:mod:`simcoinche._kernels.kinds`);
        None: those of ``codes`` (:func:`~simcoinche._kernels.kinds.kinds_of`).
    """

    def __init__(self, prof: np.ndarray, codes: np.ndarray, params: np.ndarray,
                 python: tuple[SeatPlayer | None, SeatPlayer | None] = (None, None),
                 think: int | tuple[int, bool] | None = None,
                 kinds: Kinds | None = None) -> None:
        # Read-only, as Profile.packed is (a worker process receives a writable copy): the
        # kernels then compile one machine code for every caller.
        self.prof = np.array(prof, dtype=np.int32)
        self.prof.setflags(write=False)
        self.codes = np.ascontiguousarray(codes, dtype=np.int32)
        self.params = np.ascontiguousarray(params, dtype=np.float64)
        self.players = Players(self.codes, self.params,
                               kinds_of(self.codes) if kinds is None else kinds)
        self.python = tuple(python)
        self.think = None if think is None else think_scratch(think)
        #: Time the kernel players of each team spent deciding (their calls from here).
        self.timing = [Timing(), Timing()]
        # Scratch arrays, as run_batch allocates them once per block.
        self.st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        self.deck = np.zeros(32, dtype=np.int8)
        self.hands = np.zeros(4, dtype=np.uint32)
        self.early = np.zeros(4, dtype=np.uint32)
        self.astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        self.actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
        self.trick = np.zeros(4, dtype=np.int32)
        self.info = np.zeros(INFO_LEN, dtype=np.int64)
        self.decl = np.zeros((MAX_DECL, 5), dtype=np.int32)
        self.declare = np.ones(4, dtype=np.uint8)
        self.ann = np.zeros(2, dtype=np.int32)
        self.bel = np.zeros(2, dtype=np.int32)
        self.cpts = np.zeros(2, dtype=np.int32)
        self.tricks = np.zeros(2, dtype=np.int32)
        self.score = np.zeros(SCORE_LEN, dtype=np.int32)

    def _kernel(self, team: int) -> bool:
        return self.python[team] is None

    # --- one donne --------------------------------------------------------------------

    def play(self, run_key: np.uint64, index: int, dealer: int, out: np.ndarray, row: int,
             auc: np.ndarray | None = None, auc_len: np.ndarray | None = None,
             play_rec: np.ndarray | None = None) -> None:
        """Play donne ``index`` of the run ``run_key`` with ``dealer`` into ``out[:, row]``.

        ``out`` is ``int32[N_OUT, n]`` (offsets ``O_*``); with ``auc`` (``uint8[n,
        MAX_ACTIONS]``), ``auc_len`` (``int16[n]``) and ``play_rec`` (``uint8[n, 32]``)
        the auction and the 32 cards are recorded as ``play_one`` records them.
        """
        prof, st, hands, early, astate, actions = (self.prof, self.st, self.hands,
                                                   self.early, self.astate, self.actions)
        record = auc is not None
        key = np.uint64(donne_key(np.uint64(run_key), np.int64(index)))
        cut = deal_hands(st, key, np.int64(dealer), prof, self.deck, hands)
        # The cards each seat holds while bidding (stephanoise: the first 6 dealt).
        if prof[P_AUCTION_CARDS] < 8:
            auction_hands(self.deck, cut, np.int64(dealer), prof, early)
        else:
            early[:] = hands
        # The uint32 bit patterns, stored in the int32 columns (viewed back as uint32).
        out[O_HAND:O_HAND + 4, row] = hands.view(np.int32)
        out[O_DEALER, row] = dealer

        # --- auction: each seat in turn until the auction kernel says it is over ------
        rng_seed(st, key, STREAM_PLAYERS)
        auction_start(astate, np.int64(dealer))
        na = 0
        while astate[A_STATUS] == 0 and na < MAX_ACTIONS:
            seat = int(astate[A_TO_SPEAK])
            team = seat & 1
            if self._kernel(team):
                t0 = time.perf_counter()
                a = seat_action(self.players, np.int64(team), early[seat], astate,
                                actions, np.int64(na), np.int64(dealer), prof, st,
                                self.think, None)
                tm = self.timing[team]
                tm.bids += 1
                tm.bid_seconds += time.perf_counter() - t0
                if auction_check(astate, a, prof) != 0:
                    # A kernel player may only make legal calls (play_one would record
                    # the fault and pass): the run is refused.
                    raise IllegalDecisionError(fault_text(
                        F_ONE | (F_CALL << seat), self.codes, prof,
                        f"donne {int(index)}") + ": the run is refused")
                auction_apply(astate, a, prof)
            else:
                player = self.python[team]
                view = SeatView(int(index), seat, int(dealer), int(early[seat]),
                                int(hands[seat]), [int(x) for x in actions[:na]],
                                astate.copy())
                a = player.bid(view)
                why = _auction_reason(astate, a, prof)
                if why is not None:
                    raise IllegalPlayerAction(
                        f"{player.name} (seat {seat}, donne {index}, auction action "
                        f"{na + 1}) answered {_action_text(a, prof)}: {why}")
                auction_apply(astate, a, prof)
            actions[na] = a
            na += 1
        if record:
            auc_len[row] = na
            auc[row, :na] = actions[:na]
        out[O_N_BIDS, row] = astate[A_N_BIDS]

        if astate[A_STATUS] != 1:
            # "Four passes before any bid: the donne is passed out" — recorded as a row.
            write_passed_out(out, np.int64(row))
            if record:
                play_rec[row, :] = NO_CARD
            return

        taker = int(astate[A_BIDDER])
        level = int(astate[A_LEVEL])
        kind = int(astate[A_KIND])
        coinche = int(astate[A_COINCHE])
        write_contract(out, np.int64(row), np.int64(taker), np.int64(level), np.int64(kind),
                       np.int64(coinche), prof)

        made = self._play_phase(int(index), int(dealer), taker, level, kind, coinche, na,
                                play_rec if record else None, row)
        write_result(out, np.int64(row), np.int64(made), self.tricks, self.cpts, self.bel,
                     self.score)

    # --- after the auction (donne.play_phase) --------------------------------------------

    def _play_phase(self, index: int, dealer: int, taker: int, level: int, kind: int,
                    coinche: int, na: int, play_rec: np.ndarray | None, row: int) -> int:
        prof, st, hands, info, trick = self.prof, self.st, self.hands, self.info, self.trick
        ann, bel, decl = self.ann, self.bel, self.decl
        cur = [int(h) for h in hands]
        # --- announcements: simulated players declare everything --------------------
        if has_declarable(hands):
            ann_team = int(_team_announcements(hands, np.int64(kind), self.declare, prof,
                                               ann))
        else:
            # No hand holds a run of three or four of a kind: nothing to declare.
            ann[0] = 0
            ann[1] = 0
            ann_team = -1
        belote_points(hands, np.int64(kind), prof, bel)
        belote_seat = -1
        if kind < 4 and (bel[0] != 0 or bel[1] != 0):
            kq = 0x60 << (8 * kind)
            for s in range(4):
                if cur[s] & kq == kq:
                    belote_seat = s

        # --- public information (play_phase fills it when a non-random player reads
        # it; here it is always kept: random players never read it, so their draws and
        # the results are the same) ---------------------------------------------------
        start_play_info(info, dealer, taker, kind, np.int64(level), coinche, ann_team, prof)

        leader = (dealer + 1) & 3
        c = [0, 0]
        t = [0, 0]
        played = 0
        taker_tricks = 0
        last_team = 0
        pos = 0
        plays: list[int] = []
        # RULES.md: announcements are compared "after the first card of the second trick"
        # (the 5th card), at sans-atout in stephanoise "after the 9th card": only from
        # then on may players use the cards shown.
        show_at = int(prof[P_SHOW_AFTER_CARD_SA] if kind == 4 else prof[P_SHOW_AFTER_CARD])
        contract = (taker, level, kind, coinche)
        for tr in range(8):
            info[I_TRICK] = tr
            info[I_LEADER] = leader
            led = 0
            win_pos = 0
            win_card = 0
            pts = 0
            for p in range(4):
                seat = (leader + p) & 3
                team = seat & 1
                hand = cur[seat]
                if ann_team >= 0 and pos == show_at:
                    # The winning team shows its announcements: the cards become public.
                    for s in range(ann_team, 4, 2):
                        info[I_SHOWN + s] = declared_cards(hands[s], np.int64(kind), prof,
                                                           decl)
                if p == 0:
                    # Leading: any card.
                    legal = hand
                else:
                    legal = int(legal_mask_win(_U32(hand), np.int64(led), np.int64(win_card),
                                               win_pos == p - 2, np.int64(kind), prof))
                if not self._kernel(team):
                    info[I_SEAT] = seat
                    player = self.python[team]
                    view = SeatView(index, seat, dealer, hand, int(hands[seat]),
                                    [int(x) for x in self.actions[:na]], self.astate.copy(),
                                    contract, list(plays), legal,
                                    tuple(int(v) for v in info[I_VOID:I_VOID + 4]),
                                    tuple(int(v) for v in info[I_SHOWN:I_SHOWN + 4]),
                                    info.copy())
                    card = player.card(view)
                    if not (isinstance(card, (int, np.integer)) and 0 <= card <= 31
                            and (legal >> int(card)) & 1):
                        raise IllegalPlayerAction(
                            f"{player.name} (seat {seat}, donne {index}, trick {tr + 1}, "
                            f"card {p + 1} of the trick) played {_card_text(card)}, not a "
                            f"legal card (legal: {_cards_text(legal)})")
                    card = int(card)
                else:
                    if self.codes[team] == PLAYER_RANDOM:
                        # Random player: a uniform legal card (random_card, as in
                        # play_phase; an illegal one for the test plants).
                        card = int(random_card(_U32(hand), _U32(legal), trick, np.int64(p),
                                               info, self.actions, np.int64(na),
                                               self.players.params, np.int64(team), prof,
                                               st))
                    else:
                        info[I_SEAT] = seat
                        t0 = time.perf_counter()
                        card = int(choose_card(self.players, np.int64(team), _U32(hand),
                                               _U32(legal), trick, np.int64(p), info,
                                               self.actions, np.int64(na), prof, st,
                                               self.think))
                        tm = self.timing[team]
                        tm.cards += 1
                        tm.card_seconds += time.perf_counter() - t0
                    if card < 0 or card > 31 or (legal >> card) & 1 == 0:
                        # A kernel player may only play a legal card (play_one would
                        # record the fault and play the lowest legal card): refused.
                        raise IllegalDecisionError(fault_text(
                            F_ONE | (F_CARD << seat), self.codes, prof,
                            f"donne {int(index)}") + ": the run is refused")
                trick[p] = card
                cur[seat] = hand & ~(1 << card)
                played |= 1 << card
                plays.append(card)
                pts += int(card_points(np.int64(card), np.int64(kind), prof))
                if play_rec is not None:
                    play_rec[row, pos] = card
                pos += 1
                # The winner before this card (the void inference below reads it).
                prev_pos = win_pos
                prev_card = win_card
                if p == 0:
                    led = card >> 3
                    win_card = card
                elif beats(np.int64(card), np.int64(win_card), np.int64(led), np.int64(kind)):
                    win_card = card
                    win_pos = p
                note_card(info, np.int64(seat), np.int64(p), np.int64(card), np.int64(led),
                          np.int64(kind), np.int64(prev_pos), np.int64(prev_card),
                          np.int64(belote_seat), np.int64(played))
            # "A trick is won by the highest trump in it, else by the highest card of the
            # led suit" (kept card by card above with play.beats).
            winner = (leader + win_pos) & 3
            last_team = winner & 1
            c[last_team] += pts
            t[last_team] += 1
            info[I_POINTS] = c[0]
            info[I_POINTS + 1] = c[1]
            info[I_TRICKS] = t[0]
            info[I_TRICKS + 1] = t[1]
            if winner == taker:
                taker_tricks += 1
            leader = winner
        cpts, tricks = self.cpts, self.tricks
        close_card_points(np.int64(c[0]), np.int64(c[1]), np.int64(t[0]), np.int64(t[1]),
                          np.int64(last_team), prof, cpts, tricks)
        # A générale is made only if the bidder himself takes all 8 tricks.
        made = score_donne(np.int64(taker & 1), np.int64(level), np.int64(kind),
                           np.int64(coinche), cpts, tricks, ann, bel, prof, self.score,
                           np.int64(taker_tricks))
        return 1 if made else 0


def play_donnes(table: Table, run_key: np.uint64, start: int, n: int,
                fixed_dealer: int = -1, record: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Donnes ``start .. start+n-1`` of a run through ``table``, as ``run_batch`` lays
    them out: ``(out int32[N_OUT, n], auc uint8[n, MAX_ACTIONS], auc_len int16[n],
    play uint8[n, 32])`` (the last three empty, first dimension 0, without ``record``).
    Dealer ``index mod 4`` unless ``fixed_dealer`` is a seat."""
    out = np.zeros((N_OUT, n), dtype=np.int32)
    m = n if record else 0
    auc = np.zeros((m, MAX_ACTIONS), dtype=np.uint8)
    auc_len = np.zeros(m, dtype=np.int16)
    play = np.zeros((m, 32), dtype=np.uint8)
    for j in range(n):
        index = start + j
        dealer = fixed_dealer if fixed_dealer >= 0 else index & 3
        if record:
            table.play(run_key, index, dealer, out, j, auc, auc_len, play)
        else:
            table.play(run_key, index, dealer, out, j)
    return out, auc, auc_len, play


def _auction_reason(astate: np.ndarray, action: object, prof: np.ndarray) -> str | None:
    """Why ``action`` is not legal now (None when it is)."""
    if not isinstance(action, (int, np.integer)) or not 0 <= int(action) <= 255:
        return "not an auction action code"
    r = int(auction_check(astate, np.int64(action), prof))
    if r == 0:
        return None
    return AUCTION_REASONS.get(r, f"illegal (reason {r})").replace("{current}",
                                                                   "the current bid")


def _action_text(action: object, prof: np.ndarray) -> str:
    from simcoinche.rules.profiles import PROFILES

    if isinstance(action, (int, np.integer)) and 0 <= int(action) <= 255:
        for p in PROFILES.values():
            if np.array_equal(p.packed, prof):
                try:
                    return f"{format_action(int(action), p)} (code {int(action)})"
                except (IndexError, ValueError):
                    break
        return f"code {int(action)}"
    return repr(action)


def _card_text(card: object) -> str:
    if isinstance(card, (int, np.integer)) and 0 <= int(card) <= 31:
        return format_card(int(card))
    return repr(card)


def _cards_text(mask: int) -> str:
    return " ".join(format_card(c) for c in range(32) if (mask >> c) & 1)
