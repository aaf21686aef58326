"""Kernel signatures stay short: no numba-compiled function of ``simcoinche/_kernels/``
takes more than :data:`MAX_PARAMS` parameters (issue 19).

What travels together is bundled (NamedTuples of arrays such as ``donne.Players``,
``donne.Outputs``, ``donne.Scratch``; tuples of integers for inlined helpers), so a long
argument list is a sign that a bundle is missing. The check reads the sources with
``ast`` (no import, no compilation): every function decorated with ``njit`` or ``jit``
(bare, called, or as an attribute such as ``numba.njit``) counts its positional,
positional-only and keyword-only parameters, ``*args``/``**kwargs`` included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import simcoinche._kernels

MAX_PARAMS = 12
KERNELS = Path(simcoinche._kernels.__file__).parent


def _is_jit(decorator: ast.expr) -> bool:
    """Whether ``decorator`` is ``njit``/``jit`` (``@njit``, ``@njit(...)``,
    ``@numba.njit(...)``)."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    if isinstance(decorator, ast.Attribute):
        return decorator.attr in ("njit", "jit")
    return isinstance(decorator, ast.Name) and decorator.id in ("njit", "jit")


def _n_params(args: ast.arguments) -> int:
    return (len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
            + (args.vararg is not None) + (args.kwarg is not None))


def jit_signatures(root: Path = KERNELS) -> list[tuple[str, str, int]]:
    """``(module path, function name, parameter count)`` of every jitted function under
    ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    _is_jit(d) for d in node.decorator_list):
                found.append((path.relative_to(root.parent).as_posix(), node.name,
                              _n_params(node.args)))
    return found


def test_the_check_sees_the_kernels():
    sigs = jit_signatures()
    names = {name for _, name, _ in sigs}
    # The hot kernels are found (a broken parser would pass every time).
    assert {"play_one", "play_phase", "run_batch", "play_contracts", "run_parties",
            "choose_card", "filter_deals", "_order"} <= names
    assert len(sigs) > 100


def test_no_kernel_takes_more_than_twelve_parameters():
    over = sorted((f"{mod}:{name} ({n} parameters)" for mod, name, n in jit_signatures()
                   if n > MAX_PARAMS))
    assert not over, (f"kernels over {MAX_PARAMS} parameters (bundle what travels "
                      f"together, e.g. a NamedTuple of arrays): " + ", ".join(over))


def test_the_check_counts_parameters_of_decorated_functions_only(tmp_path):
    pkg = tmp_path / "_kernels"
    pkg.mkdir()
    many = ", ".join(f"a{i}" for i in range(13))
    (pkg / "m.py").write_text(
        "import numba\nfrom numba import njit\n"
        f"@njit(cache=True)\ndef wide({many}):\n    pass\n"
        f"@numba.jit\ndef wide2(a, *rest, k=1, **kw):\n    pass\n"
        f"def plain({many}):\n    pass\n", encoding="utf-8")
    assert sorted(jit_signatures(pkg)) == [("_kernels/m.py", "wide", 13),
                                           ("_kernels/m.py", "wide2", 4)]
