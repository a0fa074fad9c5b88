"""Balance study of Piña Pirata: Treasure Hunt fairness by player count, what each Adventure tile
does to a game, and how long Cruise rounds get as tiles accumulate.

Reproduces ``reports/pina-pirata/``:

- ``treasure-hunt-{2..6}p/``: the standard balance report (seat and first-player advantage,
  length, scores, end reasons, counter impact) of Treasure Hunt games between ``captain`` bots,
  the strongest built-in heuristic;
- ``tiles/``: the tile-impact study. For each tile T, the same seeds are played twice: with the
  pool of the other 39 tiles, and with T in play from the start (``fixed_tiles``) and the same 39
  tiles in the pile. Both arms shuffle the same pile the same way, so the starting tiles, the
  dealer and the first deal are the same: the difference is caused by T. Per game: mean turns
  per round, share of rounds won by the round's first player, share of rounds ended by the round
  turn cap; the table and the forest chart give each tile's paired mean change with a 95%
  interval;
- ``cruise/``: Cruise mode for 12 rounds without reset (a tile added per round): mean turns per
  round against the tiles in play, for 2, 4 and 6 players.

    python analysis/pina_pirata.py [--games 20000] [--tile-games 4000] [--report reports/pina-pirata]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

import cardsim
from cardsim.analysis.reports import balance
from cardsim.analysis.reports.report import Report, Section, Table, render_figure
from cardsim.charts.forest import forest, lines
from cardsim.games.pina_pirata import cards as C

GAME = "pina-pirata"
BOTS = "captain"
SEED = 2026
ROOT = Path(__file__).resolve().parent
Z = 1.959964


def balance_reports(games: int, out: Path) -> None:
    for players in range(2, 7):
        results = cardsim.simulate(GAME, games=games, players=players, bots=BOTS, seed=SEED)
        title = f"Balance report: Piña Pirata Treasure Hunt, {players} players, captain bots"
        balance.balance_report(results, title=title).write(out / f"treasure-hunt-{players}p")
        print(f"treasure-hunt-{players}p: {games:,} games", flush=True)


def per_game(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-game round figures: mean turns per round, first-player round wins, capped rounds."""
    rounds = frame["rounds"].clip(lower=1)
    won = (frame["rounds"] - frame["rounds_capped"]).clip(lower=1)
    return pd.DataFrame(
        {
            "round_length": frame["turns"] / rounds,
            "first_player_share": frame["first_player_wins"] / won,
            "capped_share": frame["rounds_capped"] / rounds,
            "rounds": frame["rounds"].astype(float),
        }
    )


def paired(a: pd.Series, b: pd.Series) -> tuple[float, float, float]:
    d = (b - a).to_numpy(float)
    mean = d.mean()
    half = Z * d.std(ddof=1) / np.sqrt(len(d))
    return mean, mean - half, mean + half


def tile_impact(games: int, players: int, out: Path) -> None:
    everything = list(range(1, C.N_TILES + 1))
    rows = []
    for tile in everything:
        pool = ",".join(str(t) for t in everything if t != tile)
        base = cardsim.simulate(GAME, games, players, BOTS, {"tile_pool": pool}, seed=SEED)
        fixed = cardsim.simulate(GAME, games, players, BOTS, {"fixed_tiles": str(tile)}, seed=SEED)
        a, b = per_game(base.frame), per_game(fixed.frame)
        row = {"tile": f"T{tile} {C.TILE_NAMES[tile]}"}
        for col in a.columns:
            mid, lo, hi = paired(a[col], b[col])
            row[col] = mid
            row[f"{col}_low"], row[f"{col}_high"] = lo, hi
            row[f"{col}_base"] = a[col].mean()
        rows.append(row)
        print(f"tiles: T{tile} done", flush=True)
    table = pd.DataFrame(rows)
    caption = f"{games:,} paired games per tile, {players} players, {BOTS} bots, seed {SEED}"
    shown = pd.DataFrame(
        {
            "tile": table["tile"],
            "round length, turns": [f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]" for m, lo, hi in
                                    zip(table["round_length"], table["round_length_low"], table["round_length_high"], strict=True)],
            "first player's round wins, points": [f"{100 * m:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" for m, lo, hi in
                                                  zip(table["first_player_share"], table["first_player_share_low"], table["first_player_share_high"], strict=True)],
            "capped rounds, points": [f"{100 * m:+.2f}" for m in table["capped_share"]],
            "rounds per game": [f"{m:+.2f}" for m in table["rounds"]],
        }
    )  # fmt: skip
    longest = table.sort_values("round_length", ascending=False).head(5)
    first = table.sort_values("first_player_share", ascending=False).head(5)
    verdicts = [
        "Longer rounds: " + ", ".join(f"{r.tile} ({r.round_length:+.1f} turns)" for r in longest.itertuples()),
        "Most help to the round's first player: " + ", ".join(f"{r.tile} ({100 * r.first_player_share:+.1f} points)" for r in first.itertuples()),
        f"Without any fixed tile: {table['round_length_base'].mean():.1f} turns per round, "
        f"{100 * table['first_player_share_base'].mean():.1f}% of rounds won by their first player.",
    ]  # fmt: skip
    fig = forest(
        table,
        "tile",
        [
            ("round_length", "change in turns per round"),
            ("first_player_share", "change in first player's share of round wins"),
        ],
        "What each Adventure tile does (in play from the start vs not)",
    )
    report = Report(
        f"Adventure tiles in Piña Pirata, {players} players",
        {"ruleset": GAME, "games_per_arm": games, "seed": SEED, "bots": BOTS, "players": players},
        subtitle=caption,
    )
    report.add(
        Section(
            "Paired tile impact",
            text=[
                "Each tile T in play from the start (fixed_tiles=T) against the same seeds with the "
                "other 39 tiles only (tile_pool without T): same dealer, same pile order, same "
                "starting tiles and first deal. Changes are means of per-game differences with 95% "
                "intervals. Treasure Hunt, default rules: the tile stays until a round winner "
                "replaces it at 6 tiles (R17)."
            ],
            verdicts=verdicts,
            tables=[Table("Change when the tile is in play from the start", shown)],
            figures=[render_figure("Tile impact forest", fig, caption)],
        )
    )
    report.write(out / "tiles")
    table.to_csv(out / "tiles" / "tile-impact.csv", index=False, float_format="%.5f")


def cruise_length(games: int, out: Path) -> None:
    rows = []
    for players in (2, 4, 6):
        rules = {"mode": "cruise", "cruise_rounds": C.ROUND_SLOTS, "cruise_reset_at": "never"}
        frame = cardsim.simulate(GAME, games, players, BOTS, rules, seed=SEED).frame
        for i in range(C.ROUND_SLOTS):
            turns = frame[f"turns_round_{i + 1}"].astype(float)
            half = Z * turns.std(ddof=1) / np.sqrt(len(turns))
            rows.append(
                {
                    "players": players,
                    "round": i + 1,
                    "tiles in play": float(frame[f"tiles_round_{i + 1}"].mean()),
                    "turns": turns.mean(),
                    "turns_low": turns.mean() - half,
                    "turns_high": turns.mean() + half,
                }
            )
        print(f"cruise: {players} players done", flush=True)
    table = pd.DataFrame(rows)
    caption = f"{games:,} Cruise games of 12 rounds per player count, {BOTS} bots, seed {SEED}"
    fig = lines(table, "round", "turns", "players", "round (tiles in play: round + 1, less after a capped round)",
                "mean turns in the round (95% interval)", "Cruise: round length as tiles accumulate")  # fmt: skip
    shown = table.pivot(index="round", columns="players", values="turns").round(1)
    tiles = table.pivot(index="round", columns="players", values="tiles in play").round(2)
    shown.columns = [f"turns, {p} players" for p in shown.columns]
    shown.insert(0, "tiles in play (mean, 4 players)", tiles[4])
    shown = shown.reset_index()
    report = Report(
        "Cruise round length in Piña Pirata",
        {"ruleset": GAME, "games": games, "seed": SEED},
        subtitle=caption,
    )
    report.add(
        Section(
            "Round length as tiles accumulate",
            text=[
                "Cruise mode (M1) for 12 rounds with cruise_reset_at=never: round i is played with 2 + (i - 1) tiles in play, "
                "each added by the previous round's winner."
            ],  # fmt: skip
            tables=[Table("Mean turns per round, round by round", shown)],
            figures=[render_figure("Cruise round length", fig, caption)],
        )
    )
    report.write(out / "cruise")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=2e4)
    parser.add_argument("--tile-games", type=float, default=4e3)
    parser.add_argument("--report", type=Path, default=ROOT.parent / "reports" / GAME)
    parser.add_argument("--only", choices=("balance", "tiles", "cruise"), default=None)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.only in (None, "balance"):
        balance_reports(int(args.games), args.report)
    if args.only in (None, "tiles"):
        tile_impact(int(args.tile_games), 4, args.report)
    if args.only in (None, "cruise"):
        cruise_length(int(args.games) // 2, args.report)
    print(f"done in {time.perf_counter() - start:.0f} s: {args.report}")


if __name__ == "__main__":
    main()
