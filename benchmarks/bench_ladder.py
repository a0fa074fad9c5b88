"""Time of the default skill ladder per game, for ±3 points on the top level's self-play
first-player edge (issue 30, item 5: under 30 minutes on the 2-core machine)::

    python benchmarks/bench_ladder.py [--game GAME ...] [--players P] [--sample 200]
                                      [--threads 2] [--full] [--matrix-share 0.25]

For each game at its usual player count (or ``--players``), the default ladder (random, greedy,
the strongest heuristic bot, then ismcts at half and at its default budget when the game has
it) is built and every run's play loop compiled first (the compile is reported apart: it is
paid once per machine). Then every run plays ``--sample`` deals, timed one by one (wall and
process CPU). A game costs about the same whichever deal it is, so the ladder's time for ``n``
deals a run is the sample's times times ``n / sample``; ``n`` is what the top level's self-play
needs for a 95% interval of ±3 points on its first player's win share (``games_for_half_width``
at the upper end of the sample's 95% interval for that share, at most 50%: the planning is on the
safe side of the sample's own noise). ``--full`` then plays the
whole ladder at ``n`` deals and times it too, as ``cardsim ladder`` would (the check of the
estimate). Last, the budget left for the search levels: the seat-games they play in the ladder
at ``n`` deals and the CPU a full-budget seat-game may take for the whole to fit in 30 minutes
(what ``ismcts``'s default budget per game must meet; counted for the default ladder's two
search levels even before the game has the search bot). The load average is printed beside every figure: on a shared machine it decides them.

``--matrix-share S``: the matrix on the first ``S * n`` deals (``cardsim ladder --matrix-deals``);
the self-play runs and the matchup runs are then timed apart and scaled each by its own count.
"""

from __future__ import annotations

import argparse
import os
import time

from cardsim import experiments
from cardsim.analysis.experiments import ladder as L
from cardsim.core import registry, runner

GAMES = ("fruit-picking", "pajarracos", "piepmatz", "pina-pirata")
LIMIT_SECONDS = 30 * 60


def timed(specs, threads):
    """Wall and process CPU seconds of playing ``specs`` (in memory) and their frames."""
    wall, cpu = time.perf_counter(), time.process_time()
    frames = experiments.play_saved(specs, threads=threads)
    return time.perf_counter() - wall, time.process_time() - cpu, frames


def timed_apart(setup, threads):
    """``timed`` for the self-play runs and for the matchup runs of ``setup``, and the frames
    of every run in the plan's order."""
    self_play = [run.self_play for run in setup.plan]
    parts = [[s for s, own in zip(setup.specs, self_play, strict=True) if own == want]
             for want in (True, False)]  # fmt: skip
    (w1, c1, f1), (w2, c2, f2) = (timed(specs, threads) for specs in parts)
    frames = iter(f1), iter(f2)
    ordered = [next(frames[0] if own else frames[1]) for own in self_play]
    return (w1, c1), (w2, c2), ordered


def seat_games(plan, labels, deals: int, matrix_deals: int | None = None) -> dict[str, int]:
    """Games each level plays a seat in, over the ladder's runs of ``deals`` deals a
    self-play run and ``matrix_deals`` (default ``deals``) a matchup run."""
    matrix_deals = deals if matrix_deals is None else matrix_deals
    out = dict.fromkeys(labels, 0)
    for run in plan:
        for level in run.seating:
            out[level] += deals if run.self_play else matrix_deals
    return out


def search_units(
    labels, k: int, deals: int, matrix_deals: int | None = None
) -> tuple[dict[str, int], float]:
    """Seat-games of each search level in the ladder of ``deals`` deals a self-play run and
    ``matrix_deals`` a matchup run, and their sum in full-budget units (the half budget counted
    half). Without the search bot the default ladder's two search levels are added by name,
    for the count."""
    if L.SEARCH_BOT not in labels:
        labels = [*labels, f"{L.SEARCH_BOT}:{L.BUDGET}=half", L.SEARCH_BOT]
    counts = seat_games(L.ladder_plan(labels, k), labels, deals, matrix_deals)
    weight = {lv: (1.0 if lv == L.SEARCH_BOT else 0.5) for lv in labels if lv.startswith("ismcts")}
    return {lv: counts[lv] for lv in weight}, sum(counts[lv] * w for lv, w in weight.items())


def search_allowance(
    labels, k: int, deals: int, seconds: float, threads: int, matrix_deals: int | None = None
) -> str:
    """What the search levels may cost if the ladder with them is to take ``seconds`` on
    ``threads`` cores: CPU ms per seat-game at the full budget (``search_units``)."""
    counts, units = search_units(labels, k, deals, matrix_deals)
    return (
        f"{', '.join(f'{lv} {n:,}' for lv, n in counts.items())} seat-games: at most "
        f"{1000 * seconds * threads / units:.1f} ms of CPU per full-budget seat-game"
    )


def bench_game(
    game: str,
    players: int | None,
    sample: int,
    threads: int,
    full: bool,
    matrix_share: float = 1.0,
) -> None:
    ruleset = registry.get(game)
    t0 = time.perf_counter()
    setup = experiments.ladder_setup(game, None, sample, players)
    for spec in setup.specs:
        runner.warm(spec)
    compile_s = time.perf_counter() - t0
    k = setup.specs[0].n_players
    (self_wall, self_cpu), (match_wall, match_cpu), frames = timed_apart(setup, threads)
    wall, cpu = self_wall + match_wall, self_cpu + match_cpu
    runs = {run.key: f for run, f in zip(setup.plan, frames, strict=True)}
    top = L.first_player_table(runs, setup.labels).iloc[-1]
    # the sample's share is itself uncertain: plan for the end of its interval nearer 50%
    rate = min(max(top["ci_high"], 1 / k), 0.5)
    need = L.games_for_half_width(rate)
    matrix = max(1, min(need, round(need * matrix_share)))  # --matrix-deals of the full ladder
    estimate = (self_wall * need + match_wall * matrix) / sample
    cpu_estimate = (self_cpu * need + match_cpu * matrix) / sample
    deals = (
        f"{need:,} deals a run"
        if matrix == need
        else f"{need:,} deals a self-play run, {matrix:,} a matchup run"
    )
    print(
        f"{ruleset.short_title} {k}p: levels {', '.join(setup.labels)}"
        + (f" ({setup.note})" if setup.note else "")
    )
    print(
        f"  compile and warm {compile_s:.0f} s; {len(setup.specs)} runs x {sample} deals: "
        f"{wall:.2f} s wall, {cpu:.2f} s CPU (load {os.getloadavg()[0]:.1f})"
    )
    verdict = "under" if estimate < LIMIT_SECONDS else "OVER"
    print(
        f"  ±3 points on {top['level']}'s first-player edge: {deals} "
        f"(sample share {top['first_player_win_rate']:.3f}); estimated {estimate:.0f} s wall, "
        f"{cpu_estimate:.0f} s CPU: {verdict} 30 minutes"
    )
    if L.SEARCH_BOT in setup.labels:  # measured: every seat's CPU put on the search levels
        _, units = search_units(setup.labels, k, sample)
        print(f"  measured: at most {1000 * cpu / units:.1f} ms of CPU per full-budget seat-game")
        print("  " + search_allowance(setup.labels, k, need, LIMIT_SECONDS, threads, matrix))
    else:
        left = LIMIT_SECONDS - estimate
        print("  " + search_allowance(setup.labels, k, need, left, threads, matrix))
    if full:
        setup = experiments.ladder_setup(game, None, need, players, matrix_deals=matrix)
        wall, cpu, frames = timed(setup.specs, threads)
        runs = {run.key: f for run, f in zip(setup.plan, frames, strict=True)}
        top = L.first_player_table(runs, setup.labels).iloc[-1]
        print(
            f"  full ladder, {deals}: {wall:.0f} s wall, {cpu:.0f} s CPU (load "
            f"{os.getloadavg()[0]:.1f}); {top['level']} edge {top['edge_points']:+.1f} ± "
            f"{top['half_width_points']:.1f} points"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="*", default=list(GAMES))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--full", action="store_true")
    parser.add_argument(
        "--matrix-share",
        type=float,
        default=1.0,
        metavar="S",
        help="the matrix on the first S x n deals (cardsim ladder --matrix-deals); default 1",
    )
    args = parser.parse_args()
    for game in args.game:
        bench_game(game, args.players, args.sample, args.threads, args.full, args.matrix_share)


if __name__ == "__main__":
    main()
