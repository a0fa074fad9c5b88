"""Strategy comparison: which bot is stronger once seat advantage is taken out.

The experiment (``cardsim.experiments.seating_specs``) plays deal ``i`` (game ``i`` of the seed)
under every seating of the bots. Seatings (``seatings``):

- ``all`` (default): every distinct assignment of the bots to the K seats. With as many bots as
  seats, every permutation (K!); with more bots than seats, every ordered choice of K different
  bots; with fewer bots than seats, every assignment in which each bot sits at least once (so
  every bot gets the same number of seats by symmetry). Each name once.
- ``rotations``: the K rotations of one lineup of exactly K names, which may repeat (``planner,
  greedy,greedy,greedy``: one planner against three greedy copies, in every seat in turn).

Either way every bot sits in every seat equally often on the same deals, so a seat's advantage
falls on every bot alike. What is reported, over the games that ended by the rules:

- per bot: its win rate per seat played (shared wins split, as in ``seats``), 95% Wilson interval;
- per pair of bots: how often ``bot`` finishes ahead of ``opponent`` when both are seated (a tie
  counts half), with a 95% Wilson interval over their meetings;
- a rating from the finishing orders (``rating.fit_plackett_luce``) with the turn-order effect in
  the model, with standard errors;
- the skill depth: how far the strongest bot is ahead of ``random``, when random is seated.

Games of one deal are not independent: they share the cards, and the outcomes of a deal under
its different seatings move together (measured on Fruit Picking: the variance of a bot's win rate
is 1.1 to 5 times the binomial one). So every interval is clustered by deal: Wilson intervals on
the effective count (n over the measured design effect, ``clustered_wilson``), and sandwich
standard errors for the rating.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardsim.analysis import frame as F
from cardsim.analysis.rating import Rating, fit_plackett_luce
from cardsim.analysis.summary import wilson_interval
from cardsim.core.errors import CardsimError
from cardsim.text import rich_table, wrap

SEATING_MODES = ("all", "rotations")
MAX_SEATINGS = 720  # 6 bots in 6 seats; beyond that use rotations
RANDOM_BOT = "random"


def seatings(names: Sequence[str], n_players: int, mode: str = "all") -> list[tuple[str, ...]]:
    """The seatings of an experiment: bot name per seat, seat 0 first (see the module)."""
    names = [n.strip() for n in names if n.strip()]
    k = n_players
    if mode not in SEATING_MODES:
        raise CardsimError(f"--seatings must be one of {', '.join(SEATING_MODES)}, not {mode!r}")
    if len(set(names)) < 2:
        raise CardsimError("compare needs at least two different bots in --bots")
    if mode == "rotations":
        if len(names) != k:
            raise CardsimError(
                f"--seatings rotations needs one bot per seat: {k} names, got {len(names)}"
            )
        return [tuple(names[(s - r) % k] for s in range(k)) for r in range(k)]
    if len(set(names)) != len(names):
        raise CardsimError(
            "--bots names a bot twice: with --seatings all name each bot once "
            "(use --seatings rotations for a lineup with copies)"
        )
    if len(names) >= k:
        out = list(itertools.permutations(names, k))
    else:
        out = [s for s in itertools.product(names, repeat=k) if set(s) == set(names)]
    if len(out) > MAX_SEATINGS:
        raise CardsimError(
            f"{len(out):,} seatings of {len(names)} bots in {k} seats is too many (at most "
            f"{MAX_SEATINGS}): use --seatings rotations with a lineup of {k} bots"
        )
    return out


def combine(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The games of every seating in one frame, with a ``seating`` column (0, 1, ...)."""
    parts = [f.assign(seating=np.int32(i)) for i, f in enumerate(frames)]
    return pd.concat(parts, ignore_index=True)


def bot_codes(frame: pd.DataFrame, bot_names: Sequence[str]) -> np.ndarray:
    """int ``(games, seats)``: index into ``bot_names`` of the bot in each seat."""
    k = F.seat_count(frame)
    cols = [
        pd.Categorical(frame[f"bot_{s}"].astype(str), categories=list(bot_names)).codes
        for s in range(k)
    ]
    codes = np.column_stack(cols).astype(np.int64).reshape(len(frame), k)
    if (codes < 0).any():
        raise ValueError("the frame seats a bot that is not in bot_names")
    return codes


def clustered_wilson(
    successes: np.ndarray, trials: np.ndarray, clusters: np.ndarray
) -> tuple[float, float, float, float]:
    """Rate, 95% Wilson interval and design effect of a proportion whose observations come in
    clusters (games of one deal): the Wilson interval of the effective count n / deff, where
    deff >= 1 is the variance of the cluster-robust (ratio) estimate over the binomial one.

    ``successes``, ``trials``: float per observation; ``clusters``: int per observation.
    Returns ``(rate, lo, hi, deff)``; NaNs when there are no trials.
    """
    _, cluster = np.unique(clusters, return_inverse=True)
    wins = np.bincount(cluster, weights=successes)
    seats = np.bincount(cluster, weights=trials)
    n = float(seats.sum())
    if n <= 0:
        return math.nan, math.nan, math.nan, math.nan
    rate = float(wins.sum()) / n
    m = len(seats)
    binomial = rate * (1 - rate) / n
    robust = m / max(m - 1, 1) * float(((wins - rate * seats) ** 2).sum()) / n**2
    deff = max(1.0, robust / binomial) if binomial > 0 else 1.0
    lo, hi = wilson_interval(rate * n / deff, n / deff)
    return rate, lo, hi, deff


def bot_win_rates(frame: pd.DataFrame, bot_names: Sequence[str]) -> pd.DataFrame:
    """Per bot: seats played, wins (shared wins split), win rate and its 95% interval (Wilson,
    deal-clustered: ``clustered_wilson`` over the ``game`` column), the design effect, and the
    fair rate (share of decided games over K)."""
    games = F.finished(frame)
    bots = bot_codes(games, bot_names)
    share = F.win_shares(games)
    deal = games["game"].to_numpy()
    decided = float(np.mean(share.sum(axis=1) > 0)) if len(games) else math.nan
    rows = []
    for i, name in enumerate(bot_names):
        seated = bots == i
        wins = (share * seated).sum(axis=1)
        rate, lo, hi, deff = clustered_wilson(wins, seated.sum(axis=1).astype(float), deal)
        rows.append(
            {
                "bot": name,
                "seats_played": int(seated.sum()),
                "wins": float(wins.sum()),
                "win_rate": rate,
                "ci_low": lo,
                "ci_high": hi,
                "design_effect": deff,
                "fair_rate": decided / F.seat_count(frame),
            }
        )
    return pd.DataFrame(rows)


def pairwise(frame: pd.DataFrame, bot_names: Sequence[str]) -> pd.DataFrame:
    """Per ordered pair of different bots: meetings (both seated in a game; a pair of seats is
    one meeting), ahead, tied, behind, score = (ahead + tied / 2) / meetings, its 95% interval
    (Wilson, deal-clustered) and design effect."""
    games = F.finished(frame)
    bots = bot_codes(games, bot_names)
    ranks = F.seat_matrix(games, "rank", np.int64)
    deal = games["game"].to_numpy()
    k = bots.shape[1]
    rows = []
    for i, j in itertools.permutations(range(len(bot_names)), 2):
        meet = np.zeros(len(games))
        ahead = np.zeros(len(games))
        tied = np.zeros(len(games))
        for s, t in itertools.permutations(range(k), 2):
            both = (bots[:, s] == i) & (bots[:, t] == j)
            meet += both
            ahead += both & (ranks[:, s] < ranks[:, t])
            tied += both & (ranks[:, s] == ranks[:, t])
        score, lo, hi, deff = clustered_wilson(ahead + tied / 2, meet, deal)
        m = int(meet.sum())
        rows.append(
            {
                "bot": bot_names[i],
                "opponent": bot_names[j],
                "meetings": m,
                "ahead": int(ahead.sum()),
                "tied": int(tied.sum()),
                "behind": m - int(ahead.sum()) - int(tied.sum()),
                "score": score,
                "ci_low": lo,
                "ci_high": hi,
                "design_effect": deff,
            }
        )
    return pd.DataFrame(rows)


def pairwise_matrix(pairs: pd.DataFrame, bot_names: Sequence[str]) -> pd.DataFrame:
    """Wide table of ``score``: row bot, column opponent, NaN on the diagonal."""
    wide = pairs.pivot(index="bot", columns="opponent", values="score")
    return wide.reindex(index=list(bot_names), columns=list(bot_names))


def fit_rating(frame: pd.DataFrame, bot_names: Sequence[str]) -> Rating:
    """Plackett-Luce rating with a turn-order effect from the finishing orders (ranks); standard
    errors clustered by deal (the ``game`` column)."""
    games = F.finished(frame)
    bots = F.by_position(games, bot_codes(games, bot_names))
    ranks = F.by_position(games, F.seat_matrix(games, "rank", np.int64))
    return fit_plackett_luce(bots, ranks, list(bot_names), clusters=games["game"].to_numpy())


def skill_depth(pairs: pd.DataFrame, rating: Rating) -> str:
    """One line: how far the strongest bot is ahead of ``random`` (or why that is not measured)."""
    if RANDOM_BOT not in rating.bots:
        return (
            "Skill depth: random is not seated, so how far skill goes is not measured "
            "(add random to --bots)."
        )
    best = rating.table()["bot"].iloc[0]
    if best == RANDOM_BOT:
        return "Skill depth: none found: random is rated the strongest of these bots."
    row = pairs[(pairs["bot"] == best) & (pairs["opponent"] == RANDOM_BOT)].iloc[0]
    gap, se = rating.gap(best, RANDOM_BOT)
    return (
        f"Skill depth: {best} finishes ahead of random in {_pct(row['score'])} of their "
        f"meetings (95% CI {_pct(row['ci_low'])} .. {_pct(row['ci_high'])}); rating gap "
        f"{gap:.2f} ± {1.96 * se:.2f} (Elo {gap * 400 / math.log(10):.0f} ± "
        f"{1.96 * se * 400 / math.log(10):.0f})."
    )


@dataclass(frozen=True)
class Comparison:
    """Everything ``cardsim compare`` reports (see the module docstring)."""

    game_title: str
    bot_names: tuple[str, ...]
    seatings: tuple[tuple[str, ...], ...]
    deals: int  # games per seating: deal i is game i of every seating
    seed: int
    games: int  # all games played
    turn_cap_games: int
    win_rates: pd.DataFrame
    pairs: pd.DataFrame
    rating: Rating
    skill_depth: str
    rating_note: str = ""  # set when the rating's standard errors come from a sample of deals

    @property
    def n_players(self) -> int:
        return len(self.seatings[0])

    def matrix(self) -> pd.DataFrame:
        return pairwise_matrix(self.pairs, self.bot_names)


def compare(
    frames: Sequence[pd.DataFrame],
    bot_names: Sequence[str],
    seating_list: Sequence[Sequence[str]],
    seed: int = 0,
    game_title: str = "",
) -> Comparison:
    """Analyse the runs of a comparison (one frame per seating, in ``seating_list`` order)."""
    frame = combine(frames)
    names = list(bot_names)
    pairs = pairwise(frame, names)
    rating = fit_rating(frame, names)
    return Comparison(
        game_title=game_title,
        bot_names=tuple(names),
        seatings=tuple(tuple(s) for s in seating_list),
        deals=len(frames[0]),
        seed=seed,
        games=len(frame),
        turn_cap_games=int(frame["turn_cap_hit"].sum()),
        win_rates=bot_win_rates(frame, names),
        pairs=pairs,
        rating=rating,
        skill_depth=skill_depth(pairs, rating),
    )


def comparison_record(c: Comparison, game: str | None = None) -> dict:
    """A comparison as plain data (``cardsim compare --format json``, ``game`` its ruleset's
    name): rates as fractions of 1."""

    def records(frame: pd.DataFrame) -> list[dict]:
        return [dict(zip(frame.columns, row, strict=True)) for row in frame.itertuples(index=False)]

    return {
        "game": game,
        "title": c.game_title,
        "bots": list(c.bot_names),
        "players": c.n_players,
        "seatings": [list(s) for s in c.seatings],
        "deals": c.deals,
        "seed": c.seed,
        "games": c.games,
        "turn_cap_games": c.turn_cap_games,
        "win_definition": "a win shared by k tied winners counts 1/k for each",
        "win_rates": records(c.win_rates),
        "head_to_head": records(c.pairs),
        "rating": {
            "bots": records(c.rating.table()),
            "position_effect": list(c.rating.position),
            "position_effect_se": list(c.rating.position_se),
            "converged": c.rating.converged,
        },
        "skill_depth": c.skill_depth,
        **({"rating_note": c.rating_note} if c.rating_note else {}),
    }


# -- streamed ------------------------------------------------------------------------------------

MAX_RATING_DEALS = 50_000  # deals whose games the rating's clustered standard errors are read from


def clustered_wilson_sums(
    wins: float, trials: float, ww: float, ws: float, ss: float, clusters: int
) -> tuple[float, float, float, float]:
    """``clustered_wilson`` from sums over the clusters of their wins w and trials s: ``wins``
    = sum w, ``trials`` = sum s, ``ww`` = sum w^2, ``ws`` = sum w s, ``ss`` = sum s^2 (clusters
    without a trial count in ``clusters``): sum (w - rate s)^2 expanded, so a stream can add
    them up cluster by cluster."""
    n = float(trials)
    if n <= 0:
        return math.nan, math.nan, math.nan, math.nan
    rate = float(wins) / n
    m = clusters
    binomial = rate * (1 - rate) / n
    squares = max(ww - 2 * rate * ws + rate * rate * ss, 0.0)
    robust = m / max(m - 1, 1) * squares / n**2
    deff = max(1.0, robust / binomial) if binomial > 0 else 1.0
    lo, hi = wilson_interval(rate * n / deff, n / deff)
    return rate, lo, hi, deff


class _ClusterSums:
    """Sums of ``clustered_wilson_sums`` for one proportion."""

    __slots__ = ("wins", "trials", "ww", "ws", "ss")

    def __init__(self):
        self.wins = self.trials = self.ww = self.ws = self.ss = 0.0

    def add(self, successes: np.ndarray, trials: np.ndarray, cluster: np.ndarray, n: int):
        w = np.bincount(cluster, weights=successes, minlength=n)
        t = np.bincount(cluster, weights=trials, minlength=n)
        self.wins += float(w.sum())
        self.trials += float(t.sum())
        self.ww += float(w @ w)
        self.ws += float(w @ t)
        self.ss += float(t @ t)

    def interval(self, clusters: int) -> tuple[float, float, float, float]:
        return clustered_wilson_sums(self.wins, self.trials, self.ww, self.ws, self.ss, clusters)


class CompareStats:
    """``compare`` of a comparison played block by block (``experiments.play_blocks``): feed
    ``add(frames)``, the games of every seating (``seating_list`` order) on one range of deals,
    for every range; ``comparison()`` then gives the ``Comparison`` of all the games in memory
    that does not grow with the deals.

    Win rates and head-to-head scores are sums over deals (each deal's games are in one block),
    the same numbers as ``compare`` up to the last bits of a float sum. The rating's point
    estimates are fitted on the counts of every distinct game pattern (exactly ``compare``'s
    fit); its deal-clustered standard errors need every deal's games, so beyond
    ``MAX_RATING_DEALS`` deals they are estimated on that many (the deals with the smallest
    ``counters.game_hash``, a uniform sample), and ``rating_note`` says so.
    """

    def __init__(
        self,
        bot_names: Sequence[str],
        seating_list: Sequence[Sequence[str]],
        seed: int = 0,
        game_title: str = "",
        max_rating_deals: int = MAX_RATING_DEALS,
    ):
        self.names = list(bot_names)
        self.seating_list = [tuple(s) for s in seating_list]
        self.seed = seed
        self.game_title = game_title
        self.max_rating_deals = max(int(max_rating_deals), 1)
        nb = len(self.names)
        self.deals = 0
        self.games = 0
        self.turn_cap_games = 0
        self.finished = 0
        self.decided = 0
        self.clusters = 0  # deals with a finished game
        self.seats_played = np.zeros(nb, np.int64)
        self.bot_sums = [_ClusterSums() for _ in range(nb)]
        self.pairs = list(itertools.permutations(range(nb), 2))
        self.meetings = np.zeros(len(self.pairs), np.int64)
        self.ahead = np.zeros(len(self.pairs), np.int64)
        self.tied = np.zeros(len(self.pairs), np.int64)
        self.pair_sums = [_ClusterSums() for _ in self.pairs]
        self.patterns: dict[bytes, int] = {}  # game pattern row (int64 bytes) -> games
        self._width = 0
        # the sampled deals' games: deal index, pattern row; and each sampled deal's hash
        self._sample_deal = np.zeros(0, np.int64)
        self._sample_rows = np.zeros((0, 0), np.int64)
        self._sample_hash = np.zeros(0, np.uint64)  # per sampled deal
        self._sample_deals = np.zeros(0, np.int64)  # the sampled deals, same order

    def add(self, frames: Sequence[pd.DataFrame]) -> None:
        if len(frames) != len(self.seating_list):
            raise ValueError(f"{len(frames)} frames for {len(self.seating_list)} seatings")
        frame = combine(frames)
        self.deals += len(frames[0])
        self.games += len(frame)
        self.turn_cap_games += int(frame["turn_cap_hit"].sum())
        games = F.finished(frame)
        if not len(games):
            return
        deal = games["game"].to_numpy(np.int64)
        present, cluster = np.unique(deal, return_inverse=True)
        cluster = cluster.reshape(-1)
        m = len(present)
        self.clusters += m
        bots = bot_codes(games, self.names)
        share = F.win_shares(games)
        self.finished += len(games)
        self.decided += int((share.sum(axis=1) > 0).sum())
        for i in range(len(self.names)):
            seated = bots == i
            self.seats_played[i] += int(seated.sum())
            wins = (share * seated).sum(axis=1)
            self.bot_sums[i].add(wins, seated.sum(axis=1).astype(float), cluster, m)
        ranks = F.seat_matrix(games, "rank", np.int64)
        k = bots.shape[1]
        for n, (i, j) in enumerate(self.pairs):
            meet = np.zeros(len(games))
            ahead = np.zeros(len(games))
            tied = np.zeros(len(games))
            for s, t in itertools.permutations(range(k), 2):
                both = (bots[:, s] == i) & (bots[:, t] == j)
                meet += both
                ahead += both & (ranks[:, s] < ranks[:, t])
                tied += both & (ranks[:, s] == ranks[:, t])
            self.meetings[n] += int(meet.sum())
            self.ahead[n] += int(ahead.sum())
            self.tied[n] += int(tied.sum())
            self.pair_sums[n].add(ahead + tied / 2, meet, cluster, m)
        rows = np.concatenate(
            [F.by_position(games, bots), F.by_position(games, ranks)], axis=1
        ).astype(np.int64)
        self._count_patterns(rows)
        self._sample(present, deal, rows)

    def _count_patterns(self, rows: np.ndarray) -> None:
        self._width = rows.shape[1]
        unique, counts = np.unique(rows, axis=0, return_counts=True)
        for row, count in zip(unique, counts, strict=True):
            key = row.tobytes()
            self.patterns[key] = self.patterns.get(key, 0) + int(count)

    def _sample(self, present: np.ndarray, deal: np.ndarray, rows: np.ndarray) -> None:
        from cardsim.analysis.counters import game_hash

        hashes = game_hash(present, self.seed)
        cap = self.max_rating_deals
        if len(self._sample_deals) >= cap:
            keep = hashes < self._sample_hash.max()
            if not keep.any():
                return
            present, hashes = present[keep], hashes[keep]
        mine = np.isin(deal, present)
        all_deals = np.concatenate([self._sample_deals, present])
        all_hashes = np.concatenate([self._sample_hash, hashes])
        game_deal = np.concatenate([self._sample_deal, deal[mine]])
        game_rows = rows[mine]
        if len(self._sample_rows):
            game_rows = np.concatenate([self._sample_rows, game_rows])
        if len(all_deals) > cap:
            cut = np.sort(all_hashes)[cap - 1]
            chosen = all_hashes <= cut
            all_deals, all_hashes = all_deals[chosen], all_hashes[chosen]
            kept = np.isin(game_deal, all_deals)
            game_deal, game_rows = game_deal[kept], game_rows[kept]
        self._sample_deals, self._sample_hash = all_deals, all_hashes
        self._sample_deal, self._sample_rows = game_deal, game_rows

    @property
    def sampled(self) -> bool:
        return len(self._sample_deals) < self.clusters

    def rating(self) -> Rating:
        from cardsim.analysis.rating import cluster_meat, fit_patterns

        k = self._width // 2
        keys = np.array([np.frombuffer(key, np.int64) for key in self.patterns], np.int64).reshape(
            -1, self._width
        )
        weights = np.array(list(self.patterns.values()), np.float64)
        order = np.lexsort(keys.T[::-1])  # the rows in np.unique order
        keys, weights = keys[order], weights[order]
        both = np.concatenate([keys, self._sample_rows])
        _, inverse = np.unique(both, axis=0, return_inverse=True)
        pattern_of_game = inverse.reshape(-1)[len(keys) :]
        total, sampled = self.clusters, len(self._sample_deals)

        def meat(model, params):
            m = cluster_meat(model, params, pattern_of_game, self._sample_deal)
            if sampled == total:
                return m
            # the sample's sum of cluster outer products scaled to all the deals, with the
            # small-sample factor of all the deals
            m *= (max(sampled - 1, 1) / sampled) * (total / max(total - 1, 1))
            return m * (total / sampled)

        return fit_patterns(keys[:, :k], keys[:, k:], weights, self.names, meat)

    def comparison(self) -> Comparison:
        names = self.names
        k = len(self.seating_list[0])
        fair = (self.decided / self.finished if self.finished else math.nan) / k
        rates = []
        for i, name in enumerate(names):
            rate, lo, hi, deff = self.bot_sums[i].interval(self.clusters)
            rates.append(
                {
                    "bot": name,
                    "seats_played": int(self.seats_played[i]),
                    "wins": self.bot_sums[i].wins,
                    "win_rate": rate,
                    "ci_low": lo,
                    "ci_high": hi,
                    "design_effect": deff,
                    "fair_rate": fair,
                }
            )
        pair_rows = []
        for n, (i, j) in enumerate(self.pairs):
            score, lo, hi, deff = self.pair_sums[n].interval(self.clusters)
            m = int(self.meetings[n])
            pair_rows.append(
                {
                    "bot": names[i],
                    "opponent": names[j],
                    "meetings": m,
                    "ahead": int(self.ahead[n]),
                    "tied": int(self.tied[n]),
                    "behind": m - int(self.ahead[n]) - int(self.tied[n]),
                    "score": score,
                    "ci_low": lo,
                    "ci_high": hi,
                    "design_effect": deff,
                }
            )
        pairs = pd.DataFrame(pair_rows)
        rating = self.rating()
        note = ""
        if self.sampled:
            note = (
                f"The rating's standard errors are estimated on a uniform sample of "
                f"{len(self._sample_deals):,} of the {self.clusters:,} deals (its strengths "
                "use every game)."
            )
        return Comparison(
            game_title=self.game_title,
            bot_names=tuple(names),
            seatings=tuple(self.seating_list),
            deals=self.deals,
            seed=self.seed,
            games=self.games,
            turn_cap_games=self.turn_cap_games,
            win_rates=pd.DataFrame(rates),
            pairs=pairs,
            rating=rating,
            skill_depth=skill_depth(pairs, rating),
            rating_note=note,
        )


# -- text ----------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def format_comparison(c: Comparison) -> str:
    """Plain-text report of a comparison: tables laid out by rich to fit the terminal, the
    prose wrapped to it."""
    k = c.n_players
    lines = [
        wrap(
            f"{c.game_title}: {', '.join(c.bot_names)} compared in {k}-player games, seed {c.seed}"
        ),
        wrap(
            f"{len(c.seatings)} seatings x {c.deals:,} deals = {c.games:,} games (deal i is game "
            "i of every seating: the same cards under every seating)"
        ),
    ]
    if c.turn_cap_games:
        lines.append(wrap(f"{c.turn_cap_games:,} games ended by the turn cap are left out"))
    lines += [
        "",
        wrap("Win rate by bot (per seat played; a shared win is split between the winners)"),
    ]
    rows = [
        [
            r.bot,
            f"{r.seats_played:,}",
            _pct(r.win_rate),
            f"[{_pct(r.ci_low)}, {_pct(r.ci_high)}]",
            f"{100 * (r.win_rate - r.fair_rate):+.1f}",
        ]
        for r in c.win_rates.itertuples()
    ]
    header = ["bot", "seats", "win rate", "95% CI", "vs fair, points"]
    lines.append(rich_table(header, rows, right=range(1, 5), fill=[0], share=False))
    lines += [
        "",
        wrap("Head to head: how often the row bot finishes ahead of the column bot (ties half)"),
    ]
    matrix = c.matrix()
    header = ["", *c.bot_names]
    rows = [
        [bot] + ["-" if bot == opp else _pct(matrix.loc[bot, opp]) for opp in c.bot_names]
        for bot in c.bot_names
    ]
    lines.append(
        rich_table(header, rows, right=range(1, len(header)), fill=range(len(header)), share=False)
    )
    lines += ["", "95% intervals of the head-to-head scores"]
    order = {name: i for i, name in enumerate(c.bot_names)}
    rows = [
        [
            f"{r.bot} vs {r.opponent}",
            f"{r.meetings:,}",
            _pct(r.score),
            f"[{_pct(r.ci_low)}, {_pct(r.ci_high)}]",
        ]
        for r in c.pairs.itertuples()
        if order[r.bot] < order[r.opponent]
    ]
    header = ["pair", "meetings", "ahead", "95% CI"]
    lines.append(rich_table(header, rows, right=range(1, 4), fill=[0], share=False))
    lines += ["", wrap("Rating (Plackett-Luce on finishing orders, turn order in the model)")]
    table = c.rating.table()
    rows = [
        [
            r.bot,
            f"{r.strength:+.3f}",
            f"± {1.96 * r.se:.3f}",
            f"{r.elo:+.0f} ± {1.96 * r.elo_se:.0f}",
        ]
        for r in table.itertuples()
    ]
    lines.append(
        rich_table(
            ["bot", "strength", "95%", "Elo scale"], rows, right=range(1, 4), fill=[0], share=False
        )
    )
    pos = c.rating.position_table()
    effects = ", ".join(
        f"{F.position_label(int(r.position))} {r.effect:+.3f} ± {1.96 * r.se:.3f}"
        for r in pos.itertuples()
        if r.position > 0
    )
    lines += [wrap(f"turn order (vs the starting player): {effects}", indent="  ")]
    if not c.rating.converged:
        lines.append(wrap("(the fit did not converge: treat the ratings with care)", indent="  "))
    if c.rating_note:
        lines.append(wrap(c.rating_note, indent="  "))
    lines += ["", wrap(c.skill_depth)]
    return "\n".join(lines)
