"""One complete donne: deal, auction, announcements, play, scoring — written into a row.

The rules are never re-implemented here: legality, trick winner, card points,
announcements, belote and scoring come from :mod:`.play`, :mod:`.announce`,
:mod:`.auction` and :mod:`.scoring`. This module only sequences them, asks the players
(:mod:`.players`, :mod:`.heuristic`) for their decisions and keeps the public
information they may see up to date.

Output row layout (:mod:`.donne_layout`): ``out`` is ``int32[N_OUT, n_rows]``
(column-major, one column per schema field, offsets ``O_*``); hands are stored as their
``uint32`` bit pattern. With recording on, ``auc`` (``uint8[n_rows, MAX_ACTIONS]``) and ``auc_len``
(``int16[n_rows]``) receive the auction codes, ``play`` (``uint8[n_rows, 32]``) the 32
cards in play order (255 everywhere for a passed-out donne). ``faults`` (``int32[n_rows]``,
always) receives the donne's replaced decisions (the ``F_*`` word of :mod:`.layout`: 0
when every call and card was legal), written by the thread that plays the row.

Bundles. The kernels take what travels together as one NamedTuple of arrays (numba
compiles them as a tuple: the fields are read at no cost, and a NamedTuple of borrowed
views, :mod:`.borrow`, carries no reference count):

- :class:`Players` ``(codes, params, kinds)``: the players of the two teams and the
  optional player kinds compiled in (:mod:`.kinds`);
- :class:`Outputs` ``(out, auc, auc_len, play_rec, faults)``: a run's rows, records and
  replaced decisions;
- :class:`Scratch`: the sixteen scratch arrays of a donne, made once per block by
  :func:`.batch.donne_scratch` and reused from donne to donne.

Shapes and dtypes are in each class's docstring.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcoinche._kernels.announce import belote_points, best_declaration
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
    auction_apply,
    auction_start,
)
from simcoinche._kernels.deal import deal_hands
from simcoinche._kernels.donne_layout import (
    MAX_ACTIONS,
    N_OUT,  # noqa: F401  (re-exported: callers size the kernel's output with donne.N_OUT)
    NO_CARD,
    O_ANNOUNCE,
    O_BELOTE,
    O_CAPOT,
    O_CARD_POINTS,
    O_COINCHE,
    O_DEALER,
    O_HAND,
    O_LEVEL,
    O_MADE,
    O_MARKS,
    O_N_BIDS,
    O_PASSED,
    O_TAKER,
    O_TRICKS,
    O_TRUMP,
    O_VALUE,
)
from simcoinche._kernels.heuristic import heuristic_card
from simcoinche._kernels.kinds import NO_KINDS, Kinds, club_call, random_call
from simcoinche._kernels.layout import (
    F_CALL,
    F_CARD,
    F_ONE,
    P_AUCTION_CARDS,
    P_CAPOT_CARD_POINTS,
    P_LAST_TRICK_BONUS,
    P_N_BID_VALUES,
    P_SHOW_AFTER_CARD,
    P_SHOW_AFTER_CARD_SA,
)
from simcoinche._kernels.play import beats, card_points, legal_mask_win
from simcoinche._kernels.players import (
    ACT_PASS,
    I_ANN_TEAM,
    I_BELOTE_SEAT,
    I_COINCHE,
    I_DEALER,
    I_KIND,
    I_LEADER,
    I_LED,
    I_LEVEL,
    I_PLAYED,
    I_POINTS,
    I_SEAT,
    I_SHOWN,
    I_TAKER,
    I_TRICK,
    I_TRICKS,
    I_VALUE,
    I_VOID,
    INFO_LEN,
    PLAYER_CLUB,
    PLAYER_PIMC,
    PLAYER_RANDOM,
    random_card,
)
from simcoinche._kernels.rng import STREAM_PLAYERS, donne_key, lowest_bit, rng_seed
from simcoinche._kernels.score_bid import bid_call
from simcoinche._kernels.scoring import (
    S_ANN0,
    S_ANN1,
    S_MARK0,
    S_MARK1,
    bid_value,
    score_donne,
)
from simcoinche._kernels.thinking import think_bid, think_card


class Players(NamedTuple):
    """The players of the two teams, as the donne kernels take them.

    ``codes`` : int32[2]
        Player kind per team (``PLAYER_RANDOM`` / ``PLAYER_HEURISTIC`` / ``PLAYER_PIMC`` /
        ``PLAYER_CLUB``).
    ``params`` : float64[2, PARAM_LEN]
        Parameter row per team.
    ``kinds`` : :class:`.kinds.Kinds`
        The optional player kinds compiled in, by the type of each field
        (:func:`.kinds.kinds_of` of ``codes``).
    """

    codes: np.ndarray
    params: np.ndarray
    kinds: Kinds


class Outputs(NamedTuple):
    """What :func:`play_one` writes (layout in the module docstring).

    ``out`` : int32[N_OUT, n]
        One column per row, offsets ``O_*`` (hands as their ``uint32`` bit pattern).
    ``auc`` : uint8[n, MAX_ACTIONS] (``[0, MAX_ACTIONS]`` without recording)
        Auction codes per row.
    ``auc_len`` : int16[n] (``[0]`` without recording)
        Auction length per row.
    ``play_rec`` : uint8[n, 32] (``[0, 32]`` without recording)
        The 32 cards in play order per row (``NO_CARD`` for a passed-out donne).
    ``faults`` : int32[n]
        The decisions replaced per row (``F_*`` word of :mod:`.layout`; 0: none).
    """

    out: np.ndarray
    auc: np.ndarray
    auc_len: np.ndarray
    play_rec: np.ndarray
    faults: np.ndarray


class Scratch(NamedTuple):
    """Scratch arrays of one donne (:func:`play_one`, :func:`play_phase`), reused from
    donne to donne; made by :func:`.batch.donne_scratch`.

    Before the play: ``st`` uint64[RNG_STATE_LEN] (RNG state), ``deck`` int8[32] (the
    shuffled deck), ``hands`` uint32[4] (the four 8-card hands by seat, bitboards; the
    hands :func:`play_phase` plays), ``early`` uint32[4] (the cards held at the auction),
    ``astate`` int32[AUCTION_STATE_LEN] (auction state), ``actions``
    uint8[MAX_ACTIONS] (auction codes so far).

    The play: ``cur`` uint32[4] (cards left per seat), ``trick`` int32[4] (the trick's
    cards), ``info`` int64[INFO_LEN] (public information, offsets ``I_*``), ``decl``
    int32[MAX_DECL, 5] (declarations), ``declare`` uint8[4] (all 1: every seat declares).

    Results of :func:`play_phase`, per team (int32[2]): ``ann`` announcements after the
    comparison (before the capot transfer), ``bel`` belote, ``cpts`` card points
    including the last trick (capot value on a capot), ``tricks`` tricks won; ``score``
    int32[SCORE_LEN], the output of :func:`.scoring.score_donne`.
    """

    st: np.ndarray
    deck: np.ndarray
    hands: np.ndarray
    early: np.ndarray
    astate: np.ndarray
    actions: np.ndarray
    cur: np.ndarray
    trick: np.ndarray
    info: np.ndarray
    decl: np.ndarray
    declare: np.ndarray
    ann: np.ndarray
    bel: np.ndarray
    cpts: np.ndarray
    tricks: np.ndarray
    score: np.ndarray

# play.card_points compiled again from its own source with numba-level inlining (read for
# every card played; same code, no cache of its own).
_card_points = njit(inline="always")(card_points.py_func)


@njit(cache=True, inline="always")
def choose_action(code, hand, astate, actions, n_actions, params, row, prof, st,
                  in_partie, kinds):
    """Auction action of a player of kind ``code`` (registry in :mod:`.players`): the
    heuristic and PIMC players bid with the data-fitted bidder (:mod:`.bidder`, weighed by
    match equity inside a partie: :mod:`.score_bid`), the club
    player with the conventions of :func:`.heuristic.heuristic_action`. ``in_partie``:
    None where no donne is played inside a partie, or where the auction state never
    carries its score (the model bidders of :func:`.auction_filter.model_action`): the
    score-aware bidder is then not compiled in, else ``np.int64(1)``
    (:func:`.score_bid.bid_call`). ``kinds``: the :class:`.kinds.Kinds` compiled in (a
    kind left out answers with an illegal call)."""
    # The row as an int64 whatever integer the caller passes (advise's auction filter
    # passed an int32): every bidder compiles once for all callers (about 15 s each).
    row = np.int64(row)
    if code == PLAYER_RANDOM:
        return random_call(kinds.random, hand, astate, actions, n_actions, params, row,
                           prof, st)
    if code == PLAYER_CLUB:
        return club_call(kinds.club, hand, astate, actions, n_actions, params, row, prof,
                         st)
    # Score-aware inside a partie unless the seat's score_aware is 0 (:mod:`.score_bid`).
    return bid_call(in_partie, hand, astate, actions, n_actions, params, row, prof, st)


@njit(cache=True, inline="always")
def seat_action(players, team, hand, astate, actions, n_actions, dealer, prof, st, think,
                in_partie):
    """The call of team ``team``'s seated player (``players`` a :class:`Players`): a PIMC
    player that thinks at the auction (``bid_worlds`` > 0, ``think`` not None:
    :func:`.thinking.think_bid`) asks its thinking bidder, every other player
    :func:`choose_action` (the model bidders of :mod:`.auction_filter` call that one
    directly: they never think). Used by :func:`play_one` and the Python table sequencer
    alike; ``in_partie`` as :func:`choose_action`."""
    code = players.codes[team]
    params = players.params
    row = team
    if code == PLAYER_PIMC:
        a = think_bid(think, hand, astate, actions, n_actions, dealer, params, row, prof,
                      st, in_partie)
        if a >= 0:
            return a
    return choose_action(code, hand, astate, actions, n_actions, params, row, prof, st,
                         in_partie, players.kinds)


@njit(cache=True, inline="always")
def choose_card(players, team, hand, legal, trick, n, info, actions, n_actions, prof, st,
                think):
    """Card played by team ``team``'s player (kind ``players.codes[team]``, parameter row
    ``players.params[team]``; ``players`` a :class:`Players`) among ``legal``
    (``uint32``), holding ``hand`` (``uint32``), with the trick's first ``n`` cards in
    ``trick`` (int32[4]), the public information ``info`` (int64[INFO_LEN]), the auction's
    ``n_actions`` codes in ``actions`` (uint8), the packed profile ``prof`` and the RNG
    state ``st`` (uint64[RNG_STATE_LEN]).

    ``think`` is the per-thread scratch of the PIMC player (:func:`.thinking.think_scratch`),
    or None in runs without one (the PIMC branch then compiles to nothing).
    """
    code = players.codes[team]
    params = players.params
    row = team
    # The PIMC branch is written last: numba types (and compiles) the callees in this
    # order, so that a cold run with a PIMC seat compiles the heuristic card play while
    # its compile helper compiles the PIMC decision (runs.simulation.warm_pimc_card).
    if code != PLAYER_PIMC:
        if code == PLAYER_RANDOM:
            return random_card(hand, legal, trick, n, info, actions, n_actions, params,
                               row, prof, st)
        # The heuristic player and the club player (today's heuristic) play alike.
        return heuristic_card(hand, legal, trick, n, info, actions, n_actions, params,
                              row, prof, st)
    return think_card(think, hand, legal, trick, n, info, params, row, prof, st)


@njit(cache=True)
def declared_cards(hand, trump, prof, decl):
    """Bitboard of the cards that make up ``hand``'s declaration (carrés and suites)."""
    nd = best_declaration(hand, trump, prof, decl)
    m = np.int64(0)
    for k in range(nd):
        if decl[k, 0] == 0:
            # Carré: the rank in all four suits.
            m |= np.int64(0x01010101) << decl[k, 1]
        else:
            # Suite: `length` cards down from its top card.
            top = decl[k, 1]
            for r in range(top - decl[k, 3] + 1, top + 1):
                m |= np.int64(1) << (8 * decl[k, 2] + r)
    return m


@njit(cache=True, inline="always")
def has_declarable(hands):
    """Whether any of the four hands (``uint32[4]``) holds a run of three cards of one
    suit or four cards of one rank — the shapes every announcement is made of. When none
    does, nobody has anything to declare in any profile."""
    run3 = np.int64(0)
    for s in range(4):
        h = np.int64(hands[s])
        # Three consecutive ranks inside one suit byte (bits r, r+1, r+2; r <= 5).
        run3 |= h & (h >> 1) & (h >> 2) & np.int64(0x3F3F3F3F)
        # The same rank in all four suit bytes.
        run3 |= h & (h >> 8) & (h >> 16) & (h >> 24) & np.int64(0xFF)
    return run3 != 0


@njit(cache=True, inline="always")
def note_card(info, seat, p, c, led, kind, prev_pos, prev_card, belote_seat, played):
    """Update the public information ``info`` (int64[INFO_LEN]) after ``seat`` played
    card ``c`` at position ``p`` of the trick (suit ``led`` led; before this card the
    winner was at position ``prev_pos`` with ``prev_card``); ``played`` is the bitboard
    of every card played so far, ``belote_seat`` the seat holding the belote or -1.

    Shared by :func:`play_phase` and the Python table sequencer (:mod:`simcoinche.players.table`).
    """
    info[I_PLAYED] = played
    # Public inferences: who led which suit; a card off the led suit shows a void.
    if p == 0:
        info[I_LED + seat] |= 1 << led
    if p > 0 and (c >> 3) != led:
        info[I_VOID + seat] |= 1 << led
        if kind < 4 and led != kind and (c >> 3) != kind:
            if prev_pos != p - 2 and (prev_card >> 3) != kind:
                # Had to trump (opponent winning, no trump yet) and did not: no trump.
                info[I_VOID + seat] |= 1 << kind
    if belote_seat == seat and kind < 4 and c >> 3 == kind and (
        (c & 7) == 5 or (c & 7) == 6
    ):
        # "Belote" is said when the first of K/Q of trumps is played.
        info[I_BELOTE_SEAT] = seat


@njit(cache=True, inline="always")
def start_play_info(info, dealer, taker, kind, level, coinche, ann_team, prof):
    """Fill ``info`` (int64[INFO_LEN], offsets ``I_*``) with the public information at the
    first card of the play: the contract (taker, kind, ladder level and its value,
    coinche), the dealer, the team whose announcements stand (-1: none), no belote shown
    yet, nothing played; the seat to play and the trick are set card by card.

    Shared by :func:`play_phase`, the Python table sequencer
    (:mod:`simcoinche.players.table`) and the PIMC compile helper's decision
    (``simcoinche.runs.simulation.pimc_lead_arguments``).
    """
    for k in range(INFO_LEN):
        info[k] = 0
    info[I_DEALER] = dealer
    info[I_TAKER] = taker
    info[I_KIND] = kind
    info[I_LEVEL] = level
    info[I_VALUE] = bid_value(level, prof)
    info[I_COINCHE] = coinche
    info[I_BELOTE_SEAT] = -1
    info[I_ANN_TEAM] = ann_team


@njit(cache=True, inline="always")
def close_card_points(c0, c1, t0, t1, last_team, prof, cpts, tricks):
    """Fill ``cpts`` and ``tricks`` (int32[2] each) from the card points ``c0``, ``c1``
    and tricks ``t0``, ``t1`` won by each team in the 8 tricks, adding the last trick's
    bonus (or the capot value) for ``last_team``, the winner of the 8th trick.

    Shared by :func:`play_phase` and the Python table sequencer (:mod:`simcoinche.players.table`).
    """
    cpts[0] = c0
    cpts[1] = c1
    tricks[0] = t0
    tricks[1] = t1
    if t0 == 8 or t1 == 8:
        # "a team that wins all 8 tricks has C = 252 ... and the other 0".
        cpts[last_team] = prof[P_CAPOT_CARD_POINTS]
        cpts[1 - last_team] = 0
    else:
        # "+10 for the last trick ("dix de der")".
        cpts[last_team] += prof[P_LAST_TRICK_BONUS]


@njit(cache=True)
def play_phase(dealer, contract, players, prof, n_actions, record, play_rec, row, scr,
               think):
    """Everything after the auction: announcements, the 32 cards, scoring.

    Called by :func:`play_one` after a simulated auction and by
    :func:`simcoinche._kernels.batch.play_contracts` for a fixed contract. The players'
    decisions draw from ``st`` as it stands (the caller seeds it).

    Parameters
    ----------
    dealer : int
        Dealer seat; seat ``dealer + 1`` leads the first trick.
    contract : (int, int, int, int)
        ``(taker, level, kind, coinche)``: bidder's seat, ladder level, kind ``0..5``,
        multiplier 1/2/4 (a tuple of one integer type).
    players : Players
        ``codes`` int32[2] (player kind per team), ``params`` float64[2, PARAM_LEN]
        (``kinds`` is not read: no call is asked here).
    prof : int32[PROFILE_LEN]
        Packed profile.
    n_actions : int
        Number of auction codes in ``scr.actions`` (0 for a fixed contract).
    record : bool
        Write the 32 cards in play order into ``play_rec[row]`` (uint8[n, 32]).
    scr : Scratch
        Reads ``scr.hands`` (uint32[4], the four 8-card hands by seat; not modified),
        ``scr.st`` (uint64[RNG_STATE_LEN], RNG state of the players' stream) and
        ``scr.actions``; uses ``cur``, ``trick``, ``info``, ``decl``, ``declare``
        (``declare`` all 1: every seat declares). Outputs, int32[2] per team:
        ``scr.ann`` announcements after the comparison (before the capot transfer),
        ``scr.bel`` belote, ``scr.cpts`` card points including the last trick (capot
        value on a capot), ``scr.tricks`` tricks won; ``scr.score`` (int32[SCORE_LEN])
        the output of :func:`.scoring.score_donne`: ``S_ANN*`` after the capot transfer,
        ``S_MARK*``, ``S_TOTAL*`` (totals before rounding), ``S_LITIGE``.
    think : None or (pimc_scratch.Think, None or think_bid.BidThink)
        Scratch of the PIMC player (:func:`.thinking.think_scratch`); None when no team is one.

    Returns
    -------
    (int, int, int)
        1 when the contract is made, else 0; the tricks won by the bidder himself; the
        cards replaced (the ``F_*`` word of :mod:`.layout`, 0 when every card was legal).
    """
    # Unpacked once: the loops below see plain arrays, as before the bundling.
    taker, level, kind, coinche = contract
    codes = players.codes
    st = scr.st
    hands = scr.hands
    actions = scr.actions
    cur = scr.cur
    trick = scr.trick
    info = scr.info
    decl = scr.decl
    declare = scr.declare
    ann = scr.ann
    bel = scr.bel
    cpts = scr.cpts
    tricks = scr.tricks
    score = scr.score
    for s in range(4):
        cur[s] = hands[s]
    # --- announcements: simulated players declare everything ------------------------
    if has_declarable(hands):
        ann_team = _team_announcements(hands, kind, declare, prof, ann)
    else:
        # No hand holds a run of three or four of a kind: nothing to declare.
        ann[0] = 0
        ann[1] = 0
        ann_team = -1
    belote_points(hands, kind, prof, bel)
    heur = codes[0] != PLAYER_RANDOM or codes[1] != PLAYER_RANDOM
    belote_seat = -1
    if kind < 4 and (bel[0] != 0 or bel[1] != 0):
        kq = np.int64(0x60) << (8 * kind)
        for s in range(4):
            if np.int64(hands[s]) & kq == kq:
                belote_seat = s

    # --- public information the players see (only non-random players read it) -------
    if heur:
        start_play_info(info, dealer, taker, kind, level, coinche, ann_team, prof)

    # --- play: 8 tricks -------------------------------------------------------------
    leader = (dealer + 1) & 3
    c0 = 0
    c1 = 0
    t0 = 0
    t1 = 0
    played = np.int64(0)
    taker_tricks = np.int64(0)  # typed: a literal 0 would compile score_donne twice
    last_team = 0
    pos = 0
    fault = 0
    # RULES.md: announcements are compared "after the first card of the second trick"
    # (the 5th card), at sans-atout in stephanoise "after the 9th card": only from then on
    # may players use the cards shown.
    show_at = prof[P_SHOW_AFTER_CARD_SA] if kind == 4 else prof[P_SHOW_AFTER_CARD]
    for tr in range(8):
        if heur:
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
            if heur and ann_team >= 0 and pos == show_at:
                # The winning team shows its announcements: the cards become public.
                for s in range(ann_team, 4, 2):
                    info[I_SHOWN + s] = declared_cards(hands[s], kind, prof, decl)
            if p == 0:
                # Leading: any card.
                legal = hand
            else:
                # The winner so far is kept up to date card by card (same rules as
                # legal_mask, without recomputing the trick's winner).
                legal = legal_mask_win(hand, led, win_card, win_pos == p - 2, kind, prof)
            if codes[team] == PLAYER_RANDOM:
                # Random player: a uniform legal card (an illegal one for the test plants).
                c = random_card(hand, legal, trick, p, info, actions, n_actions,
                                players.params, team, prof, st)
            else:
                info[I_SEAT] = seat
                c = choose_card(players, team, hand, legal, trick, p, info, actions,
                                n_actions, prof, st, think)
            if c < 0 or c > 31 or (np.int64(legal) >> c) & 1 == 0:
                # A player may only play a legal card: the fault is recorded (the
                # facade fails the run) and the lowest legal card ends the donne.
                fault = (fault | (F_CARD << seat)) + F_ONE
                c = lowest_bit(legal)
            trick[p] = c
            cur[seat] = hand & ~(np.uint32(1) << np.uint32(c))
            played |= np.int64(1) << c
            pts += _card_points(c, kind, prof)
            if record:
                play_rec[row, pos] = c
            pos += 1
            # The winner before this card (the void inference below reads it).
            prev_pos = win_pos
            prev_card = win_card
            if p == 0:
                led = c >> 3
                win_card = c
            elif beats(c, win_card, led, kind):
                win_card = c
                win_pos = p
            if heur:
                # Public information (only non-random players read it).
                note_card(info, seat, p, c, led, kind, prev_pos, prev_card, belote_seat,
                          played)
        # "A trick is won by the highest trump in it, else by the highest card of the
        # led suit" (kept card by card above with play.beats).
        winner = (leader + win_pos) & 3
        last_team = winner & 1
        if last_team == 0:
            c0 += pts
            t0 += 1
        else:
            c1 += pts
            t1 += 1
        if heur:
            info[I_POINTS] = c0
            info[I_POINTS + 1] = c1
            info[I_TRICKS] = t0
            info[I_TRICKS + 1] = t1
        if winner == taker:
            taker_tricks += 1
        leader = winner
    close_card_points(c0, c1, t0, t1, last_team, prof, cpts, tricks)

    # A générale is made only if the bidder himself takes all 8 tricks.
    made = score_donne(taker & 1, level, kind, coinche, cpts, tricks, ann, bel, prof, score,
                       taker_tricks)
    return (1 if made else 0), taker_tricks, fault



@njit(cache=True, inline="always")
def write_passed_out(out, row):
    """Row ``row`` of ``out`` (int32[N_OUT, n]) for a passed-out donne: every contract and
    result column empty (the hands, dealer and bid count are written before)."""
    out[O_PASSED, row] = 1
    out[O_TAKER, row] = -1
    out[O_LEVEL, row] = -1
    out[O_VALUE, row] = 0
    out[O_TRUMP, row] = -1
    out[O_CAPOT, row] = 0
    out[O_COINCHE, row] = 0
    for t in range(2):
        out[O_TRICKS + t, row] = 0
        out[O_CARD_POINTS + t, row] = 0
        out[O_ANNOUNCE + t, row] = 0
        out[O_BELOTE + t, row] = 0
        out[O_MARKS + t, row] = 0
    out[O_MADE, row] = 0


@njit(cache=True, inline="always")
def write_contract(out, row, taker, level, kind, coinche, prof):
    """The contract columns of row ``row`` of ``out`` (int32[N_OUT, n])."""
    out[O_PASSED, row] = 0
    out[O_TAKER, row] = taker
    out[O_LEVEL, row] = level
    out[O_VALUE, row] = bid_value(level, prof)
    out[O_TRUMP, row] = kind
    out[O_CAPOT, row] = 1 if level == prof[P_N_BID_VALUES] else 0
    out[O_COINCHE, row] = coinche


@njit(cache=True, inline="always")
def write_result(out, row, made, tricks, cpts, bel, score):
    """The result columns of row ``row`` of ``out`` (int32[N_OUT, n]) from
    :func:`play_phase`'s outputs (int32[2] per team, ``score`` int32[SCORE_LEN])."""
    for t in range(2):
        out[O_TRICKS + t, row] = tricks[t]
        out[O_CARD_POINTS + t, row] = cpts[t]
        out[O_BELOTE + t, row] = bel[t]
    out[O_ANNOUNCE, row] = score[S_ANN0]
    out[O_ANNOUNCE + 1, row] = score[S_ANN1]
    out[O_MARKS, row] = score[S_MARK0]
    out[O_MARKS + 1, row] = score[S_MARK1]
    out[O_MADE, row] = made


# Copied into its two callers (run_batch, run_parties) by numba: as a compiled level of its
# own, LLVM optimised and emitted its whole linked tree (bidders, card play) once for it
# and again for its caller, 2.5-3.3 s of a cold simulate or parties (benchmarks/README.md,
# "Compile time, fifteenth cut"); the donnes run as fast or faster.
@njit(cache=True, inline="always")
def play_one(run_key, index, row, dealer, players, prof, record, outs, scr, think,
             in_partie):
    """Simulate donne ``index`` of the run ``run_key`` and write it into row ``row``.

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the run's seed.
    index : int64
        Donne index ``i`` (key of its random stream).
    row : int
        Row of the output arrays to fill.
    dealer : int
        Dealer seat of this donne.
    players : Players
        ``codes`` int32[2] (player kind per team: ``PLAYER_RANDOM`` /
        ``PLAYER_HEURISTIC`` / ``PLAYER_PIMC`` / ``PLAYER_CLUB``), ``params``
        float64[2, PARAM_LEN] (parameter row per team), ``kinds`` the optional kinds
        compiled into the auction (:func:`.kinds.kinds_of` of ``codes``).
    prof : int32[PROFILE_LEN]
        Packed profile.
    record : bool
        Fill ``outs.auc``, ``outs.auc_len`` and ``outs.play_rec``.
    outs : Outputs
        ``out`` int32[N_OUT, n], ``auc`` uint8[n, MAX_ACTIONS], ``auc_len`` int16[n],
        ``play_rec`` uint8[n, 32], ``faults`` int32[n] (layout in the module docstring).
    scr : Scratch
        Scratch arrays of the block (shapes in :class:`Scratch`), reused from donne to
        donne.
    think : None or (pimc_scratch.Think, None or think_bid.BidThink)
        Scratch of the PIMC player, None when no team is one (:func:`play_phase`).
    in_partie : None or int64
        None in runs of single donnes: the score-aware bidder is not compiled in;
        ``np.int64(1)`` in parties, where the auction state's ``A_PARTIE`` says
        (:func:`.score_bid.bid_call`).
    """
    out = outs.out
    st = scr.st
    deck = scr.deck
    hands = scr.hands
    early = scr.early
    astate = scr.astate
    actions = scr.actions
    key = donne_key(run_key, index)
    cut = deal_hands(st, key, dealer, prof, deck, hands)
    # The cards each seat holds while bidding (stephanoise: the first 6 dealt). Simulated
    # players never use the optional hand annulment (classic).
    if prof[P_AUCTION_CARDS] < 8:
        auction_hands(deck, cut, dealer, prof, early)
    else:
        # The whole hand is held at the auction.
        for s in range(4):
            early[s] = hands[s]
    for s in range(4):
        # The uint32 bit pattern, stored in the int32 column (viewed back as uint32).
        out[O_HAND + s, row] = hands[s]
    out[O_DEALER, row] = dealer

    # --- auction: each seat in turn until the auction kernel says it is over ----------
    rng_seed(st, key, STREAM_PLAYERS)
    auction_start(astate, dealer)
    # Typed from the start: a literal 0 would compile the bidders twice (compile time).
    na = np.int64(0)
    fault = 0
    while astate[A_STATUS] == 0 and na < MAX_ACTIONS:
        seat = astate[A_TO_SPEAK]
        team = seat & 1
        a = seat_action(players, team, early[seat], astate, actions, na, dealer, prof, st,
                        think, in_partie)
        if auction_apply(astate, a, prof) != 0:
            # A player may only make legal calls: the fault is recorded (the facade fails
            # the run) and a pass, always allowed, ends the donne.
            fault = (fault | (F_CALL << seat)) + F_ONE
            # Typed: ``a`` keeps the players' int64 through the loop, not a literal.
            a = np.int64(ACT_PASS)
            auction_apply(astate, a, prof)
        actions[na] = a
        na += 1
    if record:
        outs.auc_len[row] = na
        for k in range(na):
            outs.auc[row, k] = actions[k]
    out[O_N_BIDS, row] = astate[A_N_BIDS]

    if astate[A_STATUS] != 1:
        # "Four passes before any bid: the donne is passed out" — recorded as a row.
        write_passed_out(out, row)
        outs.faults[row] = fault
        if record:
            for k in range(32):
                outs.play_rec[row, k] = NO_CARD
        return

    taker = astate[A_BIDDER]
    level = astate[A_LEVEL]
    kind = astate[A_KIND]
    coinche = astate[A_COINCHE]
    write_contract(out, row, taker, level, kind, coinche, prof)

    # The card play never asks for a call, so it gets the players without their optional
    # bidders (NO_KINDS): one compiled play_phase for every set of player kinds, the one
    # play_contracts (odds, advise) compiles too, not one more per set (5 s of a cold
    # match with a club player).
    made, _, card_fault = play_phase(dealer, (taker, level, kind, coinche),
                                     Players(players.codes, players.params, NO_KINDS),
                                     prof, na, record, outs.play_rec, row, scr, think)
    write_result(out, row, made, scr.tricks, scr.cpts, scr.bel, scr.score)
    # The calls and the cards replaced (0 for a donne played by the rules throughout).
    outs.faults[row] = (((fault | card_fault) & 0xFF) + (fault & ~0xFF)
                        + (card_fault & ~0xFF))
