"""Check and score one recorded donne (the engine behind ``simcoinche score``).

Input: a JSON object ``{"profile", "dealer", "hands", "auction", "play", "declare"}``
(``profile`` — any name ``simcoinche profiles`` lists — and ``declare`` optional). The
donne is replayed with the reference engine
(:func:`simcoinche.rules.reference.replay_donne`); the output object says whether every action
was legal, names the first illegal one, and gives the result of a complete donne.
Malformed input raises :class:`~simcoinche.rules.errors.InputError` (one line naming the
culprit); an illegal action is not an input error: it is reported in the output.

Profile-specific output: with a générale in the profile (classic, strict) the
``contract`` object also has ``"generale"`` (bool); with a litige (classic) the output
ends with ``"litige"`` (bool for a complete donne, else null). ``hands`` are always the
full 8-card hands (stephanoise: the 6 held at the auction plus the 2 dealt after it).
"""

from __future__ import annotations

import json
from typing import Any

from simcoinche.rules.actions import AUCTION_REASONS, parse_actions
from simcoinche.rules.cards import (
    CARDS_PER_HAND,
    CONTRACT_KIND_NAMES,
    N_CARDS,
    RANKS,
    SUITS,
    format_card,
    parse_card,
)
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import DEFAULT_PROFILE, Profile, get_profile
from simcoinche.rules.reference import (
    CONTRACT,
    PASSED_OUT,
    Announcement,
    DonneReplay,
    replay_donne,
)

__all__ = ["AUCTION_REASONS", "contract_object", "error_object", "parse_hands", "parse_record",
           "validate_record", "verify_record"]

REQUIRED_KEYS = ("dealer", "hands", "auction", "play")
OPTIONAL_KEYS = ("profile", "declare")


def parse_record(text: str) -> dict:
    """Parse the JSON text of a donne record.

    Raises
    ------
    InputError
        When the text is not JSON (or not text: ``None``, bytes that are not UTF-8) or
        not a JSON object.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"invalid JSON: not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise InputError(f"the donne must be JSON text, got {type(text).__name__}")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply") from None
    except ValueError:
        # Python refuses to read an integer of more than 4,300 digits.
        raise InputError("invalid JSON: a number has more than 4,300 digits") from None
    if not isinstance(record, dict):
        raise InputError(f"the donne must be a JSON object, not {type(record).__name__}")
    return record


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _card(text: Any, where: str) -> int:
    try:
        return parse_card(text)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def parse_hands(hands_in: Any) -> list[list[int]]:
    """The four 8-card hands of a record (lists of card texts) as card indices.

    Raises
    ------
    InputError
        Not 4 lists, a hand without 8 cards, an unknown or duplicate card (the message
        names it: ``hands[1][3]: duplicate card JH (also hands[0][0])``).
    """
    hands_in = _list(hands_in, "hands")
    if len(hands_in) != 4:
        raise InputError(f"hands: expected 4 hands, got {len(hands_in)}")
    seen: dict[int, str] = {}
    hands: list[list[int]] = []
    for s, hand in enumerate(hands_in):
        hand = _list(hand, f"hands[{s}]")
        if len(hand) != CARDS_PER_HAND:
            raise InputError(f"hands[{s}]: expected {CARDS_PER_HAND} cards, got {len(hand)}")
        cards = []
        for i, text in enumerate(hand):
            where = f"hands[{s}][{i}]"
            c = _card(text, where)
            if c in seen:
                raise InputError(f"{where}: duplicate card {format_card(c)} "
                                 f"(also {seen[c]})")
            seen[c] = where
            cards.append(c)
        hands.append(cards)
    return hands


def validate_record(record: dict) -> dict:
    """Check the record's shape and parse it; return profile, dealer, hands, codes, play…"""
    for key in record:
        if key not in REQUIRED_KEYS + OPTIONAL_KEYS:
            raise InputError(f"unknown key {key!r}; expected: "
                             + ", ".join(OPTIONAL_KEYS[:1] + REQUIRED_KEYS + OPTIONAL_KEYS[1:]))
    for key in REQUIRED_KEYS:
        if key not in record:
            raise InputError(f"missing key {key!r}")
    prof_name = record.get("profile", DEFAULT_PROFILE)
    if not isinstance(prof_name, str):
        raise InputError(f"profile: expected a profile name, got {prof_name!r}")
    profile = get_profile(prof_name)

    dealer = record["dealer"]
    if not _is_int(dealer) or not 0 <= dealer <= 3:
        raise InputError(f"dealer: expected a seat 0..3, got {dealer!r}")

    hands = parse_hands(record["hands"])

    tokens = _list(record["auction"], "auction")
    codes = parse_actions(tokens, profile)

    play_in = _list(record["play"], "play")
    if len(play_in) > N_CARDS:
        raise InputError(f"play: {len(play_in)} cards played, at most {N_CARDS}")
    play = [_card(text, f"play[{i}]") for i, text in enumerate(play_in)]

    declare = record.get("declare", [True] * 4)
    if (not isinstance(declare, list) or len(declare) != 4
            or not all(isinstance(x, bool) for x in declare)):
        raise InputError(f"declare: expected a list of 4 true/false values, got {declare!r}")

    return {"profile": profile, "dealer": dealer, "hands": hands, "tokens": tokens,
            "codes": codes, "play": play, "declare": declare}


def _ann_json(a: Announcement) -> dict:
    return {"seat": a.seat, "kind": a.kind, "rank": RANKS[a.rank],
            "suit": None if a.suit is None else SUITS[a.suit],
            "length": a.length, "points": a.points}


def error_object(rep: DonneReplay, r: dict) -> dict | None:
    """The ``error`` object of a replay: ``{"phase", "index", "action", "reason"}`` of the
    first illegal action (``r`` is :func:`validate_record`'s result), or ``None``."""
    if rep.error is None:
        return None
    e = rep.error
    if e.phase == "auction":
        action = r["tokens"][e.index]
    else:
        action = format_card(r["play"][e.index])
    return {"phase": e.phase, "index": e.index, "action": action, "reason": e.reason}


def contract_object(rep: DonneReplay, profile: Profile) -> dict | None:
    """The ``contract`` object of a replay (``None`` unless the auction fixed one):
    taker, value, suit (a contract kind name), capot, coinche, and ``generale`` for the
    profiles that have one."""
    auc = rep.auction
    if auc.status != CONTRACT:
        return None
    contract = {"taker": auc.bidder, "value": auc.value,
                "suit": CONTRACT_KIND_NAMES[auc.kind], "capot": auc.capot,
                "coinche": auc.coinche}
    if profile.generale_value:
        # Profiles with a générale (classic, strict) say whether the contract is one.
        contract["generale"] = auc.generale
    return contract


def verify_record(record: dict) -> tuple[dict, int]:
    """Replay and score one donne record.

    Parameters
    ----------
    record
        The parsed JSON object (see the module docstring).

    Returns
    -------
    (output, status)
        ``output`` is the JSON-ready result object (keys in the documented order);
        ``status`` is 0 when every action is legal, 1 when one is illegal.

    Raises
    ------
    InputError
        For malformed input (unknown or missing key, unknown card, duplicate card, wrong
        number of cards, bad seat, bad ``declare``, unknown token or profile, more than 32
        cards played).
    """
    if not isinstance(record, dict):
        raise InputError(f"the donne must be a JSON object, not {type(record).__name__}")
    r = validate_record(record)
    profile = r["profile"]
    rep = replay_donne(r["hands"], r["dealer"], r["codes"], r["play"], r["declare"], profile)
    auc = rep.auction

    error = error_object(rep, r)
    contract = contract_object(rep, profile)

    out: dict[str, Any] = {
        "legal": error is None,
        "error": error,
        "passed_out": auc.status == PASSED_OUT,
        "contract": contract,
        "tricks": [{"leader": t.leader, "cards": [format_card(c) for c in t.cards],
                    "winner": t.winner} for t in rep.tricks],
        "tricks_won": None,
        "card_points": None,
        "announcements": None,
        "announcement_points": None,
        "belote": None,
        "made": None,
        "score": None,
        "to_move": rep.to_move,
        "legal_next": None if rep.legal_next is None
        else [format_card(c) for c in rep.legal_next],
    }
    if profile.litige_points:
        # classic: "when both teams have exactly 81 ... it is a litige: nobody scores".
        out["litige"] = None
    if auc.status == PASSED_OUT:
        out["score"] = [0, 0]
    if rep.complete:
        assert rep.score is not None and rep.transferred is not None
        out["tricks_won"] = list(rep.tricks_won)
        out["card_points"] = list(rep.card_points)
        out["announcements"] = [[_ann_json(a) for a in team] for team in rep.transferred]
        out["announcement_points"] = list(rep.score.announcements)
        out["belote"] = list(rep.belote)
        out["made"] = rep.score.made
        out["score"] = list(rep.score.marks)
        if "litige" in out:
            out["litige"] = rep.score.litige
    return out, (0 if error is None else 1)


def verify_text(text: str) -> tuple[dict, int]:
    """:func:`parse_record` then :func:`verify_record`."""
    return verify_record(parse_record(text))
