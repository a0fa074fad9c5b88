"""``cardsim diff``: two variants on the same games; identical variants change nothing, a planted
rule effect is found, one-line errors, report."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim import experiments
from cardsim.analysis.experiments import variant_diff as D
from cardsim.analysis.stats.paired import paired_diff
from cardsim.cli.main import cli

GAME = "fruit-picking"
VARIANTS = Path(__file__).resolve().parents[1] / "analysis" / "variants"


def invoke(*args, columns=120):
    """The command's result, laid out for a terminal of ``columns`` columns."""
    return CliRunner().invoke(cli, [str(a) for a in args], env={"COLUMNS": str(columns)})


def write(tmp_path, name, rules):
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\n[rules]\n' + "".join(f"{k} = {v}\n" for k, v in rules))
    return str(path)


def play_pair(settings, games=600, players=3, seed=5):
    specs = experiments.rule_specs(GAME, games, players, ["greedy"], settings, seed)
    return experiments.play_on_common_games(specs)


def test_identical_rule_sets_change_nothing():
    a, b = play_pair([{"variant_umbrella": True}, {"variant_umbrella": True}])
    table = paired_diff(a, b)
    assert (table["diff"] == 0).all()
    assert (table["ci_low"] == 0).all() and (table["ci_high"] == 0).all()
    assert (table["p_value"] == 1).all()
    assert D.verdicts(table, "A", "B") == [
        "No detectable change between A and B in any metric (Holm-adjusted p >= 0.05 for all)."
    ]


def test_a_planted_effect_is_detected():
    """Seat 0 always starting (first_player=0) hands seat 0 the first player's edge: its win rate
    goes up by about the first-player advantage; the starter's own rate does not change much."""
    a, b = play_pair([{}, {"first_player": 0}], games=1500)
    table = paired_diff(a, b).set_index("metric")
    seat0 = table.loc["win rate seat 0"]
    assert seat0["ci_low"] > 0.04  # about +10 points in three-player Fruit Picking
    assert table.loc["game length (turns)", "p_value"] > 0.001  # length does not move
    lines = D.verdicts(paired_diff(a, b), "random start", "seat 0 starts")
    assert any(line.startswith("seat 0 starts changes win rate seat 0 by +") for line in lines)


def test_holm_adjusts_upwards_and_keeps_missing_values():
    table = pd.DataFrame({"p_value": [0.01, 0.04, np.nan, 0.03]})
    adjusted = D.holm(table)
    assert np.isnan(adjusted[2])
    assert (adjusted.drop(2) >= table["p_value"].drop(2)).all()
    assert adjusted[0] == pytest.approx(0.03)


def test_diff_command_prints_table_and_verdicts_and_writes_a_report(tmp_path):
    result = invoke(
        "diff",
        GAME,
        "--variant",
        VARIANTS / "standard.toml",
        "--variant",
        VARIANTS / "beginners.toml",
        "-n",
        400,
        "-p",
        2,
        "--report",
        tmp_path / "rep",
    )
    assert result.exit_code == 0, (result.output, result.exception)
    out = result.stdout
    assert "Standard vs Beginners, 400 games each (the same games), 2 players" in out
    for metric in (
        "win rate 1st (starts)",
        "first-player advantage",
        "game length (turns)",
        "score spread",
        "winning margin",
    ):
        assert metric in out
    assert "Beginners changes game length (turns) by -" in out
    html = (tmp_path / "rep" / "report.html").read_text()
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Change of every metric" in html and "data:image/png;base64," in html
    assert "## Change of every metric" in md and "Beginners" in md


def test_one_variant_is_compared_with_the_base_rules_and_rules_apply_to_both(tmp_path):
    umbrella = write(tmp_path, "Umbrella", [("variant_umbrella", "true")])
    result = invoke("diff", GAME, "--variant", umbrella, "-n", 200, "-r", "market_slots=5", "-q")
    assert result.exit_code == 0, result.output
    assert "base rules vs Umbrella" in result.stdout


def test_identical_files_get_distinct_names(tmp_path):
    same = write(tmp_path, "Same", [("variant_umbrella", "true")])
    result = invoke("diff", GAME, "--variant", same, "--variant", same, "-n", 100, "-q")
    assert result.exit_code == 0, result.output
    assert "Same (first) vs Same (second)" in result.stdout
    assert "No detectable change" in result.stdout


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--variant", "a.toml", "--variant", "b.toml", "--variant", "c.toml"], "two variants"),
        (["--variant", "missing.toml"], "variant file 'missing.toml' does not exist"),
        (["--variant", str(VARIANTS / "umbrella.toml"), "-r", "nope=1"], "unknown rule option"),
        ([], "Missing option '--variant'"),
    ],
)
def test_diff_errors_are_one_line(extra, fragment):
    result = invoke("diff", GAME, "-n", 10, *extra)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: ") and fragment in err, err
