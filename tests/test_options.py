"""Rule options as data (``core/options.py``): an integer list that may also be a named value
(``all``, ``none``), as Piña Pirata's ``tile_pool`` and ``fixed_tiles`` are."""

import pytest

from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption


def test_an_int_list_with_choices_takes_a_choice_or_a_list():
    opt = RuleOption("fixed_tiles", "int_list", "none", "tiles", choices=("none",), lo=1, hi=40)
    assert opt.parse("none") == "none" and opt.parse(" NONE ") == "none"
    assert opt.parse("3,17") == (3, 17) and opt.parse([5]) == (5,)
    assert "none | comma list of integers in 1..40" in opt.allowed()
    with pytest.raises(CardsimError, match="fixed_tiles"):
        opt.parse("41")
    with pytest.raises(CardsimError, match="fixed_tiles"):
        opt.parse("some")


def test_an_int_list_item_may_carry_the_prefix_the_rules_doc_names_it_with():
    """pina-pirata.md names tiles T1..T40: ``fixed_tiles=T17,t3,5`` is (17, 3, 5); the prefix
    alone, another letter or a number out of range is refused in one line."""
    opt = RuleOption(
        "fixed_tiles", "int_list", "none", "tiles", choices=("none",), lo=1, hi=40, prefix="T"
    )
    assert opt.parse("T17,t3, 5") == (17, 3, 5) and opt.parse(["T40", 1]) == (40, 1)
    assert opt.allowed() == "none | comma list of integers in 1..40, as T1 or 1"
    for bad in ("T", "X5", "T41", "TT5"):
        with pytest.raises(CardsimError, match=f"rule option fixed_tiles: .*{bad}"):
            opt.parse(bad)
    plain = RuleOption("x", "int_list", (1,), "x", lo=0, hi=9)
    with pytest.raises(CardsimError):
        plain.parse("T5")


def test_an_int_list_without_choices_is_unchanged():
    opt = RuleOption("x", "int_list", (1, 2), "x", lo=0, hi=9, lengths=(2,))
    assert opt.parse("3,4") == (3, 4)
    with pytest.raises(CardsimError):
        opt.parse("none")
