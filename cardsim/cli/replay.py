"""``cardsim replay GAME --game I``: the story of one game of a run, move by move."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.progress import compiling
from cardsim.core.errors import CardsimError


@click.command("replay", short_help="Tell the story of one game of a run.")
@options.game_argument
@options.game_index_option
@options.spec_options
def replay(game, game_index, players, bots, bot_files, bot_params, seed, rules, variant) -> None:
    """Tell the story of game I of the run (same --seed, --players, --bots, --bot-param,
    --rules and --variant)."""
    from cardsim.cli.specs import spec_from_options

    with compiling(game, bot_files, bots=bots):
        from cardsim.core.runner import parse_index  # numba: after the compile notice

        index = parse_index(game_index, "--game")
        spec = spec_from_options(
            game,
            index + 1,
            players,
            bots,
            bot_files,
            seed,
            rules,
            variant,
            bot_params=bot_params,
        )
    if spec.ruleset.replay is None:
        raise CardsimError(f"{spec.ruleset.name} has no replay")
    try:
        story = spec.ruleset.replay(spec, index)
    except CardsimError as exc:  # a bot's bad answer: say in which game
        raise CardsimError(f"game {index}: {exc}") from None
    click.echo(story if isinstance(story, str) else "\n".join(map(str, story)))
