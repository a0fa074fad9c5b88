"""Counter-based random numbers: one independent stream per (run seed, game index, stream).

A stream's whole state is one uint64 in a 1-element array; drawing advances it by a fixed
increment and hashes it (SplitMix64, Steele, Lea & Flood 2014). Because a game's streams are
derived from (seed, game index) alone, results never depend on threads, chunk sizes or machines,
and any single game can be replayed by itself.

Two streams per game:

- ``CHANCE_STREAM``: shuffles and every other random event of the rules;
- ``BOT_STREAM``: the bots' own randomness, so that changing a bot never changes the deal.

The same arithmetic is written in plain Python (``py_*``) for the reference implementations.
"""

import numpy as np
from numba import njit

from cardsim.core.bits import as_index

CHANCE_STREAM = 0
BOT_STREAM = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_MASK64 = (1 << 64) - 1


@njit(cache=True)
def _mix(z):
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_start(seed, game, stream):
    """Initial state (uint64) of stream ``stream`` of game ``game`` in a run seeded ``seed``."""
    s = _mix(np.uint64(seed) + _GOLDEN)
    s = _mix(s + np.uint64(game) * _GOLDEN)
    return _mix(s + np.uint64(stream + 1) * _GOLDEN)


@njit(cache=True)
def next_u64(rng):
    """Advance the stream held in ``rng[0]`` and return 64 random bits."""
    rng[0] = rng[0] + _GOLDEN
    return _mix(rng[0])


@njit(cache=True)
def randint(rng, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**31`` (multiply-shift on the top 32 bits)."""
    x = next_u64(rng) >> _S32
    return np.int64((x * np.uint64(n)) >> _S32)


@njit(cache=True)
def shuffle(rng, a, n):
    """Fisher-Yates shuffle of ``a[:n]`` in place: for i = n-1 down to 1, swap a[i], a[randint(i+1)].

    ``randint``'s draws written out, with the stream's state in a local written back once: numba
    cannot tell that ``a`` is not ``rng``, so each draw loaded and stored ``rng[0]``; and both
    indexes unsigned (``as_index``: no negative-index test). The same draws, the same order:
    28 -> 22 instructions a card (callgrind, a Piña Pirata deck, 2026-12-04)."""
    s = rng[0]
    for i in range(n - 1, 0, -1):
        s = s + _GOLDEN
        j = ((_mix(s) >> _S32) * np.uint64(i + 1)) >> _S32  # randint(rng, i + 1)
        k = as_index(i)
        t = a[k]
        a[k] = a[j]
        a[j] = t
    rng[0] = s


# Plain-Python twins, for reference implementations and replays. ---------------------------------


def _py_mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def py_stream_start(seed: int, game: int, stream: int) -> int:
    g = 0x9E3779B97F4A7C15
    s = _py_mix((seed + g) & _MASK64)
    s = _py_mix((s + game * g) & _MASK64)
    return _py_mix((s + (stream + 1) * g) & _MASK64)


class PyStream:
    """Plain-Python stream with the same output as the compiled functions above."""

    def __init__(self, state: int):
        self.state = state & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        return _py_mix(self.state)

    def randint(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, a: list) -> None:
        for i in range(len(a) - 1, 0, -1):
            j = self.randint(i + 1)
            a[i], a[j] = a[j], a[i]
