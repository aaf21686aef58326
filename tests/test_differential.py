"""Differential tests per profile: the numba kernels against the reference engine for
``federal``, ``classic``, ``stephanoise`` and ``strict``, seeded.

The volumes of the rules engine issue, for each profile: at least 200,000
random play positions (legal masks; contracts of every kind the profile has, SA and TA
included), 200,000 random tricks plus the played ones (trick winners), 20,000 random
complete donnes with random legal auctions (coinche, surcoinche, décoinche, capot and
générale bids included) and random legal play (announcements, belote and every output of
scoring: made, marks, announcements after transfer, totals, litige), every auction state
of 2,000 random auctions, and the deal-side rules (annulment, the cards held at the
auction). Every mismatch is counted and the first few are shown.
"""

# numba-compiled generators use the seeded legacy np.random API (per-thread state in numba).
# ruff: noqa: NPY002

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from simcoinche._kernels import announce, annul, auction, play, scoring
from simcoinche._kernels import layout as L
from simcoinche.rules import reference as ref
from simcoinche.rules.cards import from_mask, to_mask
from simcoinche.rules.profiles import CLASSIC, FEDERAL, STEPHANOISE, STRICT, Profile

PROFILES = [FEDERAL, CLASSIC, STEPHANOISE, STRICT]
N_POSITIONS = 200_000
N_TRICKS = 200_000
N_DONNES = 20_000

by_profile = pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)


def _show(mismatches: list) -> str:
    return f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


# --------------------------------------------------------------------------------------
# Play positions: legal masks and trick winners
# --------------------------------------------------------------------------------------


def _positions_from_reference_play(profile: Profile, n_positions: int, seed: int) -> dict:
    """Positions met in random legal play chosen with the *reference* engine.

    Each donne gets a random contract kind of the profile (suits, SA, TA) and a random
    leader; every player picks uniformly among the reference's legal cards.
    """
    rng = random.Random(seed)
    kinds = profile.contract_kinds
    n_donnes = -(-n_positions // 32)
    size = n_donnes * 32
    hands_col = np.zeros(size, dtype=np.uint32)
    tricks_col = np.full((size, 4), -1, dtype=np.int64)
    n_col = np.zeros(size, dtype=np.int64)
    trump_col = np.zeros(size, dtype=np.int64)
    legal_col = np.zeros(size, dtype=np.uint32)
    full_tricks: list[tuple[list[int], int, int]] = []
    k = 0
    for _ in range(n_donnes):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [set(deck[8 * s: 8 * s + 8]) for s in range(4)]
        trump = rng.choice(kinds)
        leader = rng.randrange(4)
        for _trick in range(8):
            trick: list[int] = []
            for pos in range(4):
                seat = (leader + pos) & 3
                legal = ref.legal_cards(hands[seat], trick, trump, profile)
                hands_col[k] = to_mask(hands[seat])
                tricks_col[k, : len(trick)] = trick
                n_col[k] = len(trick)
                trump_col[k] = trump
                legal_col[k] = to_mask(legal)
                k += 1
                card = rng.choice(sorted(legal))
                trick.append(card)
                hands[seat].discard(card)
            winner_pos = ref.trick_winner(trick, trump, profile)
            full_tricks.append((trick, trump, winner_pos))
            leader = (leader + winner_pos) & 3
    return {"hands": hands_col, "tricks": tricks_col, "n": n_col, "trump": trump_col,
            "legal": legal_col, "full_tricks": full_tricks}


@njit
def _kernel_legal_masks(hands, tricks, ns, trumps, prof):
    out = np.zeros(hands.shape[0], dtype=np.uint32)
    for i in range(hands.shape[0]):
        out[i] = play.legal_mask(hands[i], tricks[i], ns[i], trumps[i], prof)
    return out


@njit
def _kernel_trick_winners(tricks, trumps, prof):
    out = np.zeros(tricks.shape[0], dtype=np.int64)
    for i in range(tricks.shape[0]):
        out[i] = play.trick_winner(tricks[i], 4, trumps[i], prof)
    return out


@by_profile
def test_legal_mask_matches_reference_on_200k_positions_per_profile(profile):
    pos = _positions_from_reference_play(profile, N_POSITIONS, seed=2027)
    assert len(pos["n"]) >= N_POSITIONS
    kernel = _kernel_legal_masks(pos["hands"], pos["tricks"], pos["n"], pos["trump"],
                                 profile.packed)
    bad = np.nonzero(kernel != pos["legal"])[0]
    mismatches = [
        {"hand": from_mask(int(pos["hands"][i])), "trick": pos["tricks"][i].tolist(),
         "trump": int(pos["trump"][i]), "reference": from_mask(int(pos["legal"][i])),
         "kernel": from_mask(int(kernel[i]))}
        for i in bad[:3]
    ]
    assert len(bad) == 0, _show(mismatches)
    # every contract kind of the profile occurs, and many positions are constrained
    assert set(np.unique(pos["trump"]).tolist()) == set(profile.contract_kinds)
    assert (kernel != pos["hands"]).sum() > N_POSITIONS // 4


@by_profile
def test_trick_winner_matches_reference_on_played_and_200k_random_tricks(profile):
    pos = _positions_from_reference_play(profile, 40_000, seed=8)
    rng = random.Random(12)
    kinds = profile.contract_kinds
    synthetic = []
    for _ in range(N_TRICKS):
        cards = rng.sample(range(32), 4)
        trump = rng.choice(kinds)
        synthetic.append((cards, trump, ref.trick_winner(cards, trump, profile)))
    all_tricks = pos["full_tricks"] + synthetic
    tricks = np.array([t for t, _, _ in all_tricks], dtype=np.int64)
    trumps = np.array([tr for _, tr, _ in all_tricks], dtype=np.int64)
    expected = np.array([w for _, _, w in all_tricks], dtype=np.int64)
    kernel = _kernel_trick_winners(tricks, trumps, profile.packed)
    bad = np.nonzero(kernel != expected)[0]
    assert len(bad) == 0, _show([(tricks[i].tolist(), int(trumps[i]), int(expected[i]),
                                  int(kernel[i])) for i in bad[:3]])


@by_profile
def test_card_points_match_reference_for_every_card_and_contract_kind(profile):
    for trump in range(6):
        for c in range(32):
            assert play.card_points(c, trump, profile.packed) == ref.card_points(
                c, trump, profile), (c, trump)


# --------------------------------------------------------------------------------------
# Complete donnes: auction, play, announcements, belote, scoring
# --------------------------------------------------------------------------------------

MAX_ACTIONS = 96
# out layout of _kernel_replay
O_BAD_AUCTION, O_BAD_CARD, O_STATUS, O_BIDDER, O_LEVEL, O_KIND, O_COINCHE = range(7)
O_WINNERS = 7          # 8 trick winner seats
O_TRICKS = 15          # 2
O_CARD_POINTS = 17     # 2
O_ANN = 19             # 2, after the comparison
O_BELOTE = 21          # 2
O_MADE = 23
O_MARKS = 24           # 2
O_ANN_FINAL = 26       # 2, after the capot transfer
O_TOTALS = 28          # 2, before rounding
O_LITIGE = 30
O_TAKER_TRICKS = 31
OUT_LEN = 32


@njit
def _random_donne(seed, prof, hands, actions, play_out, declare):
    """A random deal, a random legal auction (kernel auction_check), random legal play.

    Bids are drawn among every legal code (all levels up to générale, every contract kind
    of the profile), low ones preferred; coinches, surcoinches and bids after a coinche
    (a décoinche where the profile allows it) occur. Returns ``(dealer, n_actions)``.
    """
    np.random.seed(seed)
    deck = np.random.permutation(32)
    for s in range(4):
        h = np.uint32(0)
        for k in range(8):
            h |= np.uint32(1) << np.uint32(deck[8 * s + k])
        hands[s] = h
    for s in range(4):
        declare[s] = 1 if np.random.random() < 0.9 else 0
    dealer = np.random.randint(4)
    state = np.zeros(auction.AUCTION_STATE_LEN, dtype=np.int32)
    auction.auction_start(state, dealer)
    n_levels = prof[L.P_N_BID_VALUES] + 1 + (1 if prof[L.P_GENERALE_VALUE] > 0 else 0)
    legal_bids = np.zeros(n_levels * 6, dtype=np.int64)
    n = 0
    while state[auction.A_STATUS] == auction.STATUS_RUNNING and n < MAX_ACTIONS:
        nb = 0
        for level in range(n_levels):
            for kind in range(6):
                code = 8 + level * 6 + kind
                if auction.auction_check(state, code, prof) == 0:
                    legal_bids[nb] = code
                    nb += 1
        u = np.random.random()
        if auction.auction_check(state, 2, prof) == 0 and u < 0.3:
            action = 2
        elif auction.auction_check(state, 1, prof) == 0 and u < 0.2:
            action = 1
        elif nb > 0 and u > 0.6:
            # prefer low bids, but reach capot and générale now and then
            if np.random.random() < 0.06:
                action = legal_bids[nb - 1 - np.random.randint(min(nb, 12))]
            else:
                action = legal_bids[np.random.randint(min(nb, 12))]
        else:
            action = 0
        auction.auction_apply(state, action, prof)
        actions[n] = action
        n += 1
    for k in range(32):
        play_out[k] = -1
    if state[auction.A_STATUS] != auction.STATUS_CONTRACT:
        return dealer, n
    trump = state[auction.A_KIND]
    held = hands.copy()
    trick = np.zeros(4, dtype=np.int64)
    leader = (dealer + 1) & 3
    k = 0
    for _t in range(8):
        for pos in range(4):
            seat = (leader + pos) & 3
            legal = play.legal_mask(held[seat], trick, pos, trump, prof)
            count = 0
            for c in range(32):
                count += (legal >> np.uint32(c)) & np.uint32(1)
            pick = np.random.randint(count)
            c = 0
            for card in range(32):
                if (legal >> np.uint32(card)) & np.uint32(1):
                    if pick == 0:
                        c = card
                        break
                    pick -= 1
            trick[pos] = c
            held[seat] &= ~(np.uint32(1) << np.uint32(c))
            play_out[k] = c
            k += 1
        leader = (leader + play.trick_winner(trick, 4, trump, prof)) & 3
    return dealer, n


@njit
def _kernel_replay(hands, dealer, actions, n_actions, cards, declare, prof, out):
    """Replay a recorded donne with the kernels only; fill ``out`` (layout O_*)."""
    out[:] = 0
    out[O_BAD_AUCTION] = -1
    out[O_BAD_CARD] = -1
    state = np.zeros(auction.AUCTION_STATE_LEN, dtype=np.int32)
    auction.auction_start(state, dealer)
    for i in range(n_actions):
        if auction.auction_apply(state, actions[i], prof) != 0:
            out[O_BAD_AUCTION] = i
            return
    out[O_STATUS] = state[auction.A_STATUS]
    out[O_BIDDER] = state[auction.A_BIDDER]
    out[O_LEVEL] = state[auction.A_LEVEL]
    out[O_KIND] = state[auction.A_KIND]
    out[O_COINCHE] = state[auction.A_COINCHE]
    if state[auction.A_STATUS] != auction.STATUS_CONTRACT:
        return
    trump = state[auction.A_KIND]
    bidder = state[auction.A_BIDDER]
    held = hands.copy()
    trick = np.zeros(4, dtype=np.int64)
    won = np.zeros(2, dtype=np.int32)
    points = np.zeros(2, dtype=np.int32)
    leader = (dealer + 1) & 3
    taker_tricks = 0
    k = 0
    last = 0
    for t in range(8):
        for pos in range(4):
            seat = (leader + pos) & 3
            c = cards[k]
            legal = play.legal_mask(held[seat], trick, pos, trump, prof)
            if (legal >> np.uint32(c)) & np.uint32(1) == 0:
                out[O_BAD_CARD] = k
                return
            trick[pos] = c
            held[seat] &= ~(np.uint32(1) << np.uint32(c))
            k += 1
        winner = (leader + play.trick_winner(trick, 4, trump, prof)) & 3
        out[O_WINNERS + t] = winner
        won[winner & 1] += 1
        if winner == bidder:
            taker_tricks += 1
        for pos in range(4):
            points[winner & 1] += play.card_points(trick[pos], trump, prof)
        leader = winner
        last = winner
    points[last & 1] += prof[L.P_LAST_TRICK_BONUS]
    for team in range(2):
        if won[team] == 8:
            points[team] = prof[L.P_CAPOT_CARD_POINTS]
            points[1 - team] = 0
    ann = np.zeros(2, dtype=np.int32)
    announce.team_announcements(hands, trump, declare, prof, ann)
    bel = np.zeros(2, dtype=np.int32)
    announce.belote_points(hands, trump, prof, bel)
    score = np.zeros(scoring.SCORE_LEN, dtype=np.int32)
    made = scoring.score_donne(bidder & 1, state[auction.A_LEVEL], trump,
                               state[auction.A_COINCHE], points, won, ann, bel, prof, score,
                               taker_tricks)
    out[O_TRICKS], out[O_TRICKS + 1] = won[0], won[1]
    out[O_CARD_POINTS], out[O_CARD_POINTS + 1] = points[0], points[1]
    out[O_ANN], out[O_ANN + 1] = ann[0], ann[1]
    out[O_BELOTE], out[O_BELOTE + 1] = bel[0], bel[1]
    out[O_MADE] = made
    out[O_MARKS], out[O_MARKS + 1] = score[scoring.S_MARK0], score[scoring.S_MARK1]
    out[O_ANN_FINAL], out[O_ANN_FINAL + 1] = score[scoring.S_ANN0], score[scoring.S_ANN1]
    out[O_TOTALS], out[O_TOTALS + 1] = score[scoring.S_TOTAL0], score[scoring.S_TOTAL1]
    out[O_LITIGE] = score[scoring.S_LITIGE]
    out[O_TAKER_TRICKS] = taker_tricks


_STATUS = {ref.RUNNING: 0, ref.CONTRACT: 1, ref.PASSED_OUT: 2}


def _reference_out(profile, hands, dealer, actions, cards, declare) -> np.ndarray:
    """The same fields as ``_kernel_replay``, from the reference engine's replay."""
    rep = ref.replay_donne([from_mask(int(h)) for h in hands], dealer, actions,
                           [c for c in cards if c >= 0], [bool(d) for d in declare], profile)
    out = np.zeros(OUT_LEN, dtype=np.int64)
    out[O_BAD_AUCTION] = rep.error.index if rep.error and rep.error.phase == "auction" else -1
    out[O_BAD_CARD] = rep.error.index if rep.error and rep.error.phase == "play" else -1
    if rep.error is not None and rep.error.phase == "auction":
        return out
    auc = rep.auction
    out[O_STATUS] = _STATUS[auc.status]
    out[O_BIDDER], out[O_LEVEL], out[O_KIND], out[O_COINCHE] = (
        auc.bidder, auc.level, auc.kind, auc.coinche)
    if auc.status != ref.CONTRACT or rep.error is not None:
        return out
    for t, trick in enumerate(rep.tricks):
        out[O_WINNERS + t] = trick.winner
    out[O_TRICKS: O_TRICKS + 2] = rep.tricks_won
    out[O_CARD_POINTS: O_CARD_POINTS + 2] = rep.card_points
    out[O_ANN: O_ANN + 2] = rep.announcements.points
    out[O_BELOTE: O_BELOTE + 2] = rep.belote
    out[O_MADE] = rep.score.made
    out[O_MARKS: O_MARKS + 2] = rep.score.marks
    out[O_ANN_FINAL: O_ANN_FINAL + 2] = rep.score.announcements
    out[O_TOTALS: O_TOTALS + 2] = rep.score.totals
    out[O_LITIGE] = rep.score.litige
    out[O_TAKER_TRICKS] = sum(1 for t in rep.tricks if t.winner == auc.bidder)
    return out


# Branches each profile's random donnes must reach (beyond made/failed/passed out).
EXPECTED_BRANCHES = {
    "federal": ("coinche", "surcoinche", "capot_bid", "capot_made", "announcements", "belote",
                "transfer_on_capot"),
    "classic": ("coinche", "capot_bid", "capot_made", "generale_bid", "sa", "ta", "belote",
                "litige", "coinched_at_once"),
    "stephanoise": ("coinche", "surcoinche", "decoinche", "capot_bid", "capot_made", "sa",
                    "announcements", "belote", "no_transfer_on_capot"),
    "strict": ("coinche", "surcoinche", "capot_bid", "capot_made", "generale_bid", "sa",
               "ta", "belote"),
}


def _is_decoinche(actions: list[int]) -> bool:
    """A bid right after a coinche or after a coinche and passes: a décoinche."""
    coinched = False
    for a in actions:
        if a == 1:
            coinched = True
        elif a >= 8 and coinched:
            return True
    return False


@by_profile
def test_kernels_match_reference_on_20k_random_complete_donnes_per_profile(profile):
    prof = profile.packed
    hands = np.zeros(4, dtype=np.uint32)
    actions = np.zeros(MAX_ACTIONS, dtype=np.int64)
    cards = np.zeros(32, dtype=np.int64)
    declare = np.zeros(4, dtype=np.uint8)
    kout = np.zeros(OUT_LEN, dtype=np.int32)
    mismatches = []
    played = 0
    n_values = len(profile.bid_values)
    seen = dict.fromkeys(("made", "failed", "passed_out", *EXPECTED_BRANCHES[profile.name]), 0)
    seed = 0
    while played < N_DONNES:
        seed += 1
        dealer, n = _random_donne(seed, prof, hands, actions, cards, declare)
        _kernel_replay(hands, dealer, actions, n, cards, declare, prof, kout)
        acts = actions[:n].tolist()
        rout = _reference_out(profile, hands, dealer, acts, cards.tolist(), declare)
        if not np.array_equal(kout.astype(np.int64), rout):
            mismatches.append({"seed": seed, "kernel": kout.tolist(), "reference": rout.tolist()})
        if kout[O_STATUS] == 2:
            seen["passed_out"] += 1
            continue
        played += 1
        seen["made" if kout[O_MADE] else "failed"] += 1
        counts = {
            "coinche": kout[O_COINCHE] == 2,
            "surcoinche": kout[O_COINCHE] == 4,
            "decoinche": _is_decoinche(acts),
            "coinched_at_once": kout[O_COINCHE] == 2 and acts[-1] == 1,
            "capot_bid": kout[O_LEVEL] == n_values,
            "capot_made": max(kout[O_TRICKS], kout[O_TRICKS + 1]) == 8,
            "generale_bid": kout[O_LEVEL] == n_values + 1,
            "sa": kout[O_KIND] == 4,
            "ta": kout[O_KIND] == 5,
            "announcements": kout[O_ANN] + kout[O_ANN + 1] > 0,
            "belote": kout[O_BELOTE] + kout[O_BELOTE + 1] > 0,
            "litige": kout[O_LITIGE] == 1,
            "transfer_on_capot": (kout[O_ANN_FINAL] != kout[O_ANN]),
            "no_transfer_on_capot": (max(kout[O_TRICKS], kout[O_TRICKS + 1]) == 8
                                     and kout[O_ANN_FINAL] + kout[O_ANN_FINAL + 1] > 0
                                     and kout[O_ANN_FINAL] == kout[O_ANN]),
        }
        for branch in seen:
            if branch in counts:
                seen[branch] += bool(counts[branch])
    assert not mismatches, _show(mismatches)
    for branch, count in seen.items():
        assert count > 0, f"no {profile.name} donne exercised {branch}: {seen}"


@by_profile
def test_every_legal_auction_action_agrees_with_reference_along_random_auctions(profile):
    """At each state of 2,000 random auctions, the full set of legal codes agrees."""
    prof = profile.packed
    hands = np.zeros(4, dtype=np.uint32)
    actions = np.zeros(MAX_ACTIONS, dtype=np.int64)
    cards = np.zeros(32, dtype=np.int64)
    declare = np.zeros(4, dtype=np.uint8)
    n_codes = 8 + (len(profile.bid_values) + 3) * 6  # one level past the last one too
    mismatches = []
    states = 0
    for seed in range(1, 2001):
        dealer, n = _random_donne(seed, prof, hands, actions, cards, declare)
        ra = ref.Auction(dealer, profile)
        ks = np.zeros(auction.AUCTION_STATE_LEN, dtype=np.int32)
        auction.auction_start(ks, dealer)
        for i in range(n + 1):
            for code in range(n_codes):
                r, k = ra.check(code), int(auction.auction_check(ks, code, prof))
                if r != k:
                    mismatches.append((seed, i, code, r, k))
            states += 1
            if i < n:
                ra.apply(int(actions[i]))
                auction.auction_apply(ks, actions[i], prof)
    assert states > 2000
    assert not mismatches, _show(mismatches)


# --------------------------------------------------------------------------------------
# Announcements, scoring and partie on random inputs (reaching the rare branches)
# --------------------------------------------------------------------------------------


def _biased_hand(rng: random.Random) -> list[int]:
    """A random 8-card hand rich in carrés and runs (to exercise declarations)."""
    cards: set[int] = set()
    for r in rng.sample(range(8), rng.randrange(3)):
        cards |= {s * 8 + r for s in range(4)}
    while len(cards) < 8:
        s = rng.randrange(4)
        top = rng.randrange(2, 8)
        for r in range(top, max(-1, top - rng.randrange(1, 6)), -1):
            if len(cards) < 8:
                cards.add(s * 8 + r)
    return sorted(cards)[:8]


@by_profile
def test_declarations_and_team_comparison_match_reference(profile):
    rng = random.Random(5)
    prof = profile.packed
    out = np.zeros((announce.MAX_DECL, 5), dtype=np.int32)
    pts = np.zeros(2, dtype=np.int32)
    mismatches = []
    for _ in range(20_000):
        trump = rng.choice(profile.contract_kinds)
        hand = _biased_hand(rng)
        n = announce.best_declaration(np.uint32(to_mask(hand)), trump, prof, out)
        got = [tuple(int(x) for x in row) for row in out[:n]]
        want = [a.as_row() for a in ref.declaration(hand, trump, profile)]
        if got != want:
            mismatches.append(("declaration", hand, trump, got, want))
        hands = [_biased_hand(rng) for _ in range(4)]
        declare = [rng.random() < 0.8 for _ in range(4)]
        announce.team_announcements(np.array([to_mask(h) for h in hands], dtype=np.uint32),
                                    trump, np.array(declare, dtype=np.uint8), prof, pts)
        want_pts = ref.team_announcements(hands, trump, declare, profile).points
        if (int(pts[0]), int(pts[1])) != want_pts:
            mismatches.append(("team", hands, trump, declare, pts.tolist(), want_pts))
    assert not mismatches, _show(mismatches)


@by_profile
def test_scoring_and_partie_match_reference_on_random_inputs(profile):
    """Every level (générale included), kind, multiplier; litige and capot inputs."""
    rng = random.Random(9)
    prof = profile.packed
    out = np.zeros(scoring.SCORE_LEN, dtype=np.int32)
    capot_points = profile.capot_card_points
    mismatches = []
    for _ in range(50_000):
        t = rng.randrange(2)
        level = rng.randrange(profile.n_levels)
        kind = rng.choice(profile.contract_kinds)
        coinche = rng.choice((1, 2, 4) if profile.allow_surcoinche else (1, 2))
        tricks_t = rng.choice((0, 8, rng.randrange(9)))
        cp = [0, 0]
        if tricks_t == 8:
            cp[t] = capot_points
        elif tricks_t == 0:
            cp[1 - t] = capot_points
        else:
            cp[t] = rng.choice((81, rng.randrange(163)))
            cp[1 - t] = 162 - cp[t]
        tw = [0, 0]
        tw[t], tw[1 - t] = tricks_t, 8 - tricks_t
        own = rng.choice((tricks_t, rng.randrange(tricks_t + 1)))
        ann = [0, 0]
        if profile.announcements:
            ann[rng.randrange(2)] = rng.choice((0, 20, 40, 50, 100, 150, 220))
        bel = [rng.choice((0, 0, 20, 40)), rng.choice((0, 0, 20))]
        d = ref.score_donne(t, level, kind, coinche, cp, tw, ann, bel, profile, own)
        made = scoring.score_donne(t, level, kind, coinche, np.array(cp, dtype=np.int32),
                                   np.array(tw, dtype=np.int32),
                                   np.array(ann, dtype=np.int32),
                                   np.array(bel, dtype=np.int32), prof, out, own)
        got = (bool(made), (int(out[1]), int(out[2])), (int(out[3]), int(out[4])),
               (int(out[5]), int(out[6])), bool(out[scoring.S_LITIGE]))
        want = (d.made, d.marks, d.announcements, d.totals, d.litige)
        if got != want:
            mismatches.append((t, level, kind, coinche, cp, tw, own, ann, bel, got, want))
        totals = (rng.randrange(1500, 2100), rng.randrange(1500, 2100))
        pending = (rng.random() < 0.3 and totals[0] >= 2000,
                   rng.random() < 0.3 and totals[1] >= 2000)
        tot = np.array(totals, dtype=np.int32)
        pend = np.array(pending, dtype=np.int32)
        w = scoring.partie_step(tot, pend, np.array(d.marks, dtype=np.int32),
                                np.array(tw, dtype=np.int32), t, d.made, prof)
        got_p = (int(w), (int(tot[0]), int(tot[1])), (bool(pend[0]), bool(pend[1])))
        want_p = ref.partie_step(totals, pending, d.marks, tw, t, d.made, profile)
        if got_p != want_p:
            mismatches.append(("partie", totals, pending, d.marks, tw, t, got_p, want_p))
    assert not mismatches, _show(mismatches)


# --------------------------------------------------------------------------------------
# Deal side: annulment and the cards held at the auction
# --------------------------------------------------------------------------------------


@by_profile
def test_annulment_and_auction_hands_match_reference(profile):
    rng = random.Random(3)
    prof = profile.packed
    out = np.zeros(4, dtype=np.uint32)
    allowed = 0
    for _ in range(20_000):
        deck = list(range(32))
        rng.shuffle(deck)
        cut = rng.randrange(profile.cut_min, 33 - profile.cut_min)
        dealer = rng.randrange(4)
        annul.auction_hands(np.array(deck, dtype=np.int8), cut, dealer, prof, out)
        full, at_auction = ref.deal(deck, cut, dealer, profile)
        assert [set(from_mask(int(m))) for m in out] == at_auction
        assert all(len(h) == profile.auction_cards for h in at_auction)
        assert all(a <= f and len(f) == 8 for a, f in zip(at_auction, full, strict=True))
        # poor hands are rare at random: draw from the low cards half of the time
        pool = [c for c in range(32) if c & 7 in (0, 1, 2, 5)] if rng.random() < 0.5 else deck
        hand = rng.sample(pool, 8)
        k = bool(annul.annulment_allowed(np.uint32(to_mask(hand)), prof))
        assert k == ref.annulment_allowed(hand, profile), hand
        allowed += k
    assert (allowed > 0) == (profile.annul_max_points >= 0)
