"""``cardsim replay GAME --game I``: the story of one game of a run, move by move."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.core import runner
from cardsim.core.errors import CardsimError
from cardsim.core.options import parse_assignments


@click.command("replay", short_help="Tell the story of one game of a run.")
@options.game_argument
@options.game_index_option
@options.spec_options
def replay(game, game_index, players, bots, bot_files, seed, rules) -> None:
    """Tell the story of game I of the run (same --seed, --players, --bots and --rules)."""
    spec = runner.make_spec(
        game,
        game_index + 1,
        players,
        options.split_names(bots),
        parse_assignments(rules),
        seed,
        bot_files,
    )
    if spec.ruleset.replay is None:
        raise CardsimError(f"{spec.ruleset.name} has no replay")
    story = spec.ruleset.replay(spec, game_index)
    click.echo(story if isinstance(story, str) else "\n".join(map(str, story)))
