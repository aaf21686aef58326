"""Rule-test adapter over the numba kernels (ARCHITECTURE.md "Rule tests run on both engines").

Converts the plain-Python arguments of the rule tests (lists of card indices, tuples) to
the arrays the kernels take, and the kernels' outputs back to plain Python.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simcoinche._kernels import announce, annul, auction, play, scoring
from simcoinche.rules.cards import from_mask, to_mask
from simcoinche.rules.profiles import Profile, get_profile

_STATUS = {0: "running", 1: "contract", 2: "passed_out"}


class KernelEngine:
    """The kernels behind the common engine interface of the rule tests."""

    name = "kernels"

    def __init__(self, profile: str | Profile | None = None) -> None:
        self.profile = get_profile(profile)

    def _prof(self, profile: str | Profile | None) -> np.ndarray:
        return (self.profile if profile is None else get_profile(profile)).packed

    @staticmethod
    def _trick(trick: Sequence[int]) -> np.ndarray:
        t = np.zeros(4, dtype=np.int64)
        t[: len(trick)] = trick
        return t

    @staticmethod
    def _hands(hands: Sequence[Sequence[int]]) -> np.ndarray:
        return np.array([to_mask(h) for h in hands], dtype=np.uint32)

    def legal_cards(self, hand: list[int], trick: list[int], trump: int,
                    profile: str | Profile | None = None) -> set[int]:
        """Cards of ``hand`` the player may add to ``trick``."""
        mask = play.legal_mask(np.uint32(to_mask(hand)), self._trick(trick), len(trick),
                               trump, self._prof(profile))
        return set(from_mask(int(mask)))

    def trick_winner(self, trick: list[int], trump: int,
                     profile: str | Profile | None = None) -> int:
        """Position (from the leader) of the card winning ``trick``."""
        return int(play.trick_winner(self._trick(trick), len(trick), trump,
                                     self._prof(profile)))

    def card_points(self, card: int, trump: int,
                    profile: str | Profile | None = None) -> int:
        """Points of ``card`` under contract kind ``trump``."""
        return int(play.card_points(card, trump, self._prof(profile)))

    def declaration(self, hand: list[int], trump: int,
                    profile: str | Profile | None = None
                    ) -> list[tuple[int, int, int, int, int]]:
        """Rows ``(kind, rank, suit, length, points)`` of the seat's declaration."""
        out = np.zeros((announce.MAX_DECL, 5), dtype=np.int32)
        n = announce.best_declaration(np.uint32(to_mask(hand)), trump, self._prof(profile),
                                      out)
        return [tuple(int(x) for x in row) for row in out[:n]]

    def team_announcements(self, hands: list[list[int]], trump: int,
                           declare: Sequence[bool] = (True,) * 4,
                           profile: str | Profile | None = None) -> tuple[int, int]:
        """Ordinary announcement points per team after the comparison."""
        out = np.zeros(2, dtype=np.int32)
        announce.team_announcements(self._hands(hands), trump,
                                    np.array([bool(x) for x in declare], dtype=np.uint8),
                                    self._prof(profile), out)
        return int(out[0]), int(out[1])

    def belote(self, hands: list[list[int]], trump: int,
               profile: str | Profile | None = None) -> tuple[int, int]:
        """Belote points per team."""
        out = np.zeros(2, dtype=np.int32)
        announce.belote_points(self._hands(hands), trump, self._prof(profile), out)
        return int(out[0]), int(out[1])

    def auction(self, dealer: int, actions: list[int],
                profile: str | Profile | None = None) -> dict:
        """Run ``actions`` from ``dealer``; stop at the first illegal one."""
        prof = self._prof(profile)
        state = np.zeros(auction.AUCTION_STATE_LEN, dtype=np.int32)
        auction.auction_start(state, dealer)
        index = None
        reason = None
        for i, a in enumerate(actions):
            r = int(auction.auction_apply(state, a, prof))
            if r != auction.R_OK:
                index, reason = i, r
                break
        status = "illegal" if reason is not None else _STATUS[int(state[auction.A_STATUS])]
        has_bid = state[auction.A_LEVEL] >= 0
        return {
            "status": status,
            "index": index,
            "reason": reason,
            "to_speak": int(state[auction.A_TO_SPEAK]) if status in ("running", "illegal")
            else None,
            "taker": int(state[auction.A_BIDDER]) if has_bid else None,
            "level": int(state[auction.A_LEVEL]) if has_bid else None,
            "kind": int(state[auction.A_KIND]) if has_bid else None,
            "coinche": int(state[auction.A_COINCHE]) if has_bid else None,
        }

    def score(self, taker_team: int, level: int, kind: int, coinche: int,
              card_points: tuple[int, int], tricks_won: tuple[int, int],
              ann_points: tuple[int, int], belote: tuple[int, int],
              profile: str | Profile | None = None, taker_tricks: int | None = None,
              ) -> tuple[bool, tuple[int, int], tuple[int, int]]:
        """``(made, marks, announcements after the capot transfer)`` of one donne."""
        r = self.score_full(taker_team, level, kind, coinche, card_points, tricks_won,
                            ann_points, belote, profile, taker_tricks)
        return r["made"], r["marks"], r["announcements"]

    def score_full(self, taker_team: int, level: int, kind: int, coinche: int,
                   card_points: tuple[int, int], tricks_won: tuple[int, int],
                   ann_points: tuple[int, int], belote: tuple[int, int],
                   profile: str | Profile | None = None, taker_tricks: int | None = None,
                   ) -> dict:
        """Every output of the scoring: made, marks, announcements, totals, litige."""
        out = np.zeros(scoring.SCORE_LEN, dtype=np.int32)
        args = (taker_team, level, kind, coinche,
                np.array(card_points, dtype=np.int32), np.array(tricks_won, dtype=np.int32),
                np.array(ann_points, dtype=np.int32), np.array(belote, dtype=np.int32),
                self._prof(profile), out)
        if taker_tricks is None:
            # the call the federal simulation makes (trailing argument omitted)
            made = scoring.score_donne(*args)
        else:
            made = scoring.score_donne(*args, taker_tricks)
        return {"made": bool(made),
                "marks": (int(out[scoring.S_MARK0]), int(out[scoring.S_MARK1])),
                "announcements": (int(out[scoring.S_ANN0]), int(out[scoring.S_ANN1])),
                "totals": (int(out[scoring.S_TOTAL0]), int(out[scoring.S_TOTAL1])),
                "litige": bool(out[scoring.S_LITIGE])}

    def partie_step(self, totals: Sequence[int], pending: Sequence[bool],
                    marks: Sequence[int], tricks_won: Sequence[int], taker_team: int,
                    made: bool, profile: str | Profile | None = None
                    ) -> tuple[int, tuple[int, int], tuple[bool, bool]]:
        """``(winner or -1, new totals, new pending flags)`` after one donne."""
        tot = np.array(totals, dtype=np.int32)
        pend = np.array([int(bool(p)) for p in pending], dtype=np.int32)
        winner = scoring.partie_step(tot, pend, np.array(marks, dtype=np.int32),
                                     np.array(tricks_won, dtype=np.int32), taker_team,
                                     bool(made), self._prof(profile))
        return (int(winner), (int(tot[0]), int(tot[1])), (bool(pend[0]), bool(pend[1])))

    def annulment_allowed(self, hand: list[int], profile: str | Profile | None = None
                          ) -> bool:
        """Whether the holder of ``hand`` may annul the deal (classic)."""
        return bool(annul.annulment_allowed(np.uint32(to_mask(hand)), self._prof(profile)))

    def auction_hands(self, deck: list[int], cut: int, dealer: int,
                      profile: str | Profile | None = None) -> list[set[int]]:
        """The cards each seat holds during the auction."""
        out = np.zeros(4, dtype=np.uint32)
        annul.auction_hands(np.array(deck, dtype=np.int8), cut, dealer, self._prof(profile),
                            out)
        return [set(from_mask(int(m))) for m in out]
