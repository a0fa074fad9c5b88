"""Piepmatz / Songbirds (Matt Riddle and Ben Pinchback, Lookout Spiele 2018), 2-4 players: rules
in ``piepmatz.md``.

``RULESET`` is all the core and the CLI know of this game; the compiled engine and bots are
imported only when a run needs them.
"""

from cardsim.core.registry import Ruleset, lazy, lazy_call
from cardsim.games.piepmatz import cards, rules

RULESET = Ruleset(
    name="piepmatz",
    title="Piepmatz / Songbirds (2018)",
    min_players=2,
    max_players=cards.MAX_PLAYERS,
    default_players=4,
    options=rules.OPTIONS,
    encode_rules=rules.encode,
    check_rules=rules.check,
    kernels=lazy("cardsim.games.piepmatz.engine", "PLAY_KERNELS"),
    bots=lazy("cardsim.games.piepmatz.bots", "BUILTIN"),
    default_bots=("planner",),
    state_len=cards.STATE_LEN,
    legal_len=cards.MAX_LEGAL,
    obs_len=cards.OBS_LEN,
    obs_is_state_prefix=True,  # A22: the prefix ends with the deciding seat's own view (cards.py)
    game_counters=cards.GAME_COUNTERS,
    seat_counters=cards.SEAT_COUNTERS,
    end_reasons=cards.END_REASONS,
    determinize=lazy("cardsim.games.piepmatz.determinize", "determinize"),
    replay=lazy_call("cardsim.games.piepmatz.trace", "replay"),
    bot_names=("random", "greedy", "planner"),
    counter_glossary=cards.COUNTER_GLOSSARY,
    outcome_counters=cards.OUTCOME_COUNTERS,
    rules_doc="docs/rules/piepmatz.md",
)
