"""``cardsim replay GAME --game I``: the story of one game of a run, move by move."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, text_json_option
from cardsim.cli.progress import compiling
from cardsim.core.errors import CardsimError


@click.command("replay", short_help="Tell the story of one game of a run.")
@options.game_argument
@options.game_index_option
@options.spec_options
@click.option(
    "--table",
    is_flag=True,
    help="Show the table at each turn's start, in lines that begin with '  | ': the public "
    "state, and the hand of the --seat followed (or every hand with --all-hands).",
)
@click.option(
    "--seat",
    "follow",
    type=int,
    default=None,
    help="With --table: the seat whose hand the table shows.",
)
@click.option("--all-hands", is_flag=True, help="With --table: show every seat's hand.")
@text_json_option
def replay(
    game,
    game_index,
    players,
    bots,
    bot_files,
    bot_params,
    seed,
    rules,
    variant,
    table,
    follow,
    all_hands,
    fmt,
) -> None:
    """Tell the story of game I of the run (same --seed, --players, --bots, --bot-param,
    --rules and --variant): one line per event, wrapped to the terminal's width when printed on
    one (piped into grep or a file, each event stays on one line). --table adds the table at
    each turn's start. --format json: the same lines in a list, with the run's settings."""
    from cardsim.cli.specs import spec_from_options
    from cardsim.core.table import TableView

    if (follow is not None or all_hands) and not table:
        raise CardsimError("--seat and --all-hands choose the hands --table shows: add --table")

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
    if follow is not None and not 0 <= follow < spec.n_players:
        raise CardsimError(f"--seat {follow}: the seats are 0 to {spec.n_players - 1}")
    view = TableView(follow, all_hands) if table else None
    if view is not None and not _tells_table(spec.ruleset.replay):
        raise CardsimError(f"{spec.ruleset.name}'s replay has no --table view")
    try:
        story = (
            spec.ruleset.replay(spec, index, table=view)
            if view
            else spec.ruleset.replay(spec, index)
        )
    except CardsimError as exc:  # a bot's bad answer: say in which game
        raise CardsimError(f"game {index}: {exc}") from None
    text = story if isinstance(story, str) else "\n".join(map(str, story))
    text += _search_lines(spec)
    if fmt == "json":
        echo_json("replay", _record(spec, index, text))
    else:
        click.echo(_fitted(text) if _stdout_is_terminal() else text)


def _record(spec, index: int, text: str) -> dict:
    """The JSON body of a replay: which game of which run, then the story's lines."""
    from cardsim.analysis.stats.summary import spec_record

    return {**spec_record(spec), "game_index": index, "lines": text.splitlines()}


def _search_lines(spec) -> str:
    """What each search bot chose at each of its decisions and the share of its iterations that
    went there (``core/reference.SEARCH_LOG``); nothing when no search bot is seated."""
    from cardsim.core.reference import SEARCH_LOG

    if not SEARCH_LOG:
        return ""
    lines = ["", "Search decisions (decision code chosen, share of the root's iterations):"]
    for bot, turn, seat, code, share in SEARCH_LOG:
        lines.append(
            f"  turn {turn + 1}, seat {seat} ({bot}): chose {code}, visit share {share:.0%}"
        )
    return "\n".join(lines)


def _tells_table(replay_fn) -> bool:
    """Whether a ruleset's replay takes a ``table`` view (a plug-in's may not)."""
    import importlib
    import inspect

    from cardsim.core.registry import Lazy

    if isinstance(replay_fn, Lazy):
        replay_fn = getattr(importlib.import_module(replay_fn.module), replay_fn.attr)
    return "table" in inspect.signature(replay_fn).parameters


def _stdout_is_terminal() -> bool:
    import sys

    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _fitted(text: str) -> str:
    """Every line of the story wrapped to the terminal, its continuation lines indented two
    spaces deeper than the line itself. Only on a terminal: piped into grep or a file, one event
    stays one line."""
    import textwrap

    from cardsim.text import terminal_width

    width = terminal_width()
    out = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(
            line.strip(),
            width,
            initial_indent=indent,
            subsequent_indent=indent + "  ",
            break_on_hyphens=False,
            break_long_words=False,
        )
    return "\n".join(out)
