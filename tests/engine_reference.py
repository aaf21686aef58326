"""Adapter exposing the reference engine through the rule-test interface.

The methods are exactly those of docs/ARCHITECTURE.md "Rule tests run on both engines";
``tests/engine_kernels.py`` exposes the same ones over the numba kernels. The profile is
``federal`` unless given to the constructor (``ReferenceEngine("classic")``) or to a
method (``profile=``).
"""

from __future__ import annotations

from collections.abc import Sequence

from simcoinche.rules import reference as ref
from simcoinche.rules.profiles import Profile, get_profile

_STATUS = {ref.RUNNING: "running", ref.CONTRACT: "contract", ref.PASSED_OUT: "passed_out"}

ProfileArg = str | Profile | None


class ReferenceEngine:
    """The pure-Python oracle (:mod:`simcoinche.rules.reference`)."""

    name = "reference"

    def __init__(self, profile: ProfileArg = None) -> None:
        self.profile = get_profile(profile)

    def _p(self, profile: ProfileArg) -> Profile:
        return self.profile if profile is None else get_profile(profile)

    def legal_cards(self, hand: list[int], trick: list[int], trump: int,
                    profile: ProfileArg = None) -> set[int]:
        return ref.legal_cards(hand, trick, trump, self._p(profile))

    def trick_winner(self, trick: list[int], trump: int, profile: ProfileArg = None) -> int:
        return ref.trick_winner(trick, trump, self._p(profile))

    def card_points(self, card: int, trump: int, profile: ProfileArg = None) -> int:
        return ref.card_points(card, trump, self._p(profile))

    def declaration(self, hand: list[int], trump: int,
                    profile: ProfileArg = None) -> list[tuple[int, int, int, int, int]]:
        return [a.as_row() for a in ref.declaration(hand, trump, self._p(profile))]

    def team_announcements(self, hands: list[list[int]], trump: int,
                           declare: Sequence[bool] = (True,) * 4,
                           profile: ProfileArg = None) -> tuple[int, int]:
        return ref.team_announcements(hands, trump, declare, self._p(profile)).points

    def belote(self, hands: list[list[int]], trump: int,
               profile: ProfileArg = None) -> tuple[int, int]:
        return ref.belote(hands, trump, self._p(profile))

    def auction(self, dealer: int, actions: list[int], profile: ProfileArg = None) -> dict:
        auc = ref.Auction(dealer, self._p(profile))
        index = reason = None
        for i, code in enumerate(actions):
            try:
                auc.apply(code)
            except ref.IllegalAction as exc:
                index, reason = i, exc.code
                break
        status = "illegal" if index is not None else _STATUS[auc.status]
        has_bid = auc.level >= 0
        return {
            "status": status,
            "index": index,
            "reason": reason,
            "to_speak": auc.to_speak if status in ("running", "illegal") else None,
            "taker": auc.bidder if has_bid else None,
            "level": auc.level if has_bid else None,
            "kind": auc.kind if has_bid else None,
            "coinche": auc.coinche if has_bid else None,
        }

    def score(self, taker_team: int, level: int, kind: int, coinche: int,
              card_points: tuple[int, int], tricks_won: tuple[int, int],
              ann_points: tuple[int, int], belote: tuple[int, int],
              profile: ProfileArg = None, taker_tricks: int | None = None,
              ) -> tuple[bool, tuple[int, int], tuple[int, int]]:
        s = ref.score_donne(taker_team, level, kind, coinche, card_points, tricks_won,
                            ann_points, belote, self._p(profile), taker_tricks)
        return s.made, s.marks, s.announcements

    def score_full(self, taker_team: int, level: int, kind: int, coinche: int,
                   card_points: tuple[int, int], tricks_won: tuple[int, int],
                   ann_points: tuple[int, int], belote: tuple[int, int],
                   profile: ProfileArg = None, taker_tricks: int | None = None) -> dict:
        """Every output of the scoring: made, marks, announcements, totals, litige."""
        s = ref.score_donne(taker_team, level, kind, coinche, card_points, tricks_won,
                            ann_points, belote, self._p(profile), taker_tricks)
        return {"made": s.made, "marks": s.marks, "announcements": s.announcements,
                "totals": s.totals, "litige": s.litige}

    def partie_step(self, totals: Sequence[int], pending: Sequence[bool],
                    marks: Sequence[int], tricks_won: Sequence[int], taker_team: int,
                    made: bool, profile: ProfileArg = None
                    ) -> tuple[int, tuple[int, int], tuple[bool, bool]]:
        return ref.partie_step(totals, pending, marks, tricks_won, taker_team, made,
                               self._p(profile))

    def annulment_allowed(self, hand: list[int], profile: ProfileArg = None) -> bool:
        return ref.annulment_allowed(hand, self._p(profile))

    def auction_hands(self, deck: list[int], cut: int, dealer: int,
                      profile: ProfileArg = None) -> list[set[int]]:
        """The cards each seat holds during the auction."""
        return ref.deal(deck, cut, dealer, self._p(profile))[1]
