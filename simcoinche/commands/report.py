"""``simcoinche report RESULTS --out DIR``: Markdown report with tables and plots of a run."""

from __future__ import annotations

import argparse
import sys

from simcoinche.commands import integer


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``report`` command to the CLI."""
    p = sub.add_parser(
        "report",
        help="write a Markdown report (tables, CSV, PNG plots) of a simulation run",
        description="Read a run written by `simcoinche simulate` and write DIR/report.md "
        "with the run's metadata and headline tables (contract success by level, by "
        "contract kind, by the taker's trump length x top trumps, bid curves, coinche "
        "outcomes, mean marks), one CSV per table and the PNG plots; for a run written "
        "by `simcoinche parties`, its overview and the chances of winning the partie "
        "from any score. Nothing is written into DIR unless the whole report is.",
    )
    p.add_argument("results", metavar="RESULTS",
                   help="results written by simcoinche simulate or simcoinche parties")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    p.add_argument("--overwrite", action="store_true",
                   help="write into a non-empty directory (an earlier report's files "
                   "are replaced or removed; other files are kept)")
    p.add_argument("--min-count", type=integer, default=100, metavar="N",
                   help="leave out groups with fewer played donnes (default 100)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the report and print where it went."""
    from simcoinche.analysis.report import write_report
    from simcoinche.runs.arguments import counted

    rep = write_report(args.results, args.out, overwrite=args.overwrite,
                       min_count=args.min_count)
    sys.stdout.write(f"wrote {rep.markdown} ({counted(len(rep.tables), 'table')}, "
                     f"{counted(len(rep.plots), 'plot')})\n")
    for note in rep.notes:
        sys.stdout.write(f"note: {note}\n")
    return 0
