"""Counter-based random numbers: donne ``i`` of seed ``s`` draws the same numbers everywhere.

Generator
---------
Every random number of the simulation is a pure function of ``(seed, donne index,
counter)``; there is no sequential generator state shared between donnes, so the result
of donne ``i`` does not depend on the thread count, the chunk size or the machine.

- ``mix64(x)`` is the SplitMix64 finaliser (Stafford's "Mix13" variant of MurmurHash3's
  ``fmix64``): a bijection of ``uint64`` with full avalanche.
- ``seed_key(seed) = mix64(seed XOR 0x5851F42D4C957F2D)`` turns the user seed (any
  ``int64``/``uint64``) into a well-mixed run key.
- ``donne_key(run_key, i) = mix64(run_key + (i + 1) * GOLDEN)`` with
  ``GOLDEN = 0x9E3779B97F4A7C15``: exactly the ``i``-th output of a SplitMix64 stream
  seeded with the run key, so distinct donnes of one run get distinct keys.
- ``rand64(key, ctr) = mix64(key XOR mix64((ctr + 1) * GOLDEN2))``: the ``ctr``-th 64-bit
  draw of a donne. Hashing the counter before combining it with the key means two donne
  streams never overlap as shifted copies of one another (the weakness of plain
  ``key + ctr * gamma`` streams); coincidences are isolated, as between any 64-bit values.

Counter ranges inside a donne (so that changing the players never changes the deal):
``STREAM_DEAL`` (counters from 0) for the shuffle and the cut, ``STREAM_PLAYERS``
(counters from ``2**40``) for every decision the players take.

Bounded integers use Lemire's multiply-shift method on 32-bit halves with rejection
(unbiased): each 64-bit draw gives two 32-bit values, used low half first.

The small generator state is a ``uint64[RNG_STATE_LEN]`` array ``st``:
``st[0]`` key, ``st[1]`` next counter, ``st[2]`` buffered upper half, ``st[3]`` 1 when
``st[2]`` is unused.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
GOLDEN2 = np.uint64(0xD1B54A32D192ED03)
SEED_SALT = np.uint64(0x5851F42D4C957F2D)
STREAM_DEAL = np.uint64(0)
STREAM_PLAYERS = np.uint64(1 << 40)
RNG_STATE_LEN = 4
_M32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def mix64(x):
    """SplitMix64 finaliser: a bijective 64-bit mix of ``x`` (``uint64`` → ``uint64``)."""
    z = uint64(x)
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True)
def seed_key(seed):
    """Run key (``uint64``) of a user seed (``uint64``)."""
    return mix64(uint64(seed) ^ SEED_SALT)


@njit(cache=True, inline="always")
def donne_key(run_key, index):
    """Key (``uint64``) of donne ``index`` (``int64`` ≥ 0) of the run keyed ``run_key``."""
    return mix64(uint64(run_key) + (uint64(index) + uint64(1)) * GOLDEN)


@njit(cache=True, inline="always")
def rand64(key, ctr):
    """The ``ctr``-th 64-bit draw (``uint64``) of the stream keyed ``key``."""
    return mix64(uint64(key) ^ mix64((uint64(ctr) + uint64(1)) * GOLDEN2))


@njit(cache=True, inline="always")
def rng_seed(st, key, stream):
    """Point the state ``st`` (``uint64[4]``) at counter ``stream`` of stream ``key``."""
    st[0] = uint64(key)
    st[1] = uint64(stream)
    st[2] = uint64(0)
    st[3] = uint64(0)


@njit(cache=True, inline="always")
def next32(st):
    """Next uniform 32-bit value (as ``uint64`` below ``2**32``) from state ``st``."""
    if st[3] != uint64(0):
        st[3] = uint64(0)
        return st[2]
    x = rand64(st[0], st[1])
    st[1] += uint64(1)
    st[2] = x >> uint64(32)
    st[3] = uint64(1)
    return x & _M32


@njit(cache=True, inline="always")
def bounded(st, n):
    """Uniform integer in ``0..n-1`` (``1 <= n < 2**32``), unbiased (Lemire + rejection)."""
    nn = uint64(n)
    m = next32(st) * nn
    low = m & _M32
    if low < nn:
        # Reject the few values of the low product that would favour small results.
        threshold = ((_M32 + uint64(1)) - nn) % nn
        while low < threshold:
            m = next32(st) * nn
            low = m & _M32
    return np.int64(m >> uint64(32))


@njit(cache=True, inline="always")
def uniform01(st):
    """Uniform ``float64`` in ``[0, 1)`` with 32 random bits."""
    return np.float64(next32(st)) * (1.0 / 4294967296.0)


@njit(cache=True, inline="always")
def popcount32(x):
    """Number of set bits of a card mask (any unsigned integer below ``2**32``)."""
    v = uint64(x)
    v = v - ((v >> uint64(1)) & uint64(0x5555555555555555))
    v = (v & uint64(0x3333333333333333)) + ((v >> uint64(2)) & uint64(0x3333333333333333))
    v = (v + (v >> uint64(4))) & uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((v * uint64(0x0101010101010101)) >> uint64(56))


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """Card index of the lowest set bit of the non-empty ``mask``."""
    m = uint64(mask)
    return popcount32((m & (~m + uint64(1))) - uint64(1))


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """Card index of the ``k``-th (0-based, ascending) set bit of ``mask`` (``uint32``).

    Branch-light select: the byte holding the bit is found from the bytes' running
    popcounts (one multiply), then the bit inside that byte is found by clearing the
    lower set bits of one byte (at most 7 steps).
    """
    m = uint64(mask)
    # Per-byte popcounts, then their running sums in each byte (prefix via multiply).
    v = m - ((m >> uint64(1)) & uint64(0x55555555))
    v = (v & uint64(0x33333333)) + ((v >> uint64(2)) & uint64(0x33333333))
    v = (v + (v >> uint64(4))) & uint64(0x0F0F0F0F)
    pre = (v * uint64(0x01010101)) & uint64(0xFFFFFFFF)
    kk = uint64(k)
    # Bytes whose running count (bits in this byte and below) is <= k lie wholly below.
    byte = uint64(0)
    for b in range(3):
        if ((pre >> uint64(8 * b)) & uint64(0xFF)) <= kk:
            byte = uint64(b + 1)
    below = uint64(0)
    if byte > uint64(0):
        below = (pre >> (uint64(8) * (byte - uint64(1)))) & uint64(0xFF)
    x = (m >> (uint64(8) * byte)) & uint64(0xFF)
    for _ in range(kk - below):
        x &= x - uint64(1)
    return np.int64(byte * uint64(8)) + lowest_bit(x)


@njit(cache=True, inline="always")
def random_bit(st, mask):
    """A uniformly chosen set bit of the non-empty ``mask`` (``uint32``): its card index."""
    return nth_bit(mask, bounded(st, popcount32(mask)))
