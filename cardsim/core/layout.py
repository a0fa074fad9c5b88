"""Fixed layout shared by every ruleset: the state header and the outcome columns.

Every ruleset keeps its whole game in one ``int32`` state vector. The first ``HEADER_LEN`` entries
are the same for all rulesets, so that one play loop (``kernel.py``) can run any of them::

    state = [ OVER | SEAT | TURNS | N_PLAYERS | FIRST | END_REASON | PHASE | TRIGGERED | CAP_TURNS
            | ruleset ... ]

Outcomes of a chunk of games are two ``int32`` arrays:

- ``game_out[g, :]``: ``GAME_COLUMNS`` then the ruleset's game-level counters;
- ``seat_out[g, seat, :]``: ``SEAT_COLUMNS`` then the ruleset's per-seat counters.
"""

# State header ------------------------------------------------------------------------------------
H_OVER = 0  # 1 once the game has ended
H_SEAT = 1  # seat that must decide now (seats are numbered clockwise)
H_TURNS = 2  # player turns completed so far, all seats together
H_N_PLAYERS = 3  # players in this game
H_FIRST = 4  # seat of the initial player
H_END_REASON = 5  # ruleset's end-reason code once over, -1 before
H_PHASE = 6  # ruleset's code for the kind of decision pending
H_TRIGGERED = 7  # 1 once the end of the game is triggered (the round is then completed)
H_CAP_TURNS = 8  # turn-cap safeguard in player turns (turn_cap rounds x players), set by the loop
HEADER_LEN = 9

# End reason every ruleset shares: the turn-cap safeguard fired (not a rule of any game).
END_TURN_CAP = 0

# Outcome columns ---------------------------------------------------------------------------------
GAME_COLUMNS = (
    "n_players",
    "first_seat",
    "turns",
    "end_reason",
    "turn_cap_hit",
    "decisions",
    "bad_bot_answers",
)
(
    G_N_PLAYERS,
    G_FIRST_SEAT,
    G_TURNS,
    G_END_REASON,
    G_TURN_CAP_HIT,
    G_DECISIONS,
    G_BAD_BOT_ANSWERS,
) = range(7)

SEAT_COLUMNS = ("score", "rank", "win")
S_SCORE, S_RANK, S_WIN = range(3)
