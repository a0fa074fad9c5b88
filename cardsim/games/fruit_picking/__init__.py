"""Fruit Picking (Jun-ichi Shinde, ChagaChaga 2014), 2-4 players: rules in ``fruit-picking.md``.

``RULESET`` is all the core and the CLI know of this game; the compiled engine and bots are
imported only when a run needs them.
"""

from cardsim.core.registry import Ruleset, lazy, lazy_call
from cardsim.games.fruit_picking import cards, rules

RULESET = Ruleset(
    name="fruit-picking",
    title="Fruit Picking (2014)",
    min_players=2,
    max_players=cards.MAX_PLAYERS,
    default_players=4,
    options=rules.OPTIONS,
    encode_rules=rules.encode,
    check_rules=rules.check,
    kernels=lazy("cardsim.games.fruit_picking.engine", "PLAY_KERNELS"),
    bots=lazy("cardsim.games.fruit_picking.bots", "BUILTIN"),
    default_bots=("greedy",),
    state_len=cards.STATE_LEN,
    legal_len=cards.MAX_LEGAL,
    obs_len=cards.PUBLIC_END,
    obs_is_state_prefix=True,  # A17: only the stack order is hidden, and it lies past PUBLIC_END
    game_counters=cards.GAME_COUNTERS,
    seat_counters=cards.SEAT_COUNTERS,
    end_reasons=cards.END_REASONS,
    replay=lazy_call("cardsim.games.fruit_picking.trace", "replay"),
    determinize=lazy("cardsim.games.fruit_picking.determinize", "determinize"),
    bot_names=("random", "greedy", "planner"),
    counter_glossary=cards.COUNTER_GLOSSARY,
    outcome_counters=cards.OUTCOME_COUNTERS,
    rules_doc="docs/rules/fruit-picking.md",
)
