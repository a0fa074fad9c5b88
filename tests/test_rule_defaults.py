"""Every rule option's default is the one its rules document states (``docs/rules/GAME.md``,
Parameters table), read from the document by ``cardsim/core/rules_doc.py``, not copied here.

The engines and the plain-Python references both start from the options' defaults (the reference
is handed ``spec.rules``), so a wrong default would pass every engine-against-reference test; here
the document is the other side. A literal Default cell (``18 [R]``, ```2014```, ``false``,
``[1, 2, 2, 3]``) must equal the option's default; a cell in words is read by a small reader of its
own below and compared with what the rules module derives from the defaults (``perches`` 2 or 3
by the player count, Fruit Picking's market in V3, Piepmatz' egg values). Rows the document gains
later are read too: an option without its row fails, a row of a parameter without an option
(``n_players``, which is ``--players``) does not.
"""

from __future__ import annotations

import math
import re

import pytest

from cardsim.core import registry
from cardsim.core import rules_doc as D

GAMES = registry.available()
# the core's whole-game safeguard, not a rule of the document (pina-pirata.md documents only its
# round_turn_cap); every other game's document has a turn_cap row
NOT_IN_DOC = {"pina-pirata": {"turn_cap"}}


def _options(game):
    return {o.name: o for o in registry.get(game).options}


def _literal_cases():
    for game in GAMES:
        cells = D.parameter_cells(registry.get(game))
        for name, option in _options(game).items():
            if name in cells and D.literal(cells[name]) is not None:
                yield game, name, option.default, D.literal(cells[name])


def _as_option_value(value):
    """A braced ``{value: count}`` cell is given to the option as the counts in key order."""
    return tuple(value[k] for k in sorted(value)) if isinstance(value, dict) else value


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_a_row_in_the_parameters_table(game):
    """Seen to fail with a ``RuleOption`` planted under a name the document does not have."""
    cells = D.parameter_cells(registry.get(game))
    assert "n_players" in cells and len(cells) >= 15  # the table was found and read whole
    missing = set(_options(game)) - set(cells) - NOT_IN_DOC.get(game, set())
    assert not missing, f"{game}: options with no row in the Parameters table: {sorted(missing)}"


CASES = list(_literal_cases())


def test_most_defaults_are_literal_cells():
    assert len(CASES) >= 80 and {g for g, *_ in CASES} == set(GAMES)


@pytest.mark.parametrize("game, name, default, doc", CASES, ids=[f"{g}-{n}" for g, n, *_ in CASES])
def test_literal_default_is_the_documents(game, name, default, doc):
    """Seen to fail with Pajarracos' ``lone_crows`` default planted as 7, Piña Pirata's
    ``tile_conflict`` as ``newest_wins`` and Piepmatz' ``seed_counts`` as (10, 10, 9)."""
    if name in ("market_slots", "slot_surcharge"):  # None: decided by V3, read below
        assert default is None
        return
    assert default == _as_option_value(doc)


# Cells in words -----------------------------------------------------------------------------------
def _cell(game, name):
    return D.parameter_cells(registry.get(game))[name]


def _defaults(game, rules=None, players=2):
    from cardsim.core import runner

    return runner.make_spec(game, 1, players, ["random"], rules or {}).rules


def _named_counts(cell: str) -> dict[str, int]:
    """``strawberry 3, banana 2, ...`` -> {name: count}."""
    return {name: int(n) for name, n in re.findall(r"([a-z]+) (\d+)", D.bare(cell))}


def test_fruit_picking_farm_fruits_and_market_fruits():
    """fruit-picking.md: ``farm_fruits`` names the symbols of each farm card; ``market_fruits`` is
    the same for every market card (A2). Seen to fail with the farm's cherry planted as 3."""
    from cardsim.games.fruit_picking import cards as C
    from cardsim.games.fruit_picking import reference as REF

    doc = _named_counts(_cell("fruit-picking", "farm_fruits"))
    assert len(doc) == 6
    values = _defaults("fruit-picking")
    assert dict(zip(REF.FARM_FRUITS_ORDER, values["farm_fruits"], strict=True)) == doc
    water = REF.farm_water(values)
    assert {C.KIND_NAMES[k]: n for k, n in water.items()} == {**doc, "house": 0}
    assert "same as `farm_fruits` for every card" in _cell("fruit-picking", "market_fruits")
    fruits = REF.market_card_fruits(values)
    assert all(fruits[c] == doc[C.KIND_NAMES[c // 6]] for c in range(30))


@pytest.mark.parametrize("beginners", [False, True])
def test_fruit_picking_market_slots_and_surcharges(beginners):
    """``4 [R] (3 in V3 [R])`` and ``[3, 2, 1, 0] ... ([0, 0, 0] in V3 [R])``: the value outside the
    parentheses without V3, inside with it. Seen to fail with V3's surcharges planted as [1, 0, 0]."""
    from cardsim.games.fruit_picking import reference as REF

    def read(name):
        cell = _cell("fruit-picking", name)
        inner = re.search(r"\((.*) in V3", cell).group(1)
        return D.literal(inner) if beginners else D.literal(cell)

    values = _defaults("fruit-picking", {"variant_beginners": beginners})
    slots, surcharge = REF.market_layout(values)
    assert (slots, tuple(surcharge)) == (read("market_slots"), read("slot_surcharge"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_piepmatz_perches_and_species_by_player_count(players):
    """``2 for 2–3 players, 3 for 4 players [R]`` and ``6 [S] (5 in a 2-player game)``. Seen to fail
    with ``perches_for`` planted to give 3 perches from 3 players."""
    from cardsim.games.piepmatz import rules as R

    perches = {}
    for n, lo, hi in re.findall(
        r"(\d+) for (\d+)(?:–(\d+))? players", _cell("piepmatz", "perches")
    ):
        perches.update({p: int(n) for p in range(int(lo), int(hi or lo) + 1)})
    assert set(perches) == {2, 3, 4}
    values = _defaults("piepmatz", players=players)
    assert R.perches_for(values, players) == perches[players]
    cell = _cell("piepmatz", "species")
    fewer = re.search(r"\((\d+) in a 2-player game\)", cell)
    species = int(fewer.group(1)) if players == 2 else D.literal(cell)
    assert R.species_in_game(values, players) == species


def test_piepmatz_strengths_and_egg_values():
    """``1–6 [S]`` strengths and eggs ``ceil(strength / 2) [R]``. Seen to fail with the default
    ``bird_points`` planted as (1, 1, 2, 2, 3, 4)."""
    lo, hi = map(int, re.fullmatch(r"(\d+)–(\d+)", D.bare(_cell("piepmatz", "strengths"))).groups())
    divisor = int(
        re.fullmatch(r"ceil\(strength / (\d+)\) \[R\]", _cell("piepmatz", "bird_points"))[1]
    )
    values = _defaults("piepmatz")
    assert lo == 1 and values["strengths"] == hi
    assert values["bird_points"] == tuple(math.ceil(s / divisor) for s in range(lo, hi + 1))


def test_pina_pirata_tile_pool_and_fixed_tiles():
    """``all of T1–T40`` is every tile of the document's tile table; ``none`` fixed. Seen to fail
    with ``rules.tiles_of`` planted to leave T40 out of "all"."""
    from cardsim.games.pina_pirata import rules as R

    lo, hi = map(
        int, re.fullmatch(r"all of T(\d+)–T(\d+)", _cell("pina-pirata", "tile_pool")).groups()
    )
    values = _defaults("pina-pirata")
    assert D.bare(_cell("pina-pirata", "fixed_tiles")) == values["fixed_tiles"] == "none"
    pile, fixed = R.tiles_of(values)
    assert (
        pile == list(range(lo, hi + 1)) == D.tile_numbers(registry.get("pina-pirata")) and not fixed
    )
