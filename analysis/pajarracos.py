"""Balance study of Pajarracos: seat advantage by player count, and what crow cards do to a game.

Reproduces ``reports/pajarracos/``:

- ``balance-{3,4,6}p/``: the standard balance report (seat and first-player advantage, length,
  scores, end reasons, counter impact) of games between ``strategist`` bots, the strongest
  built-in heuristic, so that the numbers describe reasonable play rather than random moves;
- ``readings-{strategist,greedy}/``: what the rulebook's literal readings (the defaults since the rules audit) change
  against the earlier ones, on the same seeds: all three earlier readings together
  (``pajarracos-earlier-readings.toml``) and each alone (a shoo-to that does not end the action,
  a compulsory extra turn, an empty-handed extra turn that is lost), every metric's change with
  its paired interval;
- ``crows/``: the crow-card study. Counter impact (how a seat's win rate moves with the crows it
  plays and receives) can only show associations; the paired ablation shows causes: the same seeds
  played with the lone crows and flocks, the flocks only, the scarecrows or the juicy cards
  removed (``analysis/variants/pajarracos-*.toml``), every metric's change with its paired
  interval. Removing cards changes the deck, so a game's deal is not card for card the same in
  both runs; the seed, the first player and the bots' random streams are.

    python analysis/pajarracos.py [--games 200000] [--report reports/pajarracos] [--cluster ADDRESS]

``--cluster`` plays every run on a Dask cluster (``local:N`` or a scheduler address), as the
``--cluster`` option of the commands does: the same games, so the same reports.
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

GAME = "pajarracos"
BOTS = "strategist"
SEED = 2026
ROOT = Path(__file__).resolve().parent
VARIANTS = ("no-crows", "no-flocks", "no-scarecrows", "no-juicy")
READINGS = (
    "earlier-readings",
    "shoo-to-goes-on",
    "extra-turn-compulsory",
    "empty-extra-turn-lost",
)
CROW_COUNTERS = (
    "crows_played",
    "flocks_played",
    "crows_received",
    "fruit_lost",
    "trees_wiped",
    "fruit_eaten_by_its_crows",
    "protects",
    "shoo_outs",
    "shoo_tos",
    "crows_redirected_onto",
    "juicy_attractions",
    "extra_turns",
)


def balance_reports(games: int, out: Path, cluster=None) -> None:
    for players in (3, 4, 6):
        results = cardsim.simulate(
            GAME, games=games, players=players, bots=BOTS, seed=SEED, cluster=cluster
        )
        title = f"Balance report: Pajarracos, {players} players, strategist bots"
        balance.balance_report(results, title=title).write(out / f"balance-{players}p")
        print(f"balance-{players}p: {games:,} games", flush=True)


def ablation_section(base, variant_results, name: str, base_name: str = "full deck") -> Section:
    """One variant against the base rules: the change of every metric (``cardsim diff``)."""
    from cardsim.charts.diff import changes
    from cardsim.charts.render import run_caption

    table = paired_diff(base, variant_results)
    caption = run_caption(len(base.frame), base.seed, base.n_players, "paired 95% intervals")
    return Section(
        f"Ablation: {name}",
        text=[f"Rules of this run: {changed_rules(variant_results)}."],
        verdicts=D.verdicts(table, f"the {base_name}", name),
        tables=[
            Table(
                f"{base_name[0].upper()}{base_name[1:]} vs {name}",
                D.display_table(table, base_name, name),
            )
        ],
        figures=[render_figure(f"Change with {name}", changes(table, base_name, name), caption)],
    )


def readings_report(games: int, out: Path, bots: str, players: int = 4, cluster=None) -> None:
    """The default (literal) readings of pajarracos.md A8/A11, A10/A13 and A17 against the
    earlier ones, on the same seeds (``readings-<bots>/``)."""
    ruleset = registry.get(GAME)
    base = cardsim.simulate(
        GAME, games=games, players=players, bots=bots, seed=SEED, cluster=cluster
    )
    report = Report(
        f"Rules readings of Pajarracos, {players} players, {bots} bots",
        base.metadata,
        subtitle=f"{games:,} games per rule set, {bots} bots, seed {SEED}",
    )
    report.add(
        setup_section(
            [
                ("ruleset", ruleset.title),
                ("bots", f"{bots} in every seat"),
                ("games", f"{games:,} per rule set; game i has the same seed in every rule set"),
                (
                    "rule sets",
                    "the defaults (the rulebook's literal readings); " + "; ".join(READINGS),
                ),
            ],
            [
                "The defaults follow the rulebook literally: a shoo to another tree ends the "
                "action and the turn at once (R19, A8, A11), an extra turn may be declined (R18, "
                "A17), and an extra turn that starts with an empty hand while the reserve pile is "
                "empty ends the game (R23, A10, A13). Each section replays the same seeds under "
                "an earlier reading and shows what changes; the deal is card for card the same."
            ],
        )
    )
    for stem in READINGS:
        variant = load_variant(ROOT / "variants" / f"pajarracos-{stem}.toml", ruleset)
        run = cardsim.simulate(
            GAME,
            games=games,
            players=players,
            bots=bots,
            rules=variant.rules,
            seed=SEED,
            cluster=cluster,
        )
        report.add(ablation_section(base, run, variant.name.lower(), "literal readings"))
        print(f"readings ({bots}): {variant.name} done", flush=True)
    report.write(out / f"readings-{bots}")


def crow_report(games: int, out: Path, players: int = 4, cluster=None) -> None:
    ruleset = registry.get(GAME)
    base = cardsim.simulate(
        GAME, games=games, players=players, bots=BOTS, seed=SEED, cluster=cluster
    )
    report = Report(
        f"Crow cards in Pajarracos, {players} players",
        base.metadata,
        subtitle=f"{games:,} games per rule set, strategist bots, seed {SEED}",
    )
    report.add(
        setup_section(
            [
                ("ruleset", ruleset.title),
                ("bots", f"{BOTS} in every seat"),
                ("games", f"{games:,} per rule set; game i has the same seed in every rule set"),
                ("rule sets", "full deck; " + "; ".join(VARIANTS)),
            ],
            [
                "Part 1 (counters) shows how a seat's chance of winning moves with the crow cards "
                "it played and received in the full game: associations, since the cards a seat "
                "gets and the lead it has drive both. Part 2 (ablation) removes one kind of card "
                "and replays the same seeds: the change it makes is caused by the cards removed."
            ],
        )
    )
    stats = BalanceStats.from_frame(base.frame, base.metadata, CROW_COUNTERS)
    caption = balance.run_caption(stats)
    counters = balance.counter_section(stats, caption)
    counters.heading = "Part 1: crow counters and winning (full deck)"
    report.add(counters)
    for stem in VARIANTS:
        variant = load_variant(ROOT / "variants" / f"pajarracos-{stem}.toml", ruleset)
        run = cardsim.simulate(
            GAME,
            games=games,
            players=players,
            bots=BOTS,
            rules=variant.rules,
            seed=SEED,
            cluster=cluster,
        )
        report.add(ablation_section(base, run, variant.name.lower()))
        print(f"crows: {variant.name} done", flush=True)
    report.write(out / "crows")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=2e5)
    parser.add_argument("--report", type=Path, default=ROOT.parent / "reports" / GAME)
    parser.add_argument("--cluster", default=None, help="local:N or a Dask scheduler address")
    args = parser.parse_args()
    start = time.perf_counter()
    with session(args.cluster) as client:  # one local cluster for every run
        balance_reports(int(args.games), args.report, client)
        for bots in (BOTS, "greedy"):  # the strongest bot, and the default one
            readings_report(int(args.games), args.report, bots, cluster=client)
        crow_report(int(args.games), args.report, cluster=client)
    print(f"done in {time.perf_counter() - start:.0f} s: {args.report}")


if __name__ == "__main__":
    main()
