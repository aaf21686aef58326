"""Small benchmark harness: repeated timings, machine description, JSON results.

Every figure is measured ``repeats`` times and reported as min / median / max; ratios are
computed from medians measured in the same run, side by side.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


@dataclass
class Figure:
    """One measured quantity: samples in ``unit`` (higher is better unless ``lower_is_better``)."""

    name: str
    unit: str
    samples: list[float]
    note: str = ""
    lower_is_better: bool = False

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def as_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "min": min(self.samples),
            "median": self.median,
            "max": max(self.samples),
            "repeats": len(self.samples),
            "samples": self.samples,
            "note": self.note,
        }


@dataclass
class Results:
    """All figures, ratios and target checks of one benchmark run."""

    quick: bool
    figures: dict[str, Figure] = field(default_factory=dict)
    ratios: dict[str, dict[str, Any]] = field(default_factory=dict)
    targets: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def check(self, name: str, ok: bool, detail: object = None) -> None:
        """Record a pass/fail check (e.g. invariants over a large run) as a target."""
        self.targets[name] = {"figure": None, "threshold": None, "value": detail,
                              "met": bool(ok), "note": "check"}

    def add(self, fig: Figure) -> Figure:
        self.figures[fig.name] = fig
        return fig

    def ratio(self, name: str, numerator: str, denominator: str, target: float | None = None,
              note: str = "") -> None:
        """Ratio of two figures' medians measured in this run (``None`` if one is missing)."""
        if numerator not in self.figures or denominator not in self.figures:
            self.ratios[name] = {"value": None, "numerator": numerator,
                                 "denominator": denominator, "target": target,
                                 "note": note or "not measured in this run"}
            return
        value = self.figures[numerator].median / self.figures[denominator].median
        self.ratios[name] = {"value": value, "numerator": numerator,
                             "denominator": denominator, "target": target, "note": note,
                             "met": None if target is None else value >= target}

    def target(self, name: str, figure: str, threshold: float, lower_is_better: bool = False,
               note: str = "") -> None:
        """Check a figure's median against a target threshold."""
        if figure not in self.figures:
            self.targets[name] = {"figure": figure, "threshold": threshold, "value": None,
                                  "met": None, "note": note or "not measured"}
            return
        value = self.figures[figure].median
        met = value <= threshold if lower_is_better else value >= threshold
        self.targets[name] = {"figure": figure, "threshold": threshold, "value": value,
                              "met": met, "lower_is_better": lower_is_better, "note": note}


def repeat(fn: Callable[[], float], repeats: int) -> list[float]:
    """Call ``fn`` (which returns one measurement) ``repeats`` times."""
    return [float(fn()) for _ in range(repeats)]


def rate(fn: Callable[[], int]) -> float:
    """Time one call of ``fn`` (returning a count of operations) → operations per second."""
    t0 = time.perf_counter()
    count = fn()
    return count / (time.perf_counter() - t0)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                             text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO, capture_output=True, text=True, check=True).stdout
        return out.stdout.strip() + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def machine() -> dict[str, Any]:
    """Machine, CPU and library versions, for the results file."""
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "versions": {d: _version(d) for d in
                     ("simcoinche", "numba", "llvmlite", "numpy", "pandas", "pyarrow",
                      "colver")},
        "git_commit": _git_commit(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def write_results(results: Results, out_dir: Path) -> Path:
    """Write the run as JSON under ``out_dir`` (also as ``latest[-quick].json``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = {
        "machine": machine(),
        "quick": results.quick,
        "figures": {k: f.as_json() for k, f in results.figures.items()},
        "ratios": results.ratios,
        "targets": results.targets,
        "notes": results.notes,
    }
    stamp = time.strftime("%Y%m%dT%H%M%S")
    suffix = "-quick" if results.quick else ""
    path = out_dir / f"bench-{stamp}{suffix}.json"
    text = json.dumps(doc, indent=2, sort_keys=False)
    for target in (path, out_dir / f"latest{suffix}.json"):
        tmp = target.with_suffix(".json.tmp")
        tmp.write_text(text)
        os.replace(tmp, target)
    return path


def _fmt(v: float | None) -> str:
    if v is None:
        return "—"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def table(results: Results) -> str:
    """Markdown summary table of every figure, ratio and target."""
    lines = ["| figure | median | min | max | unit |", "|---|---:|---:|---:|---|"]
    for f in results.figures.values():
        lines.append(f"| {f.name} | {_fmt(f.median)} | {_fmt(min(f.samples))} | "
                     f"{_fmt(max(f.samples))} | {f.unit} |")
    if results.ratios:
        lines += ["", "| ratio (medians, same run) | value | target | met |",
                  "|---|---:|---:|---|"]
        for name, r in results.ratios.items():
            met = "—" if r.get("met") is None else ("yes" if r["met"] else "NO")
            tgt = "—" if r["target"] is None else f"≥ {r['target']:g}×"
            lines.append(f"| {name} | {_fmt(r['value'])}{'×' if r['value'] else ''} | "
                         f"{tgt} | {met} |")
    if results.targets:
        lines += ["", "| target | value | threshold | met |", "|---|---:|---:|---|"]
        for name, t in results.targets.items():
            met = "—" if t["met"] is None else ("yes" if t["met"] else "NO")
            if t["threshold"] is None:  # a pass/fail check
                lines.append(f"| {name} | {t['value']} | pass | {met} |")
                continue
            op = "≤" if t.get("lower_is_better") else "≥"
            lines.append(f"| {name} | {_fmt(t['value'])} | {op} {_fmt(t['threshold'])} | "
                         f"{met} |")
    return "\n".join(lines)
