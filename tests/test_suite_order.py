"""The suite's own scheduling (``tests/conftest.py``): the longest files start first.

``make test`` runs the files on every core (pytest-xdist, ``--dist loadfile``); the order
of :data:`conftest.FIRST` and :data:`conftest.LAST` decides which files the workers take
first and last, so a renamed file must not drop out of them silently.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import conftest

TESTS = Path(__file__).resolve().parent


def test_every_file_named_first_or_last_is_a_test_file_of_the_suite():
    named = conftest.FIRST + conftest.LAST
    assert len(set(named)) == len(named)
    assert [name for name in named if not (TESTS / name).is_file()] == []


def test_first_files_come_first_in_order_last_ones_last_and_the_others_keep_theirs():
    names = ["test_a.py", conftest.FIRST[1], conftest.LAST[0], "test_b.py",
             conftest.FIRST[0], "test_a.py", "test_c.py", conftest.FIRST[1]]
    items = [SimpleNamespace(path=TESTS / name, n=i) for i, name in enumerate(names)]
    conftest.pytest_collection_modifyitems(None, items)
    assert [(item.path.name, item.n) for item in items] == [
        (conftest.FIRST[0], 4), (conftest.FIRST[1], 1), (conftest.FIRST[1], 7),
        ("test_a.py", 0), ("test_b.py", 3), ("test_a.py", 5), ("test_c.py", 6),
        (conftest.LAST[0], 2)]
