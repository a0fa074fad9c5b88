"""Variant files: loading, checking against the ruleset, --rules on top, stored with the run, and
one-line errors (exit code 2) for every kind of bad file."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.cli.specs import spec_from_options
from cardsim.core import dataset as io
from cardsim.core import registry
from cardsim.core.variants import load_variant

GAME = "fruit-picking"
VARIANTS = Path(__file__).resolve().parents[1] / "analysis" / "variants"


def write(tmp_path, text, name="v.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, (result.output, result.exception)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: "), err
    for fragment in fragments:
        assert fragment in err, err


def test_loads_values_with_toml_types_and_command_line_text(tmp_path):
    path = write(
        tmp_path,
        'name = "Mine"\ngame = "fruit-picking"\ndescription = "d"\n[rules]\n'
        'variant_umbrella = true\nmarket_slots = 5\nsetup_seeds = [3, 1]\nfirst_player = "1"\n'
        'farm-order = "rain,pineapple,grapes,cherry,banana,strawberry"\n',
    )
    variant = load_variant(path, registry.get(GAME))
    assert variant.name == "Mine" and variant.description == "d"
    assert variant.rules == {
        "variant_umbrella": True,
        "market_slots": 5,
        "setup_seeds": (3, 1),
        "first_player": 1,
        "farm_order": ("rain", "pineapple", "grapes", "cherry", "banana", "strawberry"),
    }


def test_every_shipped_variant_file_loads():
    """Every file in analysis/variants/ names its game and loads against that ruleset."""
    import tomllib

    files = sorted(VARIANTS.glob("*.toml"))
    assert len(files) >= 3
    games = set()
    for path in files:
        game = tomllib.loads(path.read_text())["game"]
        games.add(game)
        assert load_variant(path, registry.get(game)).name
    assert {GAME, "pajarracos"} <= games


def test_rules_win_over_the_file_and_the_variant_is_in_the_metadata(tmp_path):
    path = write(tmp_path, 'name = "B"\n[rules]\nvariant_beginners = true\nmarket_slots = 2\n')
    spec = spec_from_options(GAME, 10, 2, "greedy", (), 0, ["market_slots=5"], path)
    assert spec.rules["variant_beginners"] is True and spec.rules["market_slots"] == 5
    meta = spec.metadata()["variant"]
    assert meta["name"] == "B" and meta["file"] == path
    assert meta["rules"] == {"variant_beginners": True, "market_slots": 2}


def test_a_variant_run_equals_the_same_rules_given_with_rules(tmp_path):
    path = write(tmp_path, 'name = "U"\n[rules]\nvariant_umbrella = true\n')
    out_a, out_b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    common = [GAME, "-n", 300, "-p", 3, "-q"]
    assert invoke("run", *common, "--variant", path, "-o", out_a).exit_code == 0
    assert invoke("run", *common, "-r", "variant_umbrella=true", "-o", out_b).exit_code == 0
    games_a, meta_a = io.read_results(out_a, compact=False)
    games_b, meta_b = io.read_results(out_b, compact=False)
    assert games_a.equals(games_b)
    assert meta_a["variant"]["name"] == "U" and "variant" not in meta_b
    assert meta_a["rules"] == meta_b["rules"]


def test_run_summary_names_the_variant():
    result = invoke("run", GAME, "-n", 50, "-q", "--variant", VARIANTS / "beginners.toml")
    assert result.exit_code == 0, result.output
    assert "variant: Beginners (" in result.stdout
    assert "rules: variant_beginners=true" in result.stdout


def test_replay_takes_a_variant():
    path = VARIANTS / "beginners.toml"
    with_file = invoke("replay", GAME, "--game", 3, "--variant", path)
    with_rules = invoke("replay", GAME, "--game", 3, "-r", "variant_beginners=true")
    assert with_file.exit_code == 0, with_file.output
    assert with_file.stdout == with_rules.stdout


@pytest.mark.parametrize(
    "text, fragments",
    [
        ('name = "x"\n[rules\n', ["malformed TOML"]),
        ('name = "x"\n[rules]\nvariant_umbrela = true\n', ["variant_umbrela", "variant_umbrella"]),
        ('name = "x"\n[rules]\nmarket_slots = 99\n', ["market_slots", "99"]),
        ('name = "x"\n[rules]\nvariant_umbrella = "maybe"\n', ["variant_umbrella", "maybe"]),
        ('name = "x"\ngame = "chess"\n', ["unknown game 'chess'"]),
        ('name = "x"\nrule = 3\n', ["unknown key 'rule'", "did you mean rules"]),
        ('game = "fruit-picking"\n', ["needs a name"]),
        ('name = "x"\nrules = 3\n', ["rules must be a table"]),
    ],
)
def test_bad_variant_files_are_one_line_errors_naming_the_file(tmp_path, text, fragments):
    path = write(tmp_path, text)
    result = invoke("run", GAME, "-n", 10, "--variant", path)
    assert_one_line_error(result, f"variant file {path!r}", *fragments)


def test_missing_variant_file():
    assert_one_line_error(
        invoke("run", GAME, "-n", 10, "--variant", "no/such.toml"),
        "variant file 'no/such.toml' does not exist",
    )


def test_a_variant_of_another_game_is_refused(tmp_path, monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "toy-race", "tests.toy.race:RULESET")
    path = write(tmp_path, 'name = "x"\ngame = "toy-race"\n')
    assert_one_line_error(
        invoke("run", GAME, "-n", 10, "--variant", path),
        f"variant file {path!r}: is a variant of toy-race, not of fruit-picking",
    )
    assert load_variant(path, registry.get("toy-race")).game == "toy-race"
