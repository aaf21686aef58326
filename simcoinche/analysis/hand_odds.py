"""Odds of one hand: deal the unseen cards exactly, play every contract, count what it makes.

``odds("JH 9H AH TH KS 7C 8D AD")`` answers "how often does this hand make 100 hearts?":

1. **Deals.** The 24 cards not in the hand are dealt to the three other seats uniformly
   among all deals consistent with the constraints — cards known to be in a seat
   (``give``) and suits a seat is known to lack (``void``). The sampler counts the
   consistent deals exactly and draws from them without rejection
   (:mod:`simcoinche._kernels.sampler`); sample ``i`` of a seed is always the same deal.
2. **Play.** For each candidate contract kind (each trump suit; SA/TA where the profile
   has them) the hand's seat is the taker and every sampled deal is played out by the
   players (heuristic by default) with announcements and belote, as in a simulation.
3. **Levels.** The heuristic card play reads the contract's kind, the taker and the
   cards, never the bid level or the coinche (``heuristic_card`` uses only ``I_KIND``,
   ``I_TAKER``, ``I_SEAT``, the played cards, voids, leads and shown announcements), so
   one play per deal serves every level exactly: the profile's own success test
   (``score_donne``) is applied to the same tricks, card points, announcements and
   belote for every bid value of the ladder, capot and générale (classic, strict; decided
   by the bidder's *own* tricks, which ``play_contracts`` returns). A test pins this:
   playing a deal at every level gives the same tricks and points.

``play="dd"`` (``odds --play dd``) replaces step 2: each deal is solved double-dummy for
each contract kind (:mod:`simcoinche.runs.dd_columns`), and step 3 reads every level off the
DD value with the same success test.

Defaults: the hand is seat 0 and the dealer is the seat before it (``(seat + 3) % 4``),
so the hand speaks and leads first, as an opener would.

The result (:class:`OddsResult`) has per contract kind the distribution of the takers'
total (card points + announcements + belote, before rounding: the ``T_t`` of RULES.md)
and, per level, P(made) with a Wilson 95 % interval; :meth:`OddsResult.to_dict` is the
``--json`` output and :meth:`OddsResult.table` the terminal table.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numba
import numpy as np

from simcoinche._kernels.rng import seed_key
from simcoinche._kernels.sampler import (
    CUM_SHAPE,
    PICK_SHAPE,
    W_SHAPE,
    completion_table,
    sample_deals,
)
from simcoinche.analysis.conditioned import (
    MAX_DRAWS,
    ObservedAuction,
    check_model_bidders,
    draw_kept,
    parse_auction,
    warm_filter,
)
from simcoinche.analysis.intervals import wilson_interval
from simcoinche.players.faults import check_faults
from simcoinche.rules.actions import bid_code
from simcoinche.rules.cards import (
    CONTRACT_KIND_NAMES,
    SUIT_NAMES,
    SUITS,
    format_card,
    format_mask,
    parse_card,
    parse_hand,
    parse_seat,
    parse_suit,
    popcount,
)
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import (
    Profile,
    describe_profile,
    get_profile,
    profile_metadata,
)
from simcoinche.runs.compiling import ODDS_AUCTION_COMPILE_S, ODDS_COMPILE_S, prepare_kernels
from simcoinche.runs.progress import progress_bar

DEFAULT_SAMPLES = 10_000   # ±1 % at 95 % for p = 0.5: 1.96² · 0.25 / 0.01² ≈ 9,604
#: Default sample of ``--play dd`` (each deal solved per kind: ±2.2 points at p = 0.5).
DEFAULT_SAMPLES_DD = 2_000
#: How the sampled deals are played: by the players, or double-dummy (:mod:`.dd_columns`).
PLAYS = ("players", "dd")


# --------------------------------------------------------------------------------------
# constraints and exact dealing
# --------------------------------------------------------------------------------------


def _split_spec(spec: str, option: str) -> tuple[int, str]:
    """``"SEAT:REST"`` → (seat, rest)."""
    if not isinstance(spec, str) or ":" not in spec:
        raise InputError(f"{option} {spec!r}: expected SEAT:VALUE, e.g. {option} 1:"
                         + ("AS,KS" if option == "--give" else "H"))
    seat_text, rest = spec.split(":", 1)
    return parse_seat(seat_text, f"{option} {spec!r}: seat"), rest


def _pairs(items: Mapping[Any, Any] | Iterable[Any] | None, option: str
           ) -> list[tuple[int, Any]]:
    """Constraints as (seat, value) pairs from a mapping, ``"SEAT:VALUE"`` strings or
    (seat, value) pairs."""
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, (Mapping, list, tuple)):
        raise InputError(f"{option}: expected SEAT:VALUE items (a text, a list or a "
                         f"mapping), got {items!r}")
    if isinstance(items, Mapping):
        return [(parse_seat(k, f"{option} seat"), v) for k, v in items.items()]
    out = []
    for it in items:
        if isinstance(it, str):
            out.append(_split_spec(it, option))
        elif isinstance(it, Sequence) and len(it) == 2:
            out.append((parse_seat(it[0], f"{option} seat"), it[1]))
        else:
            raise InputError(f"{option} {it!r}: expected SEAT:VALUE")
    return out


@dataclass(frozen=True)
class Deals:
    """What is known about a deal, and the exact count of the deals consistent with it.

    Attributes
    ----------
    seat : int
        Seat of the known hand.
    hand : int
        Its 8 cards (bitboard).
    given : tuple of int
        Cards known to be in each seat (bitboards; the hand's seat: its hand).
    voids : tuple of int
        Suits (bit ``s``) each seat is known to lack.
    n_deals : int
        Number of consistent deals of the unseen cards.
    """

    seat: int
    hand: int
    given: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]
    n_deals: int
    known: np.ndarray = field(repr=False, compare=False)
    free: np.ndarray = field(repr=False, compare=False)
    seats: np.ndarray = field(repr=False, compare=False)
    allow: np.ndarray = field(repr=False, compare=False)
    caps: np.ndarray = field(repr=False, compare=False)
    table: np.ndarray = field(repr=False, compare=False)
    cum: np.ndarray | None = field(default=None, repr=False, compare=False)
    pick: np.ndarray | None = field(default=None, repr=False, compare=False)

    def describe(self) -> str:
        """One line naming the constraints (for messages and reports)."""
        parts = [f"seat {self.seat} holds {format_mask(self.hand)}"]
        for s in range(4):
            if s != self.seat and self.given[s]:
                parts.append(f"seat {s} holds {format_mask(self.given[s])}")
        for s in range(4):
            if self.voids[s]:
                suits = "".join(SUITS[k] for k in range(4) if (self.voids[s] >> k) & 1)
                parts.append(f"seat {s} void in {suits}")
        return "; ".join(parts)

    def sample(self, n: int, seed: int = 0, start: int = 0) -> np.ndarray:
        """Deals ``start .. start+n-1`` of ``seed``: ``uint32[n, 4]`` hands per seat."""
        out = np.empty((n, 4), dtype=np.uint32)
        if n:
            key = np.uint64(seed_key(np.uint64(seed)))
            sample_deals(key, np.int64(start), np.int64(n), self.known, self.free,
                         self.seats, self.caps, self.table, self.cum, self.pick, out)
        return out


def deals(hand: str | Iterable[str] | int, seat: int = 0,
          give: Mapping[Any, Any] | Iterable[Any] | None = None,
          void: Mapping[Any, Any] | Iterable[Any] | None = None) -> Deals:
    """Check the constraints and count the consistent deals exactly.

    Parameters
    ----------
    hand : str, list of str or int
        The 8 known cards (``"JH 9H AH TH KS 7C 8D AD"``, a list of card texts, or a
        bitboard).
    seat : int
        Seat holding ``hand`` (0..3).
    give : mapping or iterable, optional
        Cards known to be in other seats: ``{1: "AS KS"}``, ``["1:AS,KS"]`` or
        ``[(1, "AS KS")]``.
    void : mapping or iterable, optional
        Suits a seat lacks: ``{2: "H"}``, ``["2:H", "3:SD"]``; several suit letters may
        follow one seat.

    Returns
    -------
    Deals
        With the completion table the sampler uses.

    Raises
    ------
    InputError
        A hand that is not 8 distinct cards, a card given twice or given while in the
        hand, a void contradicting a known card, more than 8 cards for a seat, or no
        consistent deal at all.
    """
    seat = parse_seat(seat, "seat")
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        if not 0 <= int(hand) < (1 << 32):
            raise InputError(f"hand bitboard {hand!r} out of range")
        mask = int(hand)
    elif isinstance(hand, str) or (isinstance(hand, (list, tuple))
                                   and all(isinstance(c, str) for c in hand)):
        mask = parse_hand(hand)
    else:
        raise InputError(f"hand must be card texts ('JH 9H AH …' or a list of them) or a "
                         f"bitboard, got {hand!r}")
    if popcount(mask) != 8:
        raise InputError(f"a hand has 8 cards; got {popcount(mask)}: {format_mask(mask)}")
    given = [0, 0, 0, 0]
    given[seat] = mask
    placed = {}
    for s, cards in _pairs(give, "--give"):
        if not isinstance(cards, (str, list, tuple)):
            raise InputError(f"--give {s}: {cards!r} is not cards (e.g. {s}:QH,7S)")
        items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
        if not items:
            raise InputError(f"--give {s}: no cards")
        for text in items:
            if isinstance(text, bool) or not isinstance(text, (str, int, np.integer)):
                raise InputError(f"--give {s}: {text!r} is not a card")
            c = parse_card(text) if isinstance(text, str) else int(text)
            if not 0 <= c < 32:
                raise InputError(f"--give {s}: card index {c} out of range 0..31")
            bit = 1 << c
            if mask & bit:
                if s == seat:
                    continue  # restates the hand
                raise InputError(f"card {format_card(c)} is in the hand (seat {seat}), "
                                 f"it cannot be given to seat {s}")
            if s == seat:
                raise InputError(f"card {format_card(c)} given to seat {seat} is not in "
                                 "its hand")
            if c in placed:
                raise InputError(f"card {format_card(c)} given twice (seats {placed[c]} "
                                 f"and {s})" if placed[c] != s else
                                 f"card {format_card(c)} given twice to seat {s}")
            placed[c] = s
            given[s] |= bit
    for s in range(4):
        if popcount(given[s]) > 8:
            raise InputError(f"seat {s} is given {popcount(given[s])} cards; a hand has 8")
    voids = [0, 0, 0, 0]
    for s, suits in _pairs(void, "--void"):
        if not isinstance(suits, (str, list, tuple)):
            raise InputError(f"--void {s}: {suits!r} is not suit letters S H D C "
                             f"(e.g. {s}:HD)")
        letters = suits.replace(",", "").strip() if isinstance(suits, str) else suits
        if not letters:
            raise InputError(f"--void {s}: no suit")
        if isinstance(letters, str):
            letters = letters.replace(" ", "")
            if any(ch not in "SHDC" for ch in letters.upper()):
                # ("hearts" would be read letter by letter: "unknown suit 'e'")
                raise InputError(f"--void {s}: {suits!r} is not suit letters S H D C "
                                 f"(e.g. {s}:HD)")
        for letter in letters:
            if isinstance(letter, bool) or not isinstance(letter, (str, int, np.integer)):
                raise InputError(f"--void {s}: {letter!r} is not a suit")
            k = parse_suit(letter) if isinstance(letter, str) else int(letter)
            if not 0 <= k <= 3:
                raise InputError(f"--void {s}: suit index {k} out of range 0..3")
            voids[s] |= 1 << k
            held = given[s] & (0xFF << (8 * k))
            if held:
                who = "the hand" if s == seat else f"--give {s}"
                raise InputError(f"seat {s} cannot be void in {SUIT_NAMES[k]}: {who} "
                                 f"holds {format_mask(held)}")
    others = [s for s in range(4) if s != seat]
    free_all = 0xFFFFFFFF & ~(given[0] | given[1] | given[2] | given[3])
    free = np.array([(free_all >> (8 * k)) & 0xFF for k in range(4)], dtype=np.uint32)
    free = free << np.array([0, 8, 16, 24], dtype=np.uint32)
    counts = np.array([popcount(int(f)) for f in free], dtype=np.int64)
    caps = np.array([8 - popcount(given[s]) for s in others], dtype=np.int64)
    allow = np.array([[0 if (voids[s] >> k) & 1 else 1 for s in others] for k in range(4)],
                     dtype=np.uint8)
    table = np.zeros(W_SHAPE, dtype=np.int64)
    cum = np.zeros(CUM_SHAPE, dtype=np.int64)
    pick = np.zeros(PICK_SHAPE, dtype=np.int8)
    n_deals = int(completion_table(counts, allow, caps, table, cum, pick))
    result = Deals(seat, mask, tuple(given), tuple(voids), n_deals,
                   known=np.array(given, dtype=np.uint32), free=free,
                   seats=np.array(others, dtype=np.int64), allow=allow, caps=caps,
                   table=table, cum=cum, pick=pick)
    if n_deals == 0:
        raise InputError("no deal is consistent with the constraints: " + result.describe())
    return result


# --------------------------------------------------------------------------------------
# playing every contract
# --------------------------------------------------------------------------------------

#: Default chunk of deals per kernel call (progress bar granularity; no effect on results).
CHUNK = 1 << 15
#: Quantiles of the takers' total reported (percent).
QUANTILES = (5, 25, 50, 75, 95)
HIST_BIN = 10


@dataclass
class LevelOdds:
    """P(made) of one bid: ``made`` of ``n`` deals, with a Wilson 95 % interval."""

    value: int          # bid value (capot: the profile's capot value)
    label: str          # "80", …, "capot"
    level: int          # ladder level (capot: n_values)
    made: int
    n: int
    low: float
    high: float

    @property
    def p(self) -> float:
        """Share of the deals in which the contract is made."""
        return self.made / self.n


@dataclass
class KindOdds:
    """Odds of one contract kind: the takers' total and P(made) per level."""

    kind: int
    totals: np.ndarray = field(repr=False)   # T_t per deal (int32)
    all_tricks: int = 0                      # deals where the takers won all 8 tricks
    levels: list[LevelOdds] = field(default_factory=list)

    @property
    def name(self) -> str:
        """Contract kind text: S H D C SA TA."""
        return CONTRACT_KIND_NAMES[self.kind]

    def total_summary(self) -> dict[str, Any]:
        """Mean, standard deviation, quantiles and 10-point histogram of ``T_t``."""
        t = self.totals.astype(np.float64)
        counts = np.bincount(self.totals // HIST_BIN)
        return {
            "mean": float(t.mean()),
            "sd": float(t.std()),
            "quantiles": {str(q): float(np.percentile(t, q)) for q in QUANTILES},
            "histogram": {"bin_width": HIST_BIN, "start": 0,
                          "counts": [int(c) for c in counts]},
        }


@dataclass
class OddsResult:
    """Everything :func:`odds` computed (see :meth:`to_dict` for the JSON layout)."""

    deals: Deals
    dealer: int
    profile: Profile
    players: tuple[str, str]
    samples: int
    seed: int
    kinds: list[KindOdds]
    seconds: float = 0.0
    auction: ObservedAuction | None = None   # the auction read, if any
    draws: int = 0                           # deals drawn to keep ``samples`` of them
    play: str = "players"                    # how the deals were played (:data:`PLAYS`)

    @property
    def acceptance(self) -> float:
        """Share of the drawn deals kept by the auction filter (1 without an auction)."""
        return self.samples / self.draws if self.draws else 1.0

    def kind(self, name: str | int) -> KindOdds:
        """The odds of one contract kind (``"H"`` or ``1``)."""
        k = _parse_kinds(name, None)[0] if not isinstance(name, int) else name
        for ko in self.kinds:
            if ko.kind == k:
                return ko
        raise InputError(f"contract {name!r} was not played")

    def legal_now(self, kind: int, level: int) -> bool | None:
        """Whether the seat may still bid ``level`` of ``kind`` after the auction given
        (None without one, or before anything was said: every bid is open). The odds of
        a bid it can no longer make are still those of the contract given what the
        auction says, and are marked as such."""
        if self.auction is None or not self.auction.codes:
            return None
        return bid_code(level, kind) in self._legal_bids

    @cached_property
    def _legal_bids(self) -> frozenset[int]:
        """The bid codes the auction still allows (its replay, once per result)."""
        state = self.auction.state()
        prof = self.profile
        return frozenset(c for c in (bid_code(level, kind) for level in range(prof.n_levels)
                                     for kind in prof.contract_kinds)
                         if state.check(c) == 0)

    def level(self, kind: str | int, value: str | int) -> LevelOdds:
        """P(made) of one bid, e.g. ``result.level("H", 100)``."""
        ko = self.kind(kind)
        label = check_level(value, self.profile)
        for lv in ko.levels:
            if lv.label == label:
                return lv
        raise InputError(f"bid value {value!r} was not played")

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` output.

        Keys: ``hand`` (cards), ``seat``, ``dealer``, ``profile``, ``players``,
        ``samples``, ``seed``, ``play`` (``players`` or ``dd``), ``constraints``
        (``give``: seat → cards, ``void``: seat → suits), ``consistent_deals`` (exact
        count), ``interval`` (its method), ``seconds``, ``auction`` (the tokens read, or
        null), ``acceptance`` (kept / drawn deals), ``draws``, ``effective_samples`` (the
        kept deals are independent draws: their number), and ``contracts``: one object
        per kind with ``trump`` (S H D C SA TA), ``takers_total`` (``mean``, ``sd``,
        ``quantiles`` in percent → value, ``histogram`` with ``bin_width``, ``start``,
        ``counts``), ``all_tricks`` (deals in which the takers won every trick) and
        ``levels``: per bid ``bid`` (token such as ``100H``), ``value``, ``made``, ``n``,
        ``p``, ``low``, ``high``, and after an auction with at least one call
        ``legal_now`` (false for a bid the auction no longer allows: :meth:`legal_now`).
        """
        d = self.deals
        give = {str(s): format_mask(d.given[s]) for s in range(4)
                if s != d.seat and d.given[s]}
        void = {str(s): "".join(SUITS[k] for k in range(4) if (d.voids[s] >> k) & 1)
                for s in range(4) if d.voids[s]}
        return {
            "hand": format_mask(d.hand),
            "seat": d.seat,
            "dealer": self.dealer,
            **profile_metadata(self.profile),
            "players": list(self.players),
            "samples": self.samples,
            "seed": self.seed,
            "play": self.play,
            "constraints": {"give": give, "void": void},
            "consistent_deals": d.n_deals,
            "interval": "Wilson 95 %",
            "seconds": round(self.seconds, 3),
            "auction": None if self.auction is None else self.auction.tokens,
            "acceptance": self.acceptance,
            "draws": self.draws,
            "effective_samples": self.samples,
            "contracts": [{
                "trump": ko.name,
                "takers_total": ko.total_summary(),
                "all_tricks": ko.all_tricks,
                "levels": [{"bid": f"{lv.label}{ko.name}", "value": lv.value,
                            "made": lv.made, "n": lv.n, "p": lv.p, "low": lv.low,
                            "high": lv.high,
                            **({} if (legal := self.legal_now(ko.kind, lv.level)) is None
                               else {"legal_now": legal})}
                           for lv in ko.levels],
            } for ko in self.kinds],
        }

    def table(self) -> str:
        """The terminal table: one column per contract kind, one row per bid level."""
        d = self.deals
        who = ("double-dummy play" if self.play == "dd"
               else f"players {self.players[0]},{self.players[1]}")
        head = (f"odds of {format_mask(d.hand)} (seat {d.seat}, dealer {self.dealer}, "
                f"profile {describe_profile(self.profile)}, {who})")
        cons = d.describe().split("; ", 1)
        lines = [head,
                 f"{self.samples:,} deals of the unseen cards (seed {self.seed}), drawn "
                 f"uniformly among {d.n_deals:,} consistent deals"
                 + (f" [{cons[1]}]" if len(cons) > 1 else "")
                 + f"; {self.seconds:.1f} s",
                 *([] if self.auction is None else [
                     f"auction {self.auction.describe()}: kept {self.samples:,} of "
                     f"{self.draws:,} drawn deals (acceptance {100 * self.acceptance:.3g} %, "
                     f"effective sample size {self.samples:,}) on which the model players "
                     f"({self.players[0]},{self.players[1]}) bid as they did"]),
                 "P(made) in % with its Wilson 95 % interval; takers' total T_t = card "
                 "points + announcements + belote"]
        w = 22
        lines.append("")
        lines.append(f"{'':<14}" + "".join(f"{ko.name:>{w}}" for ko in self.kinds))
        summaries = [ko.total_summary() for ko in self.kinds]
        lines.append(f"{'T_t mean':<14}" + "".join(
            f"{s['mean']:>{w}.1f}" for s in summaries))
        lines.append(f"{'T_t 5/50/95 %':<14}" + "".join(
            f"{'{:.0f} / {:.0f} / {:.0f}'.format(s['quantiles']['5'], s['quantiles']['50'], s['quantiles']['95']):>{w}}"  # noqa: E501
            for s in summaries))
        labels = [lv.label for lv in self.kinds[0].levels]
        for i, label in enumerate(labels):
            cells = []
            for ko in self.kinds:
                lv = ko.levels[i]
                legal = self.legal_now(ko.kind, lv.level)
                mark = "" if legal is None else (" " if legal else "*")
                cells.append(f"{100 * lv.p:5.1f} [{100 * lv.low:5.1f}, {100 * lv.high:5.1f}]"
                             f"{mark}")
            lines.append(f"{label:<14}" + "".join(f"{c:>{w}}" for c in cells))
        if any(self.legal_now(ko.kind, lv.level) is False for ko in self.kinds
               for lv in ko.levels):
            lines.append("* no longer a legal bid after this auction (the odds of the "
                         "contract, given what the auction says)")
        return "\n".join(lines)

    def line(self, kind: str | int, value: str | int) -> str:
        """One-line answer: ``100H by JH 9H …: made in 87.3 % of 10,000 deals [86.6, 87.9]``."""
        ko = self.kind(kind)
        lv = self.level(kind, value)
        given = ("" if not (self.auction and self.auction.codes) else
                 f", after {self.auction.describe()}")
        late = ("; no longer a legal bid after this auction"
                if self.legal_now(ko.kind, lv.level) is False else "")
        return (f"{lv.label}{ko.name} with {format_mask(self.deals.hand)} (seat "
                f"{self.deals.seat}, dealer {self.dealer}{given}): made in {100 * lv.p:.1f} % "
                f"of {lv.n:,} deals (95 % interval {100 * lv.low:.1f}–{100 * lv.high:.1f} %)"
                f"{late}")


def _parse_kinds(trump: str | int | Iterable[str | int] | None, profile: Any
                 ) -> list[int]:
    """Contract kinds from ``"H"``, ``"S,H"``, ``"SA"``, ``[0, 1]`` (default: all)."""
    prof = get_profile(profile) if profile is not None else None
    if trump is None:
        return list(prof.contract_kinds)
    items: list[Any]
    if isinstance(trump, str):
        items = trump.replace(",", " ").split()
    elif isinstance(trump, (int, np.integer)) and not isinstance(trump, bool):
        items = [int(trump)]
    elif isinstance(trump, (list, tuple)):
        items = []
        for t in trump:
            if isinstance(t, bool) or not isinstance(t, (str, int, np.integer)):
                raise InputError(f"--trump: {t!r} is not a contract kind")
            items += t.replace(",", " ").split() if isinstance(t, str) else [t]
    else:
        raise InputError(f"--trump: {trump!r} is not a contract kind (S H D C SA TA, or a "
                         "list of them)")
    if not items:
        raise InputError("--trump: no contract kind given")
    kinds: list[int] = []
    for t in items:
        if isinstance(t, str):
            u = t.strip().upper()
            if u not in CONTRACT_KIND_NAMES:
                raise InputError(f"unknown contract kind {t!r}: expected S H D C SA TA")
            k = CONTRACT_KIND_NAMES.index(u)
        elif isinstance(t, (int, np.integer)) and 0 <= int(t) <= 5:
            k = int(t)
        else:
            raise InputError(f"unknown contract kind {t!r}: expected S H D C SA TA")
        if prof is not None and k not in prof.contract_kinds:
            raise InputError(f"no {CONTRACT_KIND_NAMES[k]} contracts in profile {prof.name}")
        if k not in kinds:
            kinds.append(k)
    return kinds


def check_level(value: str | int, profile: str | Profile | None = "federal") -> str:
    """Label (``"100"``, ``"capot"``, ``"generale"``) of a bid of the profile.

    ``value`` is a ladder value, ``capot`` (or its value, 250), or ``generale`` /
    ``générale`` (or its value) where the profile has it.

    Raises
    ------
    InputError
        When ``value`` is none of these.
    """
    prof = get_profile(profile)
    text = str(value).strip().lower()
    if text == "capot" or text == str(prof.capot_value):
        return "capot"
    if prof.generale_value and text in ("generale", "générale", str(prof.generale_value)):
        return "generale"
    if text.isdigit() and int(text) in prof.bid_values:
        return text
    raise InputError(f"bid value {value!r} is not a level of profile {prof.name}: "
                     + ", ".join(map(str, prof.bid_values)) + ", capot"
                     + (", generale" if prof.generale_value else ""))


def _ladder(prof: Profile) -> tuple[list[str], list[int]]:
    """The levels :func:`odds` reads off each play: labels and values of the profile's
    bids, capot and (where the profile has it) générale."""
    labels = [str(v) for v in prof.bid_values] + ["capot"]
    values = [*prof.bid_values, prof.capot_value]
    if prof.generale_value:
        labels.append("generale")
        values.append(prof.generale_value)
    return labels, values


def plain_deal(d: Deals) -> np.ndarray:
    """One deal with ``d``'s known hand, the other cards dealt in their index order
    (``uint32[1, 4]``; given cards and voids ignored): what the warm-ups of :func:`odds`
    and :func:`~simcoinche.analysis.advisor.advise` play to compile the card play first."""
    out = np.zeros((1, 4), dtype=np.uint32)
    out[0, d.seat] = d.hand
    rest = [c for c in range(32) if not (d.hand >> c) & 1]
    others = [s for s in range(4) if s != d.seat]
    for i, c in enumerate(rest):
        out[0, others[i // 8]] |= np.uint32(1 << c)
    return out


def warm_sampling(profile: str = "federal") -> None:
    """Compile (or load) what :func:`odds` runs besides the card play: the exact sampler
    of a hand without constraints and the scoring of every level, with the argument
    types of :func:`odds`. The compile helper of a cold ``odds`` runs this while the
    command compiles the card play (:mod:`simcoinche.commands.warmup`)."""
    from simcoinche._kernels.layout import PC_LEN
    from simcoinche._kernels.sampler import made_at_levels

    prof = get_profile(profile)
    levels = np.arange(len(_ladder(prof)[0]), dtype=np.int64)
    made_at_levels(np.zeros((PC_LEN, 1), dtype=np.int32), 0, 0, levels, prof.packed,
                   np.zeros((len(levels), 1), dtype=np.uint8))
    deals(0xFF, 0).sample(1, 0, 0)


def odds(hand: str | Iterable[str] | int, seat: int | None = None, dealer: int | None = None,
         trump: str | int | Iterable[str | int] | None = None,
         samples: int | None = None, seed: int = 0,
         give: Mapping[Any, Any] | Iterable[Any] | None = None,
         void: Mapping[Any, Any] | Iterable[Any] | None = None,
         profile: str | Profile | None = "federal",
         players: str | Sequence[str] | None = "heuristic",
         params: Sequence[Mapping[str, float] | None] | None = None,
         threads: int | None = None, progress: bool | None = None,
         auction: str | Iterable[str] | None = None,
         max_draws: int = MAX_DRAWS, play: str = "players") -> OddsResult:
    """Odds of a hand: P(made) of every contract kind and bid level, by exact dealing.

    Parameters
    ----------
    hand : str, list of str or int
        The taker's 8 cards.
    seat : int, optional
        The taker's seat (default 0; with an auction and a dealer: the next speaker).
    dealer : int, optional
        Dealer seat; default ``(seat + 3) % 4`` so that the taker leads the first trick
        (with an auction: the dealer that makes ``seat`` the next speaker).
    trump : str, int or iterable, optional
        Contract kinds to play (``"H"``, ``"S,H"``, ``"SA"``); default every kind of the
        profile.
    samples : int, optional
        Deals drawn (default 10,000, a 95 % interval of at most ±1 point; 2,000 with
        ``play="dd"``, :data:`DEFAULT_SAMPLES_DD`, as the command).
    seed : int
        Seed (``0 .. 2**64-1``); deal ``i`` of a seed is always the same, and every
        contract kind is played on the same deals.
    give, void : optional
        Constraints on the unseen cards (:func:`deals`).
    profile : str or Profile
        Rule profile (its ladder, capot, success test, point tables).
    players : str or pair of str
        Player kinds (team 0, team 1; default heuristic for both).
    params : pair of mappings, optional
        Parameter overrides per team (:mod:`simcoinche.players.registry`).
    threads : int, optional
        Worker threads (default all); results do not depend on it.
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    auction : str or iterable of str, optional
        The auction so far (``"pass 80H 90S"``, tokens as in ``simcoinche score``); the
        hand's seat must be the next speaker. Deals are then kept only when the model
        bidders (``players``, ``params``) at the other seats would have made exactly
        these actions (:mod:`simcoinche.analysis.conditioned`); ``""`` keeps every deal (the
        same deals and result as no auction).
    max_draws : int
        With an auction: the most deals drawn to keep ``samples`` of them; beyond it
        an InputError suggests fewer samples.
    play : str
        ``"players"`` (default): each deal played by ``players``; ``"dd"``: each deal
        solved double-dummy per contract kind (all hands visible, perfect play; RULES.md)
        and every level read off the DD value with the profile's success test (the
        players still explain an ``auction``). DD solving is slow (tens to hundreds of
        milliseconds a deal and kind): use a smaller sample (:data:`DEFAULT_SAMPLES_DD`).

    Returns
    -------
    OddsResult

    Raises
    ------
    InputError
        Any bad argument or impossible constraint (one line naming the culprit).
    """
    from simcoinche._kernels.batch import Contracts, play_contracts
    from simcoinche._kernels.donne import Players
    from simcoinche._kernels.kinds import NO_KINDS
    from simcoinche._kernels.layout import PC_FAULTS, PC_LEN, PC_TOTAL_TAKERS, PC_TRICKS
    from simcoinche._kernels.sampler import made_at_levels
    from simcoinche.runs.arguments import physical_memory, samples_within_draws
    from simcoinche.runs.simulation import (
        check_seed,
        check_threads,
        positive_int,
        team_players,
        think_arg,
    )

    if play not in PLAYS:
        raise InputError(f"play must be one of {', '.join(PLAYS)}, got {play!r}")
    prof = get_profile(profile)
    observed = None
    if auction is not None:
        observed = parse_auction(auction, prof, seat, dealer)
        seat, dealer = observed.seat, observed.dealer
    d = deals(hand, 0 if seat is None else seat, give, void)
    dealer = (d.seat + 3) % 4 if dealer is None else parse_seat(dealer, "dealer")
    kinds = _parse_kinds(trump, prof)
    if samples is None:
        samples = DEFAULT_SAMPLES_DD if play == "dd" else DEFAULT_SAMPLES
    samples = positive_int(samples, "samples")
    seed = check_seed(seed)
    # The players bid only where an auction is modelled (an empty one models no call:
    # every deal is kept). Otherwise they only play the cards, which reads no fitted
    # bidding tables: a profile built by hand has none, and needs none here.
    bidding = observed is not None and bool(observed.codes)
    pk, codes, rows = team_players(players, params, prof if bidding else None)
    if bidding:
        check_model_bidders(codes, rows)
    threads = check_threads(threads)
    max_draws = positive_int(max_draws, "max_draws")  # before the warm-up, not after it
    if observed is not None:
        # (Without an auction every deal drawn is kept: max_draws does not apply.)
        samples_within_draws(samples, max_draws)
    labels, values = _ladder(prof)
    levels = np.arange(len(labels), dtype=np.int64)  # the ladder, capot, générale
    packed = prof.packed
    team = d.seat & 1

    chunk = min(CHUNK, samples)
    made = {k: np.zeros(len(labels), dtype=np.int64) for k in kinds}
    # The takers' total of each deal and kind, 4 bytes each: checked against the
    # machine's memory, not by allocating (Linux grants large arrays it cannot fill).
    memory = physical_memory()
    if memory is not None and 4 * samples * len(kinds) > memory:
        raise InputError(f"samples {samples:,}: not enough memory to keep "
                         f"{samples * len(kinds):,} contract totals (4 bytes each)")
    totals = {k: np.empty(samples, dtype=np.int32) for k in kinds}
    capots = dict.fromkeys(kinds, 0)
    key = np.uint64(seed_key(np.uint64(seed)))

    def play_kind(start: int, k_n: int, kind: int, hands: np.ndarray, pc: np.ndarray,
                  ok: np.ndarray) -> None:
        # One play per deal and kind; every level is read off it (module doc).
        play_contracts(key, np.int64(start), hands,
                       Contracts(np.full(k_n, dealer, dtype=np.int8),
                                 np.full(k_n, d.seat, dtype=np.int8),
                                 np.zeros(k_n, dtype=np.int8),
                                 np.full(k_n, kind, dtype=np.int8),
                                 np.ones(k_n, dtype=np.int8)),
                       Players(codes, rows, NO_KINDS), packed, pc, think_arg(codes))
        # A card the kernel had to replace fails the whole computation (issue 20).
        check_faults(pc[PC_FAULTS], pk, prof, lambda j: f"deal {deal_index(start + j)}")
        made_at_levels(pc, team, kind, levels, packed, ok)

    def deal_index(i: int) -> int:
        # Row i of the deals played: the draw index of the kept deal, or i itself.
        return i if kept is None else int(kept.index[i])

    def warm() -> None:
        # One deal of one kind, with the argument types of the chunks below; with an
        # auction, the filter on one deal too. The card play first, on a deal made here,
        # and the sampler last: on a first run the compile helper compiles the sampler
        # and the levels' scoring meanwhile (or, with an auction, the card play while
        # this process compiles the filter).
        if observed is not None:
            warm_filter(d, observed, prof, codes, rows)
        if play == "dd":
            dd_levels(plain_deal(d), dealer, d.seat, kinds[0], levels, packed)
        else:
            play_kind(0, 1, kinds[0], plain_deal(d),
                      np.empty((PC_LEN, 1), dtype=np.int32),
                      np.empty((len(levels), 1), dtype=np.uint8))
        d.sample(1, seed, 0)

    if play == "dd":
        from simcoinche._kernels.dd import solve_many
        from simcoinche._kernels.dd_batch import dd_outcomes
        from simcoinche.runs.dd_columns import dd_levels

        kernels = [sample_deals, solve_many, dd_outcomes]
    else:
        kernels = [sample_deals, play_contracts, made_at_levels]
    if observed is not None:
        from simcoinche._kernels.auction_filter import filter_deals

        kernels.append(filter_deals)

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    kept = None
    try:
        # Compile (first run) or load the kernels now: the time reported excludes it.
        prepare_kernels("odds", kernels, warm,
                        ODDS_COMPILE_S if observed is None else ODDS_AUCTION_COMPILE_S,
                        helper="odds" if observed is None else "odds --auction")
        t0 = time.perf_counter()
        if observed is not None:
            kept = draw_kept(d, observed, samples, seed, prof, codes, rows, max_draws,
                             progress=progress, names=[k.name for k in pk])
        with progress_bar(samples * len(kinds), progress, "plays") as bar:
            for start in range(0, samples, chunk):
                k_n = min(chunk, samples - start)
                if kept is not None:
                    # The kept deals in order (an empty auction keeps every deal).
                    hands = np.ascontiguousarray(kept.hands[start:start + k_n])
                else:
                    hands = d.sample(k_n, seed, start)
                pc = np.empty((PC_LEN, k_n), dtype=np.int32)
                ok = np.empty((len(levels), k_n), dtype=np.uint8)
                for k in kinds:
                    if play == "dd":
                        # One DD solve per deal and kind; every level read off its value.
                        m, tot, allt = dd_levels(hands, dealer, d.seat, k, levels, packed,
                                                 bar.update)
                        made[k] += m
                        totals[k][start:start + k_n] = tot
                        capots[k] += allt
                        continue
                    play_kind(start, k_n, k, hands, pc, ok)
                    made[k] += ok.sum(axis=1, dtype=np.int64)
                    totals[k][start:start + k_n] = pc[PC_TOTAL_TAKERS]
                    capots[k] += int((pc[PC_TRICKS + team] == 8).sum())
                    bar.update(k_n)
    finally:
        numba.set_num_threads(previous)
    seconds = time.perf_counter() - t0

    result = []
    for k in kinds:
        low, high = wilson_interval(made[k], np.full(len(labels), samples))
        lv = [LevelOdds(values[i], labels[i], i, int(made[k][i]), samples,
                        float(low[i]), float(high[i])) for i in range(len(labels))]
        result.append(KindOdds(k, totals[k], capots[k], lv))
    return OddsResult(d, dealer, prof, (pk[0].name, pk[1].name), samples, seed,
                      result, seconds, observed, samples if kept is None else kept.draws,
                      play)
