"""The house: the layers of ``simcoinche`` and the absence of import circles.

``make test`` runs ``lint-imports`` (the contracts of ``pyproject.toml``); these tests
show that the contracts hold, that breaking one fails the check, and that no module of
the package imports (module level or inside a function, directly or through others) a
module that imports it back — the root package included.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "simcoinche"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _module_files(root: Path) -> dict[str, Path]:
    mods = {}
    for f in (root / "simcoinche").rglob("*.py"):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module → the package's modules it imports anywhere in its body (ast only).

    ``from simcoinche.x import y`` counts as importing ``simcoinche.x.y`` when that is a
    module, else ``simcoinche.x``; a package's ``__init__`` importing its own submodules
    is an edge like any other, and so is a submodule importing its parent package.
    """
    mods = _module_files(root)

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        base = m.split(".") if f.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                prefix = node.module or ""
                if node.level:
                    prefix = ".".join(base[: len(base) - node.level + 1]
                                      + ([node.module] if node.module else []))
                targets = [f"{prefix}.{a.name}" for a in node.names] + [prefix]
            for t in targets:
                r = resolve(t) if t.split(".")[0] == "simcoinche" else None
                if r and r != m:
                    edges[m].add(r)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_module_imports_a_module_that_imports_it_back():
    found = circles(import_graph(REPO))
    assert found == [], "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_circle_finder_sees_a_circle_through_a_function_level_import(tmp_path):
    pkg = tmp_path / "simcoinche"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from simcoinche import b\n")
    (pkg / "b.py").write_text("def f():\n    from simcoinche.c import g\n")
    (pkg / "c.py").write_text("import simcoinche.a\n\ndef g():\n    pass\n")
    assert circles(import_graph(tmp_path)) == [["simcoinche.a", "simcoinche.b",
                                                "simcoinche.c"]]


def test_every_subpackage_says_what_it_holds_and_may_import():
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.parent.name} has no docstring"
        assert "May import" in doc or "import nothing" in doc.lower(), init.parent.name


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_import_contracts_are_kept():
    res = _lint_imports(REPO)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "3 kept, 0 broken" in res.stdout


@pytest.mark.parametrize(("module", "source", "contract"), [
    # a kernel reaching up into the runs
    ("_kernels/_breach.py", "from simcoinche.runs import simulation\n",
     "The kernels import no other layer"),
    # the rules reaching up into the analysis, inside a function
    ("rules/_breach.py", "def f():\n    from simcoinche.analysis import stats\n",
     "Layers: each imports"),
    # two sibling modules of the runs importing each other
    ("runs/_breach.py", "from simcoinche.runs import _breach_back\n",
     "No import circle in any package"),
])
def test_a_broken_contract_fails_the_check(tmp_path, module, source, contract):
    shutil.copytree(PACKAGE, tmp_path / "simcoinche",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "simcoinche" / module).write_text(source)
    if "_breach_back" in source:
        (tmp_path / "simcoinche" / "runs" / "_breach_back.py").write_text(
            "from simcoinche.runs import _breach\n")
    res = _lint_imports(tmp_path)
    assert res.returncode != 0
    broken = [line for line in res.stdout.splitlines() if line.endswith("BROKEN")]
    assert any(line.startswith(contract) for line in broken), res.stdout
    assert "_breach" in res.stdout
