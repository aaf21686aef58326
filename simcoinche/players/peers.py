"""The peer engine's bots as opponents: ``colver-ismcts`` and ``colver-isdd``.

colver (PyPI, Rust; the optional extra ``peers``: ``pip install 'simcoinche[peers]'``)
is the yardstick engine. Two of its fair bots play federal donnes inside simcoinche's
engine, through the Python donne sequencer (:class:`simcoinche.players.table.Table`):

``colver-ismcts[:time=S]``
    colver's smart IS-MCTS (``Env.action_smart_ismcts``: belief-weighted worlds, MCTS
    with heuristic rollouts in each), ``S`` seconds per card (default 0.05). colver
    scales that budget by the cards the seat still holds (``S × cards / 8``: the full
    budget for the first card, an eighth for the last), so a donne's mean is about
    ``0.56 × S`` per card.
``colver-isdd[:worlds=N]``
    colver's IS-DD agent (``Agent`` with ``[play] method = "isdd"``: ``N`` worlds drawn
    uniformly among the deals consistent with what the seat saw (``[worlds] source =
    "uniform"``, no downloaded weights, no belief net), each solved double dummy, the
    card with the best mean played), in count mode (``time_ms = 0``: exactly ``N``
    worlds however long they take) and on one thread (``parallel = false``). Default
    ``N`` = 8.

Both bid with colver's ``Env.bid_improved`` (its rule bidder ``improved_v2``, the one
both bots use in colver's arena).

How a decision is made. At each auction action or card of a colver seat, the adapter
builds a fresh colver ``Env`` that mirrors the donne as that seat knows it —
``Env.deal_with_hands``-style dealing (``Env.deal(dealer, seed)`` then
``redeal_with_hands``, which keeps the seeded generator), then every auction action and
every card played so far stepped in order (colver's auction and card rules are the
federal ones: same legal actions on every position, checked by ``tests/test_peers.py``)
— asks colver for the action, maps it back to simcoinche's codes, and checks it with
simcoinche's own rules (:func:`simcoinche._kernels.play.legal_mask`,
:func:`simcoinche._kernels.auction.auction_check`). An illegal answer raises
:class:`IllegalPeerAction` naming the bot, the seat, the donne and the card; it is never
replaced. The sequencer checks every Python player's answer once more.

Fairness (the bot sees only what its seat may see). A colver ``Env`` holds all four
hands, and colver's search reads its ``GameState``. So the mirror never holds the other
seats' real cards: each other seat's hand in the mirror is the cards it has already
played (public) plus a *filler* drawn from the cards the colver seat cannot see, with the
right count and no card of a suit the seat has shown it lacks (simcoinche's public void
inference). The filler is a function of public information, the seat's own hand and a
seeded generator only, so whatever colver reads from the ``Env`` it can learn nothing
about the hidden cards: cheating is impossible by construction, whatever colver's
internals do. (colver's own searches resample those cards anyway: IS-MCTS from its
belief weights, IS-DD from its uniform world source.) colver's ``action_heuristic_play``
and ``action_maxi_play`` see all four hands and are not offered. What colver does not get:
simcoinche's announcements (colver's game has no carrés or suites), so the cards shown in
them after the 5th card are not passed on — less than the seat may know, never more.

Reproducibility. Every colver call is seeded from (run seed, donne, seat, decision
number): ``colver-isdd`` (count mode) is then deterministic, a match replays exactly.
``colver-ismcts`` stops on a clock (colver's IS-MCTS has no count mode through its API),
so how many worlds and iterations it searches depends on the machine's speed and load:
its runs are *not* reproducible move for move, only in distribution.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcoinche._kernels.auction import auction_check
from simcoinche._kernels.play import legal_mask
from simcoinche.players.registry import parse_spec_params
from simcoinche.players.table import IllegalPlayerAction, SeatView, Timing
from simcoinche.rules.actions import AUCTION_REASONS, format_action
from simcoinche.rules.cards import format_card
from simcoinche.rules.errors import InputError, RunError
from simcoinche.rules.profiles import FEDERAL, Profile, get_profile, rules_changed

INSTALL_HINT = "pip install 'simcoinche[peers]'"

# colver's rank order within a suit is 7 8 9 J Q K T A; ours 7 8 9 T J Q K A.
COLVER_RANK_TO_OURS = (0, 1, 2, 4, 5, 6, 3, 7)
OURS_RANK_TO_COLVER = tuple(COLVER_RANK_TO_OURS.index(r) for r in range(8))

# colver's auction actions: 0 pass, 1..40 bids (value index * 4 + suit + 1; values 80..160
# then capot), 41 coinche, 42 surcoinche. Ours: 0 pass, 1 coinche, 2 surcoinche, a bid
# 8 + level * 6 + kind (federal levels 0..8 = 80..160, 9 = capot; kinds 0..3 = S H D C).
COLVER_PASS, COLVER_COINCHE, COLVER_SURCOINCHE = 0, 41, 42
N_COLVER_LEVELS = 10

#: The bid function both bots use.
BID_FUNCTION = "improved_v2"


@dataclass(frozen=True)
class PeerParam:
    """One parameter of a peer bot: default, bounds, whether it is an integer, meaning."""

    name: str
    default: float
    low: float
    high: float
    integer: bool
    description: str


@dataclass(frozen=True)
class PeerKind:
    """A colver bot offered as a player."""

    name: str
    description: str
    params: tuple[PeerParam, ...]


ISMCTS = PeerKind(
    "colver-ismcts",
    "colver's smart IS-MCTS (Env.action_smart_ismcts), bids with colver's bid_improved",
    (PeerParam("time", 0.05, 0.001, 10.0, False,
               "seconds per card with 8 cards in hand (colver scales it by cards/8)"),),
)
ISDD = PeerKind(
    "colver-isdd",
    "colver's IS-DD Agent (uniform worlds, N determinizations, count mode, one thread), "
    "bids with colver's bid_improved",
    (PeerParam("worlds", 8, 1, 1000, True, "worlds (determinizations) solved per card"),),
)
PEERS: dict[str, PeerKind] = {p.name: p for p in (ISMCTS, ISDD)}


@dataclass(frozen=True)
class PeerSpec:
    """A parsed peer player spec: its kind and every parameter's value."""

    kind: str
    params: tuple[tuple[str, float], ...]
    overrides: tuple[tuple[str, float], ...] = ()

    @property
    def values(self) -> dict[str, float]:
        return dict(self.params)

    @property
    def name(self) -> str:
        """Canonical spec text (``colver-ismcts``, ``colver-ismcts:time=0.02``)."""
        if not self.overrides:
            return self.kind
        items = []
        for name, v in self.overrides:
            text = f"{v:g}"
            if float(text) != v:
                text = repr(v)
            items.append(f"{name}={text}")
        return self.kind + ":" + ",".join(items)


def is_peer(spec: str) -> bool:
    """Whether the player spec names a peer bot (``colver-…``); a misspelt one is not,
    and the player registry's error names colver's bots
    (:func:`simcoinche.players.registry.get_player`)."""
    return isinstance(spec, str) and spec.partition(":")[0].strip().lower() in PEERS


def parse_peer_spec(spec: str) -> PeerSpec:
    """A peer spec from ``"colver-ismcts"`` or ``"colver-isdd:worlds=16"``.

    Raises
    ------
    InputError
        For an unknown kind or parameter, a malformed ``name=value`` or a value out of
        range.
    """
    kind_text, sep, rest = spec.partition(":")
    key = kind_text.strip().lower()
    if key not in PEERS:
        raise InputError(f"unknown peer player {kind_text!r}; available: " + ", ".join(PEERS))
    kind = PEERS[key]
    by_name = {p.name: p for p in kind.params}
    overrides = parse_spec_params(spec, rest) if sep else {}
    for name, number in overrides.items():
        if name not in by_name:
            raise InputError(f"unknown parameter {name!r} of player {kind.name}; known: "
                             + ", ".join(by_name))
        p = by_name[name]
        if not (p.low <= number <= p.high) or (p.integer and number != int(number)):
            what = "an integer" if p.integer else "a number"
            raise InputError(f"player {spec!r}: parameter {name!r} must be {what} in "
                             f"{p.low:g}..{p.high:g}, got {number:g}")
    values = {p.name: overrides.get(p.name, float(p.default)) for p in kind.params}
    return PeerSpec(kind.name, tuple(values.items()), tuple(overrides.items()))


def require_colver() -> Any:
    """The ``colver`` module.

    Raises
    ------
    InputError
        When colver is not installed (one line saying how to install it).
    """
    try:
        import colver
    except ImportError:
        raise InputError("colver players need the peer engine colver: "
                         f"{INSTALL_HINT}") from None
    return colver


def check_profile(profile: str | Profile | None) -> Profile:
    """The profile, which must play federal's rules (colver plays them only; a copy that
    only renames federal passes, one built by hand that changes a rule does not).

    Raises
    ------
    InputError
        For another profile, or a federal built by hand, naming what it changes.
    """
    prof = get_profile(profile)
    changed = rules_changed(prof, FEDERAL, partie=False)  # (matches of deals only)
    if changed:
        what = (f"profile {prof.name}" if prof.name != FEDERAL.name else
                f"this federal built by hand, which changes {', '.join(changed)}")
        raise InputError(f"colver players play federal rules only; got {what}")
    return prof


# --- encodings ----------------------------------------------------------------------------


def to_colver_card(card: int) -> int:
    """Our card index → colver's."""
    return (card >> 3) * 8 + OURS_RANK_TO_COLVER[card & 7]


def from_colver_card(card: int) -> int:
    """colver's card index → ours."""
    return (card >> 3) * 8 + COLVER_RANK_TO_OURS[card & 7]


def to_colver_action(code: int) -> int:
    """Our federal auction action code → colver's."""
    if code == 0:
        return COLVER_PASS
    if code == 1:
        return COLVER_COINCHE
    if code == 2:
        return COLVER_SURCOINCHE
    level, kind = divmod(code - 8, 6)
    if code < 8 or kind > 3 or level >= N_COLVER_LEVELS:
        raise ValueError(f"auction code {code} has no colver equivalent")
    return 1 + level * 4 + kind


def from_colver_action(action: int) -> int:
    """colver's auction action → our federal code (``ValueError`` outside 0..42)."""
    if action == COLVER_PASS:
        return 0
    if action == COLVER_COINCHE:
        return 1
    if action == COLVER_SURCOINCHE:
        return 2
    if not 1 <= action <= 4 * N_COLVER_LEVELS:
        raise ValueError(f"colver auction action {action} is not one (0..42)")
    level, kind = divmod(action - 1, 4)
    return 8 + level * 6 + kind


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if (mask >> c) & 1]


# --- the adapter --------------------------------------------------------------------------


class IllegalPeerAction(IllegalPlayerAction):
    """colver answered an action simcoinche's rules forbid."""


def _isdd_spec(worlds: int) -> str:
    return ("[bid]\n"
            f'strategy = "{BID_FUNCTION}"\n'
            "[play]\n"
            'method = "isdd"\n'
            "time_ms = 0\n"
            f"determinizations = {worlds}\n"
            "parallel = false\n"
            "[worlds]\n"
            'source = "uniform"\n')


class ColverPlayer:
    """A colver bot seated for one team of a :class:`~simcoinche.players.table.Table`.

    Parameters
    ----------
    spec : PeerSpec or str
        Which bot, with its parameters.
    run_key : int
        The run's key (:func:`simcoinche._kernels.rng.seed_key` of the seed): colver's
        generators are seeded from it, the donne, the seat and the decision number.
    """

    def __init__(self, spec: PeerSpec | str, run_key: int) -> None:
        self.colver = require_colver()
        self.spec = parse_peer_spec(spec) if isinstance(spec, str) else spec
        self.name = self.spec.name
        self.run_key = int(run_key)
        self.prof = FEDERAL.packed
        self.timing = Timing()
        values = self.spec.values
        if self.spec.kind == ISMCTS.name:
            self.time_ms = max(1, round(values["time"] * 1000))
        else:
            self.agent_spec = _isdd_spec(int(values["worlds"]))

    # -- seeds and the mirror ---------------------------------------------------------

    def _seed(self, view: SeatView, what: int) -> int:
        """64-bit seed of one decision (``what`` separates the filler from colver)."""
        n = len(view.auction) + len(view.plays)
        data = f"{self.run_key}:{view.index}:{view.seat}:{n}:{what}".encode()
        return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")

    def _hands(self, view: SeatView) -> list[list[int]]:
        """The four dealt hands of the mirror (colver encoding): the seat's own, and for
        every other seat its played cards plus a filler (see the module docstring)."""
        rng = random.Random(self._seed(view, 1))
        leader = (view.dealer + 1) & 3
        by_seat: list[list[int]] = [[], [], [], []]
        trick: list[int] = []
        kind = view.contract[2] if view.contract else -1
        for c in view.plays:
            seat = (leader + len(trick)) & 3
            by_seat[seat].append(c)
            trick.append(c)
            if len(trick) == 4:
                leader = (leader + _trick_winner(trick, kind)) & 3
                trick = []
        known = view.dealt
        for c in view.plays:
            known |= 1 << c
        pool = [c for c in range(32) if not (known >> c) & 1]
        others = [s for s in range(4) if s != view.seat]
        need = {s: 8 - len(by_seat[s]) for s in others}
        fill = _fill(pool, others, need, view.voids, rng)
        hands = []
        for s in range(4):
            cards = _cards(view.dealt) if s == view.seat else by_seat[s] + fill[s]
            hands.append(sorted(to_colver_card(c) for c in cards))
        return hands

    def _mirror(self, view: SeatView, agent: Any = None) -> Any:
        """A colver Env at ``view``'s position (and ``agent`` told every action)."""
        col = self.colver
        env = col.Env.deal(dealer=view.dealer, seed=self._seed(view, 2))
        env.redeal_with_hands(view.dealer, self._hands(view))
        smart = agent is None and self.spec.kind == ISMCTS.name
        if smart:
            env.smart_ismcts_init()
        elif agent is not None:
            agent.init_deal(env)
        history = [to_colver_action(a) for a in view.auction]
        history += [to_colver_card(c) for c in view.plays]
        for a in history:
            if smart:
                env.smart_ismcts_step(a)
            else:
                if agent is not None:
                    agent.observe(env, a)
                env.step(a)
        phase = 0 if view.contract is None else 1
        if env.current_player() != view.seat or env.phase() != phase:
            raise RunError(f"{self.name}: colver's mirror of donne {view.index} is out of "
                           f"step (colver: seat {env.current_player()}, phase {env.phase()}; "
                           f"simcoinche: seat {view.seat}, phase {phase})")
        mine = sorted(env.get_hands()[view.seat])
        if mine != sorted(to_colver_card(c) for c in _cards(view.hand)):
            raise RunError(f"{self.name}: colver's mirror of donne {view.index} holds other "
                           f"cards for seat {view.seat}")
        return env

    # -- SeatPlayer ----------------------------------------------------------------------

    def bid(self, view: SeatView) -> int:
        """colver's ``bid_improved`` at this auction position, checked by the federal
        auction."""
        t0 = time.perf_counter()
        env = self._mirror(view)
        t1 = time.perf_counter()
        answer = env.bid_improved()
        t2 = time.perf_counter()
        self.timing.bids += 1
        self.timing.bid_seconds += t2 - t1
        self.timing.mirror_seconds += t1 - t0
        return self.check_bid(view, answer)

    def card(self, view: SeatView) -> int:
        """colver's card at this position, checked by simcoinche's legal-card rules."""
        t0 = time.perf_counter()
        if self.spec.kind == ISMCTS.name:
            env = self._mirror(view)
            t1 = time.perf_counter()
            answer = env.action_smart_ismcts(self.time_ms)
        else:
            agent = self.colver.Agent(self.agent_spec, view.seat, self._seed(view, 3))
            env = self._mirror(view, agent)
            t1 = time.perf_counter()
            answer = agent.decide(env)["action"]
        t2 = time.perf_counter()
        self.timing.cards += 1
        self.timing.card_seconds += t2 - t1
        self.timing.mirror_seconds += t1 - t0
        return self.check_card(view, answer)

    # -- checks (simcoinche's own rules) -------------------------------------------------

    def _where(self, view: SeatView) -> str:
        if view.contract is None:
            return (f"{self.name} (seat {view.seat}, donne {view.index}, auction action "
                    f"{len(view.auction) + 1})")
        n = len(view.plays)
        return (f"{self.name} (seat {view.seat}, donne {view.index}, trick {n // 4 + 1}, "
                f"card {n % 4 + 1} of the trick)")

    def check_bid(self, view: SeatView, answer: Any) -> int:
        """Our code of colver's auction answer, or :class:`IllegalPeerAction`."""
        try:
            code = from_colver_action(int(answer))
        except (TypeError, ValueError):
            raise IllegalPeerAction(f"{self._where(view)} answered {answer!r}, not a colver "
                                    "auction action (0..42)") from None
        r = int(auction_check(view.astate, np.int64(code), self.prof))
        if r != 0:
            why = AUCTION_REASONS.get(r, f"reason {r}").replace("{current}", "the current bid")
            raise IllegalPeerAction(f"{self._where(view)} answered "
                                    f"{format_action(code, FEDERAL)} (colver action {answer}): "
                                    f"{why}")
        return code

    def check_card(self, view: SeatView, answer: Any) -> int:
        """Our card of colver's answer if simcoinche's ``legal_mask`` allows it, else
        :class:`IllegalPeerAction`."""
        try:
            a = int(answer)
        except (TypeError, ValueError):
            a = -1
        if not 0 <= a <= 31:
            raise IllegalPeerAction(f"{self._where(view)} answered {answer!r}, not a colver "
                                    "card (0..31)")
        card = from_colver_card(a)
        n = len(view.plays) % 4
        trick = np.array(view.plays[len(view.plays) - n:] + [0] * (4 - n), dtype=np.int32)
        kind = view.contract[2]
        legal = int(legal_mask(np.uint32(view.hand), trick, np.int64(n), np.int64(kind),
                               self.prof))
        if not (legal >> card) & 1:
            raise IllegalPeerAction(
                f"{self._where(view)} answered {format_card(card)} (colver card {a}), not a "
                "legal card (legal: " + " ".join(format_card(c) for c in _cards(legal)) + ")")
        return card


def _trick_winner(trick: list[int], kind: int) -> int:
    """Position of the winning card of a complete trick (our encoding, suit contract)."""
    from simcoinche._kernels.play import trick_winner

    return int(trick_winner(np.array(trick, dtype=np.int32), np.int64(4), np.int64(kind),
                            FEDERAL.packed))


def _fill(pool: list[int], seats: list[int], need: Mapping[int, int],
          voids: tuple[int, ...] | list[int], rng: random.Random) -> dict[int, list[int]]:
    """Deal ``pool`` to ``seats``: ``need[s]`` cards each, none of a suit ``s`` has shown
    it lacks (``voids[s]``, bit = suit), each card to a seat drawn from ``rng`` among those
    that keep the rest feasible.

    Feasibility is Hall's condition for this transportation problem: for every set ``T``
    of seats, the cards that only seats of ``T`` may receive number at most what ``T``
    still needs. Checking it before each placement means no dead end (and no search).
    The real hands satisfy it, so a filler always exists.
    """
    cards = list(pool)
    rng.shuffle(cards)
    k = len(seats)
    elig = [sum(1 << i for i, s in enumerate(seats) if not (voids[s] >> (c >> 3)) & 1)
            for c in cards]
    left = [need[s] for s in seats]
    count = [0] * (1 << k)
    for m in elig:
        count[m] += 1
    subsets = range(1, 1 << k)

    def feasible() -> bool:
        if count[0]:
            return False
        for t in subsets:
            have = sum(left[i] for i in range(k) if (t >> i) & 1)
            must = sum(count[m] for m in range(1, 1 << k) if m & ~t == 0)
            if must > have:
                return False
        return True

    if sum(left) != len(cards) or not feasible():
        raise RunError("no filler deal is consistent with the voids shown (a bug)")
    out: dict[int, list[int]] = {s: [] for s in seats}
    for c, m in zip(cards, elig, strict=True):
        count[m] -= 1
        options = [i for i in range(k) if (m >> i) & 1 and left[i] > 0]
        rng.shuffle(options)
        for i in options:
            left[i] -= 1
            if feasible():
                out[seats[i]].append(c)
                break
            left[i] += 1
        else:
            raise RunError("no filler deal is consistent with the voids shown (a bug)")
    return out
