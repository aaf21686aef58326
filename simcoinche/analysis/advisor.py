"""``simcoinche advise``: what to say now, given the hand and the auction so far.

``advise("AH TH KH AS 7C AD KD 8D", auction="80H 90S", seat=2)`` answers "partner opened
80 hearts, the opponents said 90 spades: what should I say?":

1. **Deals.** The unseen cards are drawn as for ``odds --auction``
   (:mod:`simcoinche.analysis.conditioned`): uniform among the deals consistent with the hand and
   the ``give``/``void`` constraints, kept only when the model bidders at the other seats
   would have made the observed actions.
2. **Actions.** Every legal action of the player now: pass, each bid from the lowest
   legal one up to ``max_bid`` (default capot; ``generale`` where the profile has it) in
   every contract kind, coinche and surcoinche when allowed.
3. **Continuation.** For each kept deal and each action, the model bidders (the
   player's own seat included, on its cards) finish the auction
   (:func:`simcoinche._kernels.auction_filter.continue_auctions`), then the final
   contract is played (``play``: ``heuristic`` = the players' own card play, through
   :func:`simcoinche._kernels.batch.play_contracts`) and scored with the profile's rules.
   A passed-out donne scores nothing. Where the profile bids on fewer cards
   (stephanoise: 6), every seat — the player's included, for its later calls — bids on
   the uniformly random 6 of its 8 cards that the auction filter gave it.
4. **Common random numbers.** Every action is evaluated on the same deals, and the
   continuation of a deal draws the same random numbers whatever the action; card play
   reads neither the bid level nor the coinche, so one play of each (deal, taker,
   contract kind) serves every action reaching it (under ``--play dd`` a générale gets a
   play of its own: the bidder alone plays for every trick). Differences
   between actions therefore have much smaller intervals than the actions' own values
   (``vs_best``).

Per action: the expected marks of the donne for the player's team minus the opponents'
(``ev``) with a 95 % interval (normal, ``1.96 sd / sqrt(n)``; n ≥ 1,000 deals in
practice), the paired difference to the best action with its interval, ``p_made`` the
share of the deals ending in a contract where that contract is made (whoever holds it),
and ``p_ours`` the share in which the player's team holds the final contract.

Card play (``play``): :data:`PLAY_MODES` maps a name to the function that plays the
final contracts: ``heuristic`` the model players' own card play (PIMC's when they are
``pimc``), ``dd`` every final contract played double dummy (:func:`play_dd`, as
``odds --play dd``: exact, slow — tens of milliseconds per distinct deal and kind, so use
a few hundred samples), ``pimc`` or ``pimc:worlds=N`` every seat's card play by the PIMC
player (:func:`play_pimc`, as ``odds --players pimc``). The auction is the model players'
whatever the play.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numba
import numpy as np

from simcoinche.analysis.conditioned import (
    MAX_DRAWS,
    KeptDeals,
    ObservedAuction,
    check_model_bidders,
    draw_kept,
    parse_auction,
    warm_filter,
)
from simcoinche.analysis.hand_odds import Deals, check_level, deals, plain_deal
from simcoinche.players.equity import EquityTable, shipped_table
from simcoinche.players.faults import check_faults
from simcoinche.rules.actions import COINCHE, PASS, SURCOINCHE, bid_code, format_action
from simcoinche.rules.cards import format_mask
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import (
    Profile,
    describe_profile,
    get_profile,
    profile_metadata,
    shipped_rules,
)
from simcoinche.runs.compiling import ADVISE_COMPILE_S, prepare_kernels
from simcoinche.runs.progress import progress_bar

DEFAULT_SAMPLES = 10_000
Z95 = 1.959963984540054

#: A play mode plays the final contracts: ``play(run_key, hands, dealer, taker, kind,
#: codes, params, prof) -> int32[PC_LEN, m]`` with ``hands`` ``uint32[m, 4]``, ``taker``
#: and ``kind`` ``int8[m]`` (one row per distinct play: :func:`play_keys`), ``codes``/
#: ``params`` the model players per team, ``prof`` the packed profile. It must fill the
#: rows ``PC_TRICKS``, ``PC_CARD_POINTS``, ``PC_ANNOUNCE``, ``PC_BELOTE`` and
#: ``PC_TAKER_TRICKS`` of :mod:`simcoinche._kernels.batch` (scoring reads only those).
#: The keyword ``names`` (the model players' kind names per team) names them in the
#: error of a replaced decision, ``start`` is the stream index of row 0 (rows played in
#: chunks draw what they would in one call); :func:`play_dd` also takes ``for_sweep``
#: (the rows of générales, played apart).
PlayMode = Callable[..., np.ndarray]
#: Distinct plays per thread and call of a slow play mode (double dummy, PIMC), between
#: two moves of the progress bar; the chunks draw the streams of one call, so the advice
#: is the same.
PLAY_CHUNK = 64


def play_heuristic(run_key: np.uint64, hands: np.ndarray, dealer: int, taker: np.ndarray,
                   kind: np.ndarray, codes: np.ndarray, params: np.ndarray,
                   prof: np.ndarray, names: Sequence[str] | None = None,
                   start: int = 0) -> np.ndarray:
    """The model players' own card play (``--play heuristic``), as in a simulation.

    Row ``r`` draws from the players' stream of index ``start + r`` of ``run_key``
    (:func:`simcoinche._kernels.batch.play_contracts`).
    """
    from simcoinche._kernels.batch import Contracts, play_contracts
    from simcoinche._kernels.donne import Players
    from simcoinche._kernels.kinds import NO_KINDS
    from simcoinche._kernels.layout import PC_FAULTS, PC_LEN
    from simcoinche.runs.simulation import think_arg

    m = hands.shape[0]
    pc = np.empty((PC_LEN, m), dtype=np.int32)
    if m:
        # Level 0, not coinched: card play reads neither, scoring is redone per action.
        play_contracts(run_key, np.int64(start), hands,
                       Contracts(np.full(m, dealer, dtype=np.int8), taker,
                                 np.zeros(m, dtype=np.int8), kind, np.ones(m, dtype=np.int8)),
                       Players(codes, params, NO_KINDS), prof, pc, think_arg(codes))
        check_faults(pc[PC_FAULTS], codes if names is None else names, prof,
                     lambda j: f"final contract {start + j}")
    return pc


def play_pimc(run_key: np.uint64, hands: np.ndarray, dealer: int, taker: np.ndarray,
              kind: np.ndarray, codes: np.ndarray, params: np.ndarray, prof: np.ndarray,
              overrides: Mapping[str, float] | None = None,
              names: Sequence[str] | None = None, start: int = 0) -> np.ndarray:
    """The final contracts played by ``pimc`` seats at all four seats (``--play pimc``).

    Each team's card play is the PIMC player's (:mod:`simcoinche._kernels.pimc`), with
    the team's own parameters where the team's model player is ``heuristic``, ``club`` or
    ``pimc`` (PIMC's parameters are the heuristic's plus ``worlds``), then ``overrides`` (from
    ``--play pimc:worlds=N``); a ``random`` team's card play becomes PIMC's defaults.
    Row ``r`` draws its worlds from the players' stream of index ``start + r`` of
    ``run_key``, as
    ``odds --players pimc`` does (:func:`play_heuristic` with PIMC codes).
    """
    from simcoinche.players.registry import PIMC, PLAYERS, param_array, params_dict

    by_code = {k.code: k for k in PLAYERS.values()}
    rows = np.empty_like(params)
    pimc_names = {p.name for p in PIMC.params}
    for t in range(2):
        pk = by_code[int(codes[t])]
        # The card-play parameters the team's player shares with PIMC's (the club's
        # bidding conventions are not PIMC's).
        own = ({k: v for k, v in params_dict(pk, params[t]).items() if k in pimc_names}
               if pk.name in ("heuristic", "club", "pimc") else {})
        rows[t] = param_array(PIMC, {**own, **(overrides or {})})
    pimc_codes = np.full(2, PIMC.code, dtype=codes.dtype)
    return play_heuristic(run_key, hands, dealer, taker, kind, pimc_codes, rows, prof,
                          start=start)


def play_dd(run_key: np.uint64, hands: np.ndarray, dealer: int, taker: np.ndarray,
            kind: np.ndarray, codes: np.ndarray, params: np.ndarray,
            prof: np.ndarray, names: Sequence[str] | None = None,
            for_sweep: np.ndarray | None = None, start: int = 0) -> np.ndarray:
    """The final contracts played double dummy (``--play dd``), as ``odds --play dd``.

    Every distinct (deal, contract kind) is solved once (all hands visible, perfect
    play from the opening lead of seat ``dealer + 1``; RULES.md, "Rulings on points the
    sources leave open"; :func:`simcoinche.runs.dd_columns.solve_kinds`), and each row is
    scored off that value as :func:`simcoinche._kernels.dd_batch.dd_outcomes` scores it:
    the card points per team (a sweep counted as the profile counts a capot), tricks
    ``8/0`` for a sweep and ``4/4`` otherwise (the rules read only "all 8 tricks" of
    them), every seat's announcements declared and compared, belote, and for a générale
    whether the bidder alone can force all 8 tricks. The players, ``run_key`` and
    ``codes``/``params`` play no part: the value of a deal is exact.

    Parameters
    ----------
    run_key, codes, params, names, start
        As for every play mode (:data:`PlayMode`); not read.
    hands : uint32[m, 4]
        The deal of each row.
    dealer : int
        The dealer (seat ``dealer + 1`` leads).
    taker, kind : int8[m]
        The taker's seat and the contract kind of each row.
    prof : int32[PROFILE_LEN]
        Packed profile.
    for_sweep : bool[m], optional
        The rows whose contract is a générale. RULES.md: "a générale under double-dummy
        play is a separate yes/no question: can the bidder alone win all eight tricks";
        where he can, the row is his sweep (the profile's capot card points, tricks
        ``8/0``, all 8 his), even where his team's points' DD line avoids the sweep
        (strict's tout-atout, where a team can take up to 258 without a capot).
        Elsewhere a bidder who can force every trick has his team's capot on its DD line
        too, so the flag changes nothing.

    Returns
    -------
    int32[PC_LEN, m]
        The rows the scoring reads (:data:`PlayMode`).
    """
    from simcoinche._kernels.announce import belote_points, team_announcements
    from simcoinche._kernels.donne import has_declarable
    from simcoinche._kernels.layout import (
        P_CAPOT_CARD_POINTS,
        P_N_BID_VALUES,
        PC_ANNOUNCE,
        PC_BELOTE,
        PC_CARD_POINTS,
        PC_LEN,
        PC_TAKER_TRICKS,
        PC_TRICKS,
    )
    from simcoinche.runs.dd_columns import _outcomes, solve_kinds

    m = hands.shape[0]
    pc = np.zeros((PC_LEN, m), dtype=np.int32)
    if m == 0:
        return pc
    hands = np.ascontiguousarray(hands, dtype=np.uint32)
    kind = np.asarray(kind, dtype=np.int64)
    taker = np.asarray(taker, dtype=np.int64)
    # One solve per distinct (deal, kind): the value depends on nothing else.
    c0 = np.zeros(m, dtype=np.int16)
    for k in np.unique(kind).tolist():
        rows_k = np.flatnonzero(kind == k)
        uniq, inv = np.unique(hands[rows_k], axis=0, return_inverse=True)
        out = np.zeros((6, uniq.shape[0]), dtype=np.int16)
        solve_kinds(np.ascontiguousarray(uniq), np.full(uniq.shape[0], dealer,
                                                        dtype=np.int64),
                    [k], prof, out)
        c0[rows_k] = out[k][inv.ravel()]
    nv = int(prof[P_N_BID_VALUES])
    has_generale = bool(_generale_value(prof))
    # Levels asked of dd_outcomes: 0 (the DD line) and the générale.
    generale = 1
    levels = [0, nv + 1] if has_generale else [0]
    lv = np.ascontiguousarray(np.repeat(np.array(levels, dtype=np.int64)[:, None], m,
                                        axis=1))
    points, sweep, _, made = _outcomes(hands, np.full(m, dealer, dtype=np.int64), taker,
                                       kind, c0, lv, prof)
    sweep = sweep != 0                           # [m, 2]: that team wins all 8 tricks
    team = taker & 1
    if for_sweep is not None and has_generale:
        # A générale: the bidder's sweep where he alone can force it.
        forced = np.asarray(for_sweep, dtype=bool) & (made[generale] == 1)
        rows = np.flatnonzero(forced)
        points[rows, team[rows]] = int(prof[P_CAPOT_CARD_POINTS])
        points[rows, 1 - team[rows]] = 0
        sweep[rows, team[rows]] = True
        sweep[rows, 1 - team[rows]] = False
    for q in range(2):
        pc[PC_CARD_POINTS + q] = points[:, q]
        pc[PC_TRICKS + q] = np.where(sweep[:, q], 8, np.where(sweep[:, 1 - q], 0, 4))
    own = np.where(team == 0, pc[PC_TRICKS], pc[PC_TRICKS + 1])
    if has_generale:
        # The bidder alone can force every trick (the générale level made) and the row
        # is his team's sweep: all 8 are his; otherwise at most 7 of his team's tricks
        # (a row not played for the générale keeps the points' line, which at strict's
        # tout-atout may leave the other team a trick).
        own = np.where((made[generale] == 1) & (own == 8), 8, np.minimum(own, 7))
    pc[PC_TAKER_TRICKS] = own
    declare = np.ones(4, dtype=np.uint8)
    ann = np.zeros(2, dtype=np.int32)
    bel = np.zeros(2, dtype=np.int32)
    for j in range(m):
        h = hands[j]
        if has_declarable(h):
            team_announcements(h, kind[j], declare, prof, ann)
            pc[PC_ANNOUNCE, j] = ann[0]
            pc[PC_ANNOUNCE + 1, j] = ann[1]
        belote_points(h, kind[j], prof, bel)
        pc[PC_BELOTE, j] = bel[0]
        pc[PC_BELOTE + 1, j] = bel[1]
    return pc


def _generale_value(prof: np.ndarray) -> int:
    """The générale value of a packed profile (0: the profile has no générale)."""
    from simcoinche._kernels.layout import P_GENERALE_VALUE

    return int(prof[P_GENERALE_VALUE])



#: Card play of the final contracts by name (``--play``): ``heuristic`` the model
#: players' own play, ``dd`` double dummy, ``pimc`` PIMC seats (which takes
#: ``pimc:worlds=N`` and the heuristic's parameters, :func:`get_play_mode`).
PLAY_MODES: dict[str, PlayMode] = {
    "heuristic": play_heuristic,
    "dd": play_dd,
    "pimc": play_pimc,
}


def get_play_mode(name: str) -> tuple[str, PlayMode]:
    """The play mode ``name`` (``heuristic``, ``dd``, ``pimc`` or ``pimc:name=value,…``).

    Returns
    -------
    (str, callable)
        The mode's canonical text (``"pimc:worlds=8"``) and its play function.

    Raises
    ------
    InputError
        An unknown mode, parameters given to a mode that takes none (``heuristic``,
        ``dd``), a bad PIMC parameter or one that only bids (one line naming it).
    """
    from functools import partial

    from simcoinche.players.registry import (
        CARD_PLAY_PARAMS,
        PIMC,
        parse_player_spec,
        spec_name,
    )

    text = str(name).strip()
    key, sep, _ = text.partition(":")
    key = key.strip().lower()
    if key not in PLAY_MODES:
        raise InputError(f"unknown --play {name!r}: expected " + ", ".join(PLAY_MODES))
    if key != "pimc":
        if sep:
            raise InputError(f"--play {text!r}: the {key} play takes no parameters")
        return key, PLAY_MODES[key]
    try:
        _, overrides = parse_player_spec("pimc" + text[len(key):])
    except InputError as exc:
        raise InputError(f"--play {text!r}: {exc}") from None
    # The play seats only play the cards of a contract already made: a bidding parameter
    # would be ignored without a word.
    card_play = ["worlds", *(p.name for p in CARD_PLAY_PARAMS)]
    for param in overrides:
        if param not in card_play:
            raise InputError(f"--play {text!r}: {param} is a bidding parameter; the play "
                             f"seats only play the cards (parameters: {', '.join(card_play)})")
    return spec_name(PIMC, overrides), partial(play_pimc, overrides=overrides)


def candidate_actions(auction: ObservedAuction, max_level: int) -> list[int]:
    """Legal actions of the seat to speak: pass, bids up to ``max_level`` (each kind of
    the profile, level by level), coinche, surcoinche."""
    prof = auction.profile
    state = auction.state()
    out = [PASS]
    for level in range(max(state.level + 1, 0), max_level + 1):
        for kind in prof.contract_kinds:
            code = bid_code(level, kind)
            if state.check(code) == 0:
                out.append(code)
    for code in (COINCHE, SURCOINCHE):
        if state.check(code) == 0:
            out.append(code)
    return out


def _max_level(max_bid: str | int | None, prof: Profile) -> int:
    """Ladder level of the highest bid considered (default: capot)."""
    nv = len(prof.bid_values)
    if max_bid is None:
        return nv
    label = check_level(max_bid, prof)
    if label == "capot":
        return nv
    if label == "generale":
        return nv + 1
    return prof.bid_values.index(int(label))


@dataclass
class ActionValue:
    """Value of one action: marks of the player's team minus the opponents'."""

    action: str
    code: int
    ev: float
    low: float
    high: float
    vs_best: float
    vs_best_low: float
    vs_best_high: float
    p_made: float | None
    p_ours: float
    p_passed_out: float
    #: With a score: P(the player's team wins the partie) and its 95 % interval.
    p_win: float | None = None
    p_win_low: float | None = None
    p_win_high: float | None = None
    #: With a score: the paired difference of ``p_win`` to the best action's, interval.
    p_win_vs_best: float | None = None
    p_win_vs_best_low: float | None = None
    p_win_vs_best_high: float | None = None


@dataclass
class AdviceResult:
    """Everything :func:`advise` computed (see :meth:`to_dict` for the JSON layout)."""

    deals: Deals
    auction: ObservedAuction
    profile: Profile
    players: tuple[str, str]
    play: str
    samples: int
    seed: int
    draws: int
    actions: list[ActionValue]
    seconds: float = 0.0
    diffs: np.ndarray = field(default=None, repr=False)  # int32[m, n], candidate order
    #: The partie's score (the player's team, the opponents') when advice reads it.
    score: tuple[int, int] | None = None
    #: With a score: P(win the partie) per candidate and deal (float64[m, n]).
    p_wins: np.ndarray = field(default=None, repr=False)
    #: Action codes in the row order of ``diffs`` and ``p_wins`` (candidate order).
    candidates: list[int] = field(default_factory=list, repr=False)

    def paired(self, first: str, second: str, what: str = "ev"
               ) -> tuple[float, float, float]:
        """Paired difference ``first`` minus ``second`` (action tokens) on the same deals,
        with its 95 % interval: of the marks (``what="ev"``) or, with a score, of the
        chance of winning the partie (``"p_win"``)."""
        from simcoinche.rules.actions import parse_action

        if what not in ("ev", "p_win"):
            raise InputError(f"what must be 'ev' or 'p_win', not {what!r}")
        if what == "p_win" and self.p_wins is None:
            raise InputError("p_win differences need advice given a score")
        rows = []
        for token in (first, second):
            code = parse_action(token, self.profile)
            if code not in self.candidates:
                raise InputError(f"action {token!r} was not evaluated")
            rows.append(self.candidates.index(code))
        values = self.diffs if what == "ev" else self.p_wins
        return _mean_ci(values[rows[0]].astype(np.float64)
                        - values[rows[1]].astype(np.float64))

    @property
    def acceptance(self) -> float:
        """Share of the drawn deals kept by the auction filter."""
        return self.samples / self.draws if self.draws else 1.0

    @property
    def best(self) -> ActionValue:
        """The best action: the highest chance of winning the partie with a score, else
        the highest expected value."""
        return self.actions[0]

    def action(self, token: str) -> ActionValue:
        """The value of one action, by its token (``"100H"``, ``"pass"``)."""
        from simcoinche.rules.actions import parse_action

        code = parse_action(token, self.profile)
        for a in self.actions:
            if a.code == code:
                return a
        raise InputError(f"action {token!r} was not evaluated (not legal now, or above "
                         "the highest bid considered)")

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` output.

        ``{"seat", "dealer", "deals", "acceptance", "actions": [{"action", "ev",
        "ci95": [lo, hi], "p_made"}, …]}`` with ``actions`` sorted best first, plus
        ``hand``, ``auction`` (tokens), ``profile``, ``players``, ``play``, ``seed``,
        ``draws``, ``seconds`` and per action ``vs_best``, ``vs_best_ci95`` (paired
        difference to the best action), ``p_ours`` and ``p_passed_out``. With a score:
        ``"score": [us, them]`` and per action ``p_win``, ``p_win_ci95`` (the chance of
        winning the partie), ``p_win_vs_best``, ``p_win_vs_best_ci95`` (paired difference
        to the best action's), actions sorted by ``p_win``.
        """
        return {
            "seat": self.auction.seat,
            "dealer": self.auction.dealer,
            "deals": self.samples,
            "acceptance": self.acceptance,
            "actions": [{
                "action": a.action, "ev": a.ev, "ci95": [a.low, a.high], "p_made": a.p_made,
                "vs_best": a.vs_best, "vs_best_ci95": [a.vs_best_low, a.vs_best_high],
                "p_ours": a.p_ours, "p_passed_out": a.p_passed_out,
            } | ({} if self.score is None else {
                "p_win": a.p_win, "p_win_ci95": [a.p_win_low, a.p_win_high],
                "p_win_vs_best": a.p_win_vs_best,
                "p_win_vs_best_ci95": [a.p_win_vs_best_low, a.p_win_vs_best_high]})
                for a in self.actions],
            "hand": format_mask(self.deals.hand),
            "auction": self.auction.tokens,
            **profile_metadata(self.profile),
            "players": list(self.players),
            "play": self.play,
            "seed": self.seed,
            "draws": self.draws,
            "seconds": round(self.seconds, 3),
        } | ({} if self.score is None else {"score": list(self.score)})

    def table(self, top: int | None = None) -> str:
        """The terminal table, best action first.

        Parameters
        ----------
        top : int, optional
            At most that many rows; None or 0 for every row.

        Raises
        ------
        InputError
            For a ``top`` that is not a whole number of at least 0.
        """
        if top is not None and (isinstance(top, bool) or not isinstance(top, (int, np.integer))
                                or top < 0):
            raise InputError(f"top must be 0 (every row) or a number of rows, got {top!r}")
        au = self.auction
        d = self.deals
        cons = d.describe().split("; ", 1)
        lines = [
            f"advise for {format_mask(d.hand)} (seat {au.seat}, dealer {au.dealer}, profile "
            f"{describe_profile(self.profile)}, players {self.players[0]},"
            f"{self.players[1]}, play {self.play})",
            f"auction so far: {au.describe()}; seat {au.seat} to speak"
            + (f" [{cons[1]}]" if len(cons) > 1 else ""),
            f"{self.samples:,} deals kept of {self.draws:,} drawn (acceptance "
            f"{100 * self.acceptance:.3g} %, seed {self.seed}), the same deals for every "
            f"action; {self.seconds:.1f} s",
            f"EV = expected marks of the donne, seat {au.seat}'s team minus the opponents', "
            "with its 95 % interval; vs best = paired difference to the best action",
            "P(made) = the final contract is made (whoever holds it); ours = our team holds it",
        ]
        if self.score is not None:
            lines.append(
                f"score {self.score[0]}-{self.score[1]} (seat {au.seat}'s team first): P(win) "
                "= chance of winning the partie after this donne (equity table of the "
                f"heuristic players, {self.profile.name}) with its 95 % interval; best P(win) "
                "first (vs best stays in marks, to the best action in marks)")
        win_head = "" if self.score is None else f"  {'P(win)':>7}  {'95 % interval':<16}"
        lines += ["", f"{'action':<12}{'EV':>8}  {'95 % interval':<18}{'vs best':>9}  "
                  f"{'95 % interval':<18}{'P(made)':>8}{'ours':>7}" + win_head]
        rows = self.actions if not top else self.actions[:top]
        for a in rows:
            # The best action in marks (first without a score) has no interval to itself.
            same = a.vs_best_low == a.vs_best_high == 0.0
            vs = "" if same else f"[{a.vs_best_low:+7.1f}, {a.vs_best_high:+7.1f}]"
            pm = "—" if a.p_made is None else f"{100 * a.p_made:.1f} %"
            win = ("" if a.p_win is None else
                   f"  {100 * a.p_win:>6.2f}%  [{100 * a.p_win_low:5.2f}, "
                   f"{100 * a.p_win_high:5.2f}]")
            lines.append(f"{a.action:<12}{a.ev:>+8.1f}  [{a.low:+7.1f}, {a.high:+7.1f}]  "
                         f"{a.vs_best:>+9.1f}  {vs:<18}{pm:>8}{100 * a.p_ours:>6.0f}%"
                         + win)
        if top and len(self.actions) > top:
            lines.append(f"… {len(self.actions) - top} more actions (--top 0 shows all)")
        return "\n".join(lines)


def _mean_ci(x: np.ndarray, low: float = -math.inf, high: float = math.inf
             ) -> tuple[float, float, float]:
    """Mean of ``x`` and its normal 95 % interval, kept within ``[low, high]`` (a mean of
    probabilities near 1 would otherwise show an interval up to 100.96 %)."""
    n = x.shape[0]
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return mean, max(low, mean - half), min(high, mean + half)


@dataclass
class Outcomes:
    """What :func:`evaluate` returns, per candidate ``c`` and kept deal ``j``.

    ``contracts`` ``int16[C_LEN, m, n]`` (rows ``C_*`` of
    :mod:`simcoinche._kernels.auction_filter`), ``diff`` ``int32[m, n]`` (the player's
    team's marks minus the opponents'), ``made`` ``int8[m, n]`` (1, 0, or -1 when passed
    out), ``marks`` and ``tricks`` ``int32[2, m, n]`` (the player's team's, then the
    opponents'; 0 when passed out).
    """

    contracts: np.ndarray
    diff: np.ndarray
    made: np.ndarray
    marks: np.ndarray
    tricks: np.ndarray


class Plays(NamedTuple):
    """The distinct plays of :func:`evaluate`'s final contracts (:func:`play_keys`)."""

    #: int64[m, n]: the play of each (action, deal), -1 where the donne is passed out.
    column: np.ndarray
    #: int64[p]: the kept deal of each play.
    deal: np.ndarray
    #: int8[p]: the taker's seat and the contract kind of each play.
    taker: np.ndarray
    kind: np.ndarray
    #: bool[p]: the play is of a générale played apart (``for_sweep``).
    for_sweep: np.ndarray


def play_keys(contracts: np.ndarray, sweep_level: int | None) -> Plays:
    """The distinct plays the final contracts need, in ascending (deal, taker, kind).

    Card play reads neither the bid level nor the coinche, so one play of a (deal,
    taker, kind) serves every action that ends in that contract. With ``sweep_level``
    (the générale's ladder level, for double dummy: :func:`play_dd`) the
    contracts at that level get plays of their own, after the lower contracts' play of
    the same (deal, taker, kind).

    Parameters
    ----------
    contracts : int16[C_LEN, m, n]
        :func:`simcoinche._kernels.auction_filter.continue_auctions`'s final contracts
        of ``m`` actions on ``n`` deals (a taker of -1: passed out).
    sweep_level : int or None
        Ladder level from which contracts are played apart; None: none are.
    """
    from simcoinche._kernels.auction_filter import C_KIND, C_LEVEL, C_TAKER

    m, n = contracts.shape[1:]
    taker = contracts[C_TAKER].astype(np.int64)
    apart = (contracts[C_LEVEL] >= sweep_level if sweep_level is not None
             else np.zeros((m, n), dtype=bool))
    combo = np.where(taker >= 0, np.arange(n)[None, :] * 48 + taker * 12
                     + contracts[C_KIND].astype(np.int64) * 2 + apart, -1)
    live = combo >= 0
    uniq, inverse = np.unique(combo[live], return_inverse=True)
    column = np.full((m, n), -1, dtype=np.int64)
    column[live] = inverse.ravel()
    return Plays(column, uniq // 48, ((uniq % 48) // 12).astype(np.int8),
                 ((uniq % 12) // 2).astype(np.int8), (uniq % 2).astype(bool))


def evaluate(run_key: np.uint64, kept: KeptDeals, observed: ObservedAuction,
             cands: Sequence[int], codes: np.ndarray, rows: np.ndarray, prof: Profile,
             play_fn: PlayMode = play_heuristic, names: Sequence[str] | None = None,
             progress: bool | None = False) -> Outcomes:
    """Finish the auction after each candidate on each kept deal, play and score it
    (:class:`Outcomes`). Runs on the current numba thread count. ``names`` (the model
    players' kind names per team) name them in the error of a replaced decision; a slow
    play mode (any but ``play_heuristic``) plays in chunks of :data:`PLAY_CHUNK` plays per
    thread with a progress bar on stderr (``progress`` None: when stderr is a terminal).
    """
    from simcoinche._kernels.auction_filter import (
        BLOCK,
        C_FAULTS,
        C_LEN,
        continue_auctions,
        score_outcomes,
    )
    from simcoinche._kernels.donne import Players
    from simcoinche._kernels.kinds import kinds_of
    from simcoinche._kernels.layout import PC_LEN, PC_TRICKS
    from simcoinche.runs.blocks import share_blocks

    packed = prof.packed
    m = len(cands)
    n = kept.n
    contracts = np.empty((C_LEN, m, n), dtype=np.int16)
    # The model bidders compile only the optional kinds the model players are.
    players = Players(codes, rows, kinds_of(codes))
    observed_actions = observed.array()
    candidates = np.array(cands, dtype=np.uint8)

    def run(first: int, end: int) -> None:
        continue_auctions(run_key, kept.early, (np.int64(first), np.int64(end)),
                          np.int64(observed.dealer), observed_actions,
                          np.int64(len(observed.codes)), candidates, players, packed,
                          contracts)

    # A block per task: a few blocks of kept deals, each played for every candidate.
    share_blocks(-(-n // BLOCK), run, per_task=1)
    # A model call the kernel had to replace fails the advice (issue 20).
    check_faults(contracts[C_FAULTS], codes if names is None else names, prof,
                 lambda i: f"deal {kept.index[i % n]} after "
                           f"{format_action(cands[i // n], prof)}")
    # One play per distinct (deal, taker, kind). Double dummy plays a générale apart: it
    # asks whether the bidder alone can win every trick (keyword ``for_sweep``), which the
    # lower contracts' points line does not say. (Only play_dd takes the keyword.)
    apart = play_fn is play_dd and prof.generale_value > 0
    plays = play_keys(contracts, prof.n_levels - 1 if apart else None)
    n_plays = len(plays.taker)
    step = (n_plays if play_fn is play_heuristic
            else PLAY_CHUNK * numba.get_num_threads())
    pc = np.empty((PC_LEN, n_plays), dtype=np.int32)
    with progress_bar(n_plays, progress if step < n_plays else False, "plays",
                      desc="card play") as bar:
        for lo in range(0, n_plays, max(step, 1)):
            part = slice(lo, min(n_plays, lo + step))
            extra = {"for_sweep": plays.for_sweep[part]} if apart else {}
            pc[:, part] = play_fn(run_key, np.ascontiguousarray(kept.hands[plays.deal[part]]),
                                  observed.dealer, plays.taker[part], plays.kind[part], codes,
                                  rows, packed, names=names, start=lo, **extra)
            bar.update(part.stop - lo)
    play_col = plays.column
    diff = np.empty((m, n), dtype=np.int32)
    made = np.empty((m, n), dtype=np.int8)
    marks = np.empty((2, m, n), dtype=np.int32)
    team = observed.seat & 1
    score_outcomes(pc, play_col, contracts, np.int64(team), packed, diff, made, marks)
    tricks = np.zeros((2, m, n), dtype=np.int32)
    live = play_col >= 0
    for side, t in enumerate((team, 1 - team)):
        tricks[side][live] = pc[PC_TRICKS + t][play_col[live]]
    return Outcomes(contracts, diff, made, marks, tricks)


def _unplayed(run_key: np.uint64, hands: np.ndarray, dealer: int, taker: np.ndarray,
              kind: np.ndarray, codes: np.ndarray, params: np.ndarray, prof: np.ndarray,
              names: Sequence[str] | None = None, start: int = 0) -> np.ndarray:
    """A play mode that plays nothing: :func:`play_heuristic`'s output, every row 0 (for
    :func:`warm_continuations`, which compiles the scoring without the card play)."""
    from simcoinche._kernels.layout import PC_LEN

    return np.zeros((PC_LEN, len(taker)), dtype=np.int32)


def warm_continuations(hand: str, auction: str) -> None:
    """Compile (or load) what :func:`advise` runs besides its card play: the auction filter
    on one deal, the auctions finished after each candidate and their scoring
    (:func:`evaluate` with no card play), for the default model players and profile, with
    :func:`advise`'s argument types. The compile helper of a cold ``advise`` runs this
    while the command compiles its card play (:mod:`simcoinche.commands.warmup`).

    Parameters
    ----------
    hand : str
        The player's eight cards (any hand: the kernels' types do not depend on it).
    auction : str
        The auction so far (any legal one, likewise).
    """
    from simcoinche._kernels.rng import seed_key
    from simcoinche.runs.simulation import team_players

    prof = get_profile("federal")
    observed = parse_auction(auction, prof)
    _, codes, rows = team_players("heuristic", None, prof)
    kept = warm_filter(deals(hand, observed.seat), observed, prof, codes, rows)
    evaluate(np.uint64(seed_key(np.uint64(0))), kept, observed,
             candidate_actions(observed, _max_level(None, prof)), codes, rows, prof,
             _unplayed)


def advise(hand: str | Iterable[str] | int, auction: str | Iterable[str] | None = "",
           seat: int | None = None, dealer: int | None = None,
           samples: int = DEFAULT_SAMPLES, seed: int = 0,
           give: Mapping[Any, Any] | Iterable[Any] | None = None,
           void: Mapping[Any, Any] | Iterable[Any] | None = None,
           profile: str | Profile | None = "federal",
           players: str | Sequence[str] | None = "heuristic",
           params: Sequence[Mapping[str, float] | None] | None = None,
           play: str = "heuristic", max_bid: str | int | None = None,
           max_draws: int = MAX_DRAWS, threads: int | None = None,
           progress: bool | None = None,
           score: tuple[int, int] | None = None) -> AdviceResult:
    """Expected marks of every legal action now, on deals conditioned on the auction.

    Parameters
    ----------
    hand : str, list of str or int
        The player's 8 cards.
    auction : str or iterable of str
        The auction so far in ``score``'s tokens (``"80H 90S"``; ``""`` or None to
        open).
    seat, dealer : int, optional
        The player's seat (the next speaker) and the dealer; give one, the other follows
        (neither: seat 0).
    samples : int
        Deals kept (every action is evaluated on all of them).
    seed : int
    give, void : optional
        Constraints on the unseen cards (:func:`simcoinche.analysis.hand_odds.deals`).
    profile : str or Profile
    players : str or pair of str
        Model players per team: they explain the auction, continue it and play the cards.
    params : pair of mappings, optional
        Their parameter overrides per team.
    play : str
        Card play of the final contracts: ``heuristic`` (the model players' own),
        ``dd`` (double dummy) or ``pimc`` / ``pimc:worlds=N`` (PIMC seats); see
        :data:`PLAY_MODES`.
    max_bid : str or int, optional
        Highest bid value considered (``160``, ``capot``, ``generale``; default capot).
    max_draws : int
        Limit on the deals drawn by the auction filter.
    threads : int, optional
    progress : bool, optional
    score : pair of int, optional
        The partie's totals, the player's team's first (both below the target): each
        action then also gets its chance of winning the partie (``p_win``, the mean over
        the deals of the equity after the donne, :mod:`simcoinche.players.equity`) and
        the actions are sorted by it.

    Returns
    -------
    AdviceResult
        ``actions`` sorted by expected value (by ``p_win`` with a score), best first.

    Raises
    ------
    InputError
        Bad hand, constraints, auction, seat, option, more ``samples`` than ``max_draws``
        (every sample is a drawn deal), or an auction too unlikely to reach ``samples``
        deals within ``max_draws`` draws (one line).
    """
    from simcoinche._kernels.auction_filter import (
        C_TAKER,
        continue_auctions,
        filter_deals,
        score_outcomes,
    )
    from simcoinche._kernels.rng import seed_key
    from simcoinche.runs.arguments import samples_within_draws
    from simcoinche.runs.simulation import check_seed, check_threads, positive_int, team_players

    prof = get_profile(profile)
    if auction is None:
        auction = ""  # (as odds: no auction, the player opens)
    observed = parse_auction(auction, prof, seat, dealer)
    d = deals(hand, observed.seat, give, void)
    play, play_fn = get_play_mode(play)
    samples = positive_int(samples, "samples")
    seed = check_seed(seed)
    pk, codes, rows = team_players(players, params, prof)
    check_model_bidders(codes, rows)
    threads = check_threads(threads)
    max_draws = positive_int(max_draws, "max_draws")  # before the warm-up, not after it
    samples_within_draws(samples, max_draws)
    table = None if score is None else shipped_table(shipped_rules(
        prof, "the match equity tables that advise reads with a score", "advise without "
        "one", partie=True).name)
    if table is not None:
        score = check_score(score, table)
    cands = candidate_actions(observed, _max_level(max_bid, prof))
    m = len(cands)
    team = observed.seat & 1
    key = np.uint64(seed_key(np.uint64(seed)))

    names = [k.name for k in pk]

    def warm() -> None:
        # The card play first, on a deal made here, then the filter on one deal and that
        # deal's continuations, plays and scores: the argument types of the timed calls
        # below. On a first run the compile helper compiles the filter, the continuations
        # and the scoring meanwhile (warm_continuations), which this process then loads.
        seat0_spades = np.zeros(1, dtype=np.int8)  # taker seat 0, kind 0
        play_fn(key, plain_deal(d), observed.dealer, seat0_spades, seat0_spades, codes, rows,
                prof.packed, names=names)
        evaluate(key, warm_filter(d, observed, prof, codes, rows), observed, cands, codes,
                 rows, prof, play_fn, names)

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        # Compile (first run) or load the kernels now: the seconds reported exclude it.
        # (The kernels every play mode runs; warm() runs the mode's card play too.)
        prepare_kernels("advise", [filter_deals, continue_auctions, score_outcomes], warm,
                        ADVISE_COMPILE_S)
        t0 = time.perf_counter()
        kept = draw_kept(d, observed, samples, seed, prof, codes, rows, max_draws,
                         progress=progress, names=names)
        res = evaluate(key, kept, observed, cands, codes, rows, prof, play_fn, names,
                       progress)
        contracts, diff, made = res.contracts, res.diff, res.made
        p_win = None if table is None else partie_chances(res, table, score, observed)
    finally:
        numba.set_num_threads(previous)
    seconds = time.perf_counter() - t0

    n = kept.n
    taker = contracts[C_TAKER].astype(np.int64)
    evs = diff.mean(axis=1)
    best = int(np.argmax(evs))
    best_win = 0 if p_win is None else int(np.argmax(p_win.mean(axis=1)))
    values = []
    for c in range(m):
        ev, lo, hi = _mean_ci(diff[c].astype(np.float64))
        dv, dlo, dhi = _mean_ci((diff[c] - diff[best]).astype(np.float64))
        contract = made[c] >= 0
        values.append(ActionValue(
            format_action(cands[c], prof), cands[c], ev, lo, hi, dv, dlo, dhi,
            float((made[c] == 1).sum() / contract.sum()) if contract.any() else None,
            float(((taker[c] >= 0) & ((taker[c] & 1) == team)).mean()),
            float((~contract).mean()),
            *((None,) * 6 if p_win is None else
              (*_mean_ci(p_win[c], 0.0, 1.0), *_mean_ci(p_win[c] - p_win[best_win])))))
    # Best first; equal values keep the candidate order (pass, bids upwards, coinche).
    if p_win is None:
        order = sorted(range(m), key=lambda c: -values[c].ev)
    else:
        order = sorted(range(m), key=lambda c: -values[c].p_win)
    return AdviceResult(d, observed, prof, (pk[0].name, pk[1].name), play, n, seed,
                        kept.draws, [values[c] for c in order], seconds, diff,
                        None if score is None else score, p_win, list(cands))


def check_score(score: Any, table: EquityTable) -> tuple[int, int]:
    """``score`` as a pair of totals below the target on the table's grid, or InputError."""
    try:
        us, them = score
    except (TypeError, ValueError):
        raise InputError(f"score must be a pair of totals (ours, theirs), not {score!r}"
                         ) from None
    for total in (us, them):
        if isinstance(total, int | np.integer) and not isinstance(total, bool) and (
                total >= table.target):
            raise InputError(f"score {us}-{them}: a total of {total} is at or over the "
                             f"target {table.target}, where the partie is over or waits on "
                             "a pending team; give totals below it")
    table.value(us, them)  # the grid and the types, with their own messages
    return int(us), int(them)


def partie_chances(res: Outcomes, table: EquityTable, score: tuple[int, int],
                   observed: ObservedAuction) -> np.ndarray:
    """``float64[m, n]``: P(the player's team wins the partie) after each candidate's
    donne on each deal, from ``score`` (the end rules applied to the donne, then the
    table; the next donne is dealt by the seat after this dealer)."""
    from simcoinche._kernels.auction_filter import C_TAKER

    team = observed.seat & 1
    taker = res.contracts[C_TAKER].astype(np.int64)
    side = np.where(taker < 0, -1, ((taker & 1) != team).astype(np.int64))
    we_deal_next = ((observed.dealer + 1) & 1) == team
    m, n = res.diff.shape
    out = np.empty((m, n), dtype=np.float64)
    for c in range(m):
        donnes = np.stack([res.marks[0, c], res.marks[1, c], res.tricks[0, c],
                           res.tricks[1, c], side[c], np.maximum(res.made[c], 0)])
        out[c] = table.after((score[0], score[1], 0, 0), donnes, we_deal_next)
    return out
