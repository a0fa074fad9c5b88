"""Sweeps: parsing --param, the grid, one row per grid point, the same games as separate runs,
charts and report, and one-line errors before anything runs."""

import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim.analysis.experiments import sweep as S
from cardsim.analysis.results import Results
from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core import registry
from cardsim.core.errors import CardsimError

GAME = "fruit-picking"
OPTIONS = registry.get(GAME).options


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_parse_params_values_ranges_and_list_options():
    params = S.parse_params(
        OPTIONS,
        ["market_slots=3..5", "variant-umbrella=false,true", "setup_seeds=2,2,2;3,3"],
        GAME,
    )
    assert [p.name for p in params] == ["market_slots", "variant_umbrella", "setup_seeds"]
    assert params[0].values == (3, 4, 5)
    assert params[1].values == (False, True) and params[1].labels == ("false", "true")
    assert params[2].values == ((2, 2, 2), (3, 3)) and params[2].labels == ("2,2,2", "3,3")


def test_grid_is_every_combination_first_param_slowest():
    params = S.parse_params(OPTIONS, ["market_slots=3,4", "no_seed_refill=1,2,3"], GAME)
    points = S.grid(params)
    assert len(points) == 6
    assert points[:3] == [
        {"market_slots": 3, "no_seed_refill": 1},
        {"market_slots": 3, "no_seed_refill": 2},
        {"market_slots": 3, "no_seed_refill": 3},
    ]


@pytest.mark.parametrize(
    "texts, fragment",
    [
        (["market_slot=3,4"], "did you mean market_slots"),
        (["market_slots=3,99"], "market_slots: '99' is not allowed"),
        (["market_slots"], "--param expects key=v1,v2"),
        (["market_slots=3..x"], "not a range"),
        (["market_slots=3", "market_slots=4"], "given twice"),
        (["market_slots=3,3"], "repeats a value"),
        (["market_slots="], "has no values"),
        ([], "at least one --param"),
    ],
)
def test_bad_params(texts, fragment):
    with pytest.raises(CardsimError, match=fragment):
        S.parse_params(OPTIONS, texts, GAME)


def test_sweep_one_row_per_grid_point_and_the_same_games_as_separate_runs(tmp_path):
    out = tmp_path / "games"
    result = invoke(
        "sweep",
        GAME,
        "--param",
        "market_slots=3,5",
        "--param",
        "variant_umbrella=false,true",
        "-n",
        400,
        "-p",
        3,
        "--seed",
        9,
        "--out",
        out,
        "--report",
        tmp_path / "rep",
        "-r",
        "no_seed_refill=2",
    )
    assert result.exit_code == 0, (result.output, result.exception)
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("market_slots"))
    rows = lines[header + 2 : header + 6]  # under the header and its rule
    assert [r.split()[:3] for r in rows] == [
        ["3", "false", "400"],
        ["3", "true", "400"],
        ["5", "false", "400"],
        ["5", "true", "400"],
    ]
    files = sorted(out.glob("*.parquet"))
    assert [f.name for f in files] == [
        "00-market_slots-3_variant_umbrella-false.parquet",
        "01-market_slots-3_variant_umbrella-true.parquet",
        "02-market_slots-5_variant_umbrella-false.parquet",
        "03-market_slots-5_variant_umbrella-true.parquet",
    ]
    saved = Results.load(files[3])
    assert saved.metadata["sweep"] == {"market_slots": "5", "variant_umbrella": "true"}
    assert saved.metadata["rules"]["no_seed_refill"] == 2
    separate = tmp_path / "separate.parquet"
    run = invoke(
        "run",
        GAME,
        "-n",
        400,
        "-p",
        3,
        "--seed",
        9,
        "-r",
        "market_slots=5",
        "-r",
        "variant_umbrella=true",
        "-r",
        "no_seed_refill=2",
        "-o",
        separate,
        "-q",
    )
    assert run.exit_code == 0, run.output
    games, _ = io.read_results(separate)
    pd.testing.assert_frame_equal(saved.frame, games)
    # the sweep's figures are those of that run
    row = S.setting_row({"market_slots": 5, "variant_umbrella": True}, games)
    assert f"{row['first_player_points']:+.2f} [{row['fpa_low']:+.2f}" in rows[3]
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Balance by setting" in html and "data:image/png;base64," in html
    assert "Closest to fair:" in html


def test_setting_row_columns():
    import cardsim

    frame = cardsim.simulate(GAME, 300, 2, seed=1).frame
    row = S.setting_row({"market_slots": 4}, frame)
    assert row["market_slots"] == "4" and row["games"] == 300
    assert row["win 1st"] + row["win 2nd"] == pytest.approx(1.0)
    assert row["fpa_low"] < row["first_player_points"] < row["fpa_high"]
    assert sum(v for k, v in row.items() if k.startswith("ends: ")) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--param", "market_slot=3,4"], "did you mean market_slots"),
        (["--param", "first_player=0,3", "-p", 3], "seat 3 does not exist"),
        (["--param", "market_slots=3,4", "-r", "bogus=1"], "unknown rule option 'bogus'"),
        (["--param", "market_slots=3,4", "-n", "lots"], "--games"),
    ],
)
def test_sweep_errors_are_one_line_and_come_before_any_game(args, fragment, tmp_path):
    out = tmp_path / "games"
    result = invoke("sweep", GAME, "--out", out, *args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: ") and fragment in err, err
    assert not out.exists()  # nothing was written: the check came first


def test_one_and_three_parameter_charts():
    from cardsim.charts import sweep as charts
    from cardsim.charts.render import png

    table = pd.DataFrame(
        {
            "a": ["1", "2"],
            "b": ["x", "x"],
            "c": ["true", "true"],
            "games": [10, 10],
            "win 1st": [0.6, 0.55],
            "win 2nd": [0.4, 0.45],
            "first_player_points": [10.0, 5.0],
            "fpa_low": [5.0, 0.0],
            "fpa_high": [15.0, 10.0],
            "mean_turns": [20.0, 21.0],
            "mean_turns_low": [19.0, 20.0],
            "mean_turns_high": [21.0, 22.0],
        }
    )
    assert png(charts.one_parameter(table, "a", 0.5)).startswith(b"\x89PNG")
    assert png(charts.grid_points(table, ["a", "b", "c"])).startswith(b"\x89PNG")
