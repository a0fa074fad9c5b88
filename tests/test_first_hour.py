"""A new user's first hour: a fast `--help` and shell completion (no numba on their import path),
the compile notice of a first run, and what every ruleset record must give for it (bot names
without compiling, a counter glossary, outcome counters, its rules reference)."""

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from cardsim import feedback
from cardsim.cli import main
from cardsim.cli.main import cli
from cardsim.core import compiled, registry

REPO = Path(__file__).resolve().parents[1]
RULESETS = registry.available()


def _python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
        timeout=60,
    )


NO_NUMBA = "import sys; assert 'numba' not in sys.modules, sorted(m for m in sys.modules if 'numba' in m)[:3]"


def test_help_lists_every_command_without_loading_numba():
    code = (
        "from click.testing import CliRunner; from cardsim.cli.main import cli; "
        "r = CliRunner().invoke(cli, ['--help']); assert r.exit_code == 0; print(r.output); "
        + NO_NUMBA
    )
    out = _python(code).stdout
    for name, (_, short_help) in main.COMMANDS.items():
        assert f"{name} " in out and short_help in out


def test_the_help_table_says_what_each_command_says_of_itself():
    for name, (module, short_help) in main.COMMANDS.items():
        command = cli.get_command(None, name)
        assert command.name == name, module
        assert command.get_short_help_str(limit=200) == short_help


def _complete(words: str) -> list[str]:
    """Completions as bash gets them, in a fresh process that must not import numba."""
    code = (
        "import sys; from cardsim.cli.main import cli\n"
        "try:\n    cli(prog_name='cardsim')\nexcept SystemExit:\n    pass\n" + NO_NUMBA
    )
    parts = words.split(" ")
    out = _python(
        code,
        _CARDSIM_COMPLETE="bash_complete",
        COMP_WORDS=words,
        COMP_CWORD=str(len(parts) - 1),
    ).stdout
    return [line.split(",", 1)[1] if "," in line else line for line in out.splitlines()]


def test_completion_of_commands_games_bots_and_rules():
    assert "run" in _complete("cardsim r") and "report" in _complete("cardsim r")
    assert _complete("cardsim run fr") == ["fruit-picking"]
    assert _complete("cardsim run fruit-picking --bots pl") == ["planner"]
    assert _complete("cardsim compare fruit-picking --bots planner,gr") == ["planner,greedy"]
    assert "variant_umbrella=" in _complete("cardsim run fruit-picking --rules variant_")
    assert sorted(_complete("cardsim run fruit-picking --rules variant_umbrella=")) == [
        "variant_umbrella=false",
        "variant_umbrella=true",
    ]
    assert "lone_crows=" in _complete("cardsim sweep pajarracos --param lone")


def test_every_ruleset_loads_without_numba_and_names_its_engine_lazily():
    """A ruleset record names its engine, bots and replay as ``registry.lazy`` references (its
    bots wrapped with the search bot where the game has a determinizer):
    loading every ruleset (completion does) imports no numba; the references pickle as data."""
    import pickle

    _python(
        "from cardsim.core import registry; "
        "[registry.get(g) for g in registry.available()]; " + NO_NUMBA
    )
    for game in RULESETS:
        ruleset = registry.get(game)
        bots = ruleset.bots
        if isinstance(bots, registry.WithSearchBots):  # its own bots, lazily, then ismcts
            assert bots.ruleset == game
            bots = bots.inner
        for ref in (ruleset.kernels, bots, ruleset.replay):
            assert isinstance(ref, registry.Lazy) and ref.module.startswith("cardsim.games.")
            assert pickle.loads(pickle.dumps(ref)) == ref
    assert "greedy" in registry.get("fruit-picking").bots()  # the call imports the bots


@pytest.mark.parametrize("game", RULESETS)
def test_a_ruleset_names_its_bots_without_compiling_them(game):
    ruleset = registry.get(game)
    assert list(ruleset.bot_names) == list(ruleset.bots())


@pytest.mark.parametrize("game", RULESETS)
def test_every_counter_has_a_meaning_and_outcome_counters_are_seat_counters(game):
    ruleset = registry.get(game)
    for name in (*ruleset.seat_counters, *ruleset.game_counters):
        assert ruleset.counter_glossary.get(name, "").strip(), f"{name}: no glossary entry"
    assert set(ruleset.counter_glossary) <= {*ruleset.seat_counters, *ruleset.game_counters}
    assert set(ruleset.outcome_counters) <= set(ruleset.seat_counters)


@pytest.mark.parametrize("game", RULESETS)
def test_a_ruleset_points_to_its_rules_reference_in_the_repository(game):
    ruleset = registry.get(game)
    assert ruleset.rules_doc and (REPO / ruleset.rules_doc).is_file(), ruleset.rules_doc


# -- the compile notice ----------------------------------------------------------------------------


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty compile record (numba's own cache is untouched: nothing compiles for real)."""
    monkeypatch.setattr(compiled, "cache_dir", lambda: tmp_path)
    return tmp_path


def _run(*args):
    return CliRunner().invoke(cli, ["run", "fruit-picking", "-n", "20", "-p", "2", *args])


@pytest.fixture
def numba_compiles(monkeypatch):
    """numba compiles something while the run is built (its cache is warm here: the event it
    sends on a cache miss is sent by hand, from where the run's compile happens)."""
    from numba.core import event

    from cardsim.core import runner

    warm = runner.warm

    def compiling_warm(spec, notify=None):
        engine = SimpleNamespace(py_func=warm)  # a dispatcher of cardsim's code
        with event.trigger_event("numba:compile", data={"dispatcher": engine}):
            warm(spec, notify)

    monkeypatch.setattr(runner, "warm", compiling_warm)


def test_a_first_run_says_it_compiled_and_a_second_says_nothing(
    fresh_cache, numba_compiles, monkeypatch
):
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: False)
    clock = iter([100.0, 112.4])  # the compile takes 12.4 s
    monkeypatch.setattr(feedback, "perf_counter", lambda: next(clock))
    first = _run()
    assert first.exit_code == 0, first.output
    started, ended = first.stderr.splitlines()[:2]
    assert started == "compiling the Fruit Picking engine (first run only)…"
    assert ended == "compiled the Fruit Picking engine in 12 s"
    record = json.loads((fresh_cache / compiled.STAMP_NAME).read_text())
    assert record["seconds"]["fruit-picking"] == 12.4
    second = _run()
    assert second.exit_code == 0 and "compil" not in second.stderr
    assert "Throughput" in second.stdout  # the clock started after the compile, not before


def test_on_a_terminal_a_spinner_runs_and_an_error_erases_it(fresh_cache, monkeypatch):
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: True)
    shown = []

    class Live:  # rich's live display, as the calls it gets
        def stop(self):
            shown.append(("stopped", spinner.what))

    class Spinner(feedback._Spinner):
        def start(self):
            nonlocal spinner
            spinner = self
            shown.append(("start", self.what))
            self.progress = Live()

    spinner = None
    monkeypatch.setattr(feedback, "_Spinner", Spinner)
    bad = _run("--bots", "nobody")
    assert bad.exit_code == 2
    assert shown == [("start", "the Fruit Picking engine"), ("stopped", "the Fruit Picking engine")]
    assert bad.stderr.startswith("cardsim: error: unknown bot 'nobody'")
    assert len(bad.stderr.splitlines()) == 1  # the error is the one line
    clock = iter([100.0, 112.4])  # the compile takes 12.4 s
    monkeypatch.setattr(feedback, "perf_counter", lambda: next(clock))
    good = _run()
    assert good.exit_code == 0 and shown[-1] == ("stopped", "the Fruit Picking engine")
    assert good.stderr.startswith("compiled the Fruit Picking engine in 12 s")
    assert _run("-q").stderr == ""  # recorded: nothing to say any more


def test_in_a_log_a_mistake_found_before_the_compile_stays_one_line(fresh_cache, monkeypatch):
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: False)
    bad = _run("--bots", "nobody")
    assert bad.exit_code == 2 and len(bad.stderr.splitlines()) == 1
    assert bad.stderr.startswith("cardsim: error: unknown bot 'nobody'")


def test_a_compile_all_in_numbas_cache_says_nothing(fresh_cache, monkeypatch):
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: False)
    first = _run()  # no record of a compile, but numba's cache holds everything: no event
    assert first.exit_code == 0 and first.stderr == ""
    assert not compiled.compile_needed(registry.get("fruit-picking"), [], [])  # recorded


def test_the_spinner_is_rich_with_the_elapsed_time():
    spinner = feedback._Spinner("the Fruit Picking engine", "")
    spinner.start()
    try:
        columns = [type(c).__name__ for c in spinner.progress.columns]
        assert columns == ["SpinnerColumn", "TextColumn", "TimeElapsedColumn"]
        assert spinner.progress.console.stderr
    finally:
        spinner.failed()


def test_quiet_runs_still_say_when_they_compile(fresh_cache, numba_compiles, monkeypatch):
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: True)  # no spinner under -q
    monkeypatch.setattr(compiled, "expected_seconds", lambda ruleset: 12)
    lines = _run("-q").stderr.splitlines()
    assert lines[0] == "compiling the Fruit Picking engine (first run only, 12 s last time)…"
    assert lines[1].startswith("compiled the Fruit Picking engine in ")
    assert _run("-q").stderr == ""  # the quiet run's compile was recorded too


def test_the_compile_record_follows_the_sources_and_the_bot_files(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "cache_dir", lambda: tmp_path)
    ruleset = registry.get("fruit-picking")
    bots = tmp_path / "bots.py"
    bots.write_text("x = 1\n")
    assert compiled.compile_needed(ruleset, [bots])
    compiled.record(ruleset, [bots], 3.4)
    assert not compiled.compile_needed(ruleset, [bots])
    assert compiled.compile_needed(ruleset, [])  # other bots: another compile
    compiled.record(ruleset, [], 2.0, ["planner", "greedy"])  # the loop is per ruleset and bots
    assert not compiled.compile_needed(ruleset, [], ["greedy", "planner", "greedy"])
    assert compiled.compile_needed(ruleset, [], ["random"])
    compiled.record(ruleset, [], 2.0, [])  # no name: the default bots (greedy)
    assert not compiled.compile_needed(ruleset, [], ["greedy"])
    assert compiled.compile_needed(registry.get("pajarracos"), [bots])
    assert compiled.expected_seconds(ruleset) == 2  # the last compile's time
    bots.write_text("x = 2\n")  # the user edited their bots: they compile again
    assert compiled.compile_needed(ruleset, [bots])
    edited = tmp_path / "edited"  # an edited engine source: a new cache directory
    monkeypatch.setattr(compiled, "cache_dir", lambda: edited)
    assert compiled.compile_needed(ruleset, [], ["greedy"])


# -- one definition of a win, machine-readable summaries -----------------------------------------


def test_the_summary_the_report_and_the_api_count_a_win_the_same_way():
    """Pajarracos with 3 players shares wins often enough to tell the definitions apart."""
    import cardsim
    from cardsim.analysis.stats import seats
    from cardsim.analysis.stats.summary import RATE_COLUMNS

    args = ["run", "pajarracos", "-n", "400", "-p", "3", "-s", "3", "-q", "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    rates = [r for r in record["win_rates"] if r["group"] == "position"]
    assert list(rates[0]) == RATE_COLUMNS
    assert sum(r["shared_wins"] for r in rates) > 0  # the case where definitions differ
    table = seats.seat_win_rates(cardsim.simulate("pajarracos", 400, 3, seed=3).frame)
    by_position = table[table["kind"] == "position"]
    assert [r["wins"] for r in rates] == pytest.approx(by_position["wins"].tolist())
    assert [r["win_rate"] for r in rates] == pytest.approx(by_position["win_rate"].tolist())
    assert [r["shared_wins"] for r in rates] == by_position["shared_wins"].tolist()
    assert record["fair_rate"] == pytest.approx(by_position["fair_rate"].iloc[0])
    advantage = seats.first_player_advantage(cardsim.simulate("pajarracos", 400, 3, seed=3).frame)
    assert 100 * record["first_player_advantage"]["edge"] == pytest.approx(advantage.points)


def test_csv_summary_is_the_win_rate_table():
    import csv
    import io

    from cardsim.analysis.stats.summary import RATE_COLUMNS

    result = CliRunner().invoke(
        cli,
        [
            "run",
            "fruit-picking",
            "-n",
            "50",
            "-p",
            "3",
            "--bots",
            "greedy,random,planner",
            "--format",
            "csv",
        ],
    )
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == RATE_COLUMNS
    assert [r["group"] for r in rows] == ["position"] * 3 + ["seat"] * 3 + ["bot"] * 3
    assert sum(float(r["win_rate"]) for r in rows[:3]) == pytest.approx(1)


def test_no_progress_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: False)
    assert feedback.progress_bar(10).disable
    monkeypatch.setattr(feedback, "stderr_is_terminal", lambda: True)
    assert not feedback.progress_bar(10).disable
    assert feedback.progress_bar(10, quiet=True).disable


def test_cardsim_diff_prints_what_paired_diff_gives_for_the_same_runs():
    """Same default seed, same games, same Holm adjustment: the CLI and the API agree."""
    import cardsim
    from cardsim.analysis.stats.paired import COLUMNS, paired_diff

    variant = REPO / "analysis" / "variants" / "umbrella.toml"
    args = ["diff", "fruit-picking", "-p", "3", "-n", "300", "--variant", str(variant)]
    result = CliRunner().invoke(cli, [*args, "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)["metrics"]
    base = cardsim.simulate("fruit-picking", games=300, players=3)
    umbrella = cardsim.simulate(
        "fruit-picking", games=300, players=3, rules={"variant_umbrella": True}
    )
    table = paired_diff(base, umbrella)
    assert list(table.columns) == COLUMNS
    for mine, theirs in zip(table.to_dict("records"), printed, strict=True):
        assert (mine["key"], mine["metric"]) == (theirs["metric"], theirs["label"])
        for key, name in [("a", "a"), ("b", "b"), ("diff", "change")] + [
            (k, k) for k in ("ci_low", "ci_high", "p_value", "p_holm")
        ]:
            if theirs[name] is None:
                assert mine[key] != mine[key]  # NaN both ways
            else:
                assert mine[key] == pytest.approx(theirs[name], abs=1e-12), (mine["metric"], key)
    assert (table["p_holm"].dropna() >= table["p_value"].dropna()).all()


def test_compare_and_sweep_print_json_and_csv():
    import csv
    import io

    compare = ["compare", "fruit-picking", "--bots", "random,greedy", "-p", "2", "-n", "60"]
    record = json.loads(CliRunner().invoke(cli, [*compare, "--format", "json"]).stdout)
    assert [r["bot"] for r in record["win_rates"]] == ["random", "greedy"]
    assert record["rating"]["bots"][0]["bot"] in ("random", "greedy")
    rows = list(
        csv.DictReader(io.StringIO(CliRunner().invoke(cli, [*compare, "--format", "csv"]).stdout))
    )
    assert [r["bot"] for r in rows] == ["random", "greedy"]
    sweep = ["sweep", "fruit-picking", "-p", "2", "-n", "50", "--param", "seeds_per_player=14,18"]
    settings = json.loads(CliRunner().invoke(cli, [*sweep, "--format", "json"]).stdout)["settings"]
    assert [s["values"]["seeds_per_player"] for s in settings] == [14, 18]
    assert all(s["games"] == 50 for s in settings)


# -- the Python API in a notebook ----------------------------------------------------------------


def test_results_show_a_summary_not_a_frame():
    import cardsim
    from cardsim.analysis.stats import seats

    results = cardsim.simulate(
        "fruit-picking", games=300, players=3, bots="planner,greedy,greedy", seed=4
    )
    text = repr(results)
    assert text.startswith("Results: Fruit Picking (2014): 300 games, 3 players, seed 4")
    assert "planner, greedy, greedy" in text and "first-player advantage" in text
    assert len(text.splitlines()) < 15 and "game_0" not in text  # not the whole frame
    html = results._repr_html_()
    assert (
        html.startswith("<p><b>Fruit Picking (2014)")
        and "<table" in html
        and "1st (starts)" in html
    )
    tables = results.summary()
    assert set(tables) == {
        "win_rates",
        "first_player_advantage",
        "bots",
        "winners",
        "length",
        "end_reasons",
    }
    assert tables["win_rates"].equals(seats.seat_win_rates(results.frame))
    adv = tables["first_player_advantage"].iloc[0]
    assert 100 * adv["edge"] == pytest.approx(seats.first_player_advantage(results.frame).points)
    assert f"{100 * adv['edge']:+.2f} points" in text


# -- bot parameters without editing the bot file -------------------------------------------------


def test_bot_param_changes_a_bots_parameters_in_the_cli_and_the_api():
    import cardsim

    names = registry.get("fruit-picking").bots()["planner"].param_names
    key = names[0]
    args = ["run", "fruit-picking", "-n", "200", "-p", "2", "-b", "planner,greedy", "-q"]
    plain = CliRunner().invoke(cli, [*args, "--format", "json"])
    changed = CliRunner().invoke(
        cli, [*args, "--bot-param", f"planner.{key}=0", "--format", "json"]
    )
    assert plain.exit_code == 0 and changed.exit_code == 0, changed.output
    assert json.loads(plain.stdout)["win_rates"] != json.loads(changed.stdout)["win_rates"]
    api = cardsim.simulate(
        "fruit-picking", 200, 2, bots="planner,greedy", bot_params={"planner": {key: 0}}
    )
    assert api.metadata["bot_params"]["planner"][0] == 0.0
    assert api.summary()["win_rates"]["wins"].tolist() == [
        r["wins"] for r in json.loads(changed.stdout)["win_rates"] if r["group"] != "bot"
    ]


@pytest.mark.parametrize(
    "param, fragment",
    [
        ("planner.nothing=1", "planner has no parameter 'nothing'"),
        ("random.p0=1", "random has no parameter 'p0'"),
        ("planner.money=lots", "'lots' is not a number"),
        ("greedyy.p0=1", "names bot 'greedyy', which is not seated"),
        ("planner=1", "expects NAME.KEY=VALUE"),
    ],
)
def test_a_bad_bot_param_is_a_one_line_error(param, fragment):
    args = ["run", "fruit-picking", "-n", "10", "-p", "2", "-b", "planner,random"]
    result = CliRunner().invoke(cli, [*args, "--bot-param", param])
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr and result.stderr.count("\n") == 1


# -- --out is data, --report a report directory, and neither overwrites without --force ------------


def test_nothing_is_overwritten_without_force(tmp_path):
    def invoke(*args):
        return CliRunner().invoke(cli, [str(a) for a in args])

    data, report = tmp_path / "games", tmp_path / "report"
    run = ["run", "fruit-picking", "-n", "40", "-p", "2", "-q"]
    assert invoke(*run, "--out", data, "--report", report).exit_code == 0
    again = invoke(*run, "--out", data, "--force")  # a dataset is never overwritten
    assert again.exit_code == 2 and "already holds a results dataset" in again.stderr
    refused = invoke(*run, "--report", report)
    assert refused.exit_code == 2 and "already holds a report" in refused.stderr
    assert "--force" in refused.stderr
    assert invoke(*run, "--report", report, "--force").exit_code == 0
    assert invoke("report", data, "--report", report).exit_code == 2
    assert invoke("report", data, "--report", report, "--force").exit_code == 0
    sweep = ["sweep", "fruit-picking", "-p", "2", "-n", "20", "--param", "seeds_per_player=14,18"]
    assert invoke(*sweep, "--out", tmp_path / "grid", "-q").exit_code == 0
    assert invoke(*sweep, "--out", tmp_path / "grid", "-q").exit_code == 2
    assert invoke(*sweep, "--out", tmp_path / "grid", "-q", "--force").exit_code == 2  # games
    diff = ["diff", "fruit-picking", "-p", "2", "-n", "20", "--variant"]
    diff.append(REPO / "analysis" / "variants" / "umbrella.toml")
    assert invoke(*diff, "--report", report).exit_code == 2
    compare = ["compare", "fruit-picking", "--bots", "random,greedy", "-p", "2", "-n", "20"]
    assert invoke(*compare, "--report", report, "-q").exit_code == 2


@pytest.mark.parametrize("game", RULESETS)
def test_every_rule_id_a_rule_option_cites_is_defined_in_the_rules_reference(game):
    """`cardsim rules` and reports show [R12]/[A2]/[V1] tags: each must lead to its definition."""
    import re

    ruleset = registry.get(game)
    doc = (REPO / ruleset.rules_doc).read_text()
    cited = {
        token.strip()
        for option in ruleset.options
        for token in option.refers.split(",")
        if re.fullmatch(r"[A-Z]\d+", token.strip())
    }
    assert cited
    for tag in sorted(cited):
        defined = re.search(rf"^(- )?\*\*{tag}\.|^\| {tag} \||^#+ {tag}\b", doc, flags=re.MULTILINE)
        assert defined, f"{tag} is cited by a rule option of {game} but not defined in the doc"


@pytest.mark.parametrize(
    "args",
    [
        ["run", "fruit-picking", "-n", "5"],
        ["replay", "fruit-picking", "--game", "0"],
        ["compare", "fruit-picking", "--bots", "random,greedy", "-p", "2", "-n", "5"],
        ["sweep", "fruit-picking", "-n", "5", "--param", "seeds_per_player=14,18"],
        ["diff", "fruit-picking", "-n", "5", "--variant", "analysis/variants/umbrella.toml"],
    ],
    ids=lambda args: args[0],
)
def test_the_compile_notice_comes_before_numba_is_loaded(args):
    """A first run must say what it does within a second: nothing heavy before the notice."""
    code = f"""
import sys
from click.testing import CliRunner
from cardsim.core import compiled

class Asked(Exception):
    pass

def asked(*args, **kwargs):
    raise Asked("numba" in sys.modules)

compiled.compile_needed = asked
from cardsim.cli.main import cli
result = CliRunner().invoke(cli, {args!r})
assert isinstance(result.exception, Asked), (result.output, result.exception)
assert result.exception.args == (False,), "numba was loaded before the compile notice"
"""
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, timeout=60)
