"""The types numba infers for the DD solver, with the faster type inference and without:
``MEMO=1 python dd_typings.py`` then ``MEMO=0 python dd_typings.py`` (each with an empty
``SIMCOINCHE_CACHE_DIR`` of its own), then ``python dd_typings.py compare``.

Records every variable's type and every call's signature of each function typed while
``simcoinche._kernels.dd`` is imported (``_search`` and its callees), the import time, and
how many times a copy of a function was typed for a call on itself.
"""

import os
import pickle
import re
import sys
import time


def record() -> None:
    from numba.core import typeinfer

    import simcoinche._kernels  # noqa: F401  (installs the faster passes)
    from simcoinche._kernels import faster_compile

    if os.environ["MEMO"] == "0":
        typeinfer.CallConstraint.resolve = faster_compile.NUMBA_ORIGINALS["resolve"]
    found: dict = {}
    partials = [0]
    original_partial = typeinfer.TypeInferer.return_types_from_partial
    original_unify = typeinfer.TypeInferer.unify

    def partial(self):
        partials[0] += 1
        return original_partial(self)

    def plain(text: str) -> str:
        return re.sub(r" at 0x[0-9a-f]+", "", text)

    def unify(self, raise_errors=True):
        typemap, return_type, calltypes = original_unify(self, raise_errors)
        found.setdefault(self.func_id.func_qualname, []).append((
            sorted((k, plain(str(v))) for k, v in typemap.items()), str(return_type),
            sorted((plain(str(k)), plain(str(v))) for k, v in calltypes.items())))
        return typemap, return_type, calltypes

    typeinfer.TypeInferer.return_types_from_partial = partial
    typeinfer.TypeInferer.unify = unify
    t0 = time.time()
    from simcoinche._kernels import dd  # noqa: F401  (compiles _search)

    print("MEMO", os.environ["MEMO"], "import", round(time.time() - t0, 1), "s, copies typed",
          partials[0], "calls not resolved again", faster_compile.CALLS_NOT_RESOLVED_AGAIN,
          "functions", sorted(found))
    with open(f"typings-{os.environ['MEMO']}.pkl", "wb") as out:
        pickle.dump(found, out)


def compare() -> None:
    with open("typings-0.pkl", "rb") as a, open("typings-1.pkl", "rb") as b:
        numbas, ours = pickle.load(a), pickle.load(b)
    print("same functions", sorted(numbas) == sorted(ours), "identical typings",
          all(numbas[k] == ours.get(k) for k in numbas))


if __name__ == "__main__":
    compare() if sys.argv[1:] == ["compare"] else record()
