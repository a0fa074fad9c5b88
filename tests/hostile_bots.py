"""A user's bot that misbehaves on purpose, for tests/test_bot_boundary.py.

One function whose misbehaviour is chosen by ``params[0]`` (so one compiled play loop serves
every case: parameters are data). Every mode draws its choice as the built-in random bot does
(``randint(rng, n_legal)``), so a mode that is harmless to the game must give the random bot's
games exactly. ``params[1]`` > 0 delays a fault to a decision where ``randint(rng, params[1])``
draws 0 (an extra draw, so a later game, the same one whatever the threads).
"""

from numba import njit

from cardsim.core.rng import randint

BEHAVE = 0  # plays like the random bot
VANDAL = 1  # writes into its observation, its legal list and its parameters
OUT_OF_RANGE = 2  # answers n_legal
RAISES = 3  # raises ValueError
PEEKS = 4  # reads past the end of its observation (other players' hidden cards)
OVERRUNS = 5  # writes past the end of its legal list
NEGATIVE = 6  # answers -1


@njit
def hostile(obs, legal, n_legal, params, rng):
    """Misbehaves as params[0] says (module docstring)."""
    mode = int(params[0])
    if params[1] > 0 and randint(rng, int(params[1])) != 0:
        mode = BEHAVE
    choice = randint(rng, n_legal)
    if mode == VANDAL:
        obs[:] = -7
        legal[:] = 99
        params[:] = 1.0  # if it stuck, the next decision would draw once more
        return choice
    if mode == OUT_OF_RANGE:
        return n_legal
    if mode == RAISES:
        raise ValueError("hostile bot gives up")
    if mode == PEEKS:
        return abs(obs[obs.shape[0] + 3]) % n_legal
    if mode == OVERRUNS:
        legal[legal.shape[0] + 2] = 0
        return choice
    if mode == NEGATIVE:
        return -1
    return choice
