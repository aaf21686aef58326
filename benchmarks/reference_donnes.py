"""Complete random donnes played by the pure-Python reference engine.

The same work per donne as the kernels' random-player donne: shuffle, cut and deal,
a random legal auction (uniform among legal actions, passing more often so that auctions
end), random legal play of the 32 cards, announcements, belote and scoring.
"""

from __future__ import annotations

import random
import time

from simcoinche.rules import actions as act
from simcoinche.rules import reference as ref
from simcoinche.rules.profiles import FEDERAL, Profile


def random_donne(rnd: random.Random, dealer: int,
                 profile: Profile = FEDERAL) -> ref.DonneScore | None:
    """Deal, bid, play and score one donne at random with the reference engine (None if
    passed out)."""
    deck = list(range(32))
    rnd.shuffle(deck)
    cut = rnd.randint(profile.cut_min, 32 - profile.cut_min)
    deck = deck[cut:] + deck[:cut]
    hands: list[set[int]] = [set(), set(), set(), set()]
    pos = 0
    for size in profile.deal_rounds:
        for k in range(4):
            seat = (dealer + 1 + k) & 3
            hands[seat].update(deck[pos: pos + size])
            pos += size
    auction = ref.Auction(dealer, profile)
    codes = [act.PASS, act.COINCHE, act.SURCOINCHE] + [
        act.bid_code(level, kind) for level in range(len(profile.bid_values) + 1)
        for kind in profile.contract_kinds]
    while auction.status == ref.RUNNING:
        legal = [c for c in codes if auction.check(c) == 0]
        code = act.PASS if rnd.random() < 0.6 else rnd.choice(legal)
        auction.apply(code)
    if auction.status != ref.CONTRACT:
        return None
    trump = auction.kind
    held = [set(h) for h in hands]
    leader = (dealer + 1) & 3
    tricks: list[ref.Trick] = []
    for _ in range(8):
        trick = ref.Trick(leader)
        for p in range(4):
            seat = (leader + p) & 3
            card = rnd.choice(sorted(ref.legal_cards(held[seat], trick.cards, trump, profile)))
            trick.cards.append(card)
            held[seat].discard(card)
        leader = trick.winner = (leader + ref.trick_winner(trick.cards, trump, profile)) & 3
        tricks.append(trick)
    won = [sum(1 for t in tricks if t.winner & 1 == team) for team in (0, 1)]
    card_points = ref.count_card_points(tricks, trump, profile)
    anns = ref.team_announcements(hands, trump, (True,) * 4, profile)
    belote = ref.belote(hands, trump, profile)
    return ref.score_donne(auction.bidder & 1, auction.level, trump, auction.coinche,
                           card_points, won, anns.points, belote, profile)


def rate(n: int, seed: int = 1) -> float:
    """Reference-engine random donnes per second."""
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    for i in range(n):
        random_donne(rnd, i & 3)
    return n / (time.perf_counter() - t0)
