"""How fast the streaming summary digests outcome chunks (games per second), on synthetic chunks.

    python benchmarks/bench_summary.py [--games 1000000]

Prints the games summarized, the wall time and games per second; the machine and its load at the
time decide the figure, so quote them with it.
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace

import numpy as np

from cardsim.analysis.stats.summary import SummaryAccumulator
from cardsim.core import layout as L
from cardsim.core.outcomes import Chunk

CHUNK = 1 << 16


def synthetic_chunk(rng, players: int = 4) -> Chunk:
    """A chunk of 4-player games with random first seats, one random winner and random lengths."""
    game_out = np.zeros((CHUNK, len(L.GAME_COLUMNS)), np.int32)
    seat_out = np.zeros((CHUNK, players, len(L.SEAT_COLUMNS)), np.int32)
    game_out[:, L.G_FIRST_SEAT] = rng.integers(0, players, CHUNK)
    game_out[:, L.G_TURNS] = rng.integers(20, 200, CHUNK)
    game_out[:, L.G_END_REASON] = 1
    seat_out[np.arange(CHUNK), rng.integers(0, players, CHUNK), L.S_WIN] = 1
    return Chunk(0, game_out, seat_out, np.zeros((CHUNK, players), np.int16))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=1e6)
    args = parser.parse_args()
    chunk = synthetic_chunk(np.random.default_rng(1))
    spec = SimpleNamespace(
        n_players=4,
        bot_names=["greedy"],
        ruleset=SimpleNamespace(end_reasons=("turn_cap", "end")),
    )
    chunks = max(1, round(args.games / CHUNK))
    acc = SummaryAccumulator(spec)
    start = time.perf_counter()
    for _ in range(chunks):
        acc(chunk)
    summary = acc.summarize()
    seconds = time.perf_counter() - start
    print(
        f"summary of {summary.games:,} games: {seconds:.3f} s, {summary.games / seconds:,.0f} games/s"
    )


if __name__ == "__main__":
    main()
