"""Card encoding, parsing and formatting.

A card is an integer ``0..31``: ``card = suit * 8 + rank``.

- suits, index 0..3: ``S`` spades, ``H`` hearts, ``D`` diamonds, ``C`` clubs;
- ranks, index 0..7: ``7 8 9 T J Q K A``.

The rank index is also the *sequence order* used for suites (RULES.md: "A K Q J T 9 8 7"),
so a suite is a run of consecutive bits inside one suit's byte.

A hand (any set of cards) is one ``uint32`` with bit ``card`` set for each card held.
Suit ``s`` occupies bits ``8*s .. 8*s+7``.

Contract kinds ("trump" in kernels): ``0..3`` a suit as trump, ``4`` sans-atout (SA),
``5`` tout-atout (TA).

Text notation is rank then suit, case-insensitive on input: ``JH``, ``TS``, ``10S``, ``as``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from simcoinche.rules.errors import InputError

SUITS = "SHDC"
RANKS = "789TJQKA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

# Contract kinds: a suit index, or one of these two.
SANS_ATOUT = 4
TOUT_ATOUT = 5
CONTRACT_KIND_NAMES = ("S", "H", "D", "C", "SA", "TA")

N_CARDS = 32
CARDS_PER_HAND = 8
FULL_DECK = np.uint32(0xFFFFFFFF)
SUIT_MASKS = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.uint32)

# Every card constant, e.g. ``JH`` (jack of hearts), ``TS`` (ten of spades), ``S7``.
_ALL_NAMES: dict[str, int] = {}
for _s, _suit in enumerate(SUITS):
    for _r, _rank in enumerate(RANKS):
        _ALL_NAMES[_rank + _suit] = _s * 8 + _r
        if _rank in "789":
            # An identifier cannot start with a digit: the 7s, 8s and 9s are also named
            # suit first (``S7`` seven of spades, ``H9`` nine of hearts).
            _ALL_NAMES[_suit + _rank] = _s * 8 + _r
globals().update(_ALL_NAMES)
del _s, _suit, _r, _rank


def _whole(value: object, what: str, top: int) -> int:
    """``value`` as an int in ``0..top``, else InputError naming ``what``: a float, a
    bool or text is not taken for a number (1.5 would floor, True would be 1)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) \
            and 0 <= int(value) <= top:
        return int(value)
    raise InputError(f"{what} must be a whole number 0..{top}, got {value!r}")


def card(rank: int, suit: int) -> int:
    """Return the card index of ``rank`` (0..7) in ``suit`` (0..3)."""
    return _whole(suit, "suit", 3) * 8 + _whole(rank, "rank", 7)


def suit_of(c: int) -> int:
    """Suit index (0..3) of card ``c``."""
    return c >> 3


def rank_of(c: int) -> int:
    """Rank index (0..7, 7 8 9 T J Q K A) of card ``c``."""
    return c & 7


def parse_card(text: str) -> int:
    """Parse one card such as ``"JH"``, ``"10s"`` or ``"ta"``.

    Raises
    ------
    InputError
        With a one-line message naming the text when it is not a card.
    """
    if not isinstance(text, str):
        raise InputError(f"unknown card {text!r}: expected text such as 'JH' or '10S'")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise InputError(
            f"unknown card {text!r}: expected rank (7 8 9 T/10 J Q K A) then suit (S H D C)"
        )
    return SUITS.index(t[1]) * 8 + RANKS.index(t[0])


def parse_suit(text: str) -> int:
    """Parse a suit letter (``S H D C``, case-insensitive) to its index."""
    t = str(text).strip().upper()
    if len(t) != 1 or t not in SUITS:
        raise InputError(f"unknown suit {text!r}: expected one of S H D C")
    return SUITS.index(t)


def parse_cards(cards: str | Iterable[str]) -> list[int]:
    """Parse cards given as a list of strings or one whitespace/comma-separated string."""
    if isinstance(cards, str):
        items = cards.replace(",", " ").split()
    elif isinstance(cards, Iterable):
        items = list(cards)
    else:
        raise InputError(f"cards must be text or a list of card texts, got {cards!r}")
    return [parse_card(c) for c in items]


def format_card(c: int) -> str:
    """Canonical text of card ``c`` (``"JH"``, ``"TS"``)."""
    c = _whole(c, "card index", N_CARDS - 1)
    return RANKS[c & 7] + SUITS[c >> 3]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Canonical text of each card."""
    return [format_card(c) for c in cards]


def to_mask(cards: Iterable[int]) -> int:
    """Bitboard (Python ``int``, fits ``uint32``) of a collection of card indices."""
    if not isinstance(cards, Iterable) or isinstance(cards, str):
        raise InputError(f"cards must be card indices (0..31), got {cards!r}")
    mask = 0
    for c in cards:
        mask |= 1 << _whole(c, "card index", N_CARDS - 1)
    return mask


def _mask(mask: object) -> int:
    """A bitboard of 32 cards as an int, else InputError."""
    return _whole(mask, "card mask", (1 << N_CARDS) - 1)


def from_mask(mask: int) -> list[int]:
    """Card indices set in ``mask``, ascending."""
    m = _mask(mask)
    return [c for c in range(N_CARDS) if (m >> c) & 1]


def format_mask(mask: int) -> str:
    """Space-separated canonical text of the cards in ``mask``."""
    return " ".join(format_cards(from_mask(mask)))


def parse_hand(cards: str | Iterable[str]) -> int:
    """Parse a hand and return its bitboard; a card given twice is an error."""
    mask = 0
    for c in parse_cards(cards):
        if (mask >> c) & 1:
            raise InputError(f"card {format_card(c)} given twice")
        mask |= 1 << c
    return mask


def popcount(mask: int) -> int:
    """Number of cards in a bitboard."""
    return _mask(mask).bit_count()


def parse_seat(value: object, what: str) -> int:
    """A seat number 0..3 from an int or its text; ``what`` names it in the error."""
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
