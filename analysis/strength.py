"""The README's "How strong are the players?" table, rerun from duplicate matches.

Each row is one ``simcoinche match A B --deals N --seed S --json`` (federal), with its own
seed, so no two rows replay the same deals. The raw JSON each match prints is kept, as
printed, under ``analysis/output/strength/`` (one file per row); the table
``analysis/output/strength.md`` is built from those files only::

    .venv/bin/python analysis/strength.py                  # every row (about 45 min)
    .venv/bin/python analysis/strength.py --resume         # rows whose JSON is missing
    .venv/bin/python analysis/strength.py --table-only     # rebuild the table, no match
    .venv/bin/python analysis/strength.py --row heuristic random 200 7 --out-dir /tmp/s

Columns: A vs B, deals, A's marks minus B's per deal (both tables) with its 95 % interval
(normal approximation on the paired differences, as ``match`` reports it), the shares of
deals A won / tied / lost, the match's wall time, its seed. A row of fewer than
:data:`ROUGH_BELOW` deals is marked *rough*: its interval is wide, and under 300 deals the
normal approximation itself is only rough. Times are wall clock on the machine that ran
the matches (with ``--threads``, default 2), which may be shared with other jobs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROFILE = "federal"
ROUGH_BELOW = 1000


@dataclass(frozen=True)
class Row:
    """One match of the table: players ``a`` and ``b``, ``deals`` deals of seed ``seed``."""

    a: str
    b: str
    deals: int
    seed: int

    @property
    def rough(self) -> bool:
        """Fewer than :data:`ROUGH_BELOW` deals."""
        return self.deals < ROUGH_BELOW

    @property
    def slug(self) -> str:
        """File name stem of the row's raw JSON."""
        def clean(s: str) -> str:
            return re.sub(r"[^A-Za-z0-9.=-]+", "_", s).replace("=", "-")
        return f"{clean(self.a)}_vs_{clean(self.b)}-n{self.deals}-s{self.seed}"


#: The table's rows: each with its own seed. The colver rows are the matches of issue
#: 21's acceptance (1,000 deals each for heuristic, 600 for pimc with the thinking
#: bidder). The pimc rows of the club-era table (the players before the data-fitted
#: auction) were not rerun; their raw JSON and the club-era rows are kept in
#: ``analysis/output/strength/club-era/``.
ROWS: tuple[Row, ...] = (
    Row("heuristic", "club", 20_000, 20271),
    Row("heuristic", "random", 20_000, 20272),
    Row("heuristic", "colver-ismcts", 1000, 2122),
    Row("heuristic", "colver-isdd:worlds=8", 1000, 2123),
    # Issue 21, item 3: pimc with the thinking bidder against IS-DD at equal time per card
    # (12 worlds took about pimc's 32-world time per card, as the club-era ² row).
    Row("pimc:bid_worlds=64", "colver-isdd:worlds=12", 600, 2124),
)


class StrengthError(Exception):
    """A match that failed, or a kept file that does not hold the row it should."""


def json_path(out_dir: Path, row: Row) -> Path:
    """Where the raw JSON of ``row`` is kept."""
    return out_dir / "strength" / f"{row.slug}.json"


def run_row(row: Row, out_dir: Path, threads: int) -> Path:
    """Play ``row``'s match in a subprocess and keep its JSON output as printed.

    Parameters
    ----------
    row : Row
        The match to play.
    out_dir : Path
        Output directory; the JSON goes to ``out_dir/strength/<slug>.json``.
    threads : int
        ``--threads`` of the match (worker processes with a colver bot).

    Returns
    -------
    Path
        The kept JSON file (written only once the match succeeded).

    Raises
    ------
    StrengthError
        If the match exits non-zero or prints something that is not its JSON.
    """
    cmd = [sys.executable, "-m", "simcoinche", "match", row.a, row.b,
           "--deals", str(row.deals), "--seed", str(row.seed), "--profile", PROFILE,
           "--threads", str(threads), "--json", "--no-progress"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise StrengthError(f"match {row.a} vs {row.b} exited {proc.returncode}: {last}")
    _check(row, _parse(proc.stdout, f"output of match {row.a} vs {row.b}"))
    path = json_path(out_dir, row)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(proc.stdout, encoding="utf-8")
    os.replace(tmp, path)
    return path


def _parse(text: str, what: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StrengthError(f"{what} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise StrengthError(f"{what} is not a JSON object")
    return data


def _check(row: Row, data: dict) -> None:
    got = (data.get("a"), data.get("b"), data.get("deals"), data.get("seed"),
           data.get("profile"))
    want = (row.a, row.b, row.deals, row.seed, PROFILE)
    if got != want:
        raise StrengthError(f"match JSON is for {got}, expected {want}")


def load_row(row: Row, out_dir: Path) -> dict:
    """The kept JSON of ``row``, checked to be that row's match.

    Raises
    ------
    StrengthError
        If the file is missing, not JSON, or holds another match.
    """
    path = json_path(out_dir, row)
    if not path.is_file():
        raise StrengthError(f"no kept output for {row.a} vs {row.b}: {path} is missing")
    data = _parse(path.read_text(encoding="utf-8"), str(path))
    _check(row, data)
    return data


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min"


def _signed(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


def table_markdown(rows: tuple[Row, ...] | list[Row], out_dir: Path) -> str:
    """The Markdown table of ``rows`` built from their kept JSON files.

    Parameters
    ----------
    rows : sequence of Row
        The rows, in table order.
    out_dir : Path
        Directory holding ``strength/<slug>.json``.

    Returns
    -------
    str
        The whole ``strength.md`` text: heading, note, table, sources.

    Rows without a kept file are listed at the end as not run, never tabulated.

    Raises
    ------
    StrengthError
        If a kept file is not the row's match, or no row has one.
    """
    lines = [
        "# How strong are the players?", "",
        f"Duplicate matches, {PROFILE}, produced by `analysis/strength.py` from the raw "
        "`simcoinche match --json` outputs kept in `strength/`. A − B is A's marks minus "
        "B's per deal (both tables), with its 95 % interval (normal approximation on the "
        "paired differences). Every row has its own seed. Rows marked *rough* have fewer "
        f"than {ROUGH_BELOW:,} deals. Times are the matches' wall clock on the project's "
        "2-core machine, shared with other developers' jobs while these ran: they are not "
        "idle-machine figures (the colver IS-MCTS bot stops on a clock, so its strength "
        "also depends on the CPU it got).", "",
        "| A vs B | deals | A − B per deal [95 %] | A won / tied / lost | time | seed |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    sources, missing = [], []
    for row in rows:
        if not json_path(out_dir, row).is_file():
            missing.append(row)
            continue
        d = load_row(row, out_dir)
        ci = d.get("ci95")
        interval = "" if ci is None else f" [{_signed(ci[0])}, {_signed(ci[1])}]"
        deals = f"{row.deals:,}" + (" (rough)" if row.rough else "")
        wtl = " / ".join(f"{100 * d[k]:.1f}" for k in ("won", "tied", "lost")) + " %"
        lines.append(f"| `{row.a}` vs `{row.b}` | {deals} | **{_signed(d['mean_diff'])}**"
                     f"{interval} | {wtl} | {_duration(d['seconds'])} "
                     f"({d['threads']} threads) | {row.seed} |")
        sources.append(f"- `strength/{json_path(out_dir, row).name}`")
    if not sources:
        raise StrengthError("no row has a kept output under "
                            f"{out_dir / 'strength'}: nothing to tabulate")
    lines += ["", "Raw outputs:", "", *sources, ""]
    if missing:
        lines += ["Not run yet (no kept output; `analysis/strength.py --resume` plays "
                  "them):", ""]
        lines += [f"- `{r.a}` vs `{r.b}`, {r.deals:,} deals, seed {r.seed}" for r in missing]
        lines.append("")
    return "\n".join(lines)


def _parse_rows(specs: list[list[str]] | None) -> tuple[Row, ...]:
    if not specs:
        return ROWS
    rows = []
    for a, b, deals, seed in specs:
        try:
            n, s = int(deals), int(seed)
        except ValueError:
            raise StrengthError(f"--row {a} {b} {deals} {seed}: DEALS and SEED must be "
                                "integers") from None
        if n <= 0 or s < 0:
            raise StrengthError(f"--row {a} {b} {deals} {seed}: DEALS must be > 0 and "
                                "SEED >= 0")
        rows.append(Row(a, b, n, s))
    return tuple(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line of the script (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out-dir", type=Path, default=HERE / "output",
                   help="where strength.md and strength/*.json go (default analysis/output)")
    p.add_argument("--threads", type=int, default=2, help="match --threads (default 2)")
    p.add_argument("--row", nargs=4, action="append", metavar=("A", "B", "DEALS", "SEED"),
                   help="play this row instead of the built-in ones (repeatable)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--table-only", action="store_true",
                      help="rebuild strength.md from the kept JSON files, play nothing")
    mode.add_argument("--resume", action="store_true",
                      help="play only the rows whose kept JSON is missing")
    args = p.parse_args(argv)
    try:
        if args.threads <= 0:
            raise StrengthError(f"--threads must be > 0, got {args.threads}")
        rows = _parse_rows(args.row)
        if not args.table_only:
            for row in rows:
                if args.resume and json_path(args.out_dir, row).is_file():
                    continue
                sys.stderr.write(f"strength: {row.a} vs {row.b}, {row.deals:,} deals, "
                                 f"seed {row.seed}\n")
                sys.stderr.write(f"strength: kept {run_row(row, args.out_dir, args.threads)}"
                                 "\n")
        text = table_markdown(rows, args.out_dir)
    except StrengthError as exc:
        sys.stderr.write(f"strength: error: {exc}\n")
        return 1
    out = args.out_dir / "strength.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    sys.stdout.write(f"wrote {out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
