"""The skill ladder: balance at every skill level (``cardsim ladder``).

A ladder is a list of levels, weakest first: a bot, optionally with parameters (``ismcts``,
``ismcts:iterations=200``, ``planner:money=1.2``). Three experiments on the same deals (game
``i`` of the seed), after the 2025 Tabletop Games Balancing Competition (TAG); the self-play runs
play deals ``0..N-1``, the matchup runs deals ``0..M-1`` (``--matrix-deals M``, at most ``N``,
by default ``N``), so every matchup game shares its deal with the self-play:

- **matchup matrix**: every pair of levels (a, b). With 2 players, both seatings; with K > 2, one
  ``a`` against K - 1 copies of ``b``, in every seat in turn (K rotations), and one ``b`` against
  copies of ``a`` (K more). The row level's score against the column level is how often it
  finishes ahead of it over their meetings, a tie counting half (``compare.pairwise``), so the
  matrix is antisymmetric: ``score(a, b) + score(b, a) = 1``. Intervals: 95% Wilson, clustered
  by deal (``compare.clustered_wilson``).
- **first-player edge per level**: self-play (every seat the same level); the starting player's
  win share minus fair, in points, with its 95% interval (``seats.first_player_advantage``).
- **how much skill matters**: the CardStock order score of the top level among random players,
  ``(w - 1/K) / (1 - 1/K)`` for its win share ``w`` in the games against random copies (0: no
  better than random, 1: always wins), and the Plackett-Luce rating spread from the bottom level
  to the top one over every matchup game, turn order in the model (``compare.fit_rating``).

This module is pandas only: the games are played by ``cardsim.experiments`` (``ladder_specs``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from cardsim.analysis.experiments import compare as C
from cardsim.analysis.stats.rating import ELO_PER_UNIT, Rating
from cardsim.analysis.stats.seats import first_player_advantage
from cardsim.analysis.stats.summary import z_score
from cardsim.core.errors import CardsimError
from cardsim.text import rich_table, wrap

RANDOM = "random"
SEARCH_BOT = "ismcts"  # the search bot (issue 29): its budget parameter is ``iterations``
BUDGET = "iterations"
HEURISTIC_FLOOR = ("random", "greedy")  # the two bottom levels of every default ladder
TARGET_HALF_WIDTH = 0.03  # the ±3 points asked of the top level's first-player edge


# -- levels --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """One rung: a bot name and the parameters it plays with (key, value as text)."""

    bot: str
    params: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        """``bot`` or ``bot:key=value,key=value``: the level's name in every table."""
        if not self.params:
            return self.bot
        return f"{self.bot}:" + ",".join(f"{k}={v}" for k, v in self.params)

    def overrides(self) -> dict[str, str]:
        return dict(self.params)


def parse_level(text: str) -> Level:
    """``BOT`` or ``BOT:KEY=VALUE[,KEY=VALUE]`` -> a ``Level`` (one-line error if malformed).

    A bot reference ``package.module:function`` has no ``=`` after its colon, so it stays a bot."""
    text = text.strip()
    head, sep, tail = text.partition(":")
    if not sep or "=" not in tail:
        if not text:
            raise CardsimError("--levels has an empty level: give BOT[:KEY=VALUE,...],...")
        return Level(text)
    params = []
    for pair in tail.split(","):
        key, eq, value = pair.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise CardsimError(f"--levels {text!r}: parameters are KEY=VALUE, got {pair!r}")
        params.append((key.strip(), value.strip()))
    if not head.strip():
        raise CardsimError(f"--levels {text!r} has no bot name before ':'")
    return Level(head.strip(), tuple(params))


def split_levels(text: str) -> list[str]:
    """``"random,greedy,ismcts:iterations=200,c=0.7"`` -> the level texts: a comma separates
    levels, except before a ``KEY=VALUE`` without a colon, which continues the level before."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if out and "=" in part and ":" not in part and ":" in out[-1] and "=" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def check_levels(levels: Sequence[Level]) -> list[Level]:
    """At least two levels, none listed twice (one-line errors)."""
    levels = list(levels)
    if len(levels) < 2:
        raise CardsimError(f"a ladder needs at least 2 levels, got {len(levels)}")
    seen = set()
    for level in levels:
        if level.label in seen:
            raise CardsimError(f"--levels lists {level.label!r} twice: each level once")
        seen.add(level.label)
    return levels


def parse_levels(text: str | Sequence[str]) -> list[Level]:
    """``--levels`` text (or a list of level texts) -> the checked levels."""
    parts = split_levels(text) if isinstance(text, str) else [str(t) for t in text]
    return check_levels([parse_level(p) for p in parts])


def strongest_heuristic(bot_names: Sequence[str]) -> str | None:
    """The game's strongest heuristic bot: each game lists its bots weakest first
    (``Ruleset.bot_names``), so the last that is neither random, greedy nor the search bot."""
    others = [b for b in bot_names if b not in (*HEURISTIC_FLOOR, SEARCH_BOT)]
    return others[-1] if others else None


def default_levels(bots: Mapping[str, object]) -> tuple[list[Level], str]:
    """The default ladder of a game whose bots are ``bots`` (name -> ``Bot``, weakest first) and
    a one-line note when the search bot is missing: random, greedy, the strongest heuristic,
    then ``ismcts`` at half its default ``iterations`` and at its default."""
    names = list(bots)
    levels = [Level(b) for b in HEURISTIC_FLOOR if b in bots]
    top = strongest_heuristic(names)
    if top is not None:
        levels.append(Level(top))
    if SEARCH_BOT not in bots:
        return levels, (
            f"{SEARCH_BOT} is not among this game's bots: the default ladder is the heuristic "
            f"levels ({', '.join(lv.label for lv in levels)})"
        )
    bot = bots[SEARCH_BOT]
    names_ = tuple(getattr(bot, "param_names", ()))
    if BUDGET in names_:
        full = float(bot.params[names_.index(BUDGET)])
        levels.append(Level(SEARCH_BOT, ((BUDGET, f"{max(int(full // 2), 1)}"),)))
    levels.append(Level(SEARCH_BOT))
    return levels, ""


# -- the experiment's seatings ---------------------------------------------------------------------


def matchup_seatings(a: str, b: str, n_players: int) -> list[tuple[str, ...]]:
    """The seatings of the pair (a, b): 2 players, both ways; more, one of each against copies
    of the other in every seat (``compare.seatings`` rotations of ``a, b, .., b`` then of
    ``b, a, .., a``)."""
    k = n_players
    if k == 2:
        return [(a, b), (b, a)]
    one_a = C.seatings([a] + [b] * (k - 1), k, "rotations")
    one_b = C.seatings([b] + [a] * (k - 1), k, "rotations")
    return one_a + one_b


SELF_PLAY = "self-"  # the key prefix of a level's self-play run (``self-2``)
MATCHUP = "match-"  # the key prefix of a pair's seating run (``match-0-3-1``)


@dataclass(frozen=True)
class LadderRun:
    """One run of the ladder: its key (``self-2``, ``match-0-3``), its bots (level labels, in
    the order the run's bot codes use) and its seatings (one run per seating)."""

    key: str
    bots: tuple[str, ...]
    seating: tuple[str, ...]

    @property
    def self_play(self) -> bool:
        """A level's self-play (``-n`` deals), else a seating of a pair (``--matrix-deals``)."""
        return self.key.startswith(SELF_PLAY)


def ladder_plan(labels: Sequence[str], n_players: int) -> list[LadderRun]:
    """Every run of the ladder: the self-play of each level, then every pair's seatings."""
    runs = [LadderRun(f"{SELF_PLAY}{i}", (a,), (a,) * n_players) for i, a in enumerate(labels)]
    for i, a in enumerate(labels):
        for j in range(i + 1, len(labels)):
            b = labels[j]
            for s, seating in enumerate(matchup_seatings(a, b, n_players)):
                runs.append(LadderRun(f"{MATCHUP}{i}-{j}-{s}", (a, b), seating))
    return runs


def matrix_games_per_deal(n_levels: int, n_players: int) -> int:
    """Games one deal of the matrix costs: L(L-1)/2 pairs of 2 seatings (2 players) or 2K (K
    players, one of each level against copies of the other, rotated)."""
    seatings = 2 if n_players == 2 else 2 * n_players
    return n_levels * (n_levels - 1) // 2 * seatings


# -- analysis ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ladder:
    """Everything ``cardsim ladder`` reports (see the module docstring)."""

    game_title: str
    levels: tuple[str, ...]
    n_players: int
    deals: int  # games of each self-play run: deal i is game i of every run
    matrix_deals: int  # games of each matchup run: deals 0..matrix_deals-1, at most ``deals``
    seed: int
    games: int  # all games played
    turn_cap_games: int
    matchups: pd.DataFrame  # one row per ordered pair of levels
    first_player: pd.DataFrame  # one row per level
    skill: pd.DataFrame  # one row: order score and rating spread
    rating: Rating
    verdict: str
    note: str = ""  # e.g. the default ladder without the search bot

    def matrix(self, column: str = "score") -> pd.DataFrame:
        """Wide table of ``column`` (score, ci_low, ci_high): row level against column level."""
        wide = self.matchups.pivot(index="level", columns="opponent", values=column)
        return wide.reindex(index=list(self.levels), columns=list(self.levels))

    def ratings(self) -> pd.DataFrame:
        return self.rating.table().rename(columns={"bot": "level"})


def _pair_frames(frames: Mapping[str, pd.DataFrame], i: int, j: int) -> list[pd.DataFrame]:
    prefix = f"{MATCHUP}{i}-{j}-"
    return [f for key, f in frames.items() if key.startswith(prefix)]


def matchup_table(frames: Mapping[str, pd.DataFrame], labels: Sequence[str]) -> pd.DataFrame:
    """One row per ordered pair (level, opponent): meetings, ahead, tied, behind, score and its
    95% deal-clustered interval, and the level's win share in those games."""
    rows = []
    for i, a in enumerate(labels):
        for j in range(i + 1, len(labels)):
            b = labels[j]
            games = C.combine(_pair_frames(frames, i, j))
            pairs = C.pairwise(games, [a, b]).rename(columns={"bot": "level"})
            wins = C.bot_win_rates(games, [a, b]).set_index("bot")
            for row in pairs.to_dict("records"):
                row["win_rate"] = float(wins.loc[row["level"], "win_rate"])
                rows.append(row)
    table = pd.DataFrame(rows)
    order = {name: n for n, name in enumerate(labels)}
    key = table["level"].map(order) * len(labels) + table["opponent"].map(order)
    return table.assign(_k=key).sort_values("_k").drop(columns="_k").reset_index(drop=True)


def first_player_table(frames: Mapping[str, pd.DataFrame], labels: Sequence[str]) -> pd.DataFrame:
    """One row per level: self-play games, the starting player's win share, its 95% interval,
    the fair share and the edge in points (``*_points``) with its interval."""
    rows = []
    for i, label in enumerate(labels):
        edge = first_player_advantage(frames[f"{SELF_PLAY}{i}"])
        rows.append(
            {
                "level": label,
                "games": edge.games,
                "first_player_win_rate": edge.rate,
                "ci_low": edge.fair + edge.low / 100,
                "ci_high": edge.fair + edge.high / 100,
                "fair_rate": edge.fair,
                "edge_points": edge.points,
                "edge_low_points": edge.low,
                "edge_high_points": edge.high,
                "half_width_points": edge.half_width,
            }
        )
    return pd.DataFrame(rows)


def order_score(frames: Mapping[str, pd.DataFrame], labels: Sequence[str]) -> dict:
    """CardStock's order score of the top level among random players, with its interval: its
    win share ``w`` in the matchup games against random (one top level, K - 1 random copies;
    with 2 players one each), ``(w - 1/K) / (1 - 1/K)``. NaNs when random is not a level."""
    nan = {"order_score": math.nan, "order_low": math.nan, "order_high": math.nan}
    if RANDOM not in labels or labels.index(RANDOM) == len(labels) - 1:
        return nan
    i, top = labels.index(RANDOM), len(labels) - 1
    names = [labels[i], labels[top]]
    # the runs seating one top level: with K > 2 the first K seatings seat one `random`
    runs = _pair_frames(frames, i, top)
    k = C.F.seat_count(runs[0])
    mine = runs if k == 2 else runs[k:]
    rates = C.bot_win_rates(C.combine(mine), names).set_index("bot").loc[labels[top]]
    fair = 1 / k

    def scaled(w: float) -> float:
        return (w - fair) / (1 - fair)

    return {
        "order_score": scaled(rates["win_rate"]),
        "order_low": scaled(rates["ci_low"]),
        "order_high": scaled(rates["ci_high"]),
    }


def skill_table(
    frames: Mapping[str, pd.DataFrame], labels: Sequence[str], rating: Rating
) -> pd.DataFrame:
    """One row: the order score (``order_score``) and the rating spread from the bottom level to
    the top one (log-strength and Elo, 95% intervals)."""
    gap, se = rating.gap(labels[-1], labels[0])
    z = z_score()
    row = {
        "top_level": labels[-1],
        "bottom_level": labels[0],
        **order_score(frames, labels),
        "rating_spread": gap,
        "rating_spread_low": gap - z * se,
        "rating_spread_high": gap + z * se,
        "elo_spread": gap * ELO_PER_UNIT,
        "elo_spread_low": (gap - z * se) * ELO_PER_UNIT,
        "elo_spread_high": (gap + z * se) * ELO_PER_UNIT,
    }
    return pd.DataFrame([row])


def fit_ladder_rating(frames: Mapping[str, pd.DataFrame], labels: Sequence[str]) -> Rating:
    """Plackett-Luce over every matchup game, levels as bots, turn order in the model, standard
    errors clustered by deal."""
    games = pd.concat(
        [f for key, f in frames.items() if key.startswith(MATCHUP)], ignore_index=True
    )
    for col in [c for c in games.columns if c.startswith("bot_")]:
        games[col] = games[col].astype(str)
    return C.fit_rating(games, list(labels))


def _skill_words(order: float, low: float, high: float) -> str:
    if math.isnan(order):
        return "how much skill matters against random play is not measured (random is no level)"
    if low <= 0 <= high:
        return "skill does not measurably beat random play"
    # the order score is (win share - 1/n) / (1 - 1/n): 0.8 is a 90% share at 2 players, 85% at 4
    if order >= 0.8:
        return "skill dominates: the top level beats random play almost every game"
    if order >= 0.5:
        return "skill matters strongly: the top level beats random play in most games"
    if order >= 0.2:
        return "skill matters clearly"
    return "skill matters, but luck decides most games"


def verdict(title: str, first: pd.DataFrame, skill: pd.DataFrame) -> str:
    """One line: how much skill matters, and how the first player's edge moves with skill."""
    s = skill.iloc[0]
    bottom, top = first.iloc[0], first.iloc[-1]
    order = s["order_score"]
    order_text = "" if math.isnan(order) else f" (order score {order:.2f})"
    return (
        f"{title}: {_skill_words(order, s['order_low'], s['order_high'])}{order_text}; the first "
        f"player's edge is {bottom['edge_points']:+.1f} points at {bottom['level']} and "
        f"{top['edge_points']:+.1f} at {top['level']} (±{top['half_width_points']:.1f})."
    )


def analyse(
    frames: Mapping[str, pd.DataFrame],
    labels: Sequence[str],
    seed: int = 0,
    game_title: str = "",
    note: str = "",
) -> Ladder:
    """The ladder of the runs ``frames`` (run key of ``ladder_plan`` -> its games)."""
    labels = list(labels)
    rating = fit_ladder_rating(frames, labels)
    first = first_player_table(frames, labels)
    skill = skill_table(frames, labels, rating)
    any_frame = next(iter(frames.values()))
    matchup = next(f for key, f in frames.items() if key.startswith(MATCHUP))
    return Ladder(
        game_title=game_title,
        levels=tuple(labels),
        n_players=C.F.seat_count(any_frame),
        deals=len(frames[f"{SELF_PLAY}0"]),
        matrix_deals=len(matchup),
        seed=seed,
        games=sum(len(f) for f in frames.values()),
        turn_cap_games=int(sum(f["turn_cap_hit"].sum() for f in frames.values())),
        matchups=matchup_table(frames, labels),
        first_player=first,
        skill=skill,
        rating=rating,
        verdict=verdict(game_title, first, skill),
        note=note,
    )


def games_for_half_width(rate: float, half_width: float = TARGET_HALF_WIDTH) -> int:
    """Self-play games for a 95% interval of ±``half_width`` on a win share near ``rate``
    (the normal approximation of the Wilson interval)."""
    z = z_score()
    return math.ceil(z * z * rate * (1 - rate) / half_width**2)


# -- output --------------------------------------------------------------------------------------


def _records(frame: pd.DataFrame) -> list[dict]:
    return [dict(zip(frame.columns, row, strict=True)) for row in frame.itertuples(index=False)]


def ladder_record(lad: Ladder, game: str = "") -> dict:
    """The ladder as plain data, the body of ``--format json`` (``cardsim.ladder/1``, the
    schema key added by the command): ``game`` the ruleset's name, ``deals`` the self-play's
    games a level, ``matrix_deals`` each matchup seating's, rates as fractions of 1, points only
    in ``*_points`` keys, every number with its interval."""
    rating = lad.ratings()[["level", "strength", "se", "ci_low", "ci_high", "elo", "elo_se"]]
    return {
        "game": game,
        "title": lad.game_title,
        "players": lad.n_players,
        "levels": list(lad.levels),
        "deals": lad.deals,
        "matrix_deals": lad.matrix_deals,
        "seed": lad.seed,
        "games": lad.games,
        "turn_cap_games": lad.turn_cap_games,
        "score_definition": "how often the level finishes ahead of the opponent level in "
        "their meetings, a tie counting half",
        "matchups": _records(lad.matchups),
        "first_player": _records(lad.first_player),
        "skill": _records(lad.skill)[0],
        "rating": {
            "levels": _records(rating),
            "position_effect": list(lad.rating.position),
            "position_effect_se": list(lad.rating.position_se),
            "converged": lad.rating.converged,
        },
        "verdict": lad.verdict,
        **({"note": lad.note} if lad.note else {}),
    }


def deals_text(lad: Ladder) -> str:
    """How many deals the runs played, in words: one count when the matrix played the
    self-play's deals, both when ``--matrix-deals`` made them differ."""
    if lad.matrix_deals == lad.deals:
        return f"{lad.deals:,} deals per run"
    return (
        f"{lad.deals:,} deals per self-play run, {lad.matrix_deals:,} per matchup seating "
        f"(deals 0-{lad.matrix_deals - 1:,} of the same seed)"
    )


def _pct(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def format_ladder(lad: Ladder) -> str:
    """Plain-text report: the matrix, its intervals, the first-player edge, the skill score."""
    k = lad.n_players
    lines = [
        wrap(f"{lad.game_title}: skill ladder in {k}-player games, seed {lad.seed}"),
        wrap(
            f"levels, weakest first: {', '.join(lad.levels)}; {deals_text(lad)}, "
            f"{lad.games:,} games (deal i is game i of every run)"
        ),
    ]
    if lad.note:
        lines.append(wrap(lad.note))
    if lad.turn_cap_games:
        lines.append(wrap(f"{lad.turn_cap_games:,} games ended by the turn cap are left out"))
    lines += ["", wrap("Matchups: how often the row level finishes ahead of the column level")]
    matrix = lad.matrix()
    rows = [
        [a] + ["-" if a == b else _pct(matrix.loc[a, b]) for b in lad.levels] for a in lad.levels
    ]
    header = ["", *lad.levels]
    lines.append(rich_table(header, rows, right=range(1, len(header)), fill=[0], share=False))
    order = {name: n for n, name in enumerate(lad.levels)}
    # the stronger (later) level first: its score is the complement of the row shown
    rows = [
        [
            f"{r.opponent} vs {r.level}",
            f"{r.meetings:,}",
            _pct(1 - r.score),
            f"[{_pct(1 - r.ci_high)}, {_pct(1 - r.ci_low)}]",
        ]
        for r in lad.matchups.itertuples()
        if order[r.level] < order[r.opponent]
    ]
    lines += ["", "95% intervals (deal-clustered)"]
    lines.append(
        rich_table(["pair", "meetings", "ahead", "95% CI"], rows, right=range(1, 4), fill=[0])
    )
    lines += ["", wrap("First-player edge by level (self-play: every seat the same level)")]
    rows = [
        [
            r.level,
            f"{r.games:,}",
            _pct(r.first_player_win_rate),
            _pct(r.fair_rate),
            f"{r.edge_points:+.1f}",
            f"[{r.edge_low_points:+.1f}, {r.edge_high_points:+.1f}]",
        ]
        for r in lad.first_player.itertuples()
    ]
    header = ["level", "games", "starter wins", "fair", "edge, points", "95% CI"]
    lines.append(rich_table(header, rows, right=range(1, 6), fill=[0], share=False))
    s = lad.skill.iloc[0]
    lines += ["", "How much skill matters"]
    if not math.isnan(s["order_score"]):
        lines.append(
            wrap(
                f"order score of {s['top_level']} among random players: {s['order_score']:.2f} "
                f"(95% CI {s['order_low']:.2f} .. {s['order_high']:.2f}; 0 = no better than "
                "random, 1 = always wins)",
                indent="  ",
            )
        )
    lines.append(
        wrap(
            f"rating spread {s['bottom_level']} -> {s['top_level']}: {s['rating_spread']:.2f} "
            f"(95% CI {s['rating_spread_low']:.2f} .. {s['rating_spread_high']:.2f}), Elo "
            f"{s['elo_spread']:+.0f} ({s['elo_spread_low']:+.0f} .. {s['elo_spread_high']:+.0f})",
            indent="  ",
        )
    )
    lines += ["", wrap(lad.verdict)]
    return "\n".join(lines)


__all__ = [
    "Ladder",
    "LadderRun",
    "Level",
    "analyse",
    "deals_text",
    "default_levels",
    "format_ladder",
    "ladder_plan",
    "ladder_record",
    "matrix_games_per_deal",
    "parse_levels",
]
