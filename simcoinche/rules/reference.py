"""Reference engine: the rules of RULES.md in slow, plain Python.

This module is the *oracle* the numba kernels are tested against, so it is written for a
reader, not for speed: sets, lists and dataclasses, one small function per rule, each
quoting the RULES.md line it implements. It never imports :mod:`simcoinche._kernels`'
compiled code; its strength orders are spelled out below from RULES.md, and every rule
*value* (points, bid ladder, flags) is read from the :class:`~simcoinche.rules.profiles.Profile`
dataclass, so the other profiles' differences can be added field by field.

Conventions (docs/ARCHITECTURE.md): a card is an ``int`` 0..31 (``suit * 8 + rank``,
ranks ``7 8 9 T J Q K A`` = 0..7); ``trump`` is the contract kind (0..3 a suit, 4 SA,
5 TA); seats 0..3 in playing order, team of seat ``s`` is ``s & 1``; positions in a trick
count from its leader.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from simcoinche.rules import actions as act
from simcoinche.rules.cards import (
    JACK,
    KING,
    QUEEN,
    RANKS,
    SANS_ATOUT,
    SUIT_NAMES,
    TOUT_ATOUT,
    format_card,
    rank_of,
    suit_of,
)
from simcoinche.rules.profiles import Profile, get_profile

ProfileLike = Profile | str | None

# RULES.md "Orders and points": trump order (high→low) J 9 A T K Q 8 7,
# plain order (high→low) A T K Q J 9 8 7. Strength: higher number = stronger card.
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"
TRUMP_STRENGTH = {RANKS.index(r): 7 - i for i, r in enumerate(TRUMP_ORDER)}
PLAIN_STRENGTH = {RANKS.index(r): 7 - i for i, r in enumerate(PLAIN_ORDER)}


def _team(seat: int) -> int:
    """Team of a seat: seats {0, 2} are team 0, seats {1, 3} team 1."""
    return seat & 1


# ---------------------------------------------------------------------------------------
# The deal: rounds, the cards held at the auction, hand annulment
# ---------------------------------------------------------------------------------------


def deal(
    deck: Sequence[int], cut: int, dealer: int, profile: ProfileLike = None
) -> tuple[list[set[int]], list[set[int]]]:
    """Deal a shuffled ``deck`` after cutting at ``cut``; return (hands, auction hands).

    RULES.md "Deal 8 cards each in rounds of 3, 2, 3, starting with seat D+1" (rounds
    from the profile); the top card after the cut is ``deck[cut]``. stephanoise: "Deal 3
    then 3 to each player; the auction is held on those 6 cards; afterwards each player
    gets 2 more": the auction hand of a seat is the first ``auction_cards`` it receives.
    """
    prof = get_profile(profile)
    cut_deck = list(deck[cut:]) + list(deck[:cut])
    hands: list[list[int]] = [[], [], [], []]
    for n in prof.deal_rounds:
        for k in range(4):
            seat = (dealer + 1 + k) & 3
            for _ in range(n):
                hands[seat].append(cut_deck.pop(0))
    return ([set(h) for h in hands], [set(h[: prof.auction_cards]) for h in hands])


def annulment_allowed(hand: Iterable[int], profile: ProfileLike = None) -> bool:
    """Whether the holder of ``hand`` may annul the deal before the auction.

    classic: "a player with ≤ 10 points (plain values) and no jack may annul the deal
    before the auction (profile option, on by default)". Profiles without it: never.
    """
    prof = get_profile(profile)
    hand = set(hand)
    if prof.annul_max_points < 0:
        return False
    if any(rank_of(c) == JACK for c in hand):
        # "... and no jack"
        return False
    return sum(prof.plain_points[rank_of(c)] for c in hand) <= prof.annul_max_points


# ---------------------------------------------------------------------------------------
# Cards in play
# ---------------------------------------------------------------------------------------


def is_trump(card: int, trump: int) -> bool:
    """True when ``card`` is a trump: a card of the trump suit in a suit contract.

    At tout-atout every suit *uses the trump order*, but only the led suit can win a trick,
    so no card is "a trump" in the sense of cutting; see :func:`card_strength`.
    """
    return trump < 4 and suit_of(card) == trump


def card_strength(card: int, trump: int) -> int:
    """Strength of ``card`` inside its own suit (higher wins).

    RULES.md: trump order J 9 A T K Q 8 7 for trumps (every suit at TA), plain order
    A T K Q J 9 8 7 otherwise.
    """
    if is_trump(card, trump) or trump == TOUT_ATOUT:
        return TRUMP_STRENGTH[rank_of(card)]
    return PLAIN_STRENGTH[rank_of(card)]


def card_points(card: int, trump: int, profile: ProfileLike = None) -> int:
    """Points of one card under contract kind ``trump``.

    RULES.md: "trump points J 20, 9 14, A 11, T 10, K 4, Q 3" and "plain points A 11,
    T 10, K 4, Q 3, J 2"; SA and TA use their own tables. Values come from the profile.
    """
    prof = get_profile(profile)
    r = rank_of(card)
    if trump == SANS_ATOUT:
        return prof.sa_points[r]
    if trump == TOUT_ATOUT:
        return prof.ta_points[r]
    if suit_of(card) == trump:
        return prof.trump_points[r]
    return prof.plain_points[r]


def beats(a: int, b: int, trump: int) -> bool:
    """True when card ``a``, played after ``b``, takes the lead of the trick from ``b``.

    ``b`` is the card currently winning (so it is of the led suit or a trump).
    RULES.md: "A trick is won by the highest trump in it, else by the highest card of the
    led suit." An off-suit discard never wins.
    """
    if is_trump(a, trump) and not is_trump(b, trump):
        # a trump beats any non-trump
        return True
    if suit_of(a) != suit_of(b):
        # a discard (or a plain card against a trump) never wins
        return False
    # same suit: the stronger card wins
    return card_strength(a, trump) > card_strength(b, trump)


def trick_winner(trick: Sequence[int], trump: int, profile: ProfileLike = None) -> int:
    """Position (0 = the leader) of the card currently winning ``trick`` (at least 1 card)."""
    best = 0
    for pos in range(1, len(trick)):
        if beats(trick[pos], trick[best], trump):
            best = pos
    return best


# Kinds of play obligations (what the player at position n must do).
FREE = "free"
FOLLOW = "follow"
HIGHER_TRUMP = "higher_trump"
TRUMP = "trump"
OVERTRUMP = "overtrump"


def play_obligation(
    hand: Iterable[int], trick: Sequence[int], trump: int, profile: ProfileLike = None
) -> tuple[set[int], str]:
    """The cards the player at position ``len(trick)`` may play, and the obligation kind.

    Returns ``(legal, kind)`` where ``kind`` is one of ``FREE`` (any card of the hand),
    ``FOLLOW``, ``HIGHER_TRUMP`` (trump led, must go higher), ``TRUMP`` (void, must trump),
    ``OVERTRUMP`` (void, must beat the trump in the trick).
    """
    prof = get_profile(profile)
    hand = set(hand)
    if not trick:
        # the leader plays any card
        return hand, FREE
    led = suit_of(trick[0])
    followers = {c for c in hand if suit_of(c) == led}

    if trump == SANS_ATOUT:
        # SA: follow suit, void → any card
        return (followers, FOLLOW) if followers else (hand, FREE)
    if trump == TOUT_ATOUT:
        # TA: follow and go higher in the led suit if able, void → any card
        if not followers:
            return hand, FREE
        top = max(card_strength(c, trump) for c in trick if suit_of(c) == led)
        higher = {c for c in followers if card_strength(c, trump) > top}
        return (higher, HIGHER_TRUMP) if higher else (followers, FOLLOW)

    trumps = {c for c in hand if suit_of(c) == trump}
    trick_trumps = [c for c in trick if suit_of(c) == trump]
    top_trump = max((card_strength(c, trump) for c in trick_trumps), default=-1)
    higher_trumps = {c for c in trumps if card_strength(c, trump) > top_trump}

    if followers:
        if led == trump:
            # "If L = T, must play a trump higher than the highest trump in the trick when
            # holding one (even over the partner), else any trump."
            return (higher_trumps, HIGHER_TRUMP) if higher_trumps else (followers, FOLLOW)
        # "Holding L: must play L."
        return followers, FOLLOW
    if led == trump:
        # "L = T and void in trumps → any card."
        return hand, FREE
    partner_wins = trick_winner(trick, trump) == len(trick) - 2
    if partner_wins and not prof.must_trump_over_partner:
        # "partner currently wins the trick → any card"
        return hand, FREE
    if not trumps:
        # "no trumps → any card"
        return hand, FREE
    if not trick_trumps:
        # "holding trumps and no trump in the trick yet → any trump"
        return trumps, TRUMP
    if higher_trumps:
        # "an opponent's trump wins the trick → a higher trump if holding one"
        return higher_trumps, OVERTRUMP
    if prof.must_undertrump:
        # other profiles: over an unbeatable trump, a player holding trumps must undertrump
        return trumps, TRUMP
    # "si l'atout adverse est imbattable, vous pouvez défausser au lieu de sous-couper"
    return hand, FREE


def legal_cards(
    hand: Iterable[int], trick: Sequence[int], trump: int, profile: ProfileLike = None
) -> set[int]:
    """The subset of ``hand`` the player at position ``len(trick)`` may play.

    RULES.md "Legal cards" (federal); see :func:`play_obligation` for each branch.
    """
    return play_obligation(hand, trick, trump, profile)[0]


def _strongest(cards: Iterable[int], trump: int) -> int:
    """The strongest of ``cards`` (a trump over any plain card, then by strength)."""
    return max(cards, key=lambda c: (is_trump(c, trump), card_strength(c, trump), -c))


def illegal_card_reason(
    card: int, hand: Iterable[int], trick: Sequence[int], trump: int,
    profile: ProfileLike = None,
) -> str | None:
    """Why ``card`` may not be played now, in words, or ``None`` when it is legal.

    The text names the strongest card the player should have played:
    ``"does not hold QS"``, ``"must follow spades: holds AS"``,
    ``"must play a higher trump: holds JH"``, ``"must trump: holds 7H"``,
    ``"must overtrump: holds JH"``. Not following suit while holding the led suit is
    reported as "must follow" even when the led suit is trump.
    """
    hand = set(hand)
    if card not in hand:
        return f"does not hold {format_card(card)}"
    legal, kind = play_obligation(hand, trick, trump, profile)
    if card in legal:
        return None
    best = format_card(_strongest(legal, trump))
    led = suit_of(trick[0])
    if suit_of(card) != led and any(suit_of(c) == led for c in hand):
        return f"must follow {SUIT_NAMES[led]}: holds {best}"
    if kind == HIGHER_TRUMP:
        return f"must play a higher trump: holds {best}"
    if kind == OVERTRUMP:
        return f"must overtrump: holds {best}"
    if kind == TRUMP:
        return f"must trump: holds {best}"
    return f"must follow {SUIT_NAMES[led]}: holds {best}"  # pragma: no cover - FOLLOW


# ---------------------------------------------------------------------------------------
# Announcements
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Announcement:
    """One ordinary announcement of one seat.

    ``kind`` is ``"carre"`` (``suit`` None, ``length`` 4, ``rank`` the carré's rank) or
    ``"suite"`` (``rank`` = its top card's rank, ``length`` 3, 4 or 5: a longer run is
    reported as the five top cards that count).
    """

    seat: int
    kind: str
    rank: int
    suit: int | None
    length: int
    points: int

    def as_row(self) -> tuple[int, int, int, int, int]:
        """``(kind, rank, suit, length, points)`` as the kernels store it (carré 0, suit -1)."""
        if self.kind == "carre":
            return (0, self.rank, -1, self.length, self.points)
        return (1, self.rank, self.suit, self.length, self.points)


def announcement_key(ann: Announcement, trump: int) -> int:
    """Comparison key of an announcement (higher is better; 0 means "none").

    RULES.md: "a carré beats any suite; carrés rank by value, then height A > T > K > Q;
    suites rank by length category (100 > 50 > 20), then top card in sequence order, then
    a trump suite beats a plain one." Exact key of ARCHITECTURE.md:
    carré ``1_000_000 + points * 16 + PLAIN_STRENGTH[rank]``;
    suite ``points * 16 * 2 + rank * 2 + is_trump`` (``is_trump``: suit is trump, or TA).
    """
    if ann.kind == "carre":
        return 1_000_000 + ann.points * 16 + PLAIN_STRENGTH[ann.rank]
    trump_suite = 1 if (ann.suit == trump or trump == TOUT_ATOUT) else 0
    return ann.points * 16 * 2 + ann.rank * 2 + trump_suite


def comparison_key(ann: Announcement, trump: int, profile: ProfileLike = None) -> int:
    """Key of an announcement in the comparison between teams, per profile.

    ``federal`` (and the profiles without a comparison rule of their own):
    :func:`announcement_key`. ``stephanoise`` ("equal best announcements: the one in
    trumps wins, equal plain ones cancel"): equal *values* are equal announcements —
    a carré ``1_000_000 + points * 16`` whatever its rank (a carré is not "in trumps",
    so equal carrés cancel), a plain suite ``points * 32``, a suite in trumps
    ``points * 32 + 16 + top rank`` (beats a plain one of the same value; of two trump
    suites of the same value the higher wins). Equal keys cancel.
    """
    prof = get_profile(profile)
    if prof.announcement_compare == 0:
        return announcement_key(ann, trump)
    if ann.kind == "carre":
        # carrés beat any suite; "Si deux annonces sont de valeur égale ..." — no height
        return 1_000_000 + ann.points * 16
    if ann.suit == trump or trump == TOUT_ATOUT:
        # "c'est celle du camp qui possède l'atout qui compte"
        return ann.points * 32 + 16 + ann.rank
    # "Les annonces de même valeur (hors atout) s'annulent."
    return ann.points * 32


def _display_order(ann: Announcement, trump: int, profile: Profile) -> tuple[int, int]:
    """Sort key of declared rows, best first: comparison key, then the federal key."""
    return (comparison_key(ann, trump, profile), announcement_key(ann, trump))


def available_carres(hand: set[int], trump: int, profile: Profile) -> list[int]:
    """Ranks of which ``hand`` holds all four cards and whose carré is worth something.

    RULES.md: "Carrés: four J = 200, four 9 = 150, four A, T, K or Q = 100; 7s and 8s
    nothing." (values: ``profile.carre_points``, ``carre_points_sa`` at sans-atout).
    """
    values = profile.carre_points_sa if trump == SANS_ATOUT else profile.carre_points
    return [r for r in range(8) if values[r] > 0 and all(s * 8 + r in hand for s in range(4))]


def suites_of(cards: set[int], seat: int, profile: Profile) -> list[Announcement]:
    """The suites read off ``cards``: every maximal run of 3 or more in one suit.

    RULES.md: "Suites (same suit, sequence order): 3 cards = 20 (tierce), 4 = 50, 5 = 100.
    A run longer than 5 counts as one 100 made of its top five cards; its lower cards
    count for nothing in a suite."
    """
    found = []
    for s in range(4):
        r = 0
        while r < 8:
            if s * 8 + r not in cards:
                r += 1
                continue
            start = r
            while r < 8 and s * 8 + r in cards:
                r += 1
            length = r - start  # the run is ranks start .. r-1, top card r-1
            points = profile.suite_points[length]
            if length >= 3 and points > 0:
                found.append(Announcement(seat, "suite", r - 1, s, min(length, 5), points))
    return found


def declaration(
    hand: Iterable[int], trump: int, profile: ProfileLike = None, seat: int = 0
) -> list[Announcement]:
    """The seat's declaration: its best non-overlapping set of announcements, best first.

    RULES.md: "A card serves in at most one ordinary announcement. A player's declaration
    is the non-overlapping set with the largest total (ties: the set with the best single
    announcement). Carrés are chosen first by enumerating which of the available carrés to
    keep; suites are then read off the remaining cards of each suit." Still tied: keep more
    carrés. Rows are sorted by :func:`announcement_key`, best first.
    """
    prof = get_profile(profile)
    if prof.announcements == 0:
        # classic, strict: "No carrés or suites."
        return []
    hand = set(hand)
    values = prof.carre_points_sa if trump == SANS_ATOUT else prof.carre_points
    carres = available_carres(hand, trump, prof)
    best: tuple[tuple[int, int, int], list[Announcement]] | None = None
    for n_kept in range(len(carres) + 1):
        for kept in combinations(carres, n_kept):
            rows = [Announcement(seat, "carre", r, None, 4, values[r]) for r in kept]
            if prof.announcements == 2:
                # stephanoise: "a card may serve in several announcements (a carré and a
                # suite may share cards)"
                rest = hand
            else:
                # "A card serves in at most one ordinary announcement."
                rest = {c for c in hand if rank_of(c) not in kept}
            rows += suites_of(rest, seat, prof)
            total = sum(a.points for a in rows)
            top = max((comparison_key(a, trump, prof) for a in rows), default=0)
            rank = (total, top, n_kept)
            if best is None or rank > best[0]:
                best = (rank, rows)
    assert best is not None
    return sorted(best[1], key=lambda a: _display_order(a, trump, prof), reverse=True)


@dataclass
class TeamAnnouncements:
    """Result of the announcement comparison of one donne.

    ``winner``: the team whose announcements count, -1 when nobody scores (no announcement
    at all, or a complete tie). ``announcements[t]``: the valid announcements of team ``t``
    (both partners, best first); ``points[t]``: their total. Before any capot transfer.
    """

    winner: int
    announcements: tuple[list[Announcement], list[Announcement]]
    points: tuple[int, int]


def team_announcements(
    hands: Sequence[Iterable[int]], trump: int, declare: Sequence[bool] = (True,) * 4,
    profile: ProfileLike = None,
) -> TeamAnnouncements:
    """Compare the two teams' best announcements and keep the winner's.

    RULES.md: "Comparison, done once per donne between the best announcement of each team
    [...] A complete tie (same category, same top card, both plain) cancels both teams'
    ordinary announcements. Otherwise the better team scores all its declared
    announcements, the other team none. A team with no announcement loses the comparison
    to one with any." A seat whose ``declare`` is false declares nothing.
    """
    prof = get_profile(profile)
    declared: list[list[Announcement]] = [[], []]
    for seat in range(4):
        if declare[seat]:
            declared[_team(seat)] += declaration(hands[seat], trump, prof, seat)
    keys = [max((comparison_key(a, trump, prof) for a in d), default=0) for d in declared]
    if keys[0] == keys[1]:
        # nobody announced, or complete tie: both teams' ordinary announcements cancel
        # (stephanoise: "equal plain ones cancel")
        return TeamAnnouncements(-1, ([], []), (0, 0))
    winner = 0 if keys[0] > keys[1] else 1
    rows = sorted(declared[winner],
                  key=lambda a: (-comparison_key(a, trump, prof), -announcement_key(a, trump),
                                 a.seat))
    anns: tuple[list[Announcement], list[Announcement]] = ([], [])
    anns[winner].extend(rows)
    points = [0, 0]
    points[winner] = sum(a.points for a in rows)
    return TeamAnnouncements(winner, anns, (points[0], points[1]))


def belote(
    hands: Sequence[Iterable[int]], trump: int, profile: ProfileLike = None
) -> tuple[int, int]:
    """Belote points per team.

    RULES.md: "Belote: the player holding K and Q of trumps scores 20 for the team. It is
    outside the comparison, may also sit in a suite or carré". None at sans-atout; at
    tout-atout one belote per suit whose K and Q one player holds (other profiles).
    """
    prof = get_profile(profile)
    if trump == SANS_ATOUT or prof.belote_points == 0:
        return (0, 0)
    suits = range(4) if trump == TOUT_ATOUT else (trump,)
    points = [0, 0]
    for seat in range(4):
        hand = set(hands[seat])
        for s in suits:
            if s * 8 + KING in hand and s * 8 + QUEEN in hand:
                points[_team(seat)] += prof.belote_points
    return (points[0], points[1])


# ---------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------


class IllegalAction(Exception):
    """An auction action the rules forbid: ``code`` is an ``R_*`` reason, ``text`` words."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


RUNNING, CONTRACT, PASSED_OUT = "running", "contract", "passed_out"


class Auction:
    """The auction of one donne (RULES.md "Auction").

    Attributes: ``to_speak`` (seat), ``status`` (``"running"``, ``"contract"``,
    ``"passed_out"``), ``level``/``kind``/``bidder`` of the current highest bid (-1 none),
    ``coinche`` (1, 2 or 4), ``coincher`` (-1 none), ``passes`` (consecutive),
    ``n_bids``, ``actions`` (codes applied so far).
    """

    def __init__(self, dealer: int, profile: ProfileLike = None) -> None:
        self.profile = get_profile(profile)
        self.dealer = dealer
        # "The next seat, D+1 (mod 4), bids first"
        self.to_speak = (dealer + 1) & 3
        self.status = RUNNING
        self.level = -1
        self.kind = -1
        self.bidder = -1
        self.coinche = 1
        self.coincher = -1
        self.passes = 0
        self.n_bids = 0
        self.actions: list[int] = []

    # -- contract fields -----------------------------------------------------------------
    @property
    def taker(self) -> int | None:
        """Seat of the final bidder once the contract is fixed, else None."""
        return self.bidder if self.status == CONTRACT else None

    @property
    def value(self) -> int:
        """Point value of the current highest bid (250 for capot), 0 if none."""
        return self.profile.level_value(self.level) if self.level >= 0 else 0

    @property
    def capot(self) -> bool:
        """True when the current highest bid is a capot."""
        return self.level == len(self.profile.bid_values)

    @property
    def generale(self) -> bool:
        """True when the current highest bid is a générale (the bidder takes all 8 tricks)."""
        return self.profile.generale_value > 0 and self.level == len(self.profile.bid_values) + 1

    def current_token(self) -> str:
        """Token of the current highest bid (``"110H"``), or ``"nothing"``."""
        if self.level < 0:
            return "nothing"
        return act.format_action(act.bid_code(self.level, self.kind), self.profile)

    # -- rules ---------------------------------------------------------------------------
    def check(self, code: int) -> int:
        """Reason code (``R_*``) why ``to_speak`` may not play ``code`` now; 0 if legal."""
        prof = self.profile
        seat = self.to_speak
        if self.status != RUNNING:
            # no action once the contract is fixed or the donne is passed out
            return act.R_AUCTION_OVER
        if code == act.PASS:
            # "Passing does not stop a player bidding later."
            return act.R_OK
        if act.is_bid(code):
            level, kind = act.bid_level(code), act.bid_kind(code)
            if kind not in prof.contract_kinds or level >= prof.n_levels:
                # a contract or level this profile does not have
                return act.R_NOT_IN_PROFILE
            decoinche = prof.allow_decoinche and seat == self.bidder ^ 2
            if self.coinche > 1 and not decoinche:
                # a coinche "freezes the contract: no more bids by anyone"
                return act.R_BID_AFTER_COINCHE
            if level <= self.level:
                # "A bid must be strictly above the current highest bid." (nothing above capot)
                return act.R_BID_NOT_HIGHER
            return act.R_OK
        if code == act.COINCHE:
            if self.bidder < 0:
                # nothing to coinche before the first bid
                return act.R_COINCHE_NO_BID
            if self.coinche > 1:
                # "at most once"
                return act.R_ALREADY_COINCHED
            if _team(seat) == _team(self.bidder):
                # "only against the current highest bid when it belongs to the other team"
                return act.R_COINCHE_OWN_TEAM
            if prof.no_coinche_80 and self.value == 80:
                # classic option: nobody coinches an 80
                return act.R_NOT_IN_PROFILE
            return act.R_OK
        if code == act.SURCOINCHE:
            if not prof.allow_surcoinche:
                return act.R_NOT_IN_PROFILE
            if self.coinche == 1:
                # surcoinche answers a coinche
                return act.R_SURCOINCHE_NO_COINCHE
            if self.coinche == 4:
                return act.R_ALREADY_SURCOINCHED
            if _team(seat) != _team(self.bidder):
                # "a player of the bidding team may surcoinche in turn"
                return act.R_SURCOINCHE_NOT_TAKERS
            return act.R_OK
        # codes 3..7 are no action at all
        return act.R_NOT_IN_PROFILE

    def reason_text(self, code: int) -> str:
        """The words of reason ``code`` (``{current}`` filled with the current bid)."""
        return act.AUCTION_REASONS[code].format(current=self.current_token())

    def apply(self, code: int) -> None:
        """Play action ``code`` for ``to_speak``.

        Raises
        ------
        IllegalAction
            When the rules forbid it (the state is left unchanged).
        """
        reason = self.check(code)
        if reason:
            raise IllegalAction(reason, self.reason_text(reason))
        prof = self.profile
        seat = self.to_speak
        self.actions.append(code)
        self.to_speak = (seat + 1) & 3
        if code == act.PASS:
            self.passes += 1
            if self.bidder < 0 and self.passes == 4:
                # "Four passes before any bid: the donne is passed out"
                self.status = PASSED_OUT
            elif self.bidder >= 0 and self.passes == 3:
                # "After a bid, three consecutive passes end the auction." (× 2 if coinched)
                self.status = CONTRACT
        elif act.is_bid(code):
            self.level, self.kind = act.bid_level(code), act.bid_kind(code)
            self.bidder = seat
            self.passes = 0
            self.n_bids += 1
            # a décoinche (other profiles) cancels the coinche
            self.coinche, self.coincher = 1, -1
        elif code == act.COINCHE:
            self.coinche, self.coincher = 2, seat
            self.passes = 0
            if prof.coinche_ends_auction:
                # classic: "A coinche ends it at once"
                self.status = CONTRACT
        else:
            # "a player of the bidding team may surcoinche in turn, which ends the auction
            # at once (multiplier 4)"
            self.coinche = 4
            self.status = CONTRACT


# ---------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------


def round_mark(x: int) -> int:
    """Round a mark to the nearest ten, halves up (RULES.md: "85 → 90, 84 → 80")."""
    return (x + 5) // 10 * 10


@dataclass
class DonneScore:
    """Outcome of scoring one donne (arrays indexed by team).

    ``announcements``: valid ordinary announcement points after the capot transfer;
    ``totals``: T per team (cards + announcements + belote) before rounding;
    ``raw_marks``: the marks before rounding; ``marks``: after rounding;
    ``litige``: classic 81–81 at 80, nobody scores.
    """

    made: bool
    marks: tuple[int, int]
    announcements: tuple[int, int]
    totals: tuple[int, int]
    raw_marks: tuple[int, int]
    litige: bool = False


def is_made(
    prof: Profile, level: int, totals: Sequence[int], t: int, takers_all: bool,
    taker_alone: bool,
) -> bool:
    """The profile's success test (before any rounding) for takers team ``t``.

    ``takers_all``: the takers won all 8 tricks; ``taker_alone``: the bidder himself did.
    """
    d = 1 - t
    bid = prof.level_value(level)
    n = len(prof.bid_values)
    if prof.success_rule == 0:
        # "Made iff T_t ≥ bid and T_t > T_d, before any rounding ... A tie fails."
        made = totals[t] >= bid and totals[t] > totals[d]
    else:
        # classic, stephanoise, strict: "Made iff [the takers' points] ≥ bid" for a
        # number (classic: "At 80 the takers need 82"); a capot or a générale is made by
        # its tricks alone (strict's générale is worth 400, more than any points total)
        need = prof.first_bid_needs if level == 0 and prof.first_bid_needs else bid
        made = totals[t] >= need or level >= n
    if level >= n and not takers_all:
        # "a capot bid also requires all 8 tricks"
        made = False
    if level == n + 1 and not taker_alone:
        # générale: "one player takes all 8 tricks" — the bidder
        made = False
    return made


def score_donne(
    taker_team: int, level: int, kind: int, coinche: int,
    card_points: Sequence[int], tricks_won: Sequence[int],
    ann_points: Sequence[int], belote_points: Sequence[int],
    profile: ProfileLike = None, taker_tricks: int | None = None,
) -> DonneScore:
    """Score one donne (RULES.md "Scoring of a donne" and each profile's differences).

    ``card_points`` include the last-trick 10 (``capot_card_points``/0 on a capot);
    ``ann_points`` are after the comparison, before the capot transfer; ``coinche`` is
    1, 2 or 4; ``taker_tricks`` the tricks won by the bidder himself (only a générale
    needs it; None: the team's count).
    """
    prof = get_profile(profile)
    t, d = taker_team, 1 - taker_team
    bid = prof.level_value(level)
    n = len(prof.bid_values)
    takers_all = tricks_won[t] == 8
    own = tricks_won[t] if taker_tricks is None else taker_tricks
    generale_won = level == n + 1 and own == 8
    C = [card_points[0], card_points[1]]
    if generale_won and prof.generale_card_points:
        # classic: "Générale bid: 500 and 500" — the points made count 500
        C[t] = prof.generale_card_points
    A = [ann_points[0], ann_points[1]]
    B = [belote_points[0], belote_points[1]]
    if takers_all and prof.capot_transfers_announcements:
        # "If the takers win all 8 tricks, A_t += A_d and A_d = 0 (belote is not transferred)."
        A[t] += A[d]
        A[d] = 0
    T = [C[i] + A[i] + B[i] for i in range(2)]
    made = is_made(prof, level, T, t, takers_all, generale_won)
    # classic: "when both teams have exactly 81 (cards + last trick + belote) it is a
    # litige: nobody scores this donne" (at 80, the lowest bid)
    litige = bool(prof.litige_points) and level == 0 and T[t] == T[d] == prof.litige_points
    if litige:
        made = False
    m = coinche
    # stephanoise: "s = 2 for SA, else 1"
    bid_s = bid * (prof.sa_multiplier if kind == SANS_ATOUT else 1)
    mark = [0, 0]
    if litige:
        pass
    elif prof.scoring_rule == 1:
        # classic; "Coinche: every mark of the donne × 2."
        if made:
            # "Made: takers points + bid + belote; defence points + belote."
            mark[t], mark[d] = m * (T[t] + bid_s), m * T[d]
        else:
            # "Failed: takers belote; defence 160 + bid + belote."
            mark[t], mark[d] = m * B[t], m * (prof.failed_base + bid_s + B[d])
    elif prof.scoring_rule == 3:
        # strict; "Coinche × 2, surcoinche × 4 on both marks."
        if made:
            # "Made: takers points + bid; defence its points."
            mark[t], mark[d] = m * (T[t] + bid_s), m * T[d]
        else:
            # "Failed: takers 0; defence 160 + bid."
            mark[t], mark[d] = 0, m * (prof.failed_base + bid_s)
    elif prof.scoring_rule == 2:
        # stephanoise; "Coinche × 2, surcoinche × 4, on the mark of whichever team was
        # right (the other marks 0), cumulative with the SA factor."
        if made:
            # "Made: takers bid × s + T_t; defence its cards + its valid announcements +
            # its belote."
            mark[t], mark[d] = m * (bid_s + T[t]), (T[d] if m == 1 else 0)
        else:
            # "Failed: takers 0; defence 162 + bid × s + A_t + A_d + B_t + B_d";
            # "Capot: 250 replaces the 162".
            base = prof.capot_card_points if tricks_won[d] == 8 else prof.failed_base
            mark[t], mark[d] = 0, m * (base + bid_s + A[t] + A[d] + B[t] + B[d])
    elif m == 1 and made:
        # "Not coinched, made: takers T_t + bid; defence T_d."
        mark[t], mark[d] = T[t] + bid_s, T[d]
    elif m == 1:
        # "Not coinched, failed: takers B_t; defence 160 + A_t + A_d + B_d + bid."
        mark[t], mark[d] = B[t], prof.failed_base + A[t] + A[d] + B[d] + bid_s
    elif made:
        # "Coinched (m = 2) or surcoinched (m = 4), made: takers m × (K + A_t + A_d + B_t +
        # bid) with K = 250 if the takers won all 8 tricks else 160; defence B_d."
        k = prof.capot_value if takers_all else prof.failed_base
        mark[t], mark[d] = m * (k + A[t] + A[d] + B[t] + bid_s), B[d]
    else:
        # "Coinched or surcoinched, failed: takers B_t (not multiplied); defence
        # m × (160 + A_t + A_d + B_d + bid)."
        mark[t], mark[d] = B[t], m * (prof.failed_base + A[t] + A[d] + B[d] + bid_s)
    raw = (mark[0], mark[1])
    if prof.rounding:
        # federal, stephanoise: "round ... to the nearest ten, halves up"
        mark = [round_mark(x) for x in mark]
    return DonneScore(made, (mark[0], mark[1]), (A[0], A[1]), (T[0], T[1]), raw, litige)


# ---------------------------------------------------------------------------------------
# Partie
# ---------------------------------------------------------------------------------------


def partie_step(
    totals: Sequence[int], pending: Sequence[bool], marks: Sequence[int],
    tricks_won: Sequence[int], taker_team: int, made: bool, profile: ProfileLike = None,
) -> tuple[int, tuple[int, int], tuple[bool, bool]]:
    """Add one donne to a partie; return ``(winner or -1, totals, pending)``.

    RULES.md: "Target 2000. After each donne: a team at or over 2000 is *eligible*, unless
    in this donne it crossed 2000 with a mark made only of its belote while failing as
    takers or being capot (winning no trick) — such a team becomes eligible at the end of
    a later donne in which it wins at least one trick. One eligible team: it wins. Both
    eligible: the higher total wins; equal totals: play on. None: play on."

    ``pending[t]`` is True while team ``t`` waits for that later trick. A failing taker
    team scores only its belote, and so does a team winning no trick (its announcements go
    to the capot takers), so "crossed while failing as takers or winning no trick" is the
    belote-only crossing. ``taker_team`` is -1 for a passed-out donne.

    stephanoise (``partie_rule`` 1): a team crossing the target in a donne in which it
    wins no trick waits one more donne, after which it is eligible if still at or over it.
    """
    prof = get_profile(profile)
    target = prof.target
    new_totals = [totals[i] + marks[i] for i in range(2)]
    new_pending = [bool(pending[0]), bool(pending[1])]
    eligible = [False, False]
    for t in range(2):
        crossed = totals[t] < target <= new_totals[t]
        if prof.partie_rule == 1:
            if new_pending[t]:
                # stephanoise: the extra donne has been played
                new_pending[t] = False
            elif crossed and tricks_won[t] == 0:
                # "a team that crosses 2000 only thanks to its announcements while being
                # capot does not win yet: play another donne" (no trick: its mark is
                # announcements and belote only)
                new_pending[t] = True
            eligible[t] = new_totals[t] >= target and not new_pending[t]
            continue
        belote_only = (t == taker_team and not made) or tricks_won[t] == 0
        if crossed and belote_only:
            # crossed on its belote alone: must win a trick in a later donne
            new_pending[t] = True
        elif new_pending[t] and not crossed and tricks_won[t] > 0:
            # "becomes eligible at the end of a later donne in which it wins a trick"
            new_pending[t] = False
        eligible[t] = new_totals[t] >= target and not new_pending[t]
    if eligible[0] and eligible[1]:
        # both eligible: the higher total wins; equal totals: play on
        if new_totals[0] == new_totals[1]:
            winner = -1
        else:
            winner = 0 if new_totals[0] > new_totals[1] else 1
    elif eligible[0] or eligible[1]:
        winner = 0 if eligible[0] else 1
    else:
        winner = -1
    return winner, (new_totals[0], new_totals[1]), (new_pending[0], new_pending[1])


class Partie:
    """A partie: donnes until a team wins (RULES.md "Partie").

    ``record(...)`` adds one scored donne and returns the winning team or -1; the dealer
    moves to the next seat after every donne, a passed-out one included.
    """

    def __init__(self, dealer: int = 0, profile: ProfileLike = None) -> None:
        self.profile = get_profile(profile)
        self.dealer = dealer
        self.totals: tuple[int, int] = (0, 0)
        self.pending: tuple[bool, bool] = (False, False)
        self.winner = -1
        self.n_donnes = 0

    def record(
        self, marks: Sequence[int], tricks_won: Sequence[int], taker_team: int, made: bool
    ) -> int:
        """Add one donne's result; return the winner (-1: play on)."""
        if self.winner >= 0:
            raise ValueError("the partie is already won")
        self.winner, self.totals, self.pending = partie_step(
            self.totals, self.pending, marks, tricks_won, taker_team, made, self.profile
        )
        self.n_donnes += 1
        # "The dealer moves to D+1 after every donne, a passed-out one included."
        self.dealer = (self.dealer + 1) & 3
        return self.winner


# ---------------------------------------------------------------------------------------
# A whole recorded donne
# ---------------------------------------------------------------------------------------


@dataclass
class Trick:
    """One trick: its leader seat, the cards in the order played, its winner seat."""

    leader: int
    cards: list[int] = field(default_factory=list)
    winner: int | None = None


@dataclass
class Violation:
    """The first illegal action of a record: ``phase`` "auction" or "play", its index in
    its own list, and the rule it breaks in words."""

    phase: str
    index: int
    reason: str


@dataclass
class DonneReplay:
    """A recorded donne replayed up to its end or its first illegal action.

    Result fields (``tricks_won``, ``card_points``, ``announcements``, ``belote``,
    ``score``) are None unless the donne is complete (32 cards legally played).
    ``to_move``: the seat to act next (None when complete or passed out);
    ``legal_next``: in the play phase, the cards that seat may play.
    """

    auction: Auction
    tricks: list[Trick]
    error: Violation | None = None
    complete: bool = False
    tricks_won: tuple[int, int] | None = None
    card_points: tuple[int, int] | None = None
    announcements: TeamAnnouncements | None = None
    transferred: tuple[list[Announcement], list[Announcement]] | None = None
    belote: tuple[int, int] | None = None
    score: DonneScore | None = None
    to_move: int | None = None
    legal_next: list[int] | None = None


def count_card_points(tricks: Sequence[Trick], trump: int, profile: Profile) -> tuple[int, int]:
    """Card points per team including the last trick ("dix de der").

    RULES.md: "152 points in the cards, +10 for the last trick" and "a team that wins all
    8 tricks has C = 252 (152 + 100 instead of 10) and the other 0."
    """
    points = [0, 0]
    won = [0, 0]
    for trick in tricks:
        team = _team(trick.winner)
        won[team] += 1
        points[team] += sum(card_points(c, trump, profile) for c in trick.cards)
    for team in range(2):
        if won[team] == len(tricks) == 8:
            return (profile.capot_card_points, 0) if team == 0 else (0, profile.capot_card_points)
    points[_team(tricks[-1].winner)] += profile.last_trick_bonus
    return (points[0], points[1])


def replay_donne(
    hands: Sequence[Iterable[int]], dealer: int, auction: Sequence[int],
    play: Sequence[int], declare: Sequence[bool] = (True,) * 4,
    profile: ProfileLike = None,
) -> DonneReplay:
    """Replay a recorded donne: the auction codes, then the cards in the order played.

    Stops at the first illegal action (recorded in ``error``); the replay then describes
    the donne as it stood just before it.
    """
    prof = get_profile(profile)
    hands = [set(h) for h in hands]
    dealt = [set(h) for h in hands]
    auc = Auction(dealer, prof)
    out = DonneReplay(auction=auc, tricks=[])
    for i, code in enumerate(auction):
        try:
            auc.apply(code)
        except IllegalAction as exc:
            out.error = Violation("auction", i, exc.text)
            break

    trump = auc.kind
    leader = (dealer + 1) & 3  # "D+1 ... leads the first trick"
    if out.error is None:
        for i, c in enumerate(play):
            if auc.status == PASSED_OUT:
                out.error = Violation("play", i, "the donne is passed out")
                break
            if auc.status == RUNNING:
                out.error = Violation("play", i, "the auction is not finished")
                break
            if not out.tricks or len(out.tricks[-1].cards) == 4:
                out.tricks.append(Trick(leader))
            trick = out.tricks[-1]
            seat = (trick.leader + len(trick.cards)) & 3
            reason = illegal_card_reason(c, hands[seat], trick.cards, trump, prof)
            if reason is not None:
                out.error = Violation("play", i, reason)
                if not trick.cards:
                    out.tricks.pop()
                break
            trick.cards.append(c)
            hands[seat].discard(c)
            if len(trick.cards) == 4:
                # "The winner leads the next trick."
                trick.winner = (trick.leader + trick_winner(trick.cards, trump)) & 3
                leader = trick.winner

    n_played = sum(len(t.cards) for t in out.tricks)
    if auc.status == RUNNING:
        out.to_move = auc.to_speak
    elif auc.status == CONTRACT and n_played < 32:
        last = out.tricks[-1] if out.tricks else None
        if last is None or len(last.cards) == 4:
            seat = leader
            trick_cards: list[int] = []
        else:
            seat = (last.leader + len(last.cards)) & 3
            trick_cards = last.cards
        out.to_move = seat
        out.legal_next = sorted(legal_cards(hands[seat], trick_cards, trump, prof))
    elif auc.status == CONTRACT:
        _finish(out, dealt, declare, prof)
    return out


def _finish(
    out: DonneReplay, dealt: list[set[int]], declare: Sequence[bool], prof: Profile
) -> None:
    """Fill the results of a complete donne (32 cards played)."""
    auc = out.auction
    trump = auc.kind
    taker_team = _team(auc.bidder)
    out.complete = True
    won = [0, 0]
    for trick in out.tricks:
        won[_team(trick.winner)] += 1
    out.tricks_won = (won[0], won[1])
    out.card_points = count_card_points(out.tricks, trump, prof)
    out.announcements = team_announcements(dealt, trump, declare, prof)
    out.belote = belote(dealt, trump, prof)
    # générale: "one player takes all 8 tricks" — count the bidder's own tricks
    taker_tricks = sum(1 for trick in out.tricks if trick.winner == auc.bidder)
    out.score = score_donne(
        taker_team, auc.level, auc.kind, auc.coinche, out.card_points, out.tricks_won,
        out.announcements.points, out.belote, prof, taker_tricks,
    )
    kept = (list(out.announcements.announcements[0]), list(out.announcements.announcements[1]))
    if won[taker_team] == 8 and prof.capot_transfers_announcements:
        # the capot takers take the defence's announcements (each keeps its seat)
        kept[taker_team].extend(kept[1 - taker_team])
        kept[1 - taker_team].clear()
    out.transferred = kept
