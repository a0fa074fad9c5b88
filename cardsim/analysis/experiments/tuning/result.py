"""What a tune returns: the trials of its search, the verification of its best candidates and
the winner, as tables and as the ``cardsim.tune/1`` JSON document (snake_case keys, rates as
fractions of 1, numbers as numbers)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pandas as pd

from cardsim.analysis.experiments.tuning.params import json_value, rule_values  # noqa: F401 (re-exported)
from cardsim.analysis.experiments.tuning.search import TuneSetup

TUNE_SCHEMA = "cardsim.tune/1"


def records(frame: pd.DataFrame) -> list[dict]:
    """A table's rows as JSON-ready dicts (numbers as numbers, NaN as null)."""
    return json.loads(frame.to_json(orient="records"))


@dataclass
class TuneResult:
    """``trials``: one row per completed trial (``search.trials_table``); ``verification``: the
    defaults and the best candidates on fresh deals (``verify.verification_table``);
    ``winner``: the rule values of the winning candidate (empty when none kept the length
    window); ``title``: the game's title; ``seconds``: how long it took."""

    setup: TuneSetup
    title: str
    trials: pd.DataFrame
    verification: pd.DataFrame
    verify_games: int
    seconds: float = 0.0

    @property
    def winner(self) -> dict[str, Any]:
        rows = self.verification[self.verification["winner"]]
        return dict(rows.iloc[0]["rules"]) if len(rows) else {}

    @property
    def winner_row(self) -> pd.Series | None:
        rows = self.verification[self.verification["winner"]]
        return rows.iloc[0] if len(rows) else None

    @property
    def defaults_row(self) -> pd.Series:
        return self.verification.iloc[0]

    def winner_rules(self) -> dict[str, Any]:
        """Every rule value the winning variant sets: ``--rules``/``--variant`` and the winner."""
        return {**self.setup.base_rules, **self.winner}

    def to_dict(self) -> dict:
        s = self.setup
        verification = self.verification.drop(columns=["rules"]).copy()
        verification.insert(
            1,
            "rules",
            [rule_values(r) for r in self.verification["rules"]],
        )
        return {
            "schema": TUNE_SCHEMA,
            "game": s.game,
            "players": s.players,
            "bots": list(s.bots),
            "seed": s.seed,
            "objective": s.objective.name,
            "levels": list(s.bots) if s.objective.ladder else None,
            "length_window": list(s.objective.length) if s.objective.length else None,
            "params": [p.describe() for p in s.params],
            "fixed_rules": rule_values(s.base_rules),
            "budget": s.budget,
            "games_per_trial": s.games,
            "blocks": s.blocks,
            "verify_games": self.verify_games,
            "seconds": round(self.seconds, 1),
            "trials": records(self.trials),
            "verification": records(verification),
            "winner": rule_values(self.winner),
        }


SCREEN_SCHEMA = "cardsim.screen/1"


@dataclass
class ScreenResult:
    """``effects``: one row per option and figure (``screen.effects_table``); ``runs``: the rule
    values and figures of every run of the design; ``design``: pb, fracfact or morris."""

    game: str
    title: str
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int
    design: str
    factors: tuple
    effects: pd.DataFrame
    runs: pd.DataFrame
    strongest_bot: str | None
    fixed_rules: dict
    seconds: float = 0.0

    def ranking(self, figure: str = "first_player_edge") -> pd.DataFrame:
        from cardsim.analysis.experiments.tuning.screen import ranking

        return ranking(self.effects, figure)

    def to_dict(self) -> dict:
        return {
            "schema": SCREEN_SCHEMA,
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "games_per_run": self.games,
            "design": self.design,
            "runs_played": int(self.runs["rejected"].isna().sum()),
            "runs_rejected": int(self.runs["rejected"].notna().sum()),
            "options": [
                {"option": f.name, "levels": [json_value(v) for v in f.levels]}
                for f in self.factors
            ],
            "fixed_rules": rule_values(self.fixed_rules),
            "strongest_bot": self.strongest_bot,
            "seconds": round(self.seconds, 1),
            "ranking": records(self.ranking()),
            "effects": records(self.effects),
            "runs": records(self.runs),
        }
