"""Example user bots for Fruit Picking: `cardsim run fruit-picking --bot-file examples/my_bots.py
--bots cheapskate,greedy --players 2`.

A bot is an @njit function bot(obs, legal, n_legal, params, rng) -> int that returns the index of
its choice in legal[:n_legal]. obs is the public game state laid out as in
cardsim/games/fruit_picking/cards.py; params are its parameters (BOT_PARAMS below).
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.rng import randint
from cardsim.games.fruit_picking import cards as C

BOT_PARAMS = {"cheapskate": [3.0]}  # the highest price it will pay for a card


@njit
def cheapskate(obs, legal, n_legal, params, rng):
    """buys the cheapest affordable card up to a price cap, else waters; plants its biggest pile"""
    seat = obs[L.H_SEAT]
    if obs[L.H_PHASE] == C.PHASE_TARGET:  # water, or buy a card of the target's fruit
        choice, best_price = -1, params[0] + 1
        for i in range(n_legal):
            if legal[i] >= C.BUY_SLOT:
                price = obs[C.F_MARKET_PRICE + legal[i] - C.BUY_SLOT]
                if price < best_price:
                    choice, best_price = i, price
            elif legal[i] == C.WATER and choice < 0:
                choice = i
        return max(choice, 0)
    if obs[L.H_PHASE] == C.PHASE_PLANT:  # legal codes are farm positions 1..6 holding seeds
        seeds = C.F_SEATS + seat * C.SEAT_LEN + C.SEAT_SEEDS
        best, most = 0, -1
        for i in range(n_legal):
            if obs[seeds + legal[i]] > most:
                best, most = i, obs[seeds + legal[i]]
        return best
    return randint(rng, n_legal)  # variant decisions: leave it to chance
