"""The random-number generator every result rests on (cardsim/core/rng.py), checked against
published values and known distributions:

- ``next_u64`` is SplitMix64: the published test vector (seed 1234567) and the published counts of
  ``floor(5 * u)`` over the next 100,000 draws (Rosetta Code, "Pseudo-random numbers/Splitmix64",
  the values of Vigna's splitmix64.c); the plain-Python twin (``PyStream``) gives the same;
- ``randint(n)`` is uniform on ``[0, n)`` (chi-square over 120,000 draws for several ``n``);
- ``shuffle`` gives every permutation of 4 items with the same chance (chi-square over 24 cells).

The draws are made in small compiled loops, as the engines make them.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from cardsim.core.rng import (
    CHANCE_STREAM,
    PyStream,
    next_u64,
    py_stream_start,
    randint,
    shuffle,
    stream_start,
)

# Rosetta Code, "Pseudo-random numbers/Splitmix64": the first five outputs for seed 1234567, and
# the counts of floor(next_float() * 5) over the next 100,000 outputs
PUBLISHED_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]
PUBLISHED_FIFTHS_987654321 = [20027, 19892, 20073, 19978, 20030]
P_MIN = 1e-3  # a false alarm in one run of a thousand per test


@njit(cache=True)
def _u64s(state, n):
    rng = np.array([state], np.uint64)
    out = np.zeros(n, np.uint64)
    for i in range(n):
        out[i] = next_u64(rng)
    return out


@njit(cache=True)
def _randint_counts(state, n, draws):
    rng = np.array([state], np.uint64)
    counts = np.zeros(n, np.int64)
    for _ in range(draws):
        counts[randint(rng, n)] += 1
    return counts


@njit(cache=True)
def _shuffles(state, size, times):
    """(times, size) int64: ``shuffle`` applied to a fresh ``0..size-1`` each time."""
    rng = np.array([state], np.uint64)
    out = np.zeros((times, size), np.int64)
    a = np.zeros(size, np.int64)
    for t in range(times):
        for i in range(size):
            a[i] = i
        shuffle(rng, a, size)
        out[t] = a
    return out


def test_next_u64_is_splitmix64s_published_vector():
    """Seen to fail with ``_MUL2`` planted one bit off (0x94D049BB133111EA)."""
    assert [int(x) for x in _u64s(np.uint64(1234567), 5)] == PUBLISHED_1234567
    py = PyStream(1234567)
    assert [py.next_u64() for _ in range(5)] == PUBLISHED_1234567


def test_the_published_counts_of_fifths():
    """Seen to fail with ``_MUL2`` planted one bit off, as the vector above."""
    draws = _u64s(np.uint64(987654321), 100_000)
    fifths = np.bincount([(int(x) * 5) >> 64 for x in draws], minlength=5)
    assert list(fifths) == PUBLISHED_FIFTHS_987654321


@pytest.mark.parametrize("n", [2, 3, 7, 10, 55, 1000])
def test_randint_is_uniform(n):
    """Seen to fail (every n) with ``randint`` planted as ``(x * (n - 1)) >> 32``: it never draws
    n - 1."""
    draws = 120 * max(n, 1000)
    counts = _randint_counts(np.uint64(stream_start(11, n, CHANCE_STREAM)), n, draws)
    assert counts.sum() == draws and counts.min() > 0
    assert chisquare(counts).pvalue > P_MIN, counts


def test_randint_matches_its_python_twin():
    """Seen to fail with ``PyStream.randint`` planted as ``next_u64() % n``."""
    start = py_stream_start(3, 4, CHANCE_STREAM)
    rng = np.array([start], np.uint64)
    py = PyStream(start)
    for n in (1, 2, 3, 9, 55, 2**31 - 1):
        assert [int(randint(rng, n)) for _ in range(50)] == [py.randint(n) for _ in range(50)]


def test_shuffle_gives_every_permutation_with_the_same_chance():
    """Fisher-Yates (rng.py): each of the 24 orders of 4 items has chance 1/24. Seen to fail with
    the swap index planted as ``randint(i)`` (Sattolo's algorithm: only the 6 cyclic orders)."""
    size, times = 4, 24 * 2000
    out = _shuffles(np.uint64(stream_start(7, 0, CHANCE_STREAM)), size, times)
    # each order as a base-4 number, counted over the 24 orders there are
    codes = out @ size ** np.arange(size)
    orders = [sum(v * size**i for i, v in enumerate(p)) for p in permutations(range(size))]
    counts = np.array([np.count_nonzero(codes == c) for c in orders])
    assert counts.sum() == times  # nothing but permutations came out
    assert len(counts) == 24 and counts.min() > 0 and chisquare(counts).pvalue > P_MIN, counts
    py = PyStream(int(stream_start(7, 0, CHANCE_STREAM)))
    for row in out[:200]:
        a = list(range(size))
        py.shuffle(a)
        assert a == list(row)  # the reference's shuffle is the same shuffle
