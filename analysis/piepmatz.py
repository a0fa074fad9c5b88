"""Balance study of Piepmatz: seat advantage by player count, what crows and squirrels do to a
game, and what the unpublished feeder split changes.

Reproduces ``reports/piepmatz/``:

- ``balance-{2,3,4}p/``: the standard balance report (seat and first-player advantage, length,
  scores, end reasons, counter impact) of games between ``planner`` bots, the strongest built-in
  heuristic, so that the numbers describe reasonable play rather than random moves;
- ``bad-cards/``: the crow and squirrel study. Counter impact (how a seat's win rate moves with the
  crows and squirrels it takes, the seed cards it loses) shows associations; the paired ablations
  show causes: the same seeds played with no squirrels and with the one crow the rulebook
  guarantees (``analysis/variants/piepmatz-no-squirrels.toml``, ``piepmatz-one-crow.toml``);
- ``feeder-split/``: the seed cards worth 1/2/3 are not published (piepmatz.md A3). The default
  10/10/10 against 12/10/8 and 12/12/6 (``piepmatz-seeds-*.toml``), paired.

Changing the feeder changes the deck, so a game's deal is not card for card the same in two rule
sets; the seed, the start player, the bird cards and the bots' random streams are.

    python analysis/piepmatz.py [--games 100000] [--report reports/piepmatz] [--cluster ADDRESS]

``--cluster`` plays every run on a Dask cluster (``local:N`` or a scheduler address): the same
games, so the same reports.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cardsim
from cardsim.analysis.experiments import variant_diff as D
from cardsim.analysis.reports import balance
from cardsim.analysis.reports.experiment_report import changed_rules, setup_section
from cardsim.analysis.reports.report import Report, Section, Table, render_figure
from cardsim.analysis.stats.balance_stats import BalanceStats
from cardsim.analysis.stats.paired import paired_diff
from cardsim.core import registry
from cardsim.core.cluster import session
from cardsim.core.variants import load_variant

GAME = "piepmatz"
BOTS = "planner"
SEED = 2026
ROOT = Path(__file__).resolve().parent
BAD_CARD_VARIANTS = ("no-squirrels", "one-crow")
FEEDER_VARIANTS = ("seeds-12-10-8", "seeds-12-12-6")
BAD_CARD_COUNTERS = (
    "crows_taken",
    "squirrels_taken",
    "squirrel_cards_lost",
    "squirrel_points_lost",
    "seed_points_taken",
    "deck_draws",
    "chains",
    "promotions",
    "keeps",
    "pairs",
    "majorities",
)


def balance_reports(games: int, out: Path, cluster=None) -> None:
    for players in (2, 3, 4):
        results = cardsim.simulate(
            GAME, games=games, players=players, bots=BOTS, seed=SEED, cluster=cluster
        )
        title = f"Balance report: Piepmatz, {players} players, planner bots"
        balance.balance_report(results, title=title).write(out / f"balance-{players}p")
        print(f"balance-{players}p: {games:,} games", flush=True)


def ablation_section(base, variant_results, base_name: str, name: str) -> Section:
    """One variant against the base rules: the change of every metric (``cardsim diff``)."""
    from cardsim.charts.diff import changes
    from cardsim.charts.render import run_caption

    table = paired_diff(base, variant_results)
    caption = run_caption(len(base.frame), base.seed, base.n_players, "paired 95% intervals")
    return Section(
        f"{base_name} vs {name}",
        text=[f"Rules of this run: {changed_rules(variant_results)}."],
        verdicts=D.verdicts(table, base_name, name),
        tables=[Table(f"{base_name} vs {name}", D.display_table(table, base_name, name))],
        figures=[render_figure(f"Change with {name}", changes(table, base_name, name), caption)],
    )


def variant_runs(games: int, players: int, stems: tuple[str, ...], cluster=None):
    ruleset = registry.get(GAME)
    for stem in stems:
        variant = load_variant(ROOT / "variants" / f"piepmatz-{stem}.toml", ruleset)
        run = cardsim.simulate(
            GAME,
            games=games,
            players=players,
            bots=BOTS,
            rules=variant.rules,
            seed=SEED,
            cluster=cluster,
        )
        yield variant, run


def bad_card_report(games: int, out: Path, players: int = 4, cluster=None) -> None:
    ruleset = registry.get(GAME)
    base = cardsim.simulate(
        GAME, games=games, players=players, bots=BOTS, seed=SEED, cluster=cluster
    )
    report = Report(
        f"Crows and squirrels in Piepmatz, {players} players",
        base.metadata,
        subtitle=f"{games:,} games per rule set, planner bots, seed {SEED}",
    )
    report.add(
        setup_section(
            [
                ("ruleset", ruleset.title),
                ("bots", f"{BOTS} in every seat"),
                ("games", f"{games:,} per rule set; game i has the same seed in every rule set"),
                ("rule sets", "3 crows and 3 squirrels (A3 default); no squirrels; one crow"),
            ],
            [
                "Part 1 (counters) shows how a seat's chance of winning moves with the crows and "
                "squirrels it took and the seed cards it lost: associations, since a seat that "
                "takes many cards also meets more bad cards. Part 2 (ablations) removes the "
                "squirrels, or two of the three crows, and replays the same seeds: the change is "
                "caused by the cards removed."
            ],
        )
    )
    stats = BalanceStats.from_frame(base.frame, base.metadata, BAD_CARD_COUNTERS)
    counters = balance.counter_section(stats, balance.run_caption(stats))
    counters.heading = "Part 1: bad-card counters and winning (3 crows, 3 squirrels)"
    report.add(counters)
    for variant, run in variant_runs(games, players, BAD_CARD_VARIANTS, cluster):
        report.add(ablation_section(base, run, "3 crows, 3 squirrels", variant.name.lower()))
        print(f"bad cards: {variant.name} done", flush=True)
    report.write(out / "bad-cards")


def feeder_report(games: int, out: Path, players: int = 4, cluster=None) -> None:
    ruleset = registry.get(GAME)
    base = cardsim.simulate(
        GAME, games=games, players=players, bots=BOTS, seed=SEED, cluster=cluster
    )
    report = Report(
        f"The feeder split in Piepmatz, {players} players",
        base.metadata,
        subtitle=f"{games:,} games per rule set, planner bots, seed {SEED}",
    )
    report.add(
        setup_section(
            [
                ("ruleset", ruleset.title),
                ("bots", f"{BOTS} in every seat"),
                ("games", f"{games:,} per rule set; game i has the same seed in every rule set"),
                ("rule sets", "seed cards worth 1/2/3 as 10/10/10 (A3 default), 12/10/8, 12/12/6"),
            ],
            [
                "The rulebook names seed cards worth 1, 2 and 3 points but not how many of each "
                "(piepmatz.md A3). Each section replays the same seeds with another split and "
                "shows every metric's change with its paired interval."
            ],
        )
    )
    for variant, run in variant_runs(games, players, FEEDER_VARIANTS, cluster):
        report.add(ablation_section(base, run, "10/10/10", variant.name.lower()))
        print(f"feeder split: {variant.name} done", flush=True)
    report.write(out / "feeder-split")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=1e5)
    parser.add_argument("--report", type=Path, default=ROOT.parent / "reports" / GAME)
    parser.add_argument("--cluster", default=None, help="local:N or a Dask scheduler address")
    args = parser.parse_args()
    start = time.perf_counter()
    with session(args.cluster) as client:  # one local cluster for every run
        balance_reports(int(args.games), args.report, client)
        bad_card_report(int(args.games), args.report, cluster=client)
        feeder_report(int(args.games), args.report, cluster=client)
    print(f"done in {time.perf_counter() - start:.0f} s: {args.report}")


if __name__ == "__main__":
    main()
