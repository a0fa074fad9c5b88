"""The search of a tune: an optuna study of rule values, every trial played on the same blocks of
deals.

Trial t proposes a value for each searched option (``TPESampler``, seeded and multivariate: a
sequential study with a seeded sampler proposes the same values every time). The candidate is
played block by block: block b is games ``b * block .. (b + 1) * block - 1`` of the seed, the same
deals for every trial, and the objective's value on the block is reported as step b. optuna's
``WilcoxonPruner`` compares those values with the best trial's on the same blocks (a paired
signed-rank test) and stops a candidate that is clearly worse; as its documentation advises, a
stopped trial returns the mean of the blocks it played rather than raising ``TrialPruned``, so
the sampler still learns from it. A completed trial's value is the mean over all blocks.

A candidate proposed again is not played again: its games would be the same, so its block
values are taken from the first time (``_Played``). The study lives in an optuna storage
(a journal file) when one is given: an interrupted tune keeps its trials and ``resume``
continues it with the remaining budget.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cardsim.analysis.experiments.tuning.measures import (
    GameValues,
    as_values,
    concat_values,
    figures,
)
from cardsim.analysis.experiments.tuning.objectives import Objective
from cardsim.analysis.experiments.tuning.params import TuneParam, json_value
from cardsim.core.errors import CardsimError
from cardsim.text import show_value

# play(rules, first_game, n_games) -> the frame of those games under those rules
Play = Callable[[Mapping[str, Any], int, int], pd.DataFrame]
STUDY_NAME = "cardsim-tune"
STARTUP_TRIALS = 10  # random trials before TPE models the results (optuna's default)
P_THRESHOLD = 0.1  # WilcoxonPruner: stop a trial this sure that it is worse than the best


@dataclass(frozen=True)
class TuneSetup:
    """Everything a tune's games depend on (its fingerprint is stored with the study, so a
    resumed study must be the same tune)."""

    game: str
    params: tuple[TuneParam, ...]
    objective: Objective
    players: int
    bots: tuple[str, ...]
    seed: int
    budget: int
    games: int  # games per trial
    blocks: int
    base_rules: dict = field(default_factory=dict)  # --rules and --variant: not searched

    def block_range(self, b: int) -> tuple[int, int]:
        """(first game, games) of block ``b``: the games split as evenly as they go."""
        lo = b * self.games // self.blocks
        return lo, (b + 1) * self.games // self.blocks - lo

    def fingerprint(self) -> dict:
        data = asdict(self)
        data.pop("budget")
        return {k: _plain(v) for k, v in data.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return show_value(value)


def check_setup(setup: TuneSetup) -> None:
    if setup.budget < 1:
        raise CardsimError(f"--budget must be at least 1 trial, got {setup.budget}")
    if setup.blocks < 2:
        raise CardsimError(
            f"--blocks must be at least 2 (the pruner compares blocks), got {setup.blocks}"
        )
    if setup.games < setup.blocks:
        raise CardsimError(
            f"--games {setup.games} cannot fill {setup.blocks} blocks: give at least one game per block"
        )


class _Played:
    """The block values of every candidate played so far (the same rules replay the same games,
    so there is nothing to learn from playing them twice)."""

    def __init__(self) -> None:
        self.blocks: dict[tuple, dict[int, GameValues]] = {}

    def get(self, key: tuple, b: int, play_block: Callable[[], GameValues]) -> GameValues:
        known = self.blocks.setdefault(key, {})
        if b not in known:
            known[b] = play_block()
        return known[b]


def ladder_figures(shown: Mapping[str, Any]) -> list[str]:
    """The figures only the ladder objective has (``ladder_values``): the order shortfall and
    each adjacent pair's margin, kept with each trial."""
    return [k for k in shown if k == "order_shortfall" or k.startswith("margin:")]


def make_objective(setup: TuneSetup, play: Play, played: _Played) -> Callable:
    """The optuna objective of the tune (see the module docstring)."""

    def objective(trial) -> float:
        point = {p.name: p.suggest(trial) for p in setup.params}
        rules = {**setup.base_rules, **point}
        key = tuple(show_value(v) for v in point.values())
        parts, values = [], []
        for b in range(setup.blocks):
            first, n = setup.block_range(b)
            try:
                part = played.get(key, b, lambda first=first, n=n: as_values(play(rules, first, n)))
            except CardsimError as exc:
                if b > 0:
                    raise
                # rules that cannot be played together (a hand larger than the deck...): the
                # sampler learns to avoid them, the budget counts the proposal
                import optuna

                trial.set_user_attr("rejected", str(exc))
                raise optuna.TrialPruned(str(exc)) from None
            parts.append(part)
            values.append(setup.objective.block_value(part))
            trial.report(values[-1], b)
            if b < setup.blocks - 1 and trial.should_prune():
                break
        shown = figures(concat_values(parts))
        mean_turns = float(shown["mean_turns"][0])
        trial.set_user_attr("first_player_edge", float(shown["first_player_edge"][0]))
        trial.set_user_attr("seat_spread", float(shown["seat_spread"][0]))
        trial.set_user_attr("mean_turns", mean_turns)
        for name in ladder_figures(shown):
            trial.set_user_attr(name, float(shown[name][0]))
        trial.set_user_attr("games", int(sum(p.games for p in parts)))
        trial.set_user_attr("pruned", len(parts) < setup.blocks)
        constraint = setup.objective.constraint(mean_turns)
        trial.set_user_attr("constraint", constraint)
        if setup.objective.length is not None:  # the sampler then prefers feasible candidates
            trial.set_constraint("shorter_than_window", constraint[0])
            trial.set_constraint("longer_than_window", constraint[1])
        return float(np.mean(values))

    return objective


def open_study(setup: TuneSetup, storage_path: str | None, resume: bool, done: int = 0):
    """A new optuna study, or the stored one to resume (checked to be the same tune)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # a trial stopped by Ctrl-C is said once
    storage = None
    if storage_path is not None:
        from optuna.storages import JournalStorage
        from optuna.storages.journal import JournalFileBackend

        storage = JournalStorage(JournalFileBackend(str(storage_path)))
    sampler = optuna.samplers.TPESampler(
        seed=setup.seed + done,  # a resumed study draws on from where it stopped
        multivariate=True,
        n_startup_trials=min(STARTUP_TRIALS, max(2, setup.budget // 4)),
    )
    with warnings.catch_warnings():  # experimental in optuna 3.6-5.x: said once in the docs
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        pruner = optuna.pruners.WilcoxonPruner(p_threshold=P_THRESHOLD, n_startup_steps=2)
    if resume:
        study = optuna.load_study(
            study_name=STUDY_NAME, storage=storage, sampler=sampler, pruner=pruner
        )
        if study.user_attrs.get("setup") != setup.fingerprint():
            raise CardsimError(
                f"--study {storage_path!r} holds another tune (other game, options, objective, "
                "players, bots, seed or games): run the same command to resume it"
            )
        return study
    study = optuna.create_study(
        study_name=STUDY_NAME, storage=storage, sampler=sampler, pruner=pruner, direction="minimize"
    )
    study.set_user_attr("setup", setup.fingerprint())
    return study


def finished_trials(study) -> list:
    """The trials that played (complete; a stopped one is complete with ``pruned`` set)."""
    import optuna

    return [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]


def spent_trials(study) -> int:
    """Trials that count against the budget: played ones and rejected rule combinations."""
    import optuna

    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return sum(1 for t in study.trials if t.state in done)


def count_done(storage_path: str) -> int:
    """Trials a stored study has completed (0 if it has none)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # a trial stopped by Ctrl-C is said once
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    storage = JournalStorage(JournalFileBackend(str(storage_path)))
    try:
        study = optuna.load_study(study_name=STUDY_NAME, storage=storage)
    except KeyError:
        raise CardsimError(f"--study {storage_path!r} holds no cardsim tune") from None
    return spent_trials(study)


def search(
    setup: TuneSetup,
    play: Play,
    storage_path: str | None = None,
    resume: bool = False,
    on_trial: Callable[[int], None] | None = None,
):
    """Run the study up to ``setup.budget`` completed trials and return it. ``on_trial(n)`` after
    each trial with the trials done so far."""
    check_setup(setup)
    from pathlib import Path

    resume = resume and storage_path is not None and Path(storage_path).exists()
    done = count_done(storage_path) if resume else 0
    study = open_study(setup, storage_path, resume, done)
    played = _Played()
    objective = make_objective(setup, play, played)
    remaining = setup.budget - spent_trials(study)
    callbacks = [lambda s, t: on_trial(spent_trials(s))] if on_trial else []
    if remaining > 0:
        study.optimize(objective, n_trials=remaining, callbacks=callbacks, catch=())
    return study


# -- the trials as a table -----------------------------------------------------------------------


def trials_table(study, setup: TuneSetup) -> pd.DataFrame:
    """One row per completed trial: its number, the value of each searched option, the
    objective, the figures of its games, whether the pruner stopped it, whether it kept the
    length window, and the best objective so far among full, feasible trials."""
    rows = []
    best = math.inf
    for t in finished_trials(study):
        row: dict[str, Any] = {"trial": t.number}
        for p in setup.params:
            row[p.name] = json_value(p.from_label(t.params[p.name]))
        attrs = t.user_attrs
        row["objective"] = float(t.value)
        for key in ("first_player_edge", "seat_spread", "mean_turns", "games", "pruned"):
            row[key] = attrs.get(key)
        for key in ladder_figures(attrs):
            row[key] = attrs[key]
        row["feasible"] = setup.objective.feasible(attrs.get("mean_turns", math.nan))
        if row["feasible"] and not row["pruned"]:
            best = min(best, row["objective"])
        row["best_so_far"] = best if math.isfinite(best) else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def top_points(study, setup: TuneSetup, count: int) -> list[dict]:
    """The ``count`` best distinct candidates (full trials that keep the length window), best
    first, as rule values; candidates whose games came out exactly alike count once."""
    seen, out = set(), []
    ranked = sorted(
        (
            t
            for t in finished_trials(study)
            if not t.user_attrs.get("pruned")
            and setup.objective.feasible(t.user_attrs.get("mean_turns", math.nan))
        ),
        key=lambda t: (t.value, t.number),
    )
    for t in ranked:
        point = {p.name: p.from_label(t.params[p.name]) for p in setup.params}
        # the same games mean the same rules in effect (an option that only matters under a
        # variant left off): verify one of them
        played = (t.value, *(t.user_attrs.get(k) for k in ("first_player_edge", "mean_turns")))
        if played not in seen:
            seen.add(played)
            out.append(point)
        if len(out) == count:
            break
    return out
