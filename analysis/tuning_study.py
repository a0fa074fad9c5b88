"""The tuning study of one game, shared by ``analysis/tuning_<game>.py``: screen every rule option
at the game's usual player count, then tune the options that move the first-player edge most,
with the heuristic bots, using the commands a user would type.

Writes ``reports/<game>/tuning/``:

- ``screen/``: ``cardsim screen`` report (options ranked, tornado charts) and ``screen.json``;
- ``tune/``: ``cardsim tune`` report (search history, best candidates on fresh deals, the winner
  against the defaults), ``tune.json`` and ``winner.toml`` (a variant file);
- ``confirm/confirm.json``: the winner confirmed at the top level of the game's ladder: the
  winning variant and the defaults played by the search bot (``ismcts``) in every seat on the
  same deals (``cardsim diff``), the first-player edge of each with its 95% interval and the
  paired change;
- ``summary.md``: the commands, how long each took, and one sentence: which rule change makes
  the first seat fairest, with its interval on fresh deals, then the confirmation.

``--confirm-only`` runs the confirmation alone on the screen and tune already in the reports
(their commands and times are kept from the summary).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent


@dataclass
class Study:
    """One game's study: the game, the seed, what the screen and the tune play."""

    game: str
    seed: int = 2026
    screen_games: int = 4000
    trajectories: int = 10
    tune_options: int = 2  # options of the screen's top that the tune searches
    budget: int = 40
    trial_games: int = 6000
    blocks: int = 6
    verify_games: int = 40000
    screen_extra: list[str] = field(default_factory=list)  # e.g. --levels for derived options
    # the confirmation at the top ladder level: ismcts's default 1,000 iterations took ~1.8 s a
    # 4-player Fruit Picking game on the shared machine (2 x 1,000 games: about an hour); a
    # fifth of that budget keeps it to minutes (the budget and the time are in the summary)
    top_bot: str = "ismcts"
    max_iterations: int = 200  # the search bot's budget: its default, at most this
    reuse: bool = False  # --confirm-only --reuse: the confirmation already played, summary anew
    confirm_games: int = 1000
    ran: list[tuple[str, float]] = field(default_factory=list)

    @property
    def out(self) -> Path:
        return ROOT.parent / "reports" / self.game / "tuning"

    def cardsim(self, *args: str) -> str:
        """Run one ``cardsim`` command as a user would; its stdout (the JSON document)."""
        command = [sys.executable, "-m", "cardsim.cli.main", *args, "--quiet", "--force"]
        # paths as from the repository's root, where the study is run
        shown = "cardsim " + " ".join(args).replace(f"{ROOT.parent}/", "")
        print("$", shown, flush=True)
        start = time.perf_counter()
        done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
        self.ran.append((shown, time.perf_counter() - start))
        return done.stdout

    def screen(self) -> dict:
        out = self.out / "screen"
        text = self.cardsim("screen", self.game, "--games", str(self.screen_games),
                            "--trajectories", str(self.trajectories), "--seed", str(self.seed),
                            *self.screen_extra, "--report", str(out), "--format", "json")  # fmt: skip
        (out / "screen.json").write_text(text)
        return json.loads(text)

    def tune(self, screened: dict) -> dict:
        out = self.out / "tune"
        params = [
            param_text(self.game, row, screened) for row in screened["ranking"][: self.tune_options]
        ]
        winner = out / "winner.toml"
        winner.unlink(missing_ok=True)
        out.mkdir(parents=True, exist_ok=True)
        args = [a for p in params for a in ("--param", p)]
        text = self.cardsim("tune", self.game, *args, "--budget", str(self.budget), "--games",
                            str(self.trial_games), "--blocks", str(self.blocks), "--verify-games",
                            str(self.verify_games), "--seed", str(self.seed), "--save",
                            str(winner), "--report", str(out), "--format", "json",
                            "--study", str(out / "study.journal"))  # fmt: skip
        (out / "study.journal").unlink(missing_ok=True)
        (out / "tune.json").write_text(text)
        return json.loads(text)

    @property
    def default_iterations(self) -> int:
        """The search bot's default budget in this game (``cardsim bots GAME``)."""
        from cardsim.core import registry

        bot = registry.get(self.game).bots()[self.top_bot]
        return int(bot.params[list(bot.param_names).index("iterations")])

    def flags(self) -> str:
        """The command-line options that set this study's sizes away from the defaults (the
        summary's command must make the same study again)."""
        sizes = (("--budget", "budget"), ("--screen-games", "screen_games"),
                 ("--confirm-games", "confirm_games"))  # fmt: skip
        return "".join(
            f" {flag} {getattr(self, name)}"
            for flag, name in sizes
            if getattr(self, name) != getattr(Study, name)
        )

    @property
    def top_iterations(self) -> int:
        return min(self.default_iterations, self.max_iterations)

    def confirm(self, tuned: dict) -> dict | None:
        """The winner and the defaults at the top ladder level, on the same deals (seed of the
        study, games the tune never played: another seed's deals)."""
        winner = self.out / "tune" / "winner.toml"
        if not tuned["winner"] or not winner.exists():
            return None
        out = self.out / "confirm"
        if self.reuse and (out / "confirm.json").exists():
            return json.loads((out / "confirm.json").read_text())
        out.mkdir(parents=True, exist_ok=True)
        text = self.cardsim("diff", self.game, "--variant", str(winner), "-p",
                            str(tuned["players"]), "--bots", self.top_bot, "--bot-param",
                            f"{self.top_bot}.iterations={self.top_iterations}", "-n",
                            str(self.confirm_games), "--seed", str(self.seed + 1),
                            "--format", "json")  # fmt: skip
        (out / "confirm.json").write_text(text)
        return json.loads(text)

    def run(self, confirm_only: bool = False) -> None:
        start = time.perf_counter()
        if confirm_only:
            screened = json.loads((self.out / "screen" / "screen.json").read_text())
            tuned = json.loads((self.out / "tune" / "tune.json").read_text())
            self.ran = [
                (command, seconds)
                for command, seconds in earlier_commands(self.out / "summary.md")
                if self.reuse or not command.startswith("cardsim diff")
            ]
        else:
            # --reuse keeps the confirmation already played: keep its time for the summary too
            summary_file = self.out / "summary.md"
            kept = earlier_commands(summary_file) if self.reuse and summary_file.exists() else []
            screened = self.screen()
            tuned = self.tune(screened)
            self.ran += [(c, t) for c, t in kept if c.startswith("cardsim diff")]
        confirmed = self.confirm(tuned)
        (self.out / "summary.md").write_text(summary(self, screened, tuned, confirmed))
        print(f"done in {time.perf_counter() - start:.0f} s: {self.out}")


def earlier_commands(path: Path) -> list[tuple[str, float]]:
    """The commands a summary lists, with their seconds (``- `cmd` (N s)``)."""
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("- `cardsim "):
            command, _, rest = line[3:].partition("` (")
            out.append((command, float(rest.split(" s)")[0])))
    return out


def param_text(game: str, row: dict, screened: dict) -> str:
    """``--param`` for a screened option: its levels (a choice or true/false), or for an integer
    option a range wider than the screen's: half to twice the default, within the allowed
    values, and never narrower than the levels screened."""
    from cardsim.core import registry

    levels = next(o["levels"] for o in screened["options"] if o["option"] == row["option"])
    if all(isinstance(v, int) and not isinstance(v, bool) for v in levels):
        option = next(o for o in registry.get(game).options if o.name == row["option"])
        default = option.default if isinstance(option.default, int) else min(levels)
        lo = min(max(option.lo, -(-default // 2)), min(levels))
        hi = max(min(option.hi, 2 * default), max(levels))
        return f"{row['option']}={lo}..{hi}"
    return f"{row['option']}={','.join(shown(v) for v in levels)}"


def shown(value) -> str:
    """A rule value as ``--rules`` takes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def points(x: float) -> str:
    return f"{100 * x:+.2f}"


def finding(tuned: dict) -> str:
    """One sentence: the winning rule change and its first-player edge on fresh deals."""
    rows = tuned["verification"]
    base = rows[0]
    won = next((r for r in rows if r["winner"]), None)
    if won is None:
        return "No candidate of the tune kept its constraints: no rule change to recommend."
    change = ", ".join(f"{k} = {shown(v)}" for k, v in tuned["winner"].items())
    edge = (
        f"{points(won['first_player_edge'])} points (95% interval "
        f"{points(won['first_player_edge_low'])} to {points(won['first_player_edge_high'])}) "
        f"on {tuned['verify_games']:,} fresh games"
    )
    if won["edge_change_low"] <= 0 <= won["edge_change_high"]:
        return (
            f"No searched change makes the first seat clearly fairer: the best, {change}, "
            f"leaves the first player's edge at {edge}, against "
            f"{points(base['first_player_edge'])} with the standard rules ({tuned['players']} "
            f"players, {', '.join(tuned['bots'])} bots)."
        )
    return (
        f"With {change}, the first player's edge is {edge}, against "
        f"{points(base['first_player_edge'])} ({points(base['first_player_edge_low'])} to "
        f"{points(base['first_player_edge_high'])}) with the standard rules "
        f"({tuned['players']} players, {', '.join(tuned['bots'])} bots)."
    )


def edge_bounds(metric: dict, side: str, players: int) -> tuple[float, float, float]:
    """A variant's first-player edge and its 95% Wilson interval, as fractions (``side``: a or
    b of the ``cardsim diff`` metric)."""
    from cardsim.analysis.stats.summary import wilson_interval

    fair = 1 / players
    rate = metric[side] + fair
    lo, hi = wilson_interval(round(rate * metric["games"]), metric["games"])
    return metric[side], lo - fair, hi - fair


def edge_interval(metric: dict, side: str, players: int) -> str:
    edge, lo, hi = edge_bounds(metric, side, players)
    return f"{points(edge)} points ({points(lo)} to {points(hi)})"


def top_level_words(edge: dict, players: int) -> str:
    """Whether the winner (b) makes the first seat fairer than the standard rules (a) at the top
    level: their |edge|, and whether each interval holds 0."""
    if edge["change"] == 0 and edge["ci_low"] == edge["ci_high"] == 0:
        return (
            "the winner plays exactly as the standard rules (the same games): no change to confirm"
        )
    fair = {}
    for side in ("a", "b"):
        _, lo, hi = edge_bounds(edge, side, players)
        fair[side] = lo <= 0 <= hi
    if fair["a"] and fair["b"]:
        # a smaller |edge| inside two intervals that both hold 0 is noise, not a gain
        return (
            "at the top level both are within their intervals of fair: the standard rules need "
            "no change there"
        )
    if fair["b"]:
        return "the winner's gain holds at the top level"
    if fair["a"]:
        side = "the first player now behind" if edge["b"] < 0 else "the first player still ahead"
        return (
            "the change does not carry over to strong play (at the top level the standard rules' "
            f"edge is within its interval of fair and the winner's is not, {side})"
        )
    return (
        f"the top level does not confirm the winner (|edge| {abs(100 * edge['b']):.2f} points "
        f"with it, {abs(100 * edge['a']):.2f} without)"
    )


def confirmation(study: Study, tuned: dict, confirmed: dict | None) -> list[str]:
    """The summary's paragraph on the winner at the top ladder level."""
    if confirmed is None:
        return ["No winner to confirm at the top ladder level."]
    edge = next(m for m in confirmed["metrics"] if m["metric"] == "first_player_edge")
    seconds = next(t for command, t in study.ran if command.startswith("cardsim diff"))
    k = confirmed["players"]
    level = f"{study.top_bot}:iterations={study.top_iterations}"
    change = (
        f"{points(edge['change'])} points (paired 95% interval {points(edge['ci_low'])} to "
        f"{points(edge['ci_high'])})"
    )
    full = study.default_iterations
    budget = (
        f"at its default {full:,} iterations a decision"
        if study.top_iterations == full
        else f"at {study.top_iterations} iterations a decision, not its default {full:,}: the "
        f"search's cost grows about linearly with its iterations, {full / study.top_iterations:.0f}"
        " x this confirmation's time at the default"
    )
    held = top_level_words(edge, k)
    return [
        "## Confirmation at the top ladder level",
        "",
        f"The winner and the standard rules played by {level} in every seat ({k} players), "
        f"the same {confirmed['games']:,} deals for both (seed {confirmed['seed']}, deals the "
        f"tune never played): the first player's edge is {edge_interval(edge, 'b', k)} with "
        f"the winner against {edge_interval(edge, 'a', k)} with the standard rules, a change of "
        f"{change}; {held}. The search bot plays {budget}; this confirmation took "
        f"{seconds:.0f} s on the shared 2-core machine. "
        "Data: [confirm.json](confirm/confirm.json).",
    ]


def summary(study: Study, screened: dict, tuned: dict, confirmed: dict | None = None) -> str:
    top = screened["ranking"][: study.tune_options]
    lines = [
        f"# Tuning study: {study.game}",
        "",
        finding(tuned),
        "",
        f"Screen ({screened['design']}, {screened['runs_played']} runs x "
        f"{screened['games_per_run']:,} games, {screened['players']} players"
        + (
            f"; {screened['runs_rejected']} runs left out, their rule values not playable together"
            if screened.get("runs_rejected")
            else ""
        )
        + "): the options that "
        "move the first-player edge most are "
        + ", ".join(
            f"{r['option']} ({points(r['effect'])} points, {points(r['effect_low'])} to "
            f"{points(r['effect_high'])})"
            for r in top
        )
        + "; the tune searched them.",
        "",
        f"Made by `python analysis/tuning_{study.game.replace('-', '_')}.py{study.flags()}`:",
        "",
        *(f"- `{command}` ({seconds:.0f} s)" for command, seconds in study.ran),
        "",
        "Reports: [screen](screen/report.md), [tune](tune/report.md); the winner as a variant "
        "file: [winner.toml](tune/winner.toml).",
        "",
        *confirmation(study, tuned, confirmed),
    ]
    return "\n".join(lines) + "\n"


def main(game: str, **settings) -> None:
    """The command line of ``analysis/tuning_<game>.py``: ``[--budget N] [--screen-games N]``;
    ``settings``: the game's own ``Study`` fields (such as ``screen_extra``)."""
    import argparse

    parser = argparse.ArgumentParser(description=f"Tuning study of {game}")
    parser.add_argument("--budget", type=int, default=Study.budget)
    parser.add_argument("--screen-games", type=int, default=Study.screen_games)
    parser.add_argument("--confirm-games", type=int, default=Study.confirm_games)
    parser.add_argument("--confirm-only", action="store_true", help="only the confirmation")
    parser.add_argument(
        "--reuse", action="store_true", help="with --confirm-only: keep confirm/confirm.json"
    )
    args = parser.parse_args()
    study = Study(
        game,
        budget=args.budget,
        screen_games=args.screen_games,
        confirm_games=args.confirm_games,
        reuse=args.reuse,
        **settings,
    )
    study.run(confirm_only=args.confirm_only)
