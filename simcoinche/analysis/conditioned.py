"""Deals conditioned on an auction: what the other players bid says about their cards.

``odds(hand, auction="80H 90S")`` and :func:`simcoinche.analysis.advisor.advise` draw
the unseen cards in two steps:

1. exactly as :func:`simcoinche.analysis.hand_odds.deals` does (uniform among the deals
   consistent with the hand, ``give`` and ``void``; deal ``i`` of a seed is always the same);
2. keep deal ``i`` only if the model bidders (``players``, with their parameters) seated
   at the other seats would have made exactly the observed actions — the player's own
   past actions are given, not modelled (rejection sampling,
   :func:`simcoinche._kernels.auction_filter.filter_deals`).

Under the model, the kept deals are exact independent draws of the deal given everything
the player knows: their effective sample size is their number. The kept deals are the
first ``n`` accepted in index order, so they depend only on the seed, never on the thread
count or the chunking. The acceptance rate (kept / drawn) says how informative, or how
unlikely under the model, the auction is; when it is too low to reach ``n`` deals within
``max_draws`` draws the draw stops with a one-line :class:`~simcoinche.rules.errors.InputError`
suggesting fewer samples.

The auction uses ``simcoinche score``'s tokens (``pass``, ``80H``, ``90SA``, ``capotS``,
``coinche``, ``surcoinche``). Seats: the auction's first action is by ``dealer + 1``, and
the player is the seat to speak next, ``(dealer + 1 + len(auction)) % 4``; give either
``seat`` or ``dealer`` and the other follows (neither: seat 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from simcoinche.analysis import MAX_DRAWS
from simcoinche.players.faults import check_faults
from simcoinche.rules.actions import format_action, parse_actions
from simcoinche.rules.cards import parse_seat
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile
from simcoinche.runs.progress import progress_bar

#: Draws before the acceptance is trusted enough to project the draws still needed.
_PROJECT_AFTER = 1 << 20
_MAX_CHUNK = 1 << 20


@dataclass(frozen=True)
class ObservedAuction:
    """An auction in progress: who dealt, what was said, and who speaks now.

    Attributes
    ----------
    dealer : int
        Dealer seat; seat ``dealer + 1`` made the first action.
    seat : int
        The player: the seat to speak next.
    codes : tuple of int
        Action codes in order (:mod:`simcoinche.rules.actions`).
    profile : Profile
        The rules (the token spelling and legality depend on them; a profile built by
        hand keeps its own).
    """

    dealer: int
    seat: int
    codes: tuple[int, ...]
    profile: Profile

    @property
    def tokens(self) -> list[str]:
        """The actions in ``score``'s token spelling."""
        return [format_action(c, self.profile) for c in self.codes]

    def speaker(self, k: int) -> int:
        """Seat that made action ``k``."""
        return (self.dealer + 1 + k) % 4

    def describe(self) -> str:
        """``"80H (seat 0), 90S (seat 1)"`` or ``"none"``."""
        if not self.codes:
            return "none"
        return ", ".join(f"{t} (seat {self.speaker(k)})" for k, t in enumerate(self.tokens))

    def state(self):
        """The reference engine's :class:`~simcoinche.rules.reference.Auction` after the actions."""
        from simcoinche.rules.reference import Auction

        auc = Auction(self.dealer, self.profile)
        for c in self.codes:
            auc.apply(c)
        return auc

    def array(self) -> np.ndarray:
        """The codes as ``uint8[max(1, n)]`` for the kernels."""
        out = np.zeros(max(1, len(self.codes)), dtype=np.uint8)
        out[:len(self.codes)] = self.codes
        return out


def _tokens(auction: str | Iterable[str]) -> list[str]:
    if isinstance(auction, str):
        return auction.replace(",", " ").split()
    if not isinstance(auction, (list, tuple)):
        raise InputError(f"auction: expected tokens such as '80H' or 'pass' (a text or a "
                         f"list), got {auction!r}")
    items = list(auction)
    for t in items:
        if not isinstance(t, str):
            raise InputError(f"auction: expected tokens such as '80H' or 'pass', got {t!r}")
    return [t for item in items for t in item.replace(",", " ").split()]


def parse_auction(auction: str | Iterable[str], profile: str | Profile | None = "federal",
                  seat: int | None = None, dealer: int | None = None) -> ObservedAuction:
    """Check an auction in progress and place the player.

    Parameters
    ----------
    auction : str or iterable of str
        ``"pass 80H 90S"`` (spaces or commas) or ``["pass", "80H", "90S"]``; ``""`` for
        no action yet.
    profile : str or Profile
    seat, dealer : int, optional
        The player's seat and the dealer; the player must be the seat to speak next.

    Raises
    ------
    InputError
        An unknown token, an illegal action (naming it, its seat and why), an auction
        that is already over, or a seat that is not the next speaker.
    """
    from simcoinche.rules.reference import Auction, IllegalAction

    prof = get_profile(profile)
    tokens = _tokens(auction)
    codes = parse_actions(tokens, prof, "auction action {n}")
    n = len(codes)
    if seat is not None:
        seat = parse_seat(seat, "seat")
    if dealer is not None:
        dealer = parse_seat(dealer, "dealer")
    if seat is None and dealer is None:
        seat = 0
    if dealer is None:
        dealer = (seat - 1 - n) % 4
    nxt = (dealer + 1 + n) % 4
    if seat is None:
        seat = nxt
    text = " ".join(tokens) or '""'
    auc = Auction(dealer, prof)
    for k, code in enumerate(codes):
        try:
            auc.apply(code)
        except IllegalAction as exc:
            raise InputError(f"illegal auction {text!r}: action {k + 1} ({tokens[k]}) by "
                             f"seat {(dealer + 1 + k) % 4}: {exc.text}") from None
    if auc.status != "running":
        what = "the contract is fixed" if auc.status == "contract" else "it is passed out"
        raise InputError(f"the auction {text!r} is over ({what}): nothing is left to bid")
    if seat != nxt:
        raise InputError(f"seat {seat} is not the next speaker: with dealer {dealer}, seat "
                         f"{nxt} speaks after the auction {text!r}")
    return ObservedAuction(dealer, seat, tuple(codes), prof)


@dataclass
class KeptDeals:
    """Deals kept by the auction filter, in the order of their draw index.

    Attributes
    ----------
    hands : uint32[n, 4]
        The deals (8 cards per seat).
    early : uint32[n, 4]
        The cards each seat held at the auction (= ``hands`` unless the profile bids on
        fewer cards, stephanoise 6).
    draws : int
        Deals drawn to keep these (the index of the last kept one + 1).
    index : int64[n]
        The draw index of each kept deal (its random streams are keyed by it).
    """

    hands: np.ndarray
    early: np.ndarray
    draws: int
    index: np.ndarray

    @property
    def n(self) -> int:
        """Number of kept deals (also their effective sample size: independent draws)."""
        return int(self.hands.shape[0])

    @property
    def acceptance(self) -> float:
        """Share of the drawn deals that were kept."""
        return self.n / self.draws if self.draws else 1.0


def _others(auction: ObservedAuction) -> int:
    """The seats whose calls the model bidders must reproduce by default (bit ``s``):
    every seat but the player's."""
    return 0xF & ~(1 << auction.seat)


#: Blocks of :func:`simcoinche._kernels.auction_filter.filter_deals` a thread takes at a
#: time (:func:`simcoinche.runs.blocks.share_blocks`).
FILTER_BLOCKS_PER_TASK = 16


def _filter(d, auction: ObservedAuction, key: np.uint64, start: int, size: int,
            modelled: int, prof: Profile, codes: np.ndarray, rows: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Deals ``start .. start+size-1`` through the auction filter
    (:func:`simcoinche._kernels.auction_filter.filter_deals`): ``hands``, ``early``,
    ``keep`` and ``faults`` (the kernel's outputs, every deal drawn)."""
    from simcoinche._kernels.auction_filter import BLOCK, FilterOutputs, filter_deals
    from simcoinche._kernels.donne import Players
    from simcoinche._kernels.kinds import kinds_of
    from simcoinche._kernels.sampler import DealPool
    from simcoinche.runs.blocks import share_blocks

    hands = np.empty((size, 4), dtype=np.uint32)
    early = np.empty((size, 4), dtype=np.uint32)
    keep = np.empty(size, dtype=np.uint8)
    faults = np.empty(size, dtype=np.int32)
    pool = DealPool(d.known, d.free, d.seats, d.caps, d.table, d.cum, d.pick)
    # The model bidders compile only the optional kinds the model players are.
    players = Players(codes, rows, kinds_of(codes))
    observed = auction.array()
    outs = FilterOutputs(hands, early, keep, faults)

    def run(first: int, end: int) -> None:
        filter_deals(key, np.int64(start), np.int64(size), (np.int64(first), np.int64(end)),
                     pool, np.int64(auction.dealer), observed, np.int64(len(auction.codes)),
                     np.int64(modelled), players, prof.packed, outs)

    # 16 blocks per task (8,192 deals): each call of the kernel from a thread costs about
    # 0.1 ms of argument typing under the GIL (1 block per task ran 15 % slower than 4);
    # 16 measured as fast as 4 and makes a quarter of the calls.
    share_blocks(-(-size // BLOCK), run, per_task=FILTER_BLOCKS_PER_TASK)
    return hands, early, keep, faults


def check_model_bidders(codes: np.ndarray, rows: np.ndarray) -> None:
    """Refuse a model player that thinks at the auction (one line).

    The model players explain the auction and finish it with their own bidders
    (:func:`simcoinche._kernels.auction_filter.model_action`); a PIMC player's thinking
    bidder (``bid_worlds`` > 0, :mod:`simcoinche._kernels.think_bid`) is never one of
    them, since it would think on every deal drawn. Such a player is refused, rather than
    modelled by its data-fitted bidder without a word.

    Raises
    ------
    InputError
        If a team's player is ``pimc`` with ``bid_worlds`` above 0.
    """
    from simcoinche._kernels.players import PM_BID_WORLDS
    from simcoinche.runs.simulation import thinking_teams

    thinking = thinking_teams(codes, rows)
    if thinking:
        t = thinking[0]
        raise InputError(
            f"players: team {t}'s pimc thinks at the auction "
            f"(bid_worlds={rows[t, PM_BID_WORLDS]:g}); the model players that explain "
            "the auction bid with their own bidder, never a thinking one: drop "
            "bid_worlds here")


def warm_filter(d, auction: ObservedAuction, prof: Profile, codes: np.ndarray,
                rows: np.ndarray) -> KeptDeals:
    """Run the auction filter on one deal, with the argument types of :func:`draw_kept`,
    so that its kernel is compiled (or loaded) before timed work
    (:func:`simcoinche.runs.compiling.prepare_kernels`). Returns that deal, kept or not
    (its hands serve to warm the kernels that follow the filter)."""
    hands, early, _, _ = _filter(d, auction, np.uint64(0), 0, 1, _others(auction), prof,
                                 codes, rows)
    return KeptDeals(hands, early, 1, np.zeros(1, dtype=np.int64))


def draw_kept(d, auction: ObservedAuction, n: int, seed: int, prof: Profile,
              codes: np.ndarray, rows: np.ndarray, max_draws: int = MAX_DRAWS,
              modelled: int | None = None, progress: bool | None = None,
              names: Sequence[str] | None = None) -> KeptDeals:
    """The first ``n`` deals of ``seed`` that the model bidders agree with.

    Parameters
    ----------
    d : simcoinche.analysis.hand_odds.Deals
        The constraints and the exact sampler.
    auction : ObservedAuction
    n : int
        Deals to keep.
    seed : int
    prof : Profile
    codes : int32[2], rows : float64[2, PARAM_LEN]
        Model players per team and their parameter rows.
    max_draws : int
        Stop (InputError) when reaching ``n`` would need more draws than this.
    modelled : int, optional
        Seats whose actions the model must reproduce (bit ``s``); default every seat
        but the player's. Tests pass a wrong mask to show that the check notices.
    progress : bool, optional
    names : sequence of str, optional
        The model players' kind names per team, naming them in the error of a replaced
        call (default: named from their kernel codes).

    Raises
    ------
    InputError
        When the acceptance is too low for ``n`` deals within ``max_draws`` draws.
    """
    from simcoinche._kernels.rng import seed_key
    from simcoinche.runs.simulation import positive_int

    max_draws = positive_int(max_draws, "max_draws")
    if modelled is None:
        modelled = _others(auction)
    key = np.uint64(seed_key(np.uint64(seed)))
    kept_h: list[np.ndarray] = []
    kept_i: list[np.ndarray] = []
    kept_e: list[np.ndarray] = []
    kept = 0
    drawn = 0
    last = 0
    chunk = n if not auction.codes else min(_MAX_CHUNK, max(1 << 16, n))
    with progress_bar(n, progress, "kept", desc="auction filter") as bar:
        while kept < n:
            size = min(chunk, max_draws - drawn)
            hands, early, keep, faults = _filter(d, auction, key, drawn, size, modelled,
                                                 prof, codes, rows)
            # A model call the kernel had to replace fails the run (issue 20).
            check_faults(faults, codes if names is None else names, prof,
                         lambda i, drawn=drawn: f"deal {drawn + i}")
            idx = np.flatnonzero(keep)[:n - kept]
            if idx.size:
                last = drawn + int(idx[-1]) + 1
            kept_h.append(hands[idx])
            kept_i.append(drawn + idx.astype(np.int64))
            kept_e.append(early[idx])
            kept += idx.size
            drawn += size
            bar.update(idx.size)
            if kept >= n:
                break
            if drawn >= _PROJECT_AFTER or drawn >= max_draws:
                need = drawn * n / kept if kept else float("inf")
                if need > max_draws:
                    _too_few(auction, kept, drawn, n, max_draws)
            # Next chunk: enough for the deals still missing at the acceptance so far.
            rate = max(kept, 1) / drawn
            chunk = int(min(_MAX_CHUNK, max(1 << 16, 1.2 * (n - kept) / rate)))
    return KeptDeals(np.concatenate(kept_h), np.concatenate(kept_e), last,
                     np.concatenate(kept_i))


def _too_few(auction: ObservedAuction, kept: int, drawn: int, n: int, max_draws: int):
    acc = kept / drawn
    if kept == 0:
        raise InputError(f"no deal of {drawn:,} drawn makes the model players bid "
                         f"{auction.describe()}: the auction is too unlikely under the "
                         "model for these constraints")
    suggest = max(1, int(0.9 * max_draws * acc))
    raise InputError(f"acceptance too low: {kept:,} of {drawn:,} drawn deals match the "
                     f"auction ({100 * acc:.3g} %), so {n:,} samples would need about "
                     f"{drawn * n / kept:,.0f} draws, over the limit of {max_draws:,}; ask "
                     f"for at most {suggest:,} samples")
