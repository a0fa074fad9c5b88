"""Piña Pirata (Donald X. Vaccarino, IELLO 2014), 2-6 players: rules in ``pina-pirata.md``.

``RULESET`` is all the core and the CLI know of this game; the compiled engine and bots are
imported only when a run needs them.
"""

from cardsim.core.registry import Ruleset, lazy, lazy_call
from cardsim.games.pina_pirata import cards, rules

RULESET = Ruleset(
    name="pina-pirata",
    title="Piña Pirata (2014)",
    min_players=2,
    max_players=cards.MAX_PLAYERS,
    default_players=4,
    options=rules.OPTIONS,
    encode_rules=rules.encode,
    check_rules=rules.check,
    kernels=lazy("cardsim.games.pina_pirata.engine", "PLAY_KERNELS"),
    blind_step=lazy("cardsim.games.pina_pirata.engine", "step_blind"),
    determinize=lazy("cardsim.games.pina_pirata.determinize", "determinize"),
    bots=lazy("cardsim.games.pina_pirata.bots", "BUILTIN"),
    default_bots=("greedy",),
    state_len=cards.STATE_LEN,
    legal_len=cards.MAX_LEGAL,
    obs_len=cards.OBS_LEN,
    obs_is_state_prefix=True,  # A15: the prefix ends with the deciding seat's own Hand (cards.py)
    game_counters=cards.GAME_COUNTERS,
    seat_counters=cards.SEAT_COUNTERS,
    end_reasons=cards.END_REASONS,
    replay=lazy_call("cardsim.games.pina_pirata.trace", "replay"),
    bot_names=("random", "greedy", "captain"),
    counter_glossary=cards.COUNTER_GLOSSARY,
    outcome_counters=cards.OUTCOME_COUNTERS,
    rules_doc="docs/rules/pina-pirata.md",
    table_rounds="turns per player",  # a Piña Pirata round ends with an empty Hand (R10)
    length_counters=(
        ("rounds", "rounds played (R10)"),
        ("rounds_capped", "rounds ended by round_turn_cap (A16)"),
    ),
)
