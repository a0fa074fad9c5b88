"""The winner of a tune as a variant file (``cardsim.core.variants``), readable by ``cardsim run
--variant`` and ``cardsim diff`` as it is."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardsim.core.errors import CardsimError


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value))  # a TOML basic string is a JSON string


def variant_text(name: str, game: str, description: str, rules: Mapping[str, Any]) -> str:
    lines = [
        f"name = {_toml_value(name)}",
        f"game = {_toml_value(game)}",
        f"description = {_toml_value(description)}",
        "",
        "[rules]",
        *(f"{key} = {_toml_value(value)}" for key, value in rules.items()),
    ]
    return "\n".join(lines) + "\n"


def save_variant(
    path: str | Path, name: str, game: str, description: str, rules: Mapping[str, Any]
) -> Path:
    """Write the variant file (refusing to replace a file that exists)."""
    path = Path(path)
    if path.exists():
        raise CardsimError(f"--save {str(path)!r} exists already: choose another file")
    if not path.parent.exists():
        raise CardsimError(
            f"--save {str(path)!r}: the directory {str(path.parent)!r} does not exist"
        )
    path.write_text(variant_text(name, game, description, rules), encoding="utf-8")
    return path


def save_tuned(path: str | Path, result) -> Path:
    """The winner of a ``TuneResult`` as a variant file: every rule it sets (the fixed
    ``--rules``/``--variant`` values and the winning searched values)."""
    from cardsim.analysis.experiments.tuning.output import verdict

    winner = ", ".join(f"{k}={v}" for k, v in result.to_dict()["winner"].items())
    return save_variant(
        path,
        f"Tuned: {winner}",
        result.setup.game,
        verdict(result).removeprefix("Winner: "),
        {k: list(v) if isinstance(v, tuple) else v for k, v in result.winner_rules().items()},
    )
