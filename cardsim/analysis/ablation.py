"""Paired ablation: what a rule change does, measured on the very same games.

``ablation(game, base_rules, variants)`` plays the base rules and every variant on the same seed
and game indices (common random numbers) and returns the paired difference of every balance
metric (``cardsim.analysis.paired``) from the base to each variant. Because the deals are shared,
the change a rule makes shows through much less noise than two independent runs would allow;
and because the runs are the rule set's own games, the differences are causes, not associations
(compare ``cardsim.analysis.counters``).

Example, the crow-card study of Pajarracos::

    ablation("pajarracos", {}, {"no crows": {"crows": 0}, "no flocks": {"flocks": 0}},
             games=20_000, players=4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from cardsim.analysis.paired import paired_diff


def ablation(
    game: str,
    base_rules: Mapping[str, Any] | None,
    variants: Mapping[str, Mapping[str, Any]],
    games: int | str = 10_000,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    seed: int = 0,
    threads: int | None = None,
    bot_files: Sequence[str] = (),
    results: dict | None = None,
) -> pd.DataFrame:
    """Paired diffs of each variant against the base, on common games.

    ``variants``: name -> rule options changed on top of ``base_rules``. Returns the
    ``paired_diff`` rows of every variant with a first column ``variant`` (diff = variant - base).
    Pass a dict as ``results`` to get the ``Results`` of each run too (key ``"base"`` and each
    variant's name).
    """
    from cardsim.api import simulate  # runs the compiled engine: imported only when used

    def play(rules: Mapping[str, Any]):
        return simulate(
            game,
            games=games,
            players=players,
            bots=bots,
            rules=rules,
            seed=seed,
            threads=threads,
            bot_files=bot_files,
        )

    base_rules = dict(base_rules or {})
    base = play(base_rules)
    if results is not None:
        results["base"] = base
    tables = []
    for name, change in variants.items():
        run = play({**base_rules, **dict(change)})
        if results is not None:
            results[name] = run
        table = paired_diff(base, run)
        table.insert(0, "variant", name)
        tables.append(table)
    if not tables:
        return pd.DataFrame(columns=["variant", *paired_diff(base, base).columns])
    return pd.concat(tables, ignore_index=True)
