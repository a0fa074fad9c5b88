"""Piña Pirata bots (signature of ``cardsim.core.bots``)."""

from numba import njit

from cardsim.core.bots import Bot
from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import randint


@njit(**RULES_JIT)
def random_bot(obs, legal, n_legal, params, rng):
    """Uniform over the legal decisions."""
    return randint(rng, n_legal)


BUILTIN = {
    "random": Bot("random", random_bot, (), "uniform over the legal decisions of each step"),
}
