"""Reference double-dummy values: a plain exhaustive minimax, written for a reader.

This is the oracle the double-dummy kernel (:mod:`simcoinche._kernels.dd`) is tested
against on small endings. It tries every legal card of every seat, with no pruning and
no table (the yes/no sweep question stops at the first card that settles it), using
the reference engine's own rules (:func:`~simcoinche.rules.reference.legal_cards`,
:func:`~simcoinche.rules.reference.trick_winner`, :func:`~simcoinche.rules.reference.card_points`).

RULES.md, "Rulings on points the sources leave open": the double-dummy value is the card
points a team reaches when all four hands are visible and both sides play perfectly;
252 to a team that wins every trick. Here team 0 (seats 0 and 2) maximises its card
points and team 1 minimises them.

A *position* is the cards each seat still holds, the trick in progress (cards from its
leader) and its leader, and whether team 0 has won every completed trick so far (then
its capot is still possible). Values are *future* points: what team 0 collects from the
cards not yet gathered (the trick in progress included).
"""

from __future__ import annotations

from collections.abc import Sequence

from simcoinche.rules.profiles import get_profile
from simcoinche.rules.reference import ProfileLike, card_points, legal_cards, trick_winner

# RULES.md, "Rulings on points the sources leave open": "252 to a team that wins every
# trick", in every profile and contract kind.
DD_CAPOT = 252


def dd_total(trump: int, profile: ProfileLike = None) -> int:
    """Both teams' double-dummy points together when neither wins every trick: the 32
    cards' points under contract kind ``trump`` plus the last trick (162 at 152 card
    points; 130 at stephanoise's and strict's sans-atout, 258 at strict's tout-atout)."""
    return (sum(card_points(c, trump, profile) for c in range(32))
            + get_profile(profile).last_trick_bonus)


def last_trick_bonus(trump: int, profile: ProfileLike = None, capot: bool = False) -> int:
    """What the last trick adds to its team's card points: 10 ("dix de der"), or, when
    the same team won every trick, what brings its points to 252 (100 at 152 card
    points)."""
    prof = get_profile(profile)
    if capot:
        return DD_CAPOT - (dd_total(trump, prof) - prof.last_trick_bonus)
    return prof.last_trick_bonus


def dd_value(hands: Sequence[set[int]], leader: int, trick: Sequence[int], trump: int,
             profile: ProfileLike = None, capot_open: bool = True) -> int:
    """Team 0's future card points under perfect play from a position.

    Parameters
    ----------
    hands : 4 sets of card indices
        The cards each seat still holds (not modified).
    leader : int
        Seat that led the trick in progress (or leads the next one when it is empty).
    trick : sequence of int
        Cards already in the trick in progress, from its leader (0 to 3 cards).
    trump : int
        Contract kind 0..5.
    profile : profile name or :class:`~simcoinche.rules.profiles.Profile`
        Rules (legal cards, points).
    capot_open : bool
        Whether team 0 has won every completed trick (its capot is still possible).
    """
    seat = (leader + len(trick)) % 4
    values = [value_after(hands, leader, trick, trump, card, profile, capot_open)
              for card in sorted(legal_cards(hands[seat], trick, trump, profile))]
    # Team 0 maximises its points, team 1 minimises them.
    return max(values) if seat % 2 == 0 else min(values)


def value_after(hands: Sequence[set[int]], leader: int, trick: Sequence[int], trump: int,
                card: int, profile: ProfileLike = None, capot_open: bool = True) -> int:
    """Team 0's future points when the seat to play plays ``card``, then perfect play."""
    seat = (leader + len(trick)) % 4
    after = [set(h) for h in hands]
    after[seat].remove(card)
    played = [*trick, card]
    if len(played) < 4:
        # The trick goes on: the next seat plays.
        return dd_value(after, leader, played, trump, profile, capot_open)
    # The trick is complete: it goes to the seat of its winning card.
    winner = (leader + trick_winner(played, trump, profile)) % 4
    points = sum(card_points(c, trump, profile) for c in played)
    team0_wins = winner % 2 == 0
    if not any(after):
        # Last trick: 10 for it, or 252 in all when the same team won every trick.
        if not team0_wins:
            return 0
        return points + last_trick_bonus(trump, profile, capot_open)
    gained = points if team0_wins else 0
    return gained + dd_value(after, winner, [], trump, profile, capot_open and team0_wins)


def card_values(hands: Sequence[set[int]], leader: int, trick: Sequence[int], trump: int,
                profile: ProfileLike = None, capot_open: bool = True) -> dict[int, int]:
    """Team 0's future points after each legal card of the seat to play."""
    seat = (leader + len(trick)) % 4
    return {card: value_after(hands, leader, trick, trump, card, profile, capot_open)
            for card in sorted(legal_cards(hands[seat], trick, trump, profile))}


def can_sweep(hands: Sequence[set[int]], leader: int, trick: Sequence[int], trump: int,
              target: int, by_seat: bool, profile: ProfileLike = None) -> bool:
    """Whether ``target``'s team (or, ``by_seat``, the seat ``target`` itself) can force
    winning every trick left, the one in progress included; the other team tries to
    stop it (the sweeper's partner helps it)."""
    seat = (leader + len(trick)) % 4
    outcomes = (_sweeps_after(hands, leader, trick, trump, card, target, by_seat, profile)
                for card in sorted(legal_cards(hands[seat], trick, trump, profile)))
    # The sweeper's side needs one card that works; the other side one that stops it
    # (``any`` and ``all`` stop at the first card that settles it).
    return any(outcomes) if seat % 2 == target % 2 else all(outcomes)


def _sweeps_after(hands: Sequence[set[int]], leader: int, trick: Sequence[int], trump: int,
                  card: int, target: int, by_seat: bool, profile: ProfileLike) -> bool:
    """:func:`can_sweep` once the seat to play plays ``card``."""
    seat = (leader + len(trick)) % 4
    after = [set(h) for h in hands]
    after[seat].remove(card)
    played = [*trick, card]
    if len(played) < 4:
        return can_sweep(after, leader, played, trump, target, by_seat, profile)
    winner = (leader + trick_winner(played, trump, profile)) % 4
    took = winner == target if by_seat else winner % 2 == target % 2
    if not took:
        return False
    if not any(after):
        return True
    return can_sweep(after, winner, [], trump, target, by_seat, profile)
