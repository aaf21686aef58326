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
   belote for every bid value of the ladder and capot (and générale where the profile
   has it, decided by the taker's own tricks). A test pins this: playing a deal at two
   levels gives the same tricks and points.

Defaults: the hand is seat 0 and the dealer is the seat before it (``(seat + 3) % 4``),
so the hand speaks and leads first, as an opener would.

The result (:class:`OddsResult`) has per contract kind the distribution of the takers'
total (card points + announcements + belote, before rounding: the ``T_t`` of RULES.md)
and, per level, P(made) with a Wilson 95 % interval; :meth:`OddsResult.to_dict` is the
``--json`` output and :meth:`OddsResult.table` the terminal table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcoinche._kernels.rng import seed_key
from simcoinche._kernels.sampler import W_SHAPE, completion_table, sample_deals
from simcoinche.cards import (
    SUIT_NAMES,
    SUITS,
    format_card,
    format_mask,
    parse_card,
    parse_hand,
    parse_suit,
    popcount,
)
from simcoinche.errors import InputError

DEFAULT_SAMPLES = 10_000   # ±1 % at 95 % for p = 0.5: 1.96² · 0.25 / 0.01² ≈ 9,604
MAX_SEED = (1 << 64) - 1


# --------------------------------------------------------------------------------------
# constraints and exact dealing
# --------------------------------------------------------------------------------------


def _seat(value: Any, what: str) -> int:
    """Parse a seat number 0..3."""
    if isinstance(value, bool):
        raise InputError(f"{what} must be a seat 0..3, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if text not in ("0", "1", "2", "3"):
            raise InputError(f"{what} must be a seat 0..3, got {value!r}")
        return int(text)
    if isinstance(value, (int, np.integer)) and 0 <= int(value) <= 3:
        return int(value)
    raise InputError(f"{what} must be a seat 0..3, got {value!r}")


def _split_spec(spec: str, option: str) -> tuple[int, str]:
    """``"SEAT:REST"`` → (seat, rest)."""
    if not isinstance(spec, str) or ":" not in spec:
        raise InputError(f"{option} {spec!r}: expected SEAT:VALUE, e.g. {option} 1:"
                         + ("AS,KS" if option == "--give" else "H"))
    seat_text, rest = spec.split(":", 1)
    return _seat(seat_text, f"{option} {spec!r}: seat"), rest


def _pairs(items: Mapping[Any, Any] | Iterable[Any] | None, option: str
           ) -> list[tuple[int, Any]]:
    """Constraints as (seat, value) pairs from a mapping, ``"SEAT:VALUE"`` strings or
    (seat, value) pairs."""
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    if isinstance(items, Mapping):
        return [(_seat(k, f"{option} seat"), v) for k, v in items.items()]
    out = []
    for it in items:
        if isinstance(it, str):
            out.append(_split_spec(it, option))
        elif isinstance(it, Sequence) and len(it) == 2:
            out.append((_seat(it[0], f"{option} seat"), it[1]))
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
                         self.seats, self.allow, self.caps, self.table, out)
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
    seat = _seat(seat, "seat")
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        if not 0 <= int(hand) < (1 << 32):
            raise InputError(f"hand bitboard {hand!r} out of range")
        mask = int(hand)
    else:
        mask = parse_hand(hand)
    if popcount(mask) != 8:
        raise InputError(f"a hand has 8 cards; got {popcount(mask)}: {format_mask(mask)}")
    given = [0, 0, 0, 0]
    given[seat] = mask
    placed = {}
    for s, cards in _pairs(give, "--give"):
        items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
        if not items:
            raise InputError(f"--give {s}: no cards")
        for text in items:
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
        letters = suits.replace(",", "").strip() if isinstance(suits, str) else suits
        if not letters:
            raise InputError(f"--void {s}: no suit")
        for letter in letters:
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
    n_deals = int(completion_table(counts, allow, caps, table))
    result = Deals(seat, mask, tuple(given), tuple(voids), n_deals,
                   known=np.array(given, dtype=np.uint32), free=free,
                   seats=np.array(others, dtype=np.int64), allow=allow, caps=caps,
                   table=table)
    if n_deals == 0:
        raise InputError("no deal is consistent with the constraints: " + result.describe())
    return result
