"""Piepmatz on the command line and through the library: listings, runs for 2 to 4 players, the
squirrel ablation on the same seeds, the counters, replays told in the game's words
(piepmatz.md terms) and checked against the engine, and one-line errors (exit code 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cardsim
from cardsim.cli.main import cli
from cardsim.core import layout as L
from cardsim.core import registry, runner
from cardsim.core.reference import ENGINE_AGREES, engine_check
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import reference as REF
from cardsim.games.piepmatz import trace

GAME = "piepmatz"
BOTS = ("random", "greedy", "planner")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def ok(*args):
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def section(text, title):
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


# -- listings ------------------------------------------------------------------------------------


def test_games_lists_piepmatz_for_2_to_4_players():
    line = next(x for x in ok("games").stdout.splitlines() if x.startswith(GAME))
    assert "Piepmatz / Songbirds (2018)" in line and "2-4" in line and line.rstrip().endswith("4")


def test_bots_lists_the_builtin_bots_with_descriptions():
    out = ok("bots", GAME).stdout
    # the heuristics (a ruleset with a determinizer adds the search bot ismcts: test_ismcts.py)
    bots = {n: b for n, b in registry.get(GAME).bots().items() if not b.search}
    assert tuple(bots) == BOTS == tuple(n for n in registry.get(GAME).bot_names if n in bots)
    listed = {r["bot"]: r for r in json.loads(ok("bots", GAME, "--format", "json").stdout)["bots"]}
    for name, bot in bots.items():
        assert name in out and listed[name]["description"] == bot.description
    assert [n for n, r in listed.items() if r["default"]] == ["planner"]


def test_rules_lists_every_option_with_its_default_and_rule():
    options = registry.get(GAME).options
    names = {o.name for o in options}
    assert {"seed_counts", "crows", "squirrels", "three_plus_seed_values"} <= names
    listed = json.loads(ok("rules", GAME, "--format", "json").stdout)["options"]
    assert [r["option"] for r in listed] == [o.name for o in options]
    row = next(r for r in listed if r["option"] == "squirrels")
    assert row["default"] == 3 and row["refers"] == "A3"
    row = next(r for r in listed if r["option"] == "seed_counts")
    assert row["default"] == [10, 10, 10]


# -- runs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_run_prints_a_summary_with_one_row_per_position(players):
    out = ok("run", GAME, "--games", 300, "--players", players, "--seed", 1, "--quiet").stdout
    assert f"Piepmatz / Songbirds (2018): 300 games, {players} players, seed 1" in out
    assert "bots: planner in every seat" in out and "rules: defaults" in out
    positions = section(out, "Win rate by turn order")[3:]
    assert len(positions) == players
    reasons = dict(line.split()[:2] for line in section(out, "End reasons")[3:])
    assert reasons["feeder_empty"] == "300"  # R29: the feeder deck ends every standard game


def test_run_with_mixed_bots_names_them_by_seat():
    out = ok("run", GAME, "-n", 200, "-p", 3, "--bots", ",".join(BOTS), "--quiet").stdout
    assert ", ".join(f"seat {s}: {b}" for s, b in enumerate(BOTS)) in out
    assert "Win rate by bot" in out


def test_counters_add_up_to_the_score():
    frame = cardsim.simulate(
        GAME, games=400, players=4, bots="greedy,planner,random,planner", seed=3
    ).frame
    for s in range(4):
        parts = frame[f"points_seeds_{s}"] + frame[f"points_majorities_{s}"]
        assert (frame[f"score_{s}"] == parts + frame[f"points_pairs_{s}"]).all()
        assert (frame[f"points_pairs_{s}"] == 5 * frame[f"pairs_{s}"]).all()
        species = sum(frame[f"birds_{name}_{s}"] for name in C.SPECIES_NAMES)
        assert (species == frame[f"birds_{s}"]).all()
        kept = frame[f"seed_points_taken_{s}"] - frame[f"squirrel_points_lost_{s}"]
        assert (kept == frame[f"points_seeds_{s}"]).all()
    assert set(frame["end_reason"]) == {"feeder_empty"}
    assert (frame["feeder_left"] == 0).all()  # the deck ran dry: that is what ended the games


def test_no_squirrels_on_the_same_seeds(tmp_path):
    base = cardsim.simulate(GAME, games=400, players=4, seed=11).frame
    none = cardsim.simulate(GAME, games=400, players=4, rules={"squirrels": 0}, seed=11).frame
    for s in range(4):
        assert none[f"squirrels_taken_{s}"].eq(0).all()
        assert none[f"squirrel_cards_lost_{s}"].eq(0).all()
    assert sum(base[f"squirrel_cards_lost_{s}"].sum() for s in range(4)) > 0
    assert (base["first_seat"] == none["first_seat"]).all()  # same seeds, same start players
    scores = [f"score_{s}" for s in range(4)]
    assert (base[scores].to_numpy() != none[scores].to_numpy()).any(axis=1).mean() > 0.5
    out = ok("run", GAME, "-n", 200, "--rules", "squirrels=0", "--quiet").stdout
    assert "rules: squirrels=0" in out


# -- replay --------------------------------------------------------------------------------------


def first_seed(players, bots, game, wanted, rules=None, seeds=range(80)):
    """The first seed whose game ``game`` holds an event satisfying each of ``wanted``."""
    for seed in seeds:
        spec = runner.make_spec(GAME, game + 1, players, bots, rules or {}, seed=seed)
        log = REF.play_reference(spec, game)[2]
        if all(any(pred(e) for e in log) for pred in wanted):
            return seed
    raise AssertionError("no seed gives such a game")


def kind_is(kind, pred=lambda e: True):
    return lambda e: e["kind"] == kind and pred(e)


def test_replay_tells_chains_crows_squirrels_and_the_scoring_in_the_games_words():
    wanted = [
        kind_is(REF.EV_CROW),
        kind_is(REF.EV_SQUIRREL, lambda e: len(e["lost"]) > 0),
        kind_is(REF.EV_PROMOTE),
        kind_is(REF.EV_KEEP, lambda e: e["bird"] >= 0),
        kind_is(REF.EV_REFILL, lambda e: len(e["bad"]) > 0),
    ]
    seed = first_seed(3, ["planner"], 2, wanted)
    out = ok("replay", GAME, "--game", 2, "--seed", seed, "-p", 3).stdout
    lines = out.splitlines()
    assert lines[0] == f"Piepmatz, game 2 of the run seeded {seed}: 3 players, standard rules."
    assert lines[-1] == ENGINE_AGREES
    assert "is the start player (R7)." in out and "Turn 1: Seat " in out
    assert "greater: a chain starts (R11)." in out and "joins its collection (R18)." in out
    assert "moves up to perch " in out and "-point seed card at position " in out
    assert "The crow chases " in out and " out of its collection (R20)." in out
    assert "The squirrel: Seat " in out and "; they leave the game (R21)." in out
    assert "from its hand to its collection (R24)." in out
    assert "into the bad-card column" in out
    assert "The end is triggered: " in out and "The final round is over" in out
    assert "Scoring (R32-R36):" in out and " - wins." in out


def test_a_refill_counts_the_bad_cards_it_adds():
    """R26, R27: the bad cards a refill adds are told one by one, in the order they came (grouping
    them by kind lost the order a reader needs to follow the bad-card column)."""
    line = trace._refill(
        None, {"seeds": [3], "bad": [C.SQUIRREL, C.CROW, C.SQUIRREL], "removed": 0}
    )
    assert line == [
        "  The feeder refills the seed column: 1 seed card worth 3; a squirrel, a crow and a "
        "squirrel into the bad-card column (R26, R27)."
    ]


def result_event(scores, pairs, wins):
    n = len(scores)
    return {"scores": scores, "pairs": pairs, "wins": wins, "seeds": scores, "majorities": [0] * n,
            "birds": [[0] * len(C.SPECIES_NAMES)] * n, "ranks": [1] * n}  # fmt: skip


def test_scoring_tells_how_a_tie_on_points_is_broken():
    """R36: more bird pairs win a tie on points; a tie on pairs too shares the victory."""
    teller = trace._Teller(runner.make_spec(GAME, 1, 3, ["greedy"], {}, 0), 0)
    broken = trace._result(teller, result_event([48, 48, 46], [2, 3, 2], [False, True, False]))
    assert broken[-1] == (
        "  Seat 0 (greedy) and Seat 1 (greedy) tie on 48 points; Seat 1 (greedy) has the most "
        "bird pairs (3) and wins (R36)."
    )
    shared = trace._result(teller, result_event([40, 40, 40], [1, 2, 2], [False, True, True]))
    assert shared[-1] == (
        "  Seat 0 (greedy), Seat 1 (greedy) and Seat 2 (greedy) tie on 40 points; Seat 1 (greedy) "
        "and Seat 2 (greedy) also tie on 2 bird pairs and share the victory (R36)."
    )
    alone = trace._result(teller, result_event([41, 40, 40], [0, 2, 2], [True, False, False]))
    assert len(alone) == 4  # the heading and a line per seat: no tie for the win


def test_a_refill_is_told_before_the_end_it_triggers():
    """R28: the refill that empties the feeder deck comes first, then the end it triggers."""
    out = ok("replay", GAME, "--game", 5, "-p", 3).stdout.splitlines()
    trigger = next(i for i, line in enumerate(out) if "could not be refilled" in line)
    turn = max(i for i in range(trigger) if out[i].startswith("Turn "))
    refills = [i for i in range(turn, len(out)) if "The feeder refills" in out[i]]
    assert refills and all(i < trigger for i in refills)
    assert "tie on 48 points" in out[-2]  # this game's first two seats also tie (R36)


def test_the_story_of_a_two_player_game_names_the_removed_species_and_rule_changes():
    spec = runner.make_spec(GAME, 1, 2, ["greedy", "random"], {"squirrels": 0}, seed=2)
    text = trace.replay(spec, 0)
    assert text.splitlines()[0].endswith("2 players, squirrels=0.")
    removed = REF.play_reference(spec, 0)[2][0]["removed"]
    assert f"2 players: the {C.SPECIES_NAMES[removed]}es leave the game (R4)." in text
    assert "Seat 0 (greedy)" in text and "Seat 1 (random)" in text


def test_the_turn_cap_is_told():
    spec = runner.make_spec(GAME, 1, 4, ["random"], {"turn_cap": 2}, seed=1)
    text = trace.replay(spec, 0)
    assert "Game over after 8 turns: the turn cap (a safeguard, not a rule) ends it." in text


def test_the_engine_check_names_a_column_that_differs():
    spec = runner.make_spec(GAME, 3, 4, ["planner"], {}, seed=5)
    game_row, seat_rows, _ = REF.play_reference(spec, 2)
    assert engine_check(spec, 2, game_row, seat_rows) == ENGINE_AGREES
    seat_rows = seat_rows.copy()
    seat_rows[1, len(L.SEAT_COLUMNS) + C.C_CROWS] += 1
    warning = engine_check(spec, 2, game_row, seat_rows)
    assert warning.startswith("WARNING") and "seat 1 crows_taken" in warning


# -- bad input -----------------------------------------------------------------------------------

BAD_INPUT = {
    "1 player": (["run", GAME, "--players", 1], "2-4 players"),
    "5 players": (["run", GAME, "--players", 5], "2-4 players"),
    "unknown bot": (["run", GAME, "--bots", "owl"], "unknown bot"),
    "pajarracos bot": (["run", GAME, "--bots", "strategist"], "unknown bot"),
    "unknown rule option": (["run", GAME, "--rules", "ravens=1"], "ravens"),
    "no crow": (["run", GAME, "--rules", "crows=0"], "crows"),
    "seed counts of two values": (["run", GAME, "--rules", "seed_counts=10,10"], "seed_counts"),
    "3+ value of 4": (["run", GAME, "--rules", "three_plus_seed_values=1,2,2,4"], "three_plus"),
    "more 3+ crows than crows": (
        ["run", GAME, "-p", 2, "--rules", "crows=1", "--rules", "three_plus_crows=2"],
        "three_plus_crows",
    ),
    "discarding more than the hand": (
        ["run", GAME, "--rules", "hand_size=2", "--rules", "final_discard=3"],
        "final_discard",
    ),
    "removed species not in the game": (
        ["run", GAME, "-p", 2, "--rules", "species=3", "--rules", "two_player_removed_species=4"],
        "two_player_removed_species",
    ),
    "too few birds": (["run", GAME, "--rules", "species=1", "--rules", "strengths=2"], "bird"),
    "first player beyond the seats": (["run", GAME, "-p", 3, "--rules", "first_player=3"], "seat"),
    "bad choice": (["run", GAME, "--rules", "promote_by=colour"], "promote_by"),
    "replay with 5 players": (["replay", GAME, "--game", 0, "-p", 5], "2-4 players"),
}


@pytest.mark.parametrize("args, fragment", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    result = invoke(*args)
    assert result.exit_code == 2, (result.output, result.exception)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: ") and fragment in err, err
    assert "Traceback" not in result.output
