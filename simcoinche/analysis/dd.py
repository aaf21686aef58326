"""Double-dummy (DD) values: what perfect play with all four hands visible yields.

RULES.md, "Rulings on points the sources leave open": the double-dummy value of a deal is
the card points a team reaches when all four hands are visible and both sides play
perfectly, from the opening lead of seat ``dealer + 1``; 252 to a team that wins every
trick. A générale under double-dummy play is a separate yes/no question: can the bidder
alone win all eight tricks.

Public functions (each validates its input and raises
:class:`~simcoinche.rules.errors.InputError`, one line naming the culprit, on bad input):

- :func:`solve_many` — team 0's DD card points of many deals, in parallel (the engine of
  ``simulate --dd`` and ``odds --play dd``);
- :func:`table` — both teams' DD card points for every contract kind of a profile;
- :func:`card_values` — the DD value of each legal card at a position reached by a
  sequence of played cards;
- :func:`generale` — whether one seat alone can take all eight tricks.

Hands are given as 4 lists of card texts (``["JH", "9H", …]``, or one string
``"JH 9H …"`` per hand) or as 4 ``uint32`` bitboards (bit ``suit * 8 + rank``); seats
0..3, team of seat ``s`` is ``s & 1``, seat ``dealer + 1`` leads. A contract kind is an
index 0..5 or its name ``"S" "H" "D" "C" "SA" "TA"``.

Team 1's value from team 0's (one search, exact): team 0 maximises its card points
``C0``; team 1's card points are ``0`` when ``C0 = 252`` (team 0's capot), ``252`` when
team 1 can force winning every trick, else ``D - C0``, ``D`` the kind's card points plus
the last trick (:func:`simcoinche._kernels.play.points_total`: 162 at a suit, 130 at a
sans-atout of 120 card points, 258 at strict's tout-atout). (Both teams' points are
decreasing functions of each other once the capot of each side is settled, so the
minimax of ``C0`` plus one capot check gives both values.) At strict's tout-atout the
teams share 258 points without a capot, more than a capot's 252: there each team's value
is its own solve (team 1's with the seats turned by one).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numba
import numpy as np

from simcoinche._kernels import dd as _dd
from simcoinche._kernels.dd_scratch import DD_CAPOT
from simcoinche._kernels.play import points_total
from simcoinche.rules import reference as ref
from simcoinche.rules.cards import (
    CARDS_PER_HAND,
    CONTRACT_KIND_NAMES,
    N_CARDS,
    format_card,
    from_mask,
    parse_card,
    to_mask,
)
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile
from simcoinche.rules.verify import contract_object, error_object, parse_hands, validate_record
from simcoinche.runs.arguments import check_flag, check_optional_flag, check_threads
from simcoinche.runs.progress import progress_bar

__all__ = ["PlayedCard", "RecordAnalysis", "TeamPoints", "analyse_record", "card_values",
           "generale", "generales", "parse_deal", "parse_kind", "play_analysis", "solve_many",
           "table"]

# The 32 cards: four disjoint 8-card hands cover the deck exactly.
_FULL_DECK = 0xFFFFFFFF


def _kinds_array(kind: Any, n: int, profile: Profile) -> np.ndarray:
    """``kind`` (one kind or one per row; indices or names) as int64[n], checked against
    the profile's contract kinds (vectorised for integer arrays)."""
    if isinstance(kind, (str, int, np.integer)) and not isinstance(kind, bool):
        return np.full(n, parse_kind(kind, profile), dtype=np.int64)
    arr = np.asarray(kind)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise InputError(f"kind: expected {n} contract kinds (one per row), got shape "
                         f"{arr.shape}")
    if np.issubdtype(arr.dtype, np.integer):
        bad = np.flatnonzero(~np.isin(arr, profile.contract_kinds))
        if bad.size:  # name the first culprit with parse_kind's message
            parse_kind(arr[bad[0]], profile, where=f"kind[{int(bad[0])}]")
        return arr.astype(np.int64)
    return np.array([parse_kind(k, profile, where=f"kind[{i}]")
                     for i, k in enumerate(arr.tolist())], dtype=np.int64)


def parse_kind(kind: Any, profile: Profile | str | None = None, where: str = "kind") -> int:
    """A contract kind (``0..5`` or ``"S" "H" "D" "C" "SA" "TA"``) of ``profile``.

    Raises
    ------
    InputError
        When ``kind`` is not a contract kind, or not one the profile allows.
    """
    prof = get_profile(profile)
    allowed = ", ".join(CONTRACT_KIND_NAMES[k] for k in prof.contract_kinds)
    if isinstance(kind, str):
        name = kind.strip().upper()
        if name not in CONTRACT_KIND_NAMES:
            raise InputError(f"{where}: unknown contract kind {kind!r}; expected one of "
                             f"{allowed}")
        k = CONTRACT_KIND_NAMES.index(name)
    elif isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
        k = int(kind)
        if not 0 <= k < len(CONTRACT_KIND_NAMES):
            raise InputError(f"{where}: contract kind {k} out of range; expected one of "
                             f"{allowed} (0..5)")
    else:
        raise InputError(f"{where}: expected a contract kind ({allowed}), got {kind!r}")
    if k not in prof.contract_kinds:
        raise InputError(f"{where}: profile {prof.name} has no {CONTRACT_KIND_NAMES[k]} "
                         f"contract; expected one of {allowed}")
    return k


def _deal_rows(hands: Any) -> np.ndarray:
    """``hands`` as uint32[n, 4], each row four disjoint 8-card hands (the 32 cards)."""
    try:
        arr = np.asarray(hands)
    except (TypeError, ValueError) as exc:
        raise InputError(f"hands: expected an integer array of shape (n, 4): {exc}") from None
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise InputError(f"hands: expected an array of shape (n, 4), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"hands: expected integer bitboards, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > _FULL_DECK):
        raise InputError("hands: a bitboard is outside 0..2**32-1")
    rows = arr.astype(np.uint32)
    counts = np.bitwise_count(rows) if hasattr(np, "bitwise_count") else np.vectorize(
        lambda x: int(x).bit_count(), otypes=[np.int64])(rows)
    bad = np.argwhere(counts != CARDS_PER_HAND)
    if bad.size:
        i, s = (int(x) for x in bad[0])
        raise InputError(f"hands[{i}, {s}]: expected {CARDS_PER_HAND} cards, got "
                         f"{int(counts[i, s])}")
    union = rows[:, 0] | rows[:, 1] | rows[:, 2] | rows[:, 3]
    bad_rows = np.flatnonzero(union != np.uint32(_FULL_DECK))
    if bad_rows.size:
        raise InputError(f"hands[{int(bad_rows[0])}]: the four hands share a card (they must "
                         "hold the 32 cards between them)")
    return rows


def _dealers_array(dealer: Any, n: int) -> np.ndarray:
    arr = np.asarray(dealer)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape == (0,) == (n,):
        return np.zeros(0, dtype=np.int64)
    if arr.shape != (n,) or not (np.issubdtype(arr.dtype, np.integer) and arr.dtype != bool):
        raise InputError(f"dealer: expected {n} seats 0..3 (one per row), got "
                         f"{arr.dtype} array of shape {arr.shape}")
    bad = np.flatnonzero((arr < 0) | (arr > 3))
    if bad.size:
        raise InputError(f"dealer[{int(bad[0])}]: expected a seat 0..3, got {int(arr[bad[0]])}")
    return arr.astype(np.int64)


def solve_many(hands: Any, dealer: Any, kind: Any, profile: Profile | str | None = "federal",
               threads: int | None = None, return_nodes: bool = False
               ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Team 0's double-dummy card points of many whole deals, computed in parallel.

    Parameters
    ----------
    hands : array of shape (n, 4), integer bitboards (uint32)
        Row ``i``: the four 8-card hands of deal ``i`` by seat (the 32 cards between them).
    dealer : int or int[n]
        Dealer seat of each row (seat ``dealer + 1`` leads the first trick).
    kind : int, str, or a sequence of them (length n)
        Contract kind of each row: 0..3 a trump suit, 4 sans-atout, 5 tout-atout (or the
        names ``"S" "H" "D" "C" "SA" "TA"``); must be a kind of ``profile``.
    profile : profile name or :class:`~simcoinche.rules.profiles.Profile`
        Card rules (legal cards, points). Default ``federal``.
    threads : int, optional
        Worker threads (default: every core numba may use). The values do not depend on it.
    return_nodes : bool
        Also return the number of search nodes per row (for benchmarks). On several
        threads a row's count depends on the solves its thread made before it, which
        vary from run to run; the values never do.

    Returns
    -------
    numpy.ndarray
        ``int16[n]``: team 0's DD card points of each row, ``0..252`` (252: team 0 wins
        every trick; to 258 without a capot at strict's tout-atout). Team 1's value
        follows as explained in the module docstring (see :func:`table`). With
        ``return_nodes``, ``(values, nodes)`` with ``nodes`` int64[n].

    Raises
    ------
    InputError
        Wrong shape, a hand without 8 cards, hands sharing a card, a bad seat or kind,
        an unknown profile, a bad thread count.
    """
    prof = get_profile(profile)
    rows = _deal_rows(hands)
    n = rows.shape[0]
    dealers = _dealers_array(dealer, n)
    kinds = _kinds_array(kind, n, prof)
    threads = check_threads(threads)
    return_nodes = check_flag(return_nodes, "return_nodes")
    out = np.zeros(n, dtype=np.int16)
    nodes = np.zeros(n, dtype=np.int64)
    if n:
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            _dd.solve_many(rows, dealers, kinds, prof.packed, threads, out, nodes)
        finally:
            numba.set_num_threads(previous)
    return (out, nodes) if return_nodes else out


# One solver scratch per Python thread (about 16 MiB), made on first use.
_LOCAL = threading.local()


def _scratch() -> _dd.Scratch:
    S = getattr(_LOCAL, "scratch", None)
    if S is None:
        S = _LOCAL.scratch = _dd.new_scratch()
    return S


class TeamPoints(NamedTuple):
    """Both teams' double-dummy card points (0..252; to 258 at strict's tout-atout) of one
    contract kind."""

    team0: int
    team1: int


def parse_deal(hands: Any) -> list[int]:
    """The four 8-card hands of a deal as bitboards (Python ints).

    ``hands``: 4 lists of card texts, 4 strings of card texts (``"JH 9H AH …"``), or 4
    integer bitboards; the four hands hold the 32 cards between them.

    Raises
    ------
    InputError
        Not four hands, a hand without 8 cards, an unknown card, a card held twice.
    """
    if isinstance(hands, np.ndarray) and np.issubdtype(hands.dtype, np.integer):
        if hands.shape != (4,):
            raise InputError(f"hands: expected 4 bitboards, got an array of shape "
                             f"{hands.shape}")
        return [int(x) for x in _deal_rows(hands.reshape(1, 4))[0]]
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise InputError("hands: expected 4 lists of cards or 4 bitboards, got "
                         f"{type(hands).__name__}")
    items = list(hands)
    if len(items) == 4 and all(isinstance(h, (int, np.integer)) and not isinstance(h, bool)
                               for h in items):
        return [int(x) for x in _deal_rows(np.array([[int(h) for h in items]],
                                                    dtype=np.int64))[0]]
    lists = [h.replace(",", " ").split() if isinstance(h, str) else
             (list(h) if isinstance(h, Sequence) else h) for h in items]
    return [to_mask(cards) for cards in parse_hands(lists)]


def _dd_total(kind: int, prof: Profile) -> int:
    """Both teams' DD points together when neither takes every trick: the kind's card
    points plus the last trick (the kernels' :func:`~simcoinche._kernels.play.points_total`;
    the readable reference computes its own, as an oracle must)."""
    return int(points_total(kind, prof.packed))


def _team1_from_team0(S: _dd.Scratch, hands: Sequence[int], leader: int,
                      trick: Sequence[int], kind: int, prof: Profile, c0: int,
                      team0_won_a_trick: bool) -> int:
    """Team 1's final card points from team 0's final ``c0`` at a position, where a
    capot is the most a team can take (every kind but strict's tout-atout; the module
    docstring's rule: 0 on team 0's capot, 252 when team 1 can take every trick left and
    team 0 has none, else the kind's total minus ``c0``). Loads the position into ``S``
    when team 1's capot must be checked."""
    total = _dd_total(kind, prof)
    if c0 == DD_CAPOT:
        return 0
    if c0 != 0 or team0_won_a_trick:
        return total - c0
    if not any(hands):
        return DD_CAPOT  # every trick played, none to team 0
    _dd.begin_solve(S, np.array(hands, dtype=np.int64), kind, prof.packed)
    tr = np.zeros(4, dtype=np.int64)
    tr[:len(trick)] = trick
    swept = _dd.sweep_possible(S, kind, prof.packed, leader, tr, len(trick), 1, 0)
    return DD_CAPOT if swept else total


def table(hands: Any, dealer: int, profile: Profile | str | None = "federal",
          threads: int | None = None, progress: bool | None = False
          ) -> dict[str, TeamPoints]:
    """Both teams' double-dummy card points for every contract kind of the profile.

    Parameters
    ----------
    hands
        The deal: 4 lists of card texts (or strings ``"JH 9H …"``) or 4 bitboards, by seat.
    dealer : int
        Dealer seat 0..3; seat ``dealer + 1`` leads the first trick.
    profile : profile name or :class:`~simcoinche.rules.profiles.Profile`
        Card rules and contract kinds (default ``federal``: ``S H D C``; ``classic`` adds
        ``SA TA``).
    threads : int, optional
        Worker threads (default all cores); the values do not depend on it.
    progress : bool, optional
        A progress bar on stderr (None: when stderr is a terminal).

    Returns
    -------
    dict
        ``{"S": TeamPoints(team0, team1), "H": …, …}`` in the profile's kind order: the
        card points each team reaches under perfect play from the opening lead (252 to a
        team that wins every trick, then 0 to the other; otherwise they add up to the
        kind's card points plus the last trick: 162, or 130 at a sans-atout of 120 card
        points, 258 at strict's tout-atout).
        ``TeamPoints`` is a named tuple, so ``table(...)["H"][0]`` is team 0's value and
        ``json.dumps`` writes ``[team0, team1]``.
    """
    prof = get_profile(profile)
    masks = parse_deal(hands)
    dealer = _seat(dealer, "dealer")
    threads = check_threads(threads)
    progress = check_optional_flag(progress, "progress")
    kinds = list(prof.contract_kinds)
    c0 = np.zeros(len(kinds), dtype=np.int64)
    with progress_bar(len(kinds), progress, "kinds", desc="double-dummy table",
                      leave=False) as bar:
        for start in range(0, len(kinds), threads):
            part = kinds[start:start + threads]
            rows = np.array([masks] * len(part), dtype=np.uint32)
            c0[start:start + len(part)] = solve_many(rows, dealer, part, prof, threads)
            bar.update(len(part))
    S = _scratch()
    leader = (dealer + 1) & 3
    out = {}
    for k, v in zip(kinds, c0, strict=True):
        if _dd_total(k, prof) <= DD_CAPOT:
            c1 = _team1_from_team0(S, masks, leader, (), k, prof, int(v), False)
        else:
            # Strict's tout-atout: 258 points are shared without a capot, more than a
            # capot's 252, so team 1's points are its own solve (the seats turned by one).
            turned = np.array([masks[1:] + masks[:1]], dtype=np.uint32)
            c1 = int(solve_many(turned, (dealer - 1) & 3, [k], prof, 1)[0])
        out[CONTRACT_KIND_NAMES[k]] = TeamPoints(int(v), c1)
    return out


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= int(value) <= 3:
        raise InputError(f"{what}: expected a seat 0..3, got {value!r}")
    return int(value)


def generale(hands: Any, dealer: int, kind: Any, seat: int,
             profile: Profile | str | None = "federal") -> bool:
    """Whether ``seat`` alone can force winning all eight tricks (a générale) under
    double-dummy play, from the opening lead of seat ``dealer + 1``.

    RULES.md: "A générale under double-dummy play is a separate yes/no question: can the
    bidder alone win all eight tricks." The profile's card rules apply (the question is
    asked for any profile, though only ``classic`` and ``strict`` have the bid); the
    seat's partner helps, the other team tries to take a trick.
    """
    prof = get_profile(profile)
    masks = parse_deal(hands)
    dealer = _seat(dealer, "dealer")
    seat = _seat(seat, "seat")
    k = parse_kind(kind, prof)
    S = _scratch()
    _dd.begin_solve(S, np.array(masks, dtype=np.int64), k, prof.packed)
    trick = np.zeros(4, dtype=np.int64)
    return bool(_dd.sweep_possible(S, k, prof.packed, (dealer + 1) & 3, trick, 0, seat, 1))


def generales(hands: Any, dealer: int, profile: Profile | str | None = "federal"
              ) -> dict[str, list[int]]:
    """For every contract kind of the profile, the seats that can make a générale
    (:func:`generale`), ascending: ``{"S": [], "H": [0], …}``."""
    prof = get_profile(profile)
    masks = parse_deal(hands)
    return {CONTRACT_KIND_NAMES[k]: [s for s in range(4)
                                     if generale(masks, dealer, k, s, prof)]
            for k in prof.contract_kinds}


@dataclass
class _Position:
    """A position of the card play: what each seat still holds, the trick in progress."""

    hands: list[int]
    leader: int
    trick: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])  # completed tricks' points
    tricks: list[int] = field(default_factory=lambda: [0, 0])  # completed tricks won

    @property
    def seat(self) -> int:
        return (self.leader + len(self.trick)) & 3

    def turned(self) -> _Position:
        """The same position with the seats turned by one (seat ``s`` becomes ``s - 1``):
        team 1 becomes team 0 and the play is unchanged."""
        return _Position(self.hands[1:] + self.hands[:1], (self.leader - 1) & 3,
                         list(self.trick), self.points[::-1], self.tricks[::-1])

    def play(self, card: int, kind: int, prof: Profile) -> None:
        """Play ``card`` (legal) for the seat to play; close the trick after 4 cards."""
        self.hands[self.seat] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == 4:
            # "The winner leads the next trick."
            winner = (self.leader + ref.trick_winner(self.trick, kind, prof)) & 3
            self.points[winner & 1] += sum(ref.card_points(c, kind, prof) for c in self.trick)
            self.tricks[winner & 1] += 1
            self.leader = winner
            self.trick = []


def _values_here(S: _dd.Scratch, pos: _Position, kind: int, prof: Profile) -> dict[int, int]:
    """The DD value of each legal card of the seat to play: the card points its team ends
    the donne with (completed tricks included) when it plays that card and both sides
    then play perfectly."""
    if pos.seat & 1 and _dd_total(kind, prof) > DD_CAPOT:
        # Strict's tout-atout (258 shared without a capot, a capot 252): team 1's points
        # do not follow from team 0's, so team 1's values are its own, seats turned.
        return _values_here(S, pos.turned(), kind, prof)
    packed = prof.packed
    _dd.begin_solve(S, np.array(pos.hands, dtype=np.int64), kind, packed)
    tr = np.zeros(4, dtype=np.int64)
    n = len(pos.trick)
    tr[:n] = pos.trick
    cards = np.zeros(8, dtype=np.int64)
    values = np.zeros(8, dtype=np.int64)
    capot_open = int(pos.tricks[1] == 0)  # team 0 has won every completed trick
    k = _dd.root_values(S, kind, packed, pos.leader, tr, n, capot_open, cards, values)
    team = pos.seat & 1
    out = {}
    for j in range(k):
        card = int(cards[j])
        c0 = pos.points[0] + int(values[j])
        if team == 0:
            out[card] = c0
            continue
        child = _Position(list(pos.hands), pos.leader, list(pos.trick), list(pos.points),
                          list(pos.tricks))
        child.play(card, kind, prof)
        out[card] = _team1_from_team0(S, child.hands, child.leader, child.trick, kind, prof,
                                      c0, child.tricks[0] > 0)
    return out


def _parse_played(played: Any) -> list[int]:
    if isinstance(played, str):
        played = played.replace(",", " ").split()
    if not isinstance(played, (Sequence, np.ndarray)):
        raise InputError(f"played: expected a list of cards, got {type(played).__name__}")
    out = []
    for i, c in enumerate(played):
        if isinstance(c, (int, np.integer)) and not isinstance(c, bool):
            if not 0 <= int(c) < N_CARDS:
                raise InputError(f"played[{i}]: card index {int(c)} out of range 0..31")
            out.append(int(c))
        else:
            try:
                out.append(parse_card(c))
            except InputError as exc:
                raise InputError(f"played[{i}]: {exc}") from None
    if len(out) > N_CARDS:
        raise InputError(f"played: {len(out)} cards, at most {N_CARDS}")
    return out


def _walk(masks: list[int], dealer: int, kind: int, played: list[int], prof: Profile):
    """Yield ``(i, position)`` before each played card (after checking it is legal), and
    finally ``(len(played), position)``. Raises InputError on an illegal card."""
    pos = _Position(list(masks), (dealer + 1) & 3)  # "D+1 ... leads the first trick"
    for i, card in enumerate(played):
        yield i, pos
        hand = from_mask(pos.hands[pos.seat])
        reason = ref.illegal_card_reason(card, hand, pos.trick, kind, prof)
        if reason is not None:
            raise InputError(f"played[{i}]: {format_card(card)} by seat {pos.seat}: {reason}")
        pos.play(card, kind, prof)
    yield len(played), pos


def card_values(hands: Any, dealer: int, kind: Any, played: Any = (),
                profile: Profile | str | None = "federal") -> dict[str, int]:
    """The double-dummy value of each legal card of the seat to play after ``played``.

    Parameters
    ----------
    hands
        The deal as dealt (8 cards a seat): 4 lists of card texts or 4 bitboards.
    dealer : int
        Dealer seat; seat ``dealer + 1`` leads the first trick.
    kind : int or str
        Contract kind (``0..5`` or ``"S" "H" "D" "C" "SA" "TA"``).
    played : sequence of card texts or indices
        The cards played so far, in order from the opening lead (each must be legal).
    profile : profile name or :class:`~simcoinche.rules.profiles.Profile`

    Returns
    -------
    dict
        ``{card text: value}`` for every legal card of the seat to play, ascending card
        index: the card points *the player's team* ends the donne with (tricks already
        won included, 252 for winning every trick) when it plays that card and both sides
        then play perfectly. Before the first card the best value is :func:`table`'s.
        Empty when all 32 cards were played.

    Raises
    ------
    InputError
        Bad hands, seat, kind or card; a played card that is not legal (named, with the
        reason).
    """
    prof = get_profile(profile)
    masks = parse_deal(hands)
    dealer = _seat(dealer, "dealer")
    k = parse_kind(kind, prof)
    cards = _parse_played(played)
    _, pos = deque(_walk(masks, dealer, k, cards, prof), maxlen=1)[0]  # after the last card
    if len(cards) == N_CARDS:
        return {}
    return {format_card(c): v for c, v in _values_here(_scratch(), pos, k, prof).items()}


@dataclass(frozen=True)
class PlayedCard:
    """The double-dummy analysis of one card played (values for the player's team)."""

    index: int  #: position in the play, 0..31
    seat: int  #: who played it
    card: int  #: the card played (index)
    value: int  #: the team's final card points after this card, then perfect play
    best: tuple[int, ...]  #: the card(s) with the best value, ascending
    best_value: int  #: their value

    @property
    def cost(self) -> int:
        """Card points this card cost the player's team (0 for a best card)."""
        return self.best_value - self.value

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "card": format_card(self.card),
                "value": self.value, "best": [format_card(c) for c in self.best],
                "best_value": self.best_value, "cost": self.cost}


def play_analysis(hands: Any, dealer: int, kind: Any, played: Any,
                  profile: Profile | str | None = "federal",
                  progress: bool | None = False) -> list[PlayedCard]:
    """The double-dummy analysis of every card played (arguments as :func:`card_values`).

    For card ``i``: the value (card points of the player's team at the end of the donne
    when it plays this card and both sides then play perfectly), the best card(s) and
    their value, and so the cost of the card in card points.
    """
    prof = get_profile(profile)
    masks = parse_deal(hands)
    dealer = _seat(dealer, "dealer")
    k = parse_kind(kind, prof)
    cards = _parse_played(played)
    S = _scratch()
    out = []
    with progress_bar(len(cards), progress, "cards", desc="double-dummy play",
                      leave=False) as bar:
        for i, pos in _walk(masks, dealer, k, cards, prof):
            if i == len(cards):
                break
            values = _values_here(S, pos, k, prof)
            card = cards[i]
            if card not in values:
                # Not legal: let _walk name the reason.
                continue
            best_value = max(values.values())
            out.append(PlayedCard(i, pos.seat, card, values[card],
                                  tuple(c for c, v in values.items() if v == best_value),
                                  best_value))
            bar.update(1)
    return out


@dataclass
class RecordAnalysis:
    """What ``simcoinche dd`` reports on one donne record (see :func:`analyse_record`)."""

    profile: Profile
    dealer: int
    table: dict[str, TeamPoints]
    generales: dict[str, list[int]] | None  # profiles with a générale only
    contract: dict[str, Any] | None  # as ``simcoinche score``'s contract object
    play: list[PlayedCard]
    error: dict[str, Any] | None  # as ``simcoinche score``'s error object

    @property
    def status(self) -> int:
        """0 when every action is legal, 1 when one is not."""
        return 0 if self.error is None else 1

    def total_cost(self) -> tuple[int, int]:
        """Card points each team's cards cost it in total (sum of the per-card costs)."""
        cost = [0, 0]
        for p in self.play:
            cost[p.seat & 1] += p.cost
        return cost[0], cost[1]

    def as_json(self) -> dict[str, Any]:
        """``{"table", "contract", "play", "error"}`` (+ ``"generale"`` for the profiles
        that have one: the seats that can take all eight tricks alone, per kind)."""
        out: dict[str, Any] = {"table": {k: list(v) for k, v in self.table.items()}}
        if self.generales is not None:
            out["generale"] = self.generales
        out["contract"] = self.contract
        out["play"] = [p.as_json() for p in self.play]
        out["error"] = self.error
        return out


def analyse_record(record: dict, threads: int | None = None,
                   progress: bool | None = False) -> RecordAnalysis:
    """The double-dummy analysis of one donne record (the input of ``simcoinche score``:
    ``profile``, ``dealer``, ``hands``, ``auction``, ``play``, ``declare``; here
    ``auction`` and ``play`` may be left out).

    The table of every contract kind (and the générales where the profile has the bid);
    when the auction fixed a contract, the analysis of every card played (up to the first
    illegal one, which is reported as ``error`` exactly as ``simcoinche score`` does).

    Raises
    ------
    InputError
        Malformed record (the same checks and messages as ``simcoinche score``).
    """
    if not isinstance(record, dict):
        raise InputError(f"the donne must be a JSON object, not {type(record).__name__}")
    record = {"auction": [], "play": [], **record}
    r = validate_record(record)
    prof = r["profile"]
    rep = ref.replay_donne(r["hands"], r["dealer"], r["codes"], r["play"], r["declare"], prof)
    error = error_object(rep, r)
    contract = contract_object(rep, prof)
    masks = [to_mask(h) for h in r["hands"]]
    tab = table(masks, r["dealer"], prof, threads=threads, progress=progress)
    gen = generales(masks, r["dealer"], prof) if prof.generale_value else None
    play: list[PlayedCard] = []
    if contract is not None:
        legal = r["play"]
        if error is not None and error["phase"] == "play":
            legal = legal[:error["index"]]
        play = play_analysis(masks, r["dealer"], rep.auction.kind, legal, prof,
                             progress=progress)
    return RecordAnalysis(prof, r["dealer"], tab, gen, contract, play, error)
