"""Pajarracos on the command line: listings, runs for 3 to 6 players, the crow ablation on the same
seed, Parquet output with the crow counters, replays told in the game's words (pajarracos.md terms)
and checked against the engine, and one-line errors (exit code 2) for bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core import layout as L
from cardsim.core import registry, runner
from cardsim.core.reference import ENGINE_AGREES, engine_check
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import reference as REF
from cardsim.games.pajarracos import trace

GAME = "pajarracos"
BOTS = ("random", "greedy", "crow-attacker", "defender", "strategist")
NO_CROWS = ("--rules", "lone_crows=0", "--rules", "flocks=0")
# Small deck where final ties are common (replays, shared wins) and every action shows up fast.
SMALL = {"fruit_kinds": 2, "fruit_per_kind": 3, "hand_size": 2}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def ok(*args):
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, (result.output, result.exception)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: "), err
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in err, err


def section(text, title):
    """The lines of the section starting with ``title``, up to the next blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


# -- listings ------------------------------------------------------------------------------------


def test_games_lists_pajarracos_for_3_to_6_players():
    line = next(x for x in ok("games").stdout.splitlines() if x.startswith(GAME))
    assert "Pajarracos (2018)" in line and "3-6" in line and line.rstrip().endswith("4")


def test_bots_lists_the_five_builtin_bots_with_descriptions():
    out = ok("bots", GAME).stdout
    # the heuristics (a ruleset with a determinizer adds the search bot ismcts: test_ismcts.py)
    bots = {n: b for n, b in registry.get(GAME).bots().items() if not b.search}
    assert tuple(bots) == BOTS
    listed = {r["bot"]: r for r in json.loads(ok("bots", GAME, "--format", "json").stdout)["bots"]}
    for name, bot in bots.items():
        assert name in out and listed[name]["description"] == bot.description
    assert [n for n, r in listed.items() if r["default"]] == ["greedy"]


def test_rules_lists_every_option_with_its_default_and_rule():
    options = registry.get(GAME).options
    names = {o.name for o in options}
    assert {"lone_crows", "flocks", "scarecrows", "juicy_per_kind", "final_tie"} <= names
    listed = json.loads(ok("rules", GAME, "--format", "json").stdout)["options"]
    assert [r["option"] for r in listed] == [o.name for o in options]
    row = next(r for r in listed if r["option"] == "lone_crows")
    assert row["default"] == 8 and row["refers"] == "Components, R12"


# -- runs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 6])
def test_run_prints_a_summary_with_one_row_per_position(players):
    out = ok("run", GAME, "--games", 300, "--players", players, "--seed", 1, "--quiet").stdout
    assert f"Pajarracos (2018): 300 games, {players} players, seed 1" in out
    assert "bots: greedy in every seat" in out and "rules: defaults" in out
    positions = section(out, "Win rate by turn order")[3:]
    assert len(positions) == players and positions[0].strip().startswith("1st (starts)")
    seats = section(out, "Win rate by seat")[3:]
    assert [row.split()[1] for row in seats] == [str(s) for s in range(players)]
    reasons = dict(line.split()[:2] for line in section(out, "End reasons")[3:])
    # R23 ends every game: at the start of a turn, or of an extra turn (A10)
    assert set(reasons) == {"turn_cap", "empty_hand", "empty_hand_extra_turn"}
    assert reasons["turn_cap"] == "0"
    assert int(reasons["empty_hand"]) + int(reasons["empty_hand_extra_turn"]) == 300


def test_run_with_mixed_bots_names_them_by_seat():
    bots = ",".join(BOTS)
    out = ok("run", GAME, "-n", 200, "-p", 5, "--bots", bots, "--seed", 2, "--quiet").stdout
    assert ", ".join(f"seat {s}: {b}" for s, b in enumerate(BOTS)) in " ".join(out.split())
    assert "Win rate by bot" in out


def run_to_file(tmp_path, name, *extra, players=4, games=400, seed=11):
    path = tmp_path / f"{name}.parquet"
    ok("run", GAME, "-n", games, "-p", players, "--seed", seed, "--out", path, "--quiet", *extra)
    return io.read_results(path, compact=False)


def test_out_has_every_seat_and_game_counter(tmp_path):
    df, meta = run_to_file(tmp_path, "r", "--bots", "crow-attacker,defender,strategist,greedy")
    assert len(df) == 400 and meta["ruleset"] == GAME and meta["n_players"] == 4
    for counter in C.GAME_COUNTERS:
        assert counter in df.columns
    for s in range(4):
        for counter in C.SEAT_COUNTERS:
            assert f"{counter}_{s}" in df.columns
    assert "crows_played_4" not in df.columns
    assert list(df["end_reason"].cat.categories) == list(C.END_REASONS)
    # the crow counters are really counted: crows played in a game = crows received in it
    played = sum(df[f"crows_played_{s}"] + df[f"flocks_played_{s}"] for s in range(4))
    assert played.sum() > 0 and df["trees_wiped_0"].sum() + df["trees_wiped_1"].sum() > 0
    received = sum(df[f"crows_received_{s}"] for s in range(4))
    redirected = sum(df[f"juicy_attractions_{s}"] + df[f"shoo_tos_{s}"] for s in range(4))
    assert (received == played + redirected).all()
    # R25: score = fruit cards + largest tree
    for s in range(4):
        assert (df[f"score_{s}"] == df[f"fruit_cards_{s}"] + df[f"largest_tree_{s}"]).all()


def test_crows_set_to_zero_change_the_games_of_the_same_seed(tmp_path):
    base, _ = run_to_file(tmp_path, "base")
    crowless, meta = run_to_file(tmp_path, "no-crows", *NO_CROWS)
    assert meta["rules"]["lone_crows"] == 0 and meta["rules"]["flocks"] == 0
    counters = ("crows_played", "flocks_played", "crows_received", "fruit_lost", "trees_wiped")
    for s in range(4):
        assert all(crowless[f"{c}_{s}"].eq(0).all() for c in counters)
        assert crowless[f"shoo_outs_{s}"].eq(0).all()  # no crow to shoo
    assert base["crows_played_0"].sum() > 0 and base["fruit_lost_0"].sum() > 0
    # same seed, same first players; the outcomes differ
    assert (base["first_seat"] == crowless["first_seat"]).all()
    scores = [f"score_{s}" for s in range(4)]
    assert (base[scores].to_numpy() != crowless[scores].to_numpy()).any(axis=1).mean() > 0.5
    # without crows nothing is eaten: every fruit card played stays in an orchard
    played = sum(crowless[f"fruit_played_{w}_{s}"] for s in range(4) for w in ("own", "others"))
    assert (played == sum(crowless[f"fruit_cards_{s}"] for s in range(4))).all()
    out = ok("run", GAME, "-n", 400, "-p", 4, "--seed", 11, "--quiet", *NO_CROWS).stdout
    assert "rules: lone_crows=0, flocks=0" in out


# -- replay --------------------------------------------------------------------------------------


def events_of(spec, game):
    return REF.play_reference(spec, game)[2]


def first_seed(players, bots, game, wanted, rules=None, seeds=range(80)):
    """The first seed whose game ``game`` holds an event satisfying each of ``wanted``."""
    for seed in seeds:
        spec = runner.make_spec(GAME, game + 1, players, bots, rules or {}, seed=seed)
        log = events_of(spec, game)
        if all(any(pred(e) for e in log) for pred in wanted):
            return seed
    raise AssertionError("no seed gives such a game")


def kind_is(kind, **fields):
    return lambda e: e["kind"] == kind and all(e[k] == v for k, v in fields.items())


def test_replay_tells_crows_eating_scarecrows_and_juicy_fruit_in_the_games_words():
    wanted = [
        kind_is(REF.EV_EAT, crow=C.LONE),
        kind_is(REF.EV_EAT, crow=C.FLOCK_ON),
        kind_is(REF.EV_SHOO_OUT),
        kind_is(REF.EV_EXTRA_TURN, taken=1),
        kind_is(REF.EV_SHOO_TO),
        kind_is(REF.EV_PROTECT),
        kind_is(REF.EV_ATTRACT),
    ]
    seed = first_seed(4, ["greedy"], 3, wanted)
    out = ok("replay", GAME, "--game", 3, "--seed", seed).stdout
    lines = out.splitlines()
    assert lines[0] == f"Pajarracos, game 3 of the run seeded {seed}: 4 players, standard rules."
    assert lines[-1] == ENGINE_AGREES
    assert "Turn 1: Seat" in out and "takes the first turn" in out
    assert " plays a lone crow on Seat " in out or " plays a flock of crows on Seat " in out
    assert "The lone crow sent by Seat " in out and " left." in out
    assert "The flock of crows sent by Seat " in out and "the tree is gone" in out
    assert "out of the orchard and takes an extra turn (R18)" in out
    assert "extra turn 1: Seat " in out
    assert "; that ends its action and its turn at once" in out and "shoos the " in out
    assert "with a scarecrow for the rest of the game" in out
    assert "Juicy attraction: the " in out
    assert "The reserve pile runs out" in out and "(R23)" in out
    assert "Final orchards (score = fruit cards + the largest tree, R25):" in out
    assert sum(line.startswith("  Seat ") and " WINS; " in line for line in lines) >= 1
    assert next(x for x in lines if x.startswith("Winner(s): Seat "))


def story(spec, game):
    return trace.replay(spec, game).splitlines()


def test_the_story_names_rule_changes_bots_and_tie_replays():
    rules = {**SMALL, "final_tie": "replay"}
    bots = ["strategist", "random", "defender"]
    seed = first_seed(3, bots, 0, [kind_is(REF.EV_TIE_REPLAY)], rules)
    spec = runner.make_spec(GAME, 1, 3, bots, rules, seed=seed)
    lines = story(spec, 0)
    assert lines[0].endswith(
        "3 players, hand_size=2, fruit_kinds=2, fruit_per_kind=3, final_tie=replay."
    )
    assert all(f"Seat {s} ({b})" in "\n".join(lines) for s, b in enumerate(bots))
    tie = next(i for i, x in enumerate(lines) if x.startswith("Replay 1 (final_tie=replay, A14)"))
    assert " tie on " in lines[tie - 1] and "on kinds too" in lines[tie - 1]
    assert lines[tie - 1].endswith(": they play another game (A14).")
    assert lines[tie + 1].startswith("New deal: ")
    assert lines[-1] == ENGINE_AGREES


def test_final_orchards_are_those_the_reference_scores():
    spec = runner.make_spec(GAME, 12, 5, list(BOTS), {}, seed=4)
    for game in range(12):
        result = events_of(spec, game)[-1]
        lines = story(spec, game)
        start = lines.index("Final orchards (score = fruit cards + the largest tree, R25):")
        for s in range(5):
            sizes = result["orchards"][s]
            trees = [f"{C.KIND_NAMES[k]} {n}" for k, n in enumerate(sizes) if n]
            score, kinds = REF.score_and_trees(sizes)
            assert score == result["scores"][s] and kinds == result["trees"][s]
            line = lines[start + 1 + s]
            assert line.startswith(f"  Seat {s} ({BOTS[s]}): {', '.join(trees) or 'no trees'}: ")
            assert f"{sum(sizes)} fruit + {max(sizes)} largest = {score} point" in line


def test_ties_are_told_with_the_kinds_tie_break_or_a_shared_win():
    spec = runner.make_spec(GAME, 200, 4, ["greedy"], {}, seed=3)
    told = set()
    for game in range(200):
        result = events_of(spec, game)[-1]
        top = max(result["scores"])
        if result["scores"].count(top) == 1:
            continue
        text = "\n".join(story(spec, game))
        if sum(result["wins"]) > 1:  # R26 still tied: A14 shared
            told.add("shared")
            assert "on kinds too" in text and ": a shared win (A14)." in text
            assert text.splitlines()[-2].endswith("(a shared win).")
        else:  # R26: more kinds of fruit wins
            told.add("kinds")
            assert f"tie on {top} points; Seat " in text
            assert "wins the tie-break on kinds of fruit" in text
        if told == {"shared", "kinds"}:
            return
    raise AssertionError(f"only {told} in 200 games")


def test_a_lost_extra_turn_a_pass_and_the_turn_cap_are_told():
    rules = {**SMALL, "discard_min": 0, "turn_cap": 6}
    lost = kind_is(REF.EV_EXTRA_TURN, taken=0)
    passed = kind_is(REF.EV_DISCARD, cards=[])
    seed = first_seed(4, ["random"], 0, [lost, passed], rules, seeds=range(200))
    text = "\n".join(story(runner.make_spec(GAME, 1, 4, ["random"], rules, seed=seed), 0))
    assert "out of the orchard; the extra turn is lost: its hand is empty (A10)." in text
    assert "passes: discards nothing (discard_min=0, A12)." in text
    capped = runner.make_spec(GAME, 1, 6, ["random"], {"turn_cap": 2}, seed=1)
    text = "\n".join(story(capped, 0))
    assert "Game over after 12 turns: the turn cap of 2 rounds (a safeguard, not a rule)" in text


OLD_READINGS = (
    "--rules",
    "shoo_to_ends_action=false",
    "--rules",
    "extra_turn_optional=false",
    "--rules",
    "empty_extra_turn=lost",
)


def _turn_lines(text: str, turn: int) -> list[str]:
    """The lines of turn ``turn`` (its extra turns included) of a story."""
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(f"Turn {turn}: "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(f"Turn {turn + 1}:"))
    return lines[start:end]


def test_a_shoo_to_is_the_last_scarecrow_of_its_action_and_the_old_reading_tells_the_chain():
    # pajarracos.md R19, A8, A11. Game 777 of seed 3 (4 greedy players) under the earlier reading
    # sends three crows onto two opponents in one action of turn 33; under the default no action
    # holds a scarecrow after a shoo-to in this game or the next 20 (each story checked).
    old = ok("replay", GAME, "--seed", 3, "--game", 777, "-p", 4, *OLD_READINGS).stdout
    assert "shoo_to_ends_action=false" in old.splitlines()[0]
    chain = [x for x in _turn_lines(old, 33) if " shoos the " in x and " to Seat " in x]
    assert len(chain) >= 2 and "; its turn ends" in chain[-1]
    spec = runner.make_spec(GAME, 800, 4, ["greedy"], {}, seed=3)
    shoo_tos = 0
    for game in range(777, 798):
        lines = story(spec, game)
        for i, line in enumerate(lines):
            if " shoos the " in line and " to Seat " in line:
                shoo_tos += 1
                assert "; that ends its action and its turn at once" in line, line
                assert not lines[i + 1].startswith("  Seat ") or " shoos " not in lines[i + 1]
                assert " protects " not in lines[i + 1]
    assert shoo_tos >= 5


def test_an_extra_turn_that_starts_empty_handed_with_no_reserve_ends_the_game():
    # pajarracos.md A10, A13, R23: game 13 of seed 7 (4 greedy players), turn 47, with the other
    # readings as before: the extra turn ends the game, and that changes the winner; with
    # empty_extra_turn=lost play goes on
    earlier = ("--rules", "shoo_to_ends_action=false", "--rules", "extra_turn_optional=false")
    args = ("replay", GAME, "--seed", 7, "--game", 13, "-p", 4, *earlier)
    ends = ok(*args).stdout
    assert (
        "Seat 2 (greedy) shoos the flock on its bananas out of the orchard; its extra turn begins "
        "with no cards in hand and the reserve pile empty: the game ends (R23, A10)."
    ) in ends
    assert (
        "Game over after 46 turns: Seat 2 (greedy) has no cards in hand at the start of its extra "
        "turn and the reserve pile is empty (R23, A10)"
    ) in ends
    lost = ok(*args, "--rules", "empty_extra_turn=lost").stdout
    assert "out of the orchard; the extra turn is lost: its hand is empty (A10)." in lost
    assert "Game over after 49 turns" in lost
    winners = [x for t in (ends, lost) for x in t.splitlines() if x.startswith("Winner(s): ")]
    assert winners[0] != winners[1]
    assert ends.splitlines()[-1] == lost.splitlines()[-1] == ENGINE_AGREES


def test_a_declined_extra_turn_is_told_with_the_shoo_out_that_earned_it():
    # pajarracos.md R18, A17: "earns an extra turn, which it declines"; no "acts again" line
    declined = kind_is(REF.EV_DECLINE)
    seed = first_seed(4, ["random"], 0, [declined])
    spec = runner.make_spec(GAME, 1, 4, ["random"], {}, seed=seed)
    _, _, events = REF.play_reference(spec, 0)
    lines = story(spec, 0)
    told = [
        x for x in lines if x.endswith(" and earns an extra turn, which it declines (R18, A17).")
    ]
    assert len(told) == sum(e["kind"] == REF.EV_DECLINE for e in events) >= 1
    extra_lines = [x for x in lines if ", extra turn " in x]
    taken = sum(e["kind"] == REF.EV_EXTRA_TURN and e["taken"] for e in events)
    assert len(extra_lines) == taken - len(told)


def test_the_engine_check_names_a_column_that_differs():
    spec = runner.make_spec(GAME, 3, 4, ["crow-attacker"], {}, seed=5)
    game_row, seat_rows, _ = REF.play_reference(spec, 2)
    assert engine_check(spec, 2, game_row, seat_rows) == ENGINE_AGREES
    seat_rows = seat_rows.copy()
    seat_rows[1, len(L.SEAT_COLUMNS) + C.C_FRUIT_LOST] += 1
    warning = engine_check(spec, 2, game_row, seat_rows)
    assert warning.startswith("WARNING") and "seat 1 fruit_lost" in warning


# -- bad input -----------------------------------------------------------------------------------

BAD_INPUT = {
    "2 players": (["run", GAME, "--players", 2], "3-6 players"),
    "7 players": (["run", GAME, "--players", 7], "3-6 players"),
    "unknown bot": (["run", GAME, "--bots", "crow-king"], "unknown bot"),
    "fruit-picking bot": (["run", GAME, "--bots", "planner"], "unknown bot"),
    "unknown rule option": (["run", GAME, "--rules", "crows=0"], "crows"),
    "rule value out of range": (["run", GAME, "--rules", "flocks=11"], "flocks"),
    "juicy beyond fruit": (
        ["run", GAME, "--rules", "fruit_per_kind=3", "--rules", "juicy_per_kind=4"],
        "juicy_per_kind",
    ),
    "first player beyond the seats": (
        ["run", GAME, "-p", 4, "--rules", "first_player=5"],
        "first_player",
    ),
    "bad choice": (["run", GAME, "--rules", "final_tie=coin"], "final_tie"),
    "replay with 7 players": (["replay", GAME, "--game", 0, "-p", 7], "3-6 players"),
    "replay unknown rule": (["replay", GAME, "--game", 0, "--rules", "owls=2"], "owls"),
}


@pytest.mark.parametrize("args, fragment", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    assert_one_line_error(invoke(*args), fragment)
