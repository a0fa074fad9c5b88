"""The one way a command turns its spec options (players, bots, seed, --rules, --variant) into a
checked ``RunSpec``: the variant file's values first, ``--rules`` on top, the variant recorded in
the run's metadata."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from cardsim.cli.options import split_names
from cardsim.core import registry
from cardsim.core.options import parse_assignments
from cardsim.core.variants import Variant, combine_rules, load_variant

if TYPE_CHECKING:  # the runner loads numba: only when a spec is made
    from cardsim.core import runner


def read_variant(game: str, path: str | None) -> Variant | None:
    """The variant file given with ``--variant`` (checked against GAME), or ``None``."""
    return None if path is None else load_variant(path, registry.get(game))


def rule_values(
    game: str, rules: Iterable[str], variant: str | None
) -> tuple[dict, Variant | None]:
    """The rule values given by ``--variant`` and ``--rules`` (which wins), and the variant."""
    chosen = read_variant(game, variant)
    return combine_rules(chosen, parse_assignments(rules)), chosen


def spec_from_options(
    game: str,
    games,
    players: int | None,
    bots: str | Sequence[str],
    bot_files: Iterable[str],
    seed: int,
    rules: Iterable[str],
    variant: str | Variant | None,
    **extra,
) -> runner.RunSpec:
    """``runner.make_spec`` from command-line values (``bot_params``: the ``--bot-param``
    texts); ``extra`` goes to it unchanged."""
    from cardsim.core import runner
    from cardsim.core.bots import parse_bot_params

    if "bot_params" in extra:
        extra["bot_params"] = parse_bot_params(extra["bot_params"] or ())

    if isinstance(variant, str):
        variant = read_variant(game, variant)
    names = split_names(bots) if isinstance(bots, str) else list(bots)
    values = combine_rules(variant, parse_assignments(rules))
    spec = runner.make_spec(game, games, players, names, values, seed, bot_files, **extra)
    if variant is not None:
        spec = dataclasses.replace(spec, variant=variant.metadata())
    return spec
