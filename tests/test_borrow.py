"""Borrowed array views (``_kernels.borrow``): same data, shape and strides, no count.

The batch kernels hand borrowed views of their per-block scratch and arguments to the
donne kernels; the rows themselves are pinned elsewhere (row hashes in the benchmarks,
same rows whatever the thread count in ``test_simulate``). These tests pin the view's
contract: it aliases the argument exactly (reads, writes, 2-D and strided layouts), and
a view of a local array stays valid while ``keep_alive`` of the local follows its uses.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels.borrow import borrow, borrow_all, keep_alive


@njit(cache=True)
def _sum_and_mark(a):
    """Sum ``a`` through a borrowed view, then write -1 through it at ``[0]``."""
    v = borrow(a)
    total = 0.0
    for i in range(v.shape[0]):
        total += v[i]
    v[0] = -1.0
    return total


@njit(cache=True)
def _shape_strides_sum(a):
    """Shape, strides and element sum of a 2-D array read through a borrowed view."""
    v = borrow(a)
    s = 0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            s += v[i, j]
    return v.shape[0], v.shape[1], v.strides[0], v.strides[1], s


@njit(cache=True)
def _fill_rows(a, value):
    """Write ``value`` into every element of ``a`` (any layout) through a borrowed view."""
    v = borrow(a)
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            v[i, j] = value


@njit(cache=True)
def _borrow_tuple_and_write(a, b):
    """Borrow ``(a, b)`` together, write through both views, return their shapes."""
    x, y = borrow_all((a, b))
    x[0] = 9.0
    y[1, 2] = 4
    return x.shape[0], y.shape[0], y.shape[1]


def test_borrow_all_gives_a_view_of_each_array_of_the_tuple_in_order():
    a = np.zeros(5)
    b = np.zeros((2, 3), dtype=np.int16)
    assert _borrow_tuple_and_write(a, b) == (5, 2, 3)
    assert a.tolist() == [9.0, 0.0, 0.0, 0.0, 0.0]
    assert b.tolist() == [[0, 0, 0], [0, 0, 4]]


def test_borrowed_view_reads_and_writes_the_argument_itself():
    a = np.arange(1.0, 11.0)
    assert _sum_and_mark(a) == 55.0
    assert a[0] == -1.0
    assert a[1:].tolist() == list(range(2, 11))


def test_borrowed_view_keeps_the_shape_and_strides_of_a_2d_array_and_of_a_strided_slice():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    assert _shape_strides_sum(a) == (4, 6, 24, 4, int(a.sum()))
    sliced = a[::2, 1::2]
    assert _shape_strides_sum(sliced) == (2, 3, 48, 8, int(sliced.sum()))


def test_writes_through_a_borrowed_strided_view_land_only_on_its_elements():
    a = np.zeros((4, 6), dtype=np.int64)
    _fill_rows(a[1::2, ::3], 7)
    expected = np.zeros((4, 6), dtype=np.int64)
    expected[1::2, ::3] = 7
    assert np.array_equal(a, expected)


@njit(cache=True)
def _borrow_players(players):
    """``borrow_all`` of a :class:`.donne.Players`: its arrays viewed, its kinds kept."""
    p = borrow_all(players)
    p.codes[0] = 7
    return p.params.sum(), p.kinds.club is None, p.kinds.random


def test_borrow_all_passes_members_without_arrays_as_they_are():
    # Players' kinds (None or int64 members) is no array: passed through, typed alike;
    # the arrays beside it are views of the arguments themselves.
    from simcoinche._kernels.donne import Players
    from simcoinche._kernels.kinds import Kinds

    codes = np.array([1, 1], dtype=np.int32)
    params = np.arange(6, dtype=np.float64).reshape(2, 3)
    total, club_none, random = _borrow_players(Players(codes, params,
                                                       Kinds(None, np.int64(5))))
    assert total == 15.0 and club_none and random == 5
    assert codes[0] == 7


@njit(cache=True)
def _view_of_a_kept_local():
    """A view of a local array read after another array of its size was allocated, the
    local kept alive past that read."""
    a = np.zeros(1000)
    v = borrow(a)
    b = np.ones(1000)
    seen = v[0] + 0.0 * b[0]
    keep_alive(a)
    return seen


@njit(cache=True)
def _view_of_a_dropped_local():
    """The same without keep_alive: numba frees the local after the ``borrow`` (its last
    use) and the new array takes its memory."""
    a = np.zeros(1000)
    v = borrow(a)
    b = np.ones(1000)
    return v[0] + 0.0 * b[0]


def test_a_view_of_a_local_reads_its_own_memory_while_keep_alive_follows():
    # run_batch borrows each block's scratch, a local, this way. Without keep_alive the
    # memory goes to the next array of its size (the hazard keep_alive guards against).
    assert _view_of_a_kept_local() == 0.0
    assert _view_of_a_dropped_local() == 1.0


@njit(cache=True)
def _views_of_a_kept_local_in_a_loop():
    """run_batch's shape: a local borrowed before a loop that allocates at every turn,
    kept alive after it."""
    a = np.zeros(1000)
    v = borrow(a)
    seen = 0.0
    for _ in range(3):
        b = np.ones(1000)
        seen += v[0] + 0.0 * b[0]
    keep_alive(a)
    return seen


@njit(cache=True, inline="always")
def _inlined_reader(a):
    """_parties_block's shape: an inlined function that borrows its argument, then
    allocates."""
    v = borrow(a)
    b = np.ones(1000)
    return v[0] + 0.0 * b[0]


@njit(cache=True)
def _an_inlined_view_of_a_kept_local():
    """run_parties' shape: a local passed to the inlined function, kept alive after it."""
    a = np.zeros(1000)
    seen = _inlined_reader(a)
    keep_alive(a)
    return seen


def test_keep_alive_holds_in_the_shapes_of_run_batch_and_run_parties():
    assert _views_of_a_kept_local_in_a_loop() == 0.0
    assert _an_inlined_view_of_a_kept_local() == 0.0
