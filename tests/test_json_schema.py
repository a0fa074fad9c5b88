"""Every command's ``--format json`` document against its JSON Schema (``cardsim/schemas``), and
the promises of docs/json.md the schemas cannot state: one ``schema`` key naming the document,
rates as fractions of 1 in every command, swept values with their types."""

import json
import tomllib
from pathlib import Path

import click
import jsonschema
import pytest
from click.testing import CliRunner

from cardsim.cli import main
from cardsim.cli.main import cli
from cardsim.cli.output import SCHEMA_VERSIONS, schema_name, schema_path

REPO = Path(__file__).resolve().parents[1]
GAME = "fruit-picking"  # the quickest engine to compile
SMALL = ["-p", "2", "-q"]
UMBRELLA = str(REPO / "analysis" / "variants" / "umbrella.toml")

# command -> its arguments; ``{run}`` is a saved run of 60 games, ``{tmp}`` a fresh directory
INVOCATIONS = {
    "games": ["games"],
    "bots": ["bots", GAME],
    "rules": ["rules", GAME],
    "counters": ["counters", GAME],
    "cache": ["cache", "list"],
    "power": ["power", "--edge", "0.02"],
    "run": ["run", GAME, "-n", "60", "--bots", "greedy,random", *SMALL],
    "replay": ["replay", GAME, "--game", "2", "-p", "2"],
    "report": ["report", "{run}", "--report", "{tmp}/report"],
    "compare": ["compare", GAME, "--bots", "random,greedy", "-n", "20", *SMALL],
    "ladder": ["ladder", GAME, "--levels", "random,greedy", "-n", "20", *SMALL],
    "sweep": ["sweep", GAME, "--param", "seeds_per_player=14,18", "-n", "60", *SMALL],
    "diff": ["diff", GAME, "--variant", UMBRELLA, "-n", "40", *SMALL],
    "tune": ["tune", GAME, "--param", "market_slots=1..6", "--budget", "3", "--games", "300",
             "--blocks", "2", "--study", "{tmp}/s.journal", *SMALL],
    "screen": ["screen", GAME, "--options", "variant_umbrella,no_seed_rule,tiebreak_fruits",
               "-n", "300", *SMALL],
}  # fmt: skip


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("json") / "run"
    result = CliRunner().invoke(cli, ["run", GAME, "-n", "60", *SMALL, "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


def schema(command: str) -> dict:
    return json.loads(schema_path(command).read_text())


def document(command: str, saved_run: Path, tmp_path: Path, extra=()) -> dict:
    args = [a.format(run=saved_run, tmp=tmp_path) for a in INVOCATIONS[command]]
    result = CliRunner().invoke(cli, [*args, *extra, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("command", sorted(INVOCATIONS))
def test_the_json_of_every_command_is_valid_against_its_schema(command, saved_run, tmp_path):
    doc = document(command, saved_run, tmp_path)
    assert next(iter(doc)) == "schema" and doc["schema"] == schema_name(command)
    jsonschema.validate(doc, schema(command), cls=jsonschema.Draft202012Validator)


def test_a_run_stopped_by_its_interval_is_valid_too(tmp_path):
    args = ["run", GAME, "-n", "3000", "--until-ci", "0.1", *SMALL, "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["until_ci"]["width"] == 0.1 and doc["until_ci"]["reached"]
    jsonschema.validate(doc, schema("run"), cls=jsonschema.Draft202012Validator)


def test_a_document_that_breaks_its_promise_is_refused():
    """The schemas are strict enough to catch the old shapes: a rate in points, a label as key."""
    good = {"schema": "cardsim.power/1", "edge": 0.02, "alpha": 0.05, "power": 0.8}
    row = {"players": 2, "edge": 0.02, "fair_rate": 0.5, "alpha": 0.05, "power": 0.8}
    row |= {"games_to_detect": 100, "games_for_interval": 200}
    jsonschema.validate({**good, "by_players": [row]}, schema("power"))
    for bad in ({**row, "edge": 2.0}, {**row, "fair_rate": 50}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**good, "by_players": [bad]}, schema("power"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {**good, "schema": "cardsim.power/2", "by_players": []}, schema("power")
        )


def _json_commands() -> list[str]:
    """Every command (and subcommand) that offers ``--format json``."""
    found = []

    def visit(name: str, command: click.Command) -> None:
        for param in command.params:
            if param.name == "fmt" and "json" in getattr(param.type, "choices", ()):
                found.append(name)
        for sub in getattr(command, "commands", {}).values():
            visit(name, sub)  # ``cache list`` prints the ``cache`` document

    for name in main.COMMANDS:
        visit(name, cli.get_command(None, name))
    return sorted(set(found))


def test_every_command_with_json_has_a_schema_a_version_and_a_case_here():
    """A new command (ladder, tune, screen...) that offers --format json fails here until it has
    its line in SCHEMA_VERSIONS, its schema file and its invocation above (docs/json.md)."""
    commands = _json_commands()
    assert {"run", "replay", "report", "sweep", "diff", "compare"} <= set(commands)
    assert commands == sorted(SCHEMA_VERSIONS) == sorted(INVOCATIONS)
    shipped = sorted(p.name for p in (REPO / "cardsim" / "schemas").glob("*.schema.json"))
    assert shipped == sorted(f"{c}.schema.json" for c in commands)
    for command in commands:
        checked = schema(command)
        jsonschema.Draft202012Validator.check_schema(checked)
        assert checked["properties"]["schema"] == {"const": schema_name(command)}


def test_the_schemas_are_package_data():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "*.schema.json" in config["tool"]["setuptools"]["package-data"]["cardsim.schemas"]


def test_rates_are_fractions_of_one_in_run_and_sweep_alike(saved_run, tmp_path):
    """The same 60 games (seed 0, game indices 0..59) give the same first-player edge in
    `run` and in the default-valued setting of `sweep`, as a fraction, not in points."""
    run = document("run", saved_run, tmp_path, ["--bots", "greedy"])
    sweep = document("sweep", saved_run, tmp_path)
    default = next(s for s in sweep["settings"] if s["values"]["seeds_per_player"] == 18)
    adv = run["first_player_advantage"]
    assert adv["edge"] == pytest.approx(adv["rate"] - adv["fair_rate"])
    assert default["first_player_advantage"] == pytest.approx(adv)
    assert -1 <= adv["edge"] <= 1 and adv["ci_low"] <= adv["edge"] <= adv["ci_high"]
    firsts = [r for r in run["win_rates"] if r["group"] == "position"]
    assert [r["win_rate"] for r in default["win_rates"]] == pytest.approx(
        [r["win_rate"] for r in firsts]
    )


def test_a_swept_value_keeps_its_type(saved_run, tmp_path):
    doc = document("sweep", saved_run, tmp_path)
    assert doc["params"] == [{"name": "seeds_per_player", "values": [14, 18]}]
    assert [s["values"] for s in doc["settings"]] == [
        {"seeds_per_player": 14},
        {"seeds_per_player": 18},
    ]
    lists = ["--param", "setup_seeds=2,2,2;3,3,3"]
    args = ["sweep", GAME, *lists, "-n", "10", *SMALL, "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    settings = json.loads(result.stdout)["settings"]
    assert [s["values"]["setup_seeds"] for s in settings] == [[2, 2, 2], [3, 3, 3]]


def test_diff_names_its_metrics_in_snake_case_with_their_units(saved_run, tmp_path):
    metrics = {m["metric"]: m for m in document("diff", saved_run, tmp_path)["metrics"]}
    assert {"win_rate_position_0", "win_rate_seat_1", "first_player_edge", "length_turns"} <= set(
        metrics
    )
    assert metrics["first_player_edge"]["label"] == "first-player advantage"
    assert metrics["win_rate_position_0"]["unit"] == "fraction"
    assert metrics["length_turns"]["unit"] == "turns"
    assert metrics["score_spread"]["unit"] == "score"
    edge = metrics["first_player_edge"]
    assert edge["change"] == pytest.approx(edge["b"] - edge["a"])


def test_replay_json_holds_the_lines_the_text_prints():
    args = INVOCATIONS["replay"]
    text = CliRunner().invoke(cli, args)
    doc = json.loads(CliRunner().invoke(cli, [*args, "--format", "json"]).stdout)
    assert text.exit_code == 0 and doc["lines"] == text.stdout.splitlines()
    assert doc["game_index"] == 2 and doc["players"] == 2


def test_report_json_names_the_files_it_wrote(saved_run, tmp_path):
    doc = document("report", saved_run, tmp_path)
    assert Path(doc["html"]).is_file() and Path(doc["markdown"]).is_file()
    assert all((Path(doc["html"]).parent / f).is_file() for f in doc["figures"])
    assert doc["games"] == 60 and doc["verdicts"]
