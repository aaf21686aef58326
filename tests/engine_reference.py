"""Adapter exposing the reference engine through the rule-test interface.

The methods are exactly those of docs/ARCHITECTURE.md "Rule tests run on both engines";
``tests/engine_kernels.py`` exposes the same ones over the numba kernels.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcoinche import reference as ref
from simcoinche.profiles import Profile, get_profile

_STATUS = {ref.RUNNING: "running", ref.CONTRACT: "contract", ref.PASSED_OUT: "passed_out"}


class ReferenceEngine:
    """The pure-Python oracle (:mod:`simcoinche.reference`)."""

    name = "reference"

    def legal_cards(self, hand: list[int], trick: list[int], trump: int,
                    profile: str | Profile = "federal") -> set[int]:
        return ref.legal_cards(hand, trick, trump, get_profile(profile))

    def trick_winner(self, trick: list[int], trump: int,
                     profile: str | Profile = "federal") -> int:
        return ref.trick_winner(trick, trump, get_profile(profile))

    def card_points(self, card: int, trump: int, profile: str | Profile = "federal") -> int:
        return ref.card_points(card, trump, get_profile(profile))

    def declaration(self, hand: list[int], trump: int,
                    profile: str | Profile = "federal") -> list[tuple[int, int, int, int, int]]:
        return [a.as_row() for a in ref.declaration(hand, trump, get_profile(profile))]

    def team_announcements(self, hands: list[list[int]], trump: int,
                           declare: Sequence[bool] = (True,) * 4,
                           profile: str | Profile = "federal") -> tuple[int, int]:
        return ref.team_announcements(hands, trump, declare, get_profile(profile)).points

    def belote(self, hands: list[list[int]], trump: int,
               profile: str | Profile = "federal") -> tuple[int, int]:
        return ref.belote(hands, trump, get_profile(profile))

    def auction(self, dealer: int, actions: list[int],
                profile: str | Profile = "federal") -> dict:
        auc = ref.Auction(dealer, get_profile(profile))
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
              profile: str | Profile = "federal"
              ) -> tuple[bool, tuple[int, int], tuple[int, int]]:
        s = ref.score_donne(taker_team, level, kind, coinche, card_points, tricks_won,
                            ann_points, belote, get_profile(profile))
        return s.made, s.marks, s.announcements

    def partie_step(self, totals: Sequence[int], pending: Sequence[bool],
                    marks: Sequence[int], tricks_won: Sequence[int], taker_team: int,
                    made: bool, profile: str | Profile = "federal"
                    ) -> tuple[int, tuple[int, int], tuple[bool, bool]]:
        return ref.partie_step(totals, pending, marks, tricks_won, taker_team, made,
                               get_profile(profile))
