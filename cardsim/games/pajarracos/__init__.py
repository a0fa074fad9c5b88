"""Pajarracos (Paco Yáñez, Zacatrus! 2018), 3-6 players: rules in ``pajarracos.md``.

``RULESET`` is all the core and the CLI know of this game; the compiled engine and bots are
imported only when a run needs them.
"""

from cardsim.core.registry import Ruleset, lazy, lazy_call
from cardsim.games.pajarracos import cards, rules

RULESET = Ruleset(
    name="pajarracos",
    title="Pajarracos (2018)",
    min_players=3,
    max_players=cards.MAX_PLAYERS,
    default_players=4,
    options=rules.OPTIONS,
    encode_rules=rules.encode,
    check_rules=rules.check,
    kernels=lazy("cardsim.games.pajarracos.engine", "PLAY_KERNELS"),
    bots=lazy("cardsim.games.pajarracos.bots", "BUILTIN"),
    default_bots=("greedy",),
    state_len=cards.STATE_LEN,
    legal_len=cards.MAX_LEGAL,
    obs_len=cards.OBS_LEN,
    obs_is_state_prefix=True,  # A16: the prefix ends with the deciding seat's own hand (cards.py)
    game_counters=cards.GAME_COUNTERS,
    seat_counters=cards.SEAT_COUNTERS,
    end_reasons=cards.END_REASONS,
    determinize=lazy("cardsim.games.pajarracos.determinize", "determinize"),
    replay=lazy_call("cardsim.games.pajarracos.trace", "replay"),
    bot_names=("random", "greedy", "crow-attacker", "defender", "strategist"),
    counter_glossary=cards.COUNTER_GLOSSARY,
    outcome_counters=cards.OUTCOME_COUNTERS,
    rules_doc="docs/rules/pajarracos.md",
)
