"""``simcoinche dd FILE``: double-dummy table of a deal and analysis of the cards played.

Reads the same JSON record as ``simcoinche score`` (``profile``, ``dealer``, ``hands``,
optional ``auction`` and ``play``; ``-`` reads stdin). Prints both teams' double-dummy
card points for every contract kind of the profile (and who can make a générale, where
the profile has the bid) and, when the auction fixed a contract and cards were played,
each card's double-dummy value for its player's team, the best card(s), their value and
the card's cost in card points, with a total cost per team. See :mod:`simcoinche.analysis.dd`.

Exit status: 0, or 1 when an action of the record is illegal (the ``error`` object is
the one ``simcoinche score`` prints; the cards before it are analysed), 2 for malformed
input.
"""

from __future__ import annotations

import argparse
import json
import sys

from simcoinche.commands import integer, read_input


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dd`` command to the CLI."""
    p = sub.add_parser(
        "dd",
        help="double-dummy analysis of a deal: card points per contract kind under "
        "perfect play, and the cost of every card played",
        description="Read one donne given as JSON (the input of 'simcoinche score'; "
        "'auction' and 'play' optional) and print both teams' double-dummy card points "
        "for every contract kind of the profile from the opening lead (all hands visible, "
        "both sides playing perfectly; 252 to a team that wins every trick). When the "
        "auction fixed a contract, every card played is analysed: its double-dummy value "
        "for the player's team (the card points that team ends the donne with after this "
        "card and perfect play), the best card(s), their value and the cost. Exit status: "
        "0, 1 an illegal action (reported as by 'score'), 2 malformed input.",
    )
    p.add_argument("file", metavar="FILE", help="the donne as a JSON file; '-' reads stdin")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object: {"table": {"S": [team0, team1], ...}, '
                   '"contract": {...} | null, "play": [{"index", "seat", "card", "value", '
                   '"best", "best_value", "cost"}, ...], "error": null | {...}}')
    p.add_argument("--threads", type=integer, default=None, metavar="T",
                   help="worker threads for the table (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _contract_text(contract: dict) -> str:
    if contract.get("generale"):
        bid = "générale"
    elif contract["capot"]:
        bid = "capot"
    else:
        bid = str(contract["value"])
    coinche = {1: "", 2: ", coinched", 4: ", surcoinched"}[contract["coinche"]]
    taker = contract["taker"]
    return f"{bid} {contract['suit']} by seat {taker} (team {taker & 1}){coinche}"


def render(a) -> str:
    """The readable report of a :class:`simcoinche.analysis.dd.RecordAnalysis`."""
    lines = [f"Double-dummy card points ({a.profile.name}, dealer {a.dealer}, seat "
             f"{(a.dealer + 1) & 3} leads): all hands visible, both sides play perfectly", ""]
    head = f"{'kind':<5}{'team 0':>8}{'team 1':>8}"
    if a.generales is not None:
        head += "  générale"
    lines.append(head)
    for kind, (t0, t1) in a.table.items():
        row = f"{kind:<5}{t0:>8}{t1:>8}"
        if a.generales is not None:
            seats = a.generales[kind]
            row += "  " + (" ".join(f"seat {s}" for s in seats) if seats else "no")
        lines.append(row)
    if a.contract is not None:
        lines += ["", f"Contract: {_contract_text(a.contract)}"]
    if a.play:
        lines += ["", "Cards played. value: the card points the player's team ends the donne "
                  "with after this card and", "perfect play; best: the best card(s), worth "
                  "b.val; cost = b.val - value.", ""]
        width = max(len(" ".join(p.as_json()["best"])) for p in a.play)
        width = max(width, len("best"))
        lines.append(f"{'#':>3} {'trick':>5} {'seat':>4}  card {'value':>5}  "
                     f"{'best':<{width}} {'b.val':>5} {'cost':>4}")
        for p in a.play:
            j = p.as_json()
            lines.append(f"{p.index:>3} {p.index // 4 + 1:>5} {p.seat:>4}  {j['card']:<4} "
                         f"{p.value:>5}  {' '.join(j['best']):<{width}} {p.best_value:>5} "
                         f"{p.cost:>4}")
        c0, c1 = a.total_cost()
        lines += ["", f"Total cost: team 0 {c0} card points, team 1 {c1} card points"]
    if a.error is not None:
        e = a.error
        lines += ["", f"Illegal {'card' if e['phase'] == 'play' else 'action'}: "
                  f"{e['phase']}[{e['index']}] {e['action']}: {e['reason']}"]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the double-dummy report of one donne; return 0, or 1 for an illegal action."""
    from simcoinche.analysis.dd import analyse_record
    from simcoinche.rules.verify import parse_record

    record = parse_record(read_input(args.file))
    analysis = analyse_record(record, threads=args.threads,
                              progress=False if args.no_progress else None)
    if args.json:
        sys.stdout.write(json.dumps(analysis.as_json()) + "\n")
    else:
        sys.stdout.write(render(analysis))
    return analysis.status
