"""Shell completion of game, bot and rule names (click's completion; see docs/commands.md).

Completion runs a new ``cardsim`` process at every TAB, so everything here reads the light ruleset
records only: never the engines, the bots' compiled code or numba.
"""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem


def _ruleset(ctx: click.Context):
    """The ruleset named by the command's GAME argument so far, or None.

    Click leaves the arguments unparsed while the option being completed still lacks its value
    (``run fruit-picking --bots <TAB>``): the game is then the first word of the command line
    (``COMP_WORDS``, set by every shell click completes for) that names a registered game.
    """
    import os

    from cardsim.core import registry

    names = registry.available()
    candidates = [ctx.params.get("game"), *os.environ.get("COMP_WORDS", "").split()]
    for word in candidates:
        if word and word.strip().lower().replace("_", "-") in names:
            return registry.get(word)
    return None


def games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from cardsim.core import registry

    return [CompletionItem(name) for name in registry.available() if name.startswith(incomplete)]


def bots(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Bot names, after the commas already typed (``planner,gr<TAB>``)."""
    ruleset = _ruleset(ctx)
    if ruleset is None:
        return []
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [CompletionItem(prefix + name) for name in ruleset.bot_names if name.startswith(last)]


def rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``KEY=`` for every rule option (``--rules`` and ``--param``), with its allowed values as
    help; after the ``=``, the values of a choice or a yes/no option."""
    ruleset = _ruleset(ctx)
    if ruleset is None:
        return []
    from cardsim.text import show_value

    key, eq, value = incomplete.partition("=")
    if not eq:
        return [
            CompletionItem(f"{o.name}=", help=o.doc)
            for o in ruleset.options
            if o.name.startswith(key.replace("-", "_"))
        ]
    for option in ruleset.options:
        if option.name == key.replace("-", "_"):
            choices = option_choices(option)
            return [
                CompletionItem(f"{key}={show_value(c)}")
                for c in choices
                if show_value(c).startswith(value)
            ]
    return []


def option_choices(option) -> list:
    """The values a rule option can take when they are few (booleans, choices), else none."""
    if option.kind == "bool":
        return [True, False]
    return list(option.choices)
