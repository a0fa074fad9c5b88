"""The balance summary of a run: win rates by turn order, seat and bot, game length, end reasons.

``SummaryAccumulator(spec)`` is a runner sink: it keeps running counts straight from each chunk's
int arrays (no DataFrame per chunk), so summarizing costs far less than simulating and memory does
not grow with the run. ``summarize()`` turns the counts into a ``Summary`` with 95% Wilson
intervals; ``format_summary`` prints it.

A seat's turn-order position is ``(seat - first_seat) % n_players`` (0 = the initial player).
A win is counted the same way everywhere in cardsim (this summary, reports, the API, compare and
diff): a game won by k tied players gives each of them 1/k of a win, so the win rates of a game's
seats add up to 1 and the fair rate is 1/K of the games somebody won (``fair_rate``). Shared wins
are also counted apart, in whole games (``Rate.shared``). Games ended by the turn cap are left out
of every win figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np

from cardsim.core import layout as L
from cardsim.core.options import changed_values
from cardsim.text import rich_table, wrap

if TYPE_CHECKING:  # pandas costs 0.2 s to import: only where a table is made
    import pandas as pd

CONFIDENCE = 0.95
# Win shares are counted in whole units of 1/840 of a win (840 is divisible by every player count
# 1..8): exact integer sums, so a summary never depends on how the games were chunked.
SHARE_UNITS = 840


def z_score(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile of a ``confidence`` interval (1.96 for 95%)."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(
    successes: int, trials: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (no continuity correction).

    Equal to ``scipy.stats.binomtest(successes, trials).proportion_ci(confidence, "wilson")``
    (the tests check it) without computing a p-value or importing scipy; ``(nan, nan)`` for no
    trials.
    """
    if trials <= 0:
        return math.nan, math.nan
    z = z_score(confidence)
    p = successes / trials
    z2n = z * z / trials
    denom = 1 + z2n
    center = (p + z2n / 2) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / denom
    return max(0.0, center - half), min(1.0, center + half)


@dataclass(frozen=True)
class Rate:
    """``wins`` (shared wins split: a float) out of ``trials`` with its 95% Wilson interval
    [lo, hi]; ``shared``: how many of those games were won jointly (whole games)."""

    wins: float
    trials: int
    shared: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.trials if self.trials else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.trials)


@dataclass(frozen=True)
class Summary:
    """Balance figures of a run (or of the part of it played so far)."""

    games: int
    n_players: int
    finished_games: int  # games that ended by the rules: the turn cap's are kept out of win rates
    positions: tuple[Rate, ...]  # by turn-order position, 0 = initial player
    seats: tuple[Rate, ...]  # by physical seat
    bots: dict[str, Rate]  # wins over seat-games played by each bot
    shared_win_games: int  # games with more than one winner
    no_winner_games: int
    turns_histogram: np.ndarray = field(repr=False)  # int64: games ending after t turns, at index t
    end_reasons: dict[str, int] = field(default_factory=dict)  # name -> games, in code order
    turn_cap_games: int = 0
    decisions: int = 0
    # the ruleset's length counters (``Ruleset.length_counters``): name -> histogram like turns'
    length_histograms: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def fair_rate(self) -> float:
        """What every position would win if all were equal: 1/K of the games somebody won."""
        if not self.finished_games:
            return math.nan
        decided = self.finished_games - self.no_winner_games
        return decided / self.finished_games / self.n_players

    @property
    def first_player_advantage(self) -> tuple[float, float, float]:
        """Position-0 win rate minus the fair rate, with its interval (Wilson, shifted)."""
        fair = self.fair_rate
        first = self.positions[0]
        lo, hi = first.interval
        return first.rate - fair, lo - fair, hi - fair

    @property
    def mean_turns(self) -> float:
        return histogram_mean(self.turns_histogram)

    @property
    def median_turns(self) -> float:
        return histogram_median(self.turns_histogram)

    @property
    def mean_rounds(self) -> float:
        return self.mean_turns / self.n_players

    @property
    def median_rounds(self) -> float:
        return self.median_turns / self.n_players

    def end_reasons_table(self) -> pd.DataFrame:
        import pandas as pd

        counts = pd.Series(self.end_reasons, name="games", dtype=np.int64)
        return pd.DataFrame(
            {"games": counts, "share": counts / self.games if self.games else np.nan}
        )


_SCALAR_COUNTS = (
    "games",
    "finished_games",
    "shared_win_games",
    "no_winner_games",
    "turn_cap_games",
    "decisions",
)


def histogram_mean(histogram: np.ndarray) -> float:
    """Mean of the values counted in ``histogram`` (games with value v at index v)."""
    n = int(histogram.sum())
    if not n:
        return math.nan
    return float(np.dot(np.arange(len(histogram)), histogram) / n)


def histogram_median(histogram: np.ndarray) -> float:
    """Median like ``np.median``: the mean of the two middle values for an even count."""
    n = int(histogram.sum())
    if not n:
        return math.nan
    cum = np.cumsum(histogram)
    lower = int(np.searchsorted(cum, (n - 1) // 2, side="right"))
    upper = int(np.searchsorted(cum, n // 2, side="right"))
    return (lower + upper) / 2


def add_histogram(total: np.ndarray, part: np.ndarray) -> np.ndarray:
    """``total + part`` for histograms that grow with the largest value seen."""
    if len(part) > len(total):
        total, part = part.copy(), total
    total[: len(part)] += part
    return total


class SummaryAccumulator:
    """Runner sink: running counts of a run's outcomes (see the module docstring)."""

    def __init__(self, spec):
        self.n_players = int(spec.n_players)
        self.bot_names = list(spec.bot_names)
        self.end_reason_names = list(spec.ruleset.end_reasons)
        k, n_bots = self.n_players, len(self.bot_names)
        self.games = 0
        self.finished_games = 0
        # wins in SHARE_UNITS: a tied winner of k gets SHARE_UNITS // k
        self.position_wins = np.zeros(k, np.int64)
        self.position_shared = np.zeros(k, np.int64)  # games won jointly
        self.seat_wins = np.zeros(k, np.int64)
        self.seat_shared = np.zeros(k, np.int64)
        self.bot_wins = np.zeros(n_bots, np.int64)
        self.bot_seat_games = np.zeros(n_bots, np.int64)
        self.shared_win_games = 0
        self.no_winner_games = 0
        self.turns = np.zeros(1, np.int64)
        # the ruleset's length counters: name -> column in ``game_out``; name -> histogram
        counters = list(spec.ruleset.game_counters)
        self.length_columns = {
            name: len(L.GAME_COLUMNS) + counters.index(name)
            for name, _ in spec.ruleset.length_counters
        }
        self.length_histograms = {name: np.zeros(1, np.int64) for name in self.length_columns}
        self.end_reasons = np.zeros(len(self.end_reason_names), np.int64)
        self.turn_cap_games = 0
        self.decisions = 0

    def __call__(self, chunk) -> None:
        k = self.n_players
        game = chunk.game_out
        # Games the turn cap ended are a safeguard's doing, not the rules': never mix them into
        # win rates (they are counted on their own below).
        finished = game[:, L.G_TURN_CAP_HIT] == 0
        all_finished = bool(finished.all())  # the usual case: no copies by mask
        wins = chunk.seat_out[:, :k, L.S_WIN] != 0  # bool (games, k)
        bots = chunk.seat_bot[:, :k]
        if not all_finished:
            wins = wins[finished]
            bots = bots[finished]
        first = game[:, L.G_FIRST_SEAT] if all_finished else game[finished, L.G_FIRST_SEAT]
        # seat by seat (one contiguous row per seat: numpy sums long rows fast, k-wide ones not)
        wins = np.ascontiguousarray(wins.T)  # bool (k, games)
        winners = np.count_nonzero(wins, axis=0)
        # 1/k of a win for each of k tied winners, in SHARE_UNITS
        share = wins * (SHARE_UNITS // np.maximum(winners, 1))  # (k, games)
        shared = wins & (winners > 1)
        seat_wins = share.sum(axis=1)
        self.seat_wins += seat_wins
        self.seat_shared += np.count_nonzero(shared, axis=1)
        # turn-order position of a seat: 0 for the initial player, so seat s is at position p
        # in the games whose first seat is (s - p) % k
        first = first.astype(np.intp)
        for seat in range(k):
            # sums by first seat; float64 sums of whole numbers below 2**53 are exact
            wins_by_first = np.bincount(first, weights=share[seat], minlength=k)
            shared_by_first = np.bincount(first[shared[seat]], minlength=k)
            for p in range(k):
                f = (seat - p) % k
                self.position_wins[p] += int(wins_by_first[f])
                self.position_shared[p] += int(shared_by_first[f])
        n_bots = len(self.bot_names)
        if (bots == bots[0]).all():  # one seating for every game (a plain run): no bot lookups
            for seat in range(k):
                self.bot_wins[bots[0, seat]] += seat_wins[seat]
                self.bot_seat_games[bots[0, seat]] += len(bots)
        else:
            for b in range(n_bots):
                self.bot_wins[b] += share.T[bots == b].sum()
            self.bot_seat_games += np.bincount(bots.ravel(), minlength=n_bots)[:n_bots]
        self.shared_win_games += int(np.count_nonzero(winners > 1))
        self.no_winner_games += int(np.count_nonzero(winners == 0))
        self.turns = add_histogram(self.turns, np.bincount(game[:, L.G_TURNS]).astype(np.int64))
        for name, column in self.length_columns.items():
            counts = np.bincount(game[:, column]).astype(np.int64)
            self.length_histograms[name] = add_histogram(self.length_histograms[name], counts)
        reasons = np.bincount(game[:, L.G_END_REASON], minlength=len(self.end_reasons))
        self.end_reasons += reasons[: len(self.end_reasons)]
        self.turn_cap_games += int(np.count_nonzero(game[:, L.G_TURN_CAP_HIT]))
        self.decisions += int(game[:, L.G_DECISIONS].sum(dtype=np.int64))
        self.games += len(game)
        self.finished_games += int(np.count_nonzero(finished))

    # -- merging (a cluster run's tasks each fill a fresh accumulator) ---------------------------

    def fresh(self) -> SummaryAccumulator:
        """An empty accumulator for the same run (picklable: names and counts only)."""
        empty = object.__new__(SummaryAccumulator)
        empty.__dict__.update(
            {
                k: (np.zeros_like(v) if isinstance(v, np.ndarray) else v)
                for k, v in vars(self).items()
            }
        )
        for name in _SCALAR_COUNTS:
            setattr(empty, name, 0)
        empty.turns = np.zeros(1, np.int64)
        empty.length_histograms = {name: np.zeros(1, np.int64) for name in self.length_columns}
        return empty

    def merge(self, other: SummaryAccumulator) -> None:
        """Add the counts of ``other`` (games of another part of the same run). Every array of
        counts is fixed in shape except the histograms of lengths, which grow with the longest
        game."""
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray) and name != "turns":
                value += getattr(other, name)
        for name in _SCALAR_COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.turns = add_histogram(self.turns, other.turns)
        for name, histogram in other.length_histograms.items():
            self.length_histograms[name] = add_histogram(self.length_histograms[name], histogram)

    def summarize(self) -> Summary:
        k = self.n_players
        return Summary(
            games=self.games,
            n_players=k,
            finished_games=self.finished_games,
            positions=tuple(
                Rate(int(w) / SHARE_UNITS, self.finished_games, int(n))
                for w, n in zip(self.position_wins, self.position_shared, strict=True)
            ),
            seats=tuple(
                Rate(int(w) / SHARE_UNITS, self.finished_games, int(n))
                for w, n in zip(self.seat_wins, self.seat_shared, strict=True)
            ),
            bots={
                name: Rate(int(self.bot_wins[i]) / SHARE_UNITS, int(self.bot_seat_games[i]))
                for i, name in enumerate(self.bot_names)
            },
            shared_win_games=self.shared_win_games,
            no_winner_games=self.no_winner_games,
            turns_histogram=self.turns.copy(),
            length_histograms={name: h.copy() for name, h in self.length_histograms.items()},
            end_reasons={
                n: int(c) for n, c in zip(self.end_reason_names, self.end_reasons, strict=True)
            },
            turn_cap_games=self.turn_cap_games,
            decisions=self.decisions,
        )


# -- text ----------------------------------------------------------------------------------------

_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def position_label(i: int) -> str:
    return _ORDINALS[i] + (" (starts)" if i == 0 else "")


def wins_text(wins: float) -> str:
    """Whole wins as ``571,405``; with split shares, ``571,405.5``."""
    return f"{wins:,.0f}" if float(wins).is_integer() else f"{wins:,.1f}"


def _pct(x: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def _points(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.2f}"


def _ci(rate: Rate) -> str:
    lo, hi = rate.interval
    return "n/a" if math.isnan(lo) else f"[{_pct(lo)}, {_pct(hi)}]"


def _rules_changed(spec) -> str:
    return ", ".join(changed_values(spec.ruleset.options, spec.rules)) or "defaults"


def _seating(spec) -> str:
    names = spec.seat_bots()
    if len(set(names)) == 1:
        return f"{names[0]} in every seat"
    return ", ".join(f"seat {i}: {n}" for i, n in enumerate(names))


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A summary table laid out by rich to fit the terminal: the first column (labels) wraps if
    it must, the numbers are right-aligned and never wrap."""
    table = rich_table(header, rows, right=range(1, len(header)), fill=[0], share=False)
    return table.splitlines()


def format_summary(summary: Summary, spec, stats=None) -> str:
    """Plain-text report of a run; ``stats`` (``runner.RunStats``) adds the throughput."""
    s = summary
    k = s.n_players
    lines = [
        wrap(f"{spec.ruleset.title}: {s.games:,} games, {k} players, seed {spec.seed}"),
        wrap(f"bots: {_seating(spec)}"),
        wrap(f"rules: {_rules_changed(spec)}"),
        "",
        wrap("Win rate by turn order (a win shared by k players counts 1/k for each)"),
    ]
    if getattr(spec, "variant", None):  # a --variant file: its name and where it came from
        lines.insert(3, wrap(f"variant: {spec.variant['name']} ({spec.variant['file']})"))
    if s.turn_cap_games:
        lines.insert(
            -1,
            wrap(
                f"Win rates count the {s.finished_games:,} games that ended by the rules; the "
                f"{s.turn_cap_games:,} ended by the turn cap are left out (see the end)."
            ),
        )
    fair = s.fair_rate
    rows = []
    for i, r in enumerate(s.positions):
        label = position_label(i)
        rows.append(
            [
                label,
                wins_text(r.wins),
                f"{r.shared:,}",
                _pct(r.rate),
                _ci(r),
                _points(r.rate - fair),
            ]
        )
    header = ["position", "wins", "shared", "win rate", "95% CI", "vs fair, points"]
    lines += _table(header, rows)
    adv, lo, hi = s.first_player_advantage
    lines += [
        "",
        wrap(
            f"First-player advantage: {_points(adv)} points over the fair {_pct(fair)} "
            f"(95% CI {_points(lo)} .. {_points(hi)})"
        ),
        "",
        "Win rate by seat",
    ]
    rows = [
        [f"seat {i}", wins_text(r.wins), f"{r.shared:,}", _pct(r.rate), _ci(r)]
        for i, r in enumerate(s.seats)
    ]
    lines += _table(["seat", "wins", "shared", "win rate", "95% CI"], rows)
    if len(s.bots) > 1:
        lines += ["", "Win rate by bot (per seat played)"]
        rows = [
            [name, f"{r.trials:,}", wins_text(r.wins), _pct(r.rate), _ci(r)]
            for name, r in s.bots.items()
        ]
        lines += _table(["bot", "seats played", "wins", "win rate", "95% CI"], rows)
    share = (lambda n: _pct(n / s.games)) if s.games else (lambda n: "n/a")
    single = s.finished_games - s.shared_win_games - s.no_winner_games  # turn-cap games: none
    lines += ["", "Winners"]
    lines += _table(
        ["", "games", "share"],
        [
            ["one winner", f"{single:,}", share(single)],
            ["shared win (2+ winners)", f"{s.shared_win_games:,}", share(s.shared_win_games)],
            ["no winner", f"{s.no_winner_games:,}", share(s.no_winner_games)],
        ],
    )
    lines += ["", "Game length"]
    laps = spec.ruleset.table_rounds
    rows = [
        ["turns", f"{s.mean_turns:.2f}", f"{s.median_turns:g}"],
        [f"{laps} (turns / {k})", f"{s.mean_rounds:.2f}", f"{s.median_rounds:g}"],
    ]
    labels = dict(spec.ruleset.length_counters)
    for name, histogram in s.length_histograms.items():
        mean, median = histogram_mean(histogram), histogram_median(histogram)
        rows.append([labels[name], f"{mean:.2f}", f"{median:g}"])
    lines += _table(["", "mean", "median"], rows)
    lines += ["", "End reasons"]
    lines += _table(
        ["reason", "games", "share"],
        [[name, f"{n:,}", share(n)] for name, n in s.end_reasons.items()],
    )
    cap = spec.turn_cap()
    lines += [
        "",
        wrap(
            f"Ended by the turn cap ({cap:,} {laps}): {s.turn_cap_games:,} of {s.games:,} "
            f"games ({share(s.turn_cap_games)})"
        ),
    ]
    if stats is not None and stats.games > 0 and stats.seconds > 0:
        where = f"{stats.threads} thread" + ("s" if stats.threads != 1 else "")
        if getattr(stats, "workers", 0):
            where += f" of {stats.workers} cluster workers{_restarted(stats)}"
        lines += [
            "",
            wrap(
                f"Throughput: {stats.games:,} games in {stats.seconds:.2f} s = "
                f"{stats.games_per_second:,.0f} games/s on {where}, "
                f"{stats.decisions / stats.seconds:,.0f} decisions/s"
            ),
        ]
    return "\n".join(lines)


# -- machine-readable ----------------------------------------------------------------------------

WIN_DEFINITION = "a win shared by k tied winners counts 1/k for each; turn-cap games left out"
RATE_COLUMNS = [
    "group",
    "index",
    "label",
    "games",
    "wins",
    "shared_wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "vs_fair",
]


def _rate_record(group: str, index: int, label: str, rate: Rate, fair: float) -> dict:
    lo, hi = rate.interval
    return {
        "group": group,
        "index": index,
        "label": label,
        "games": rate.trials,
        "wins": rate.wins,
        "shared_wins": rate.shared,
        "win_rate": rate.rate,
        "ci_low": lo,
        "ci_high": hi,
        "vs_fair": rate.rate - fair,
    }


def rate_records(summary: Summary) -> list[dict]:
    """The win-rate table of a summary (``RATE_COLUMNS``): by turn-order position, by seat and,
    when seats hold different bots, by bot (``games`` is then the seats it played)."""
    s, fair = summary, summary.fair_rate
    rows = [
        _rate_record("position", i, position_label(i), r, fair) for i, r in enumerate(s.positions)
    ]
    rows += [_rate_record("seat", i, f"seat {i}", r, fair) for i, r in enumerate(s.seats)]
    if len(s.bots) > 1:
        rows += [
            _rate_record("bot", i, name, r, fair) for i, (name, r) in enumerate(s.bots.items())
        ]
    return rows


def advantage_record(rate: float, fair: float, low: float, high: float, games: int) -> dict:
    """The first-player advantage as JSON (``run``, ``sweep``): the starter's win ``rate``, the
    ``fair_rate``, their difference ``edge`` and its 95% interval ``ci_low .. ci_high`` (the
    rate's Wilson interval ``low .. high`` shifted by the fair rate), all fractions of 1."""
    return {
        "rate": rate,
        "fair_rate": fair,
        "edge": rate - fair,
        "ci_low": low - fair,
        "ci_high": high - fair,
        "games": games,
    }


def table_advantage(rates: pd.DataFrame) -> dict:
    """``advantage_record`` of a ``seat_win_rates`` table (its first row: position 0)."""
    first = rates.iloc[0]
    numbers = (float(first[c]) for c in ("win_rate", "fair_rate", "ci_low", "ci_high"))
    return advantage_record(*numbers, int(first["games"]))


def end_reason_records(counts: dict[str, int], games: int) -> dict[str, dict]:
    """``{reason: {"games": n, "share": n / games}}`` in code order (the JSON of ``run`` and
    ``sweep``; the turn cap included)."""
    return {
        str(reason): {"games": int(n), "share": n / games if games else math.nan}
        for reason, n in counts.items()
    }


def spec_record(spec) -> dict:
    """What a run played, as JSON (``run``, ``replay``): game, title, players, seed, the bot of
    every seat, every rule's value, the names of the rules changed from the defaults, and the
    variant file's metadata (or None)."""
    return {
        "game": spec.ruleset.name,
        "title": spec.ruleset.title,
        "players": spec.n_players,
        "seed": spec.seed,
        "bots": spec.seat_bots(),
        "rules": dict(spec.rules),
        "rules_changed": [
            item.split("=", 1)[0] for item in changed_values(spec.ruleset.options, spec.rules)
        ],
        "variant": getattr(spec, "variant", None),
    }


def summary_record(summary: Summary, spec, stats=None) -> dict:
    """Everything ``format_summary`` prints, as plain data (rates as fractions of 1, not %)."""
    s = summary
    single = s.finished_games - s.shared_win_games - s.no_winner_games
    record = {
        **spec_record(spec),
        "games": s.games,
        "win_definition": WIN_DEFINITION,
        "finished_games": s.finished_games,
        "fair_rate": s.fair_rate,
        "win_rates": rate_records(s),
        "first_player_advantage": advantage_record(
            s.positions[0].rate, s.fair_rate, *s.positions[0].interval, s.positions[0].trials
        ),
        "winners": {
            "one_winner": single,
            "shared_win": s.shared_win_games,
            "no_winner": s.no_winner_games,
        },
        "length": {
            "mean_turns": s.mean_turns,
            "median_turns": s.median_turns,
            "mean_rounds": s.mean_rounds,  # turns / players (``Ruleset.table_rounds``)
            "median_rounds": s.median_rounds,
            "counters": {  # the game's own units (``Ruleset.length_counters``)
                name: {"mean": histogram_mean(h), "median": histogram_median(h)}
                for name, h in s.length_histograms.items()
            },
        },
        "end_reasons": end_reason_records(s.end_reasons, s.games),
        "turn_cap": {"rounds": spec.turn_cap(), "games": s.turn_cap_games},
    }
    if stats is not None and stats.games > 0 and stats.seconds > 0:
        record["throughput"] = {
            "games": stats.games,
            "seconds": stats.seconds,
            "games_per_second": stats.games_per_second,
            "decisions_per_second": stats.decisions / stats.seconds,
            "threads": stats.threads,
        }
        if getattr(stats, "workers", 0):
            record["throughput"]["workers"] = stats.workers
            record["throughput"]["worker_restarts"] = getattr(stats, "restarts", 0)
    return record


def _restarted(stats) -> str:
    """`` (1 restarted during the run)``: a worker whose process died and was started again
    counts once among the workers, and its restarts here."""
    restarts = getattr(stats, "restarts", 0)
    if not restarts:
        return ""
    times = "once" if restarts == 1 else f"{restarts} times"
    return f" (restarted {times} during the run)"
