"""``cardsim diff`` and ``cardsim compare`` stream: their runs are played block by block
(``experiments.play_blocks``) and counted as they come (``PairedStats``, ``CompareStats``); the
tables equal the in-memory ``paired_diff`` and ``compare`` of the whole runs, whatever the block
size; a rating whose deals exceed the sample says so; the text fits 80 columns."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim import experiments
from cardsim.analysis.experiments import compare as C
from cardsim.analysis.stats.paired import PairedStats, paired_diff
from cardsim.cli.main import cli

VARIANTS = Path(__file__).resolve().parents[1] / "analysis" / "variants"
BLOCKS = [97, 250, 10**6]


@pytest.fixture(scope="module")
def variant_specs():
    """A turn cap low enough that some games hit it in one run and not the other."""
    settings = [{"turn_cap": 40}, {"turn_cap": 40, "variant_umbrella": True}]
    return experiments.rule_specs("fruit-picking", 500, 3, ["greedy"], settings, seed=4)


@pytest.fixture(scope="module")
def comparison_specs():
    names = ["random", "greedy", "planner"]
    seating = C.seatings(names, 3)
    specs = experiments.seating_specs("fruit-picking", 150, 3, names, seating, {"turn_cap": 30}, 8)
    return names, seating, specs


@pytest.mark.parametrize("block", BLOCKS)
def test_the_streamed_paired_table_is_paired_diff(variant_specs, block):
    a, b = experiments.play_on_common_games(variant_specs)
    assert a.frame["turn_cap_hit"].any() or b.frame["turn_cap_hit"].any()
    stats = PairedStats()
    for fa, fb in experiments.play_blocks(variant_specs, block=block):
        assert len(fa) <= block
        stats.add(fa, fb)
    pd.testing.assert_frame_equal(stats.table(), paired_diff(a, b), rtol=1e-9, atol=1e-12)


def test_identical_runs_stream_to_exactly_nothing(variant_specs):
    same = [variant_specs[0], variant_specs[0]]
    stats = PairedStats()
    for fa, fb in experiments.play_blocks(same, block=120):
        stats.add(fa, fb)
    table = stats.table()
    assert (table["diff"] == 0).all() and (table["ci_low"] == 0).all()
    assert (table["p_value"] == 1).all()


@pytest.mark.parametrize("block", [40, 10**6])
def test_the_streamed_comparison_is_compare(comparison_specs, block):
    names, seating, specs = comparison_specs
    runs = experiments.play_on_common_games(specs)
    whole = C.compare([r.frame for r in runs], names, seating, 8, "Fruit Picking")
    assert whole.turn_cap_games > 0
    stats = C.CompareStats(names, seating, 8, "Fruit Picking")
    for frames in experiments.play_blocks(specs, block=block):
        stats.add(frames)
    streamed = stats.comparison()
    assert (streamed.deals, streamed.games, streamed.turn_cap_games) == (
        whole.deals,
        whole.games,
        whole.turn_cap_games,
    )
    pd.testing.assert_frame_equal(streamed.win_rates, whole.win_rates, rtol=1e-9)
    pd.testing.assert_frame_equal(streamed.pairs, whole.pairs, rtol=1e-9)
    pd.testing.assert_frame_equal(streamed.rating.table(), whole.rating.table(), rtol=1e-8)
    pd.testing.assert_frame_equal(
        streamed.rating.position_table(), whole.rating.position_table(), rtol=1e-8, atol=1e-12
    )
    assert streamed.skill_depth == whole.skill_depth
    assert streamed.rating_note == ""


def test_a_rating_beyond_the_deal_sample_keeps_its_strengths_and_says_so(comparison_specs):
    names, seating, specs = comparison_specs
    runs = experiments.play_on_common_games(specs)
    whole = C.compare([r.frame for r in runs], names, seating, 8, "Fruit Picking")
    stats = C.CompareStats(names, seating, 8, "Fruit Picking", max_rating_deals=60)
    for frames in experiments.play_blocks(specs, block=50):
        stats.add(frames)
    sampled = stats.comparison()
    assert sampled.rating.strength == pytest.approx(whole.rating.strength, abs=1e-9)
    # standard errors from 60 of the 150 deals: the same size, not the same value
    ratio = sampled.rating.strength_se / whole.rating.strength_se
    assert ((ratio > 0.6) & (ratio < 1.6)).all(), ratio
    assert "sample of 60 of the 150 deals" in sampled.rating_note
    assert sampled.rating_note in " ".join(C.format_comparison(sampled).split())
    assert C.comparison_record(sampled)["rating_note"] == sampled.rating_note


@pytest.mark.parametrize(
    "args",
    [
        ["diff", "fruit-picking", "--variant", str(VARIANTS / "umbrella.toml"), "-n", "200"],
        [
            "diff",
            "fruit-picking",
            "--variant",
            str(VARIANTS / "umbrella.toml"),
            "--variant",
            str(VARIANTS / "beginners.toml"),
            "-n",
            "200",
            "-p",
            "2",
        ],
        ["compare", "fruit-picking", "--bots", "random,greedy,planner", "-n", "40", "-p", "3"],
    ],
    ids=["diff", "diff-two-files", "compare"],
)
def test_the_text_fits_80_columns_and_json_is_unchanged_by_the_width(args):
    narrow = CliRunner().invoke(cli, [*args, "-q"], env={"COLUMNS": "80"})
    assert narrow.exit_code == 0, narrow.output
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80, narrow.stdout
    documents = [
        json.loads(
            CliRunner().invoke(cli, [*args, "-q", "--format", "json"], env={"COLUMNS": c}).stdout
        )
        for c in ("80", "200")
    ]
    assert documents[0] == documents[1]
