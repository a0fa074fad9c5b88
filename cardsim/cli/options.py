"""Every command-line option, defined once as a reusable decorator (the pip-tools way).

Values that need checking beyond their click type (game counts, bot names, rule options) are taken
as text and checked by the library, so that every mistake gets the same one-line error.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from cardsim.cli import complete

Decorator = Callable[[Callable], Callable]


def compose(*decorators: Decorator) -> Decorator:
    """Apply ``decorators`` in the order written, top to bottom (as if stacked on a function)."""

    def apply(fn: Callable) -> Callable:
        for decorator in reversed(decorators):
            fn = decorator(fn)
        return fn

    return apply


game_argument = click.argument("game", metavar="GAME", shell_complete=complete.games)

games_option = click.option(
    "--games",
    "-n",
    "games",
    default="100000",
    show_default=True,
    metavar="N",
    help="Games to simulate: a whole number, 1e6 and 1_000_000 work too.",
)

players_option = click.option(
    "--players",
    "-p",
    "players",
    type=int,
    default=None,
    metavar="K",
    help="Number of players (default: the game's usual count, see `cardsim games`).",
)

bots_option = click.option(
    "--bots",
    "-b",
    "bots",
    default="",
    metavar="NAME[,NAME...]",
    shell_complete=complete.bots,
    help="Bot per seat, comma-separated; one name seats it everywhere (default: the game's "
    "default bot). Names of built-in bots (`cardsim bots GAME`), of functions in --bot-file, "
    "or package.module:function.",
)

bot_file_option = click.option(
    "--bot-file",
    "bot_files",
    multiple=True,
    metavar="FILE",
    help="Python file with @njit bot functions, each usable by its name in --bots (repeatable).",
)

bot_param_option = click.option(
    "--bot-param",
    "bot_params",
    multiple=True,
    metavar="NAME.KEY=VALUE",
    help="Change a parameter of a seated bot (repeatable): planner.money=1.2; KEY is a name from "
    "`cardsim bots GAME`, or p0, p1... for a bot from --bot-file.",
)

seed_option = click.option(
    "--seed",
    "-s",
    "seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the run; the same seed gives the same games whatever the threads or chunks.",
)

rules_option = click.option(
    "--rules",
    "-r",
    "rules",
    multiple=True,
    metavar="KEY=VALUE",
    shell_complete=complete.rules,
    help="Change a rule option (repeatable); see `cardsim rules GAME`.",
)

threads_option = click.option(
    "--threads",
    "-t",
    "threads",
    type=int,
    default=None,
    metavar="T",
    help="Worker threads, 1 to the number of cores (default: all cores; 0 is refused).",
)

cluster_option = click.option(
    "--cluster",
    "cluster",
    default=None,
    metavar="ADDRESS",
    help="Play on a Dask cluster: local:N starts N worker processes on this machine; a scheduler "
    "address (tcp://host:8786) uses its workers. The same games and results as on threads. "
    "Needs pip install 'cardsim[dask]'.",
)

task_size_option = click.option(
    "--task-size",
    "task_size",
    default=None,
    metavar="N",
    help="With --cluster: games per task (default: about 8 tasks per worker, whole chunks).",
)

cluster_options = compose(cluster_option, task_size_option)
"""Where the games are played: shared by every command that simulates."""


def cluster_choice(cluster: str | None, task_size: str | None) -> tuple:
    """``(ClusterAddress or None, task size or None)``, checked before anything runs."""
    from cardsim.core.errors import CardsimError

    if cluster is None:
        if task_size is not None:
            raise CardsimError("--task-size is for runs on a cluster: add --cluster")
        return None, None
    from cardsim.core import cluster as dask_cluster
    from cardsim.core.runner import parse_count

    address = dask_cluster.parse_cluster(cluster)
    dask_cluster.require_dask()
    return address, parse_count(task_size, "--task-size") if task_size is not None else None


chunk_size_option = click.option(
    "--chunk-size",
    "chunk_size",
    default=None,
    metavar="N",
    help="Games per chunk handed to the summary and the output file (default 65536).",
)

out_option = click.option(
    "--out",
    "-o",
    "out",
    default=None,
    metavar="PATH",
    help="Save one row per game in the results dataset PATH (a directory of Parquet part "
    "files, each written as soon as its games are played; read it with `cardsim report PATH`, "
    "pandas, pyarrow or DuckDB). PATH must not exist yet (see --resume).",
)

resume_option = click.option(
    "--resume",
    is_flag=True,
    default=False,
    help="Continue the run saved in --out PATH (same game, rules, bots, players and seed): "
    "keep every saved game and play only the missing ones; --games may be raised to extend a "
    "finished run. With nothing at PATH, the run starts afresh (and says so).",
)

quiet_option = click.option(
    "--quiet",
    "-q",
    is_flag=True,
    default=False,
    help="Print only the summary: no progress bar, no closing note.",
)

game_index_option = click.option(
    "--game",
    "-g",
    "game_index",
    required=True,
    metavar="I",
    help="Index of the game in the run (0-based), as in the `game` column of --out files "
    "(12345, 1e6 and 1_000_000 work).",
)

variant_option = click.option(
    "--variant",
    "variant",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE.toml",
    help="Rule options from a variant file (name, optional game, a [rules] table; see "
    "analysis/variants/). --rules KEY=VALUE is applied on top: --rules wins over the file.",
)

report_option = click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="After the run, write a balance report (report.html, report.md, figures/) to DIR. It "
    "needs every game's row in memory (about 150 bytes per two-player game): for runs of many "
    "millions of games, use --out FILE and `cardsim report FILE` instead.",
)

force_option = click.option(
    "--force",
    "force",
    is_flag=True,
    default=False,
    help="Replace the report in an existing --report directory (without it, that is an error "
    "before any game is played). Saved games (--out) are never overwritten: --resume them or "
    "choose another path.",
)

results_argument = click.argument("results", metavar="RESULTS", type=click.Path())

spec_options = compose(
    players_option,
    bots_option,
    bot_file_option,
    bot_param_option,
    seed_option,
    rules_option,
    variant_option,
)
"""Everything that decides which games are played: shared by ``run`` and ``replay``."""


def split_names(text: str, what: str = "--bots") -> list[str]:
    """``"a, b,c"`` -> ``["a", "b", "c"]``; ``""`` -> ``[]`` (the default); an empty name
    (``",,"``, ``"a,,b"``, ``"a,"``) is a one-line error rather than silently dropped."""
    from cardsim.core.errors import CardsimError

    if not text.strip():
        return []
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise CardsimError(f"{what} {text!r} has an empty name: give NAME[,NAME...]")
    return parts


# -- experiments on common games (compare, sweep, diff) ------------------------------------------

deals_option = click.option(
    "--games",
    "-n",
    "games",
    default="10000",
    show_default=True,
    metavar="N",
    help="Games per setting: game i is the same deal (same seed, same game index) under every "
    "seating, grid point or variant, so the settings are compared on common games.",
)

compare_bots_option = click.option(
    "--bots",
    "-b",
    "bots",
    required=True,
    metavar="NAME,NAME[,...]",
    shell_complete=complete.bots,
    help="The bots to compare, comma-separated (at least two different ones).",
)

seatings_option = click.option(
    "--seatings",
    "seatings",
    type=click.Choice(["all", "rotations"]),
    default="all",
    show_default=True,
    help="all: every assignment of the bots to the seats (each bot at least once when there "
    "are fewer bots than seats); rotations: the K rotations of a lineup of K names, which may "
    "repeat (planner,greedy,greedy: one planner against two greedy copies).",
)

experiment_report_option = click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Also write the results as a report (report.html, report.md, figures/) to DIR.",
)

until_ci_option = click.option(
    "--until-ci",
    "until_ci",
    default=None,
    metavar="W",
    help="Play in chunks until every turn-order position's and seat's 95% win-rate interval is "
    "narrower than +/-W (0.005 or 0.5%); --games is then the cap. The games played are exactly "
    "those of a fixed run of that many games.",
)

edge_option = click.option(
    "--edge",
    "edge",
    required=True,
    metavar="E",
    help="The seat edge to detect: win rate minus the fair 1/K, as 0.01 or 1% (negative for a "
    "handicap).",
)

alpha_option = click.option(
    "--alpha",
    "alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Significance level of the two-sided test.",
)

power_option = click.option(
    "--power",
    "power",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.8,
    show_default=True,
    help="Chance of detecting the edge when it is there.",
)

param_option = click.option(
    "--param",
    "params",
    multiple=True,
    required=True,
    metavar="KEY=V1,V2,...",
    shell_complete=complete.rules,
    help="A rule option to sweep and its values (repeatable: the grid of every combination). "
    "Semicolons separate values of list options (setup_seeds=2,2,2;3,3,3); lo..hi is a range "
    "of integers. Swept values win over --rules and --variant.",
)

sweep_out_option = click.option(
    "--out",
    "-o",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Save every setting's games as a results dataset DIR/NN-<setting>.parquet (read "
    "them with `cardsim report` or cardsim.Results.load).",
)

diff_variants_option = click.option(
    "--variant",
    "variants",
    multiple=True,
    required=True,
    metavar="FILE.toml",
    help="Variant file to compare: give two (first, then second), or one to compare it with "
    "the rules without a file. --rules applies to both.",
)


# -- tune and screen -----------------------------------------------------------------------------


def whole_number_option(flag: str, default: int, metavar: str, help: str) -> Decorator:
    """An integer option with a shown default (checked by the library: one-line errors)."""
    name = flag.lstrip("-").replace("-", "_")
    return click.option(
        flag, name, type=int, default=default, show_default=True, metavar=metavar, help=help
    )


tune_param_option = click.option(
    "--param",
    "params",
    multiple=True,
    required=True,
    metavar="KEY=LO..HI|KEY=A,B,C",
    shell_complete=complete.rules,
    help="A rule option to search (repeatable): LO..HI for the whole numbers of an integer "
    "option, A,B,C for a list of values of any option (semicolons between values of list "
    "options). --rules and --variant fix the options not searched.",
)

objective_option = click.option(
    "--objective",
    "objective",
    multiple=True,
    metavar="NAME",
    help="What to minimise: first-player (|first-player edge|, the default) or seats (spread of "
    "the turn-order positions' win rates); add --objective length=LO..HI to keep the mean "
    "length within LO..HI turns; or ladder (|first-player edge| at the top level of --levels "
    "plus a penalty when a stronger level does not beat the one below it).",
)

budget_option = whole_number_option(
    "--budget", 60, "N", "Trials of the search (each a candidate played on --games games)."
)

trial_games_option = click.option(
    "--games",
    "-n",
    "games",
    default="10000",
    show_default=True,
    metavar="N",
    help="Games per trial, the same deals for every trial (split into --blocks blocks).",
)

blocks_option = whole_number_option(
    "--blocks",
    10,
    "B",
    "Blocks of deals per trial: the pruner compares a candidate with the best one block by "
    "block (a paired Wilcoxon test) and stops it early when it is clearly worse.",
)

verify_games_option = click.option(
    "--verify-games",
    "verify_games",
    default=None,
    metavar="N",
    help="Fresh games (never seen by the search) on which the best candidates and the defaults "
    "are played again (default: 4 x --games).",
)

top_option = whole_number_option(
    "--top", 3, "K", "Best candidates of the search to verify on fresh games."
)

save_option = click.option(
    "--save",
    "save",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE.toml",
    help="Write the winning rules as a variant file for `cardsim run --variant` and `cardsim diff`.",
)

study_option = click.option(
    "--study",
    "study",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="optuna journal file of the search (default: tune-GAME.journal here, removed when the "
    "tune ends; one given here is kept). Ctrl-C keeps the trials in it; --resume continues.",
)

tune_resume_option = click.option(
    "--resume",
    is_flag=True,
    default=False,
    help="Continue the interrupted tune in --study FILE (the same command otherwise): its "
    "trials are kept, the rest of --budget is played.",
)

screen_options_option = click.option(
    "--options",
    "option_names",
    default=None,
    metavar="A,B,C",
    shell_complete=complete.rules,
    help="The rule options to vary (default: every true/false, choice and integer option "
    "except the first player and the turn caps).",
)

levels_option = click.option(
    "--levels",
    "levels",
    multiple=True,
    metavar="KEY=A,B,...",
    shell_complete=complete.rules,
    help="The levels of an option in the screen (repeatable; adds the option if --options does "
    "not name it): scarecrows=0,10. Default: both values of true/false and two-choice options, "
    "every choice, four whole numbers around an integer option's default.",
)

design_option = click.option(
    "--design",
    "design",
    type=click.Choice(["auto", "pb", "fracfact", "morris"]),
    default="auto",
    show_default=True,
    help="pb: Plackett-Burman; fracfact: two-level fractional factorial; morris: the Morris "
    "method for options with several levels; auto: pb when every option has two levels.",
)

trajectories_option = whole_number_option(
    "--trajectories", 10, "R", "Morris trajectories (runs: R x (options + 1))."
)

two_level_option = click.option(
    "--two-level",
    "two_level",
    is_flag=True,
    default=False,
    help="Give each integer option only its lowest and highest level (for pb and fracfact).",
)

screen_games_option = click.option(
    "--games",
    "-n",
    "games",
    default="4000",
    show_default=True,
    metavar="N",
    help="Games per run of the design, the same deals in every run.",
)
