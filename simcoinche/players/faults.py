"""Replaced decisions: the kernels' fault words turned into one error (issue 20).

A player kernel must answer a legal call and a legal card. When one does not, the kernel
finishes the donne safely (a pass, the lowest legal card) and records it in the row's
fault word (``F_*`` of :mod:`simcoinche._kernels.layout`: ``F_CARD << seat`` for a
replaced card, ``F_CALL << seat`` for a replaced call, plus ``F_ONE`` per decision
replaced). Every facade hands the words of its rows to :func:`check_faults`,
which raises :class:`~simcoinche.rules.errors.IllegalDecisionError` on the first
non-zero one, naming the player kind, the profile and the row::

    check_faults(faults, codes, "federal", lambda j: f"donne {start + j}")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from simcoinche._kernels.layout import F_CALL, F_CARD, F_ONE
from simcoinche.players.registry import PLAYERS, PlayerKind
from simcoinche.rules.errors import IllegalDecisionError
from simcoinche.rules.profiles import PROFILES, Profile


def kind_name(code: int | str | PlayerKind) -> str:
    """Registry name of the player kind of kernel code ``code`` (``"code N"`` if none);
    a name (or player spec) or a :class:`PlayerKind` is given back as its name."""
    if isinstance(code, str):
        return code
    if isinstance(code, PlayerKind):
        return code.name
    for kind in PLAYERS.values():
        if kind.code == int(code):
            return kind.name
    return f"code {int(code)}"


def profile_name(profile: str | Profile | np.ndarray) -> str:
    """Name of a profile given by name, :class:`Profile` or packed array (``"custom"``
    for a packed array matching no named profile)."""
    if isinstance(profile, str):
        return profile
    if isinstance(profile, Profile):
        return profile.name
    packed = np.asarray(profile)
    for p in PROFILES.values():
        if np.array_equal(p.packed, packed):
            return p.name
    return "custom"


def fault_text(word: int, codes: Sequence[int | str | PlayerKind],
               profile: str | Profile | np.ndarray, where: str) -> str:
    """One line for the fault word ``word`` (non-zero) of the row ``where`` (``"donne
    17"``) played by the players ``codes`` (team 0, team 1: kernel codes, kind names or
    player specs) under ``profile``."""
    word = int(word)
    calls = (word // F_CALL) & 0xF
    cards = (word // F_CARD) & 0xF
    # The auction comes before the play: a replaced call is the first fault of its row.
    what, seats = ("call", calls) if calls else ("card", cards)
    seat = (seats & -seats).bit_length() - 1
    team = seat & 1
    decision = "an illegal call" if what == "call" else "an illegal card (or none)"
    return (f"player {kind_name(codes[team])} (team {team}, seat {seat}) made {decision} "
            f"in {where} under profile {profile_name(profile)}")


def check_faults(faults: np.ndarray, codes: Sequence[int | str | PlayerKind],
                 profile: str | Profile | np.ndarray, where: Callable[[int], str]) -> None:
    """Raise when a row's decisions were replaced.

    Parameters
    ----------
    faults : int array
        Fault words of the rows (``F_*``; 0: every decision legal), any shape.
    codes : pair of int, str or PlayerKind
        The players of team 0 and team 1 for these rows: kind names or player specs
        (named as given; what a worker process without the caller's registry needs),
        or kernel codes (named from the registry).
    profile : str, Profile or packed profile array
        The rules the rows were played under (named in the message).
    where : callable
        ``where(i)`` names row ``i`` (flat index into ``faults``), e.g. ``"donne 17"``.

    Raises
    ------
    IllegalDecisionError
        When any word is non-zero: one line naming the first such row's player kind,
        seat, profile and row, and the count of decisions replaced.
    """
    flat = np.ravel(faults)
    if not flat.any():
        return
    bad = np.flatnonzero(flat)
    first = int(bad[0])
    replaced = int((flat[bad].astype(np.int64) // F_ONE).sum())
    raise IllegalDecisionError(
        fault_text(int(flat[first]), codes, profile, where(first))
        + f"; the kernel replaced it ({replaced} decision{'s' if replaced != 1 else ''} "
        f"replaced in {bad.size} row{'s' if bad.size != 1 else ''}): the run is refused")
