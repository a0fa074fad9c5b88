"""``cardsim compile [GAME...|--all] [--bots NAMES ...]``: build the compiled engines ahead.

A first run of a game compiles for tens of seconds; a workshop, a container image or a CI job
does that once, up front, with this command. Each game is built with its default bots unless
``--bots`` names seatings (as ``run --bots`` takes them; every mixed seating of a game's built-in
bots shares one play loop, so ``--bots random,greedy`` builds the loop of every comparison of
them). Says per build whether it compiled and how long it took, and where the cache is.
"""

from __future__ import annotations

from time import perf_counter

import click

from cardsim.cli import complete
from cardsim.core.errors import CardsimError


def _targets(games: tuple[str, ...], all_games: bool) -> list[str]:
    from cardsim.core import registry

    if all_games and games:
        raise CardsimError("give either GAME names or --all, not both")
    if all_games:
        return list(registry.available())
    if not games:
        raise CardsimError("name the games to compile (`cardsim games` lists them), or --all")
    return [registry.get(game).name for game in games]  # unknown names: one line, before work


def build(game: str, bots: str) -> tuple[bool, float]:
    """Compile (or load) ``game``'s engine with ``bots`` seated; whether it compiled, seconds."""
    from cardsim.cli.progress import compiling
    from cardsim.cli.specs import spec_from_options
    from cardsim.core import registry

    names = [name.strip() for name in bots.split(",") if name.strip()]
    ruleset = registry.get(game)
    players = None  # the game's usual count, every seat the one bot (or the default bots)
    if len(names) > 1:  # a loop is built per set of bots: repeat them to fill the seats
        players = min(max(len(names), ruleset.min_players), ruleset.max_players)
        names = (names * players)[: max(players, len(names))]
    t0 = perf_counter()
    with compiling(game, (), False, names) as due:
        from cardsim.core import runner  # numba: after the compile is announced

        runner.warm(spec_from_options(game, 1, players, names, (), 0, (), None))
    return due, perf_counter() - t0


@click.command("compile", short_help="Build the compiled engines ahead of a first run.")
@click.argument("games", nargs=-1, metavar="[GAME...]", shell_complete=complete.games)
@click.option("--all", "all_games", is_flag=True, help="Every game cardsim knows.")
@click.option(
    "--bots",
    "-b",
    "bot_sets",
    multiple=True,
    metavar="NAME[,NAME...]",
    shell_complete=complete.bots,
    help="A seating to build for, as `run --bots` takes it (repeatable; default: each game's "
    "default bots). Mixed seatings of built-in bots share one build: random,greedy covers them.",
)
def compile(games, all_games, bot_sets) -> None:  # noqa: A001 (the command's name)
    """Compile the engines of GAME... (or --all) and their bots into the cache, so that later
    runs start at once: for a workshop, a container image or a CI job."""
    from cardsim.core import cache, registry

    targets = _targets(games, all_games)
    t0 = perf_counter()
    built = 0
    for game in targets:
        for bots in bot_sets or ("",):
            due, seconds = build(game, bots)
            seating = bots or ",".join(registry.get(game).default_bots)
            if due:
                built += 1
                click.echo(f"{game} ({seating}): compiled in {seconds:.0f} s")
            else:
                click.echo(f"{game} ({seating}): already compiled")
    click.echo(
        f"{built} compiled, {len(targets) * len(bot_sets or ('',)) - built} already there, "
        f"in {perf_counter() - t0:.0f} s; cache: {cache.compiled_dir()}"
    )
