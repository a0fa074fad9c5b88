"""Piña Pirata bots: compiled functions with the core bot signature
``bot(obs, legal, n_legal, params, rng) -> index into legal`` (``cardsim.core.bots``).

``obs`` is the state's public prefix and the deciding seat's Hand (``cards.py``: ``[0,
PUBLIC_END)``, ``OBS_HAND``); the seat is ``obs[H_SEAT]``, the kind of decision ``obs[H_PHASE]``
(``cards.PH_*``) and its context ``obs[F_CTX_A]``, ``obs[F_CTX_B]``. A bot sees no other Hand:
only Hand sizes, cards in front of players, the top card(s), tiles, map pieces, T13's face-up deck
card, T33's face-up last cards and each player's last reveal this round (``SH_REVEALED``: the card
shown to T30, or a Rabbit shown to T14); T17's legal set shows the Hand it looks at (A15).

- ``random``: uniform over the legal decisions of each step.
- The other bots share one weighted evaluation (``decision_value``) of every legal code; the
  best value wins, ties broken uniformly at random:
  - a play: ``W_SHED`` for the card leaving the Hand, ``W_CONNECT`` per card left in the Hand
    that shares a pirate with the card played (it can follow it if the top card stays),
    ``W_FLEX`` (subtracted) per tenth of the unseen cards the played card could follow (a card
    that matches much is worth keeping), ``W_TILES`` times the value to the player of every tile the card
    triggers (``tile_value``: shedding tiles such as T4, T16 are good, T23's two draws bad,
    tiles that hurt the next player or the player on the left are worth ``W_HURT`` times the
    urgency of stopping them: more when they hold few cards); a play that empties the Hand
    ``W_WIN``;
  - a draw (when optional) ``-W_SHED``; an optional discard (T3, T35) ``W_SHED`` minus the
    card's connections; PASS 0;
  - tile choices: T5 names the opponent with fewest cards and the pirate on most unseen cards;
    cards given away, put on the deck or discarded are the least connected ones; T17 takes the
    best connected card; T30 reveals a Turtle (the Rabbit's player then draws two); T14 reveals;
    T24 gives the Turtle away; T15 and T19 decline cards; T40 names the pirate most common in
    the Hand; T27 turns down the tile in play worth least to the player; R11 puts into play the
    drawn tile worth most to the player and replaces the one worth least.
  - ``greedy``: sheds fastest (``W_SHED``, ``W_CONNECT``) and uses tiles to hurt the player with
    fewest cards (T5), with no tile valuation otherwise.
  - ``captain``: the tuned weighting (``analysis/tune_pina_pirata_captain.py``), stronger than
    the others.
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import low_bit_index, popcount
from cardsim.core.bots import Bot
from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import randint
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.state import ONTO_PLAYED_TABLE, ONTO_UNDER_TABLE, PLAY_KEY_TABLE

# Weights (indices into params) -------------------------------------------------------------------
W_SHED = 0  # a card leaving the Hand
W_CONNECT = 1  # per remaining card sharing a pirate with the card played
W_FLEX = 2  # per tenth of the unseen cards the played card could follow (subtracted)
W_TILES = 3  # scale of the tiles' values (tile_value)
W_HURT = 4  # tiles striking an opponent, scaled by their urgency
W_WIN = 5  # emptying the Hand
W_JOKER = 6  # playing a card that is a Joker for the player (subtracted: keep them)
PARAM_NAMES = ("shed", "connect", "flex", "tiles", "hurt", "win", "joker")

GREEDY_PARAMS = (1.0, 0.1, 0.0, 0.0, 0.0, 10.0, 0.0)
CAPTAIN_PARAMS = (
    1.0,
    0.19,
    0.13,
    0.65,
    0.54,
    17.0,
    0.36,
)  # analysis/tune_pina_pirata_captain.py 1 25 600 (iteration 4; rounded)

# Value of a tile's effect to the player who triggers it, in cards shed (negative: cards gained);
# tiles that strike an opponent get W_HURT on top (HURTS). Index: tile number.
_TV = np.zeros(C.N_TILES + 1, np.float64)
for _t, _v in {
    2: 0.3, 4: 1.0, 5: -0.8, 8: 0.8, 10: 0.2, 12: 0.2, 14: 0.2, 15: 0.1, 16: 1.0, 17: -1.0,
    19: -0.2, 20: 0.3, 21: 0.0, 22: -0.6, 23: -1.0, 26: 0.3, 30: -0.3, 40: 0.3,
}.items():  # fmt: skip
    _TV[_t] = _v
TILE_VALUE = _TV
_HURTS = np.zeros(C.N_TILES + 1, np.int32)  # 1: left player, 2: next player, 3: every opponent
for _t, _w in {2: 0, 10: 1, 12: 2, 14: 3, 16: 1, 5: 3}.items():
    _HURTS[_t] = _w
HURTS = _HURTS


@njit(**RULES_JIT)
def random_bot(obs, legal, n_legal, params, rng):
    """Uniform over the legal decisions."""
    return randint(rng, n_legal)


@njit(**RULES_JIT)
def hand_has(obs, card):
    return obs[C.OBS_HAND + card] == 1


@njit(**RULES_JIT)
def mask_of(obs, card):
    return obs[C.F_MASKS + card]


@njit(**RULES_JIT)
def hand_count(obs, seat):
    return obs[C.F_SEATS + seat * C.SEAT_LEN + C.SH_HAND_N]


# The bot's working space (cards.OBS_SCRATCH), filled once per decision by ``count_pirates``
SCR_HAND = C.OBS_SCRATCH  # [N_PIRATES] cards of the Hand showing each pirate
SCR_UNSEEN = SCR_HAND + C.N_PIRATES  # [N_PIRATES] cards showing it neither in the Hand nor on top


@njit(**RULES_JIT)
def count_pirates(obs):
    """Per pirate, the Hand's cards showing it and the others but the top cards: a popcount of
    the pirate's cards (``F_PIRATE_BITS``) within and outside the Hand (``F_SHOWN_BITS``) per
    word, not a pass over every card (it was a quarter of greedy's time)."""
    top0 = obs[C.F_TOP]
    top1 = obs[C.F_TOP + 1]
    for p in range(C.N_PIRATES):
        in_hand = 0
        other = 0
        for w in range(C.HAND_WORDS):
            cards = obs[C.F_PIRATE_BITS + p * C.HAND_WORDS + w] & 0xFFFFFFFF
            hand = obs[C.F_SHOWN_BITS + w] & 0xFFFFFFFF
            in_hand += popcount(cards & hand)
            other += popcount(cards & ~hand)
        # a top card lies on its pile, never in the Hand
        if top0 >= 0 and mask_of(obs, top0) >> p & 1:
            other -= 1
        if top1 >= 0 and mask_of(obs, top1) >> p & 1:
            other -= 1
        obs[SCR_HAND + p] = in_hand
        obs[SCR_UNSEEN + p] = other


@njit(**RULES_JIT)
def connections(obs, card):
    """Cards of the Hand (other than ``card``) sharing a pirate with ``card``: only the duo of two
    pirates shows both, so the per-pirate counts add up without double counting."""
    m = mask_of(obs, card)
    own = 1 if hand_has(obs, card) else 0
    k = 0
    while m:
        low = m & -m
        m ^= low
        k += obs[SCR_HAND + low_bit_index(low)] - own
    return k


@njit(**RULES_JIT)
def unseen_with(obs, pirate):
    """Cards showing ``pirate`` that are neither in the Hand nor on top of a pile."""
    return obs[SCR_UNSEEN + pirate]


@njit(**RULES_JIT)
def tile_on(obs, tile):
    for s in range(obs[C.F_N_TILES]):
        if obs[C.F_TILES + s] == tile:
            return obs[C.F_TILE_DOWN + s] == 0
    return False


@njit(**RULES_JIT)
def urgency(obs, seat):
    """How much stopping ``seat`` matters: 1 / (cards in Hand), the nearer to winning the more."""
    return 1.0 / max(hand_count(obs, seat), 1)


@njit(**RULES_JIT)
def tile_worth(obs, params, tile, me):
    """Value of ``tile``'s effect when the player triggers it."""
    v = params[W_TILES] * TILE_VALUE[tile]
    target = HURTS[tile]
    n_players = obs[L.H_N_PLAYERS]
    if target == 1:
        v += params[W_HURT] * urgency(obs, (me + 1) % n_players)
    elif target == 2:
        v += params[W_HURT] * urgency(obs, (me + obs[C.F_DIR] + n_players) % n_players)
    elif target == 3:
        best = 0.0
        for s in range(n_players):
            if s != me:
                best = max(best, urgency(obs, s))
        v += params[W_HURT] * best
    return v


@njit(**RULES_JIT)
def play_value(obs, params, card, pile, me):
    hand = hand_count(obs, me)
    if hand == 1:
        return params[W_WIN]
    m = mask_of(obs, card)
    v = params[W_SHED] + params[W_CONNECT] * connections(obs, card)
    # A term whose weight is 0 adds exactly 0.0 (its factors are finite) and a value is only
    # compared: skipping it picks the same moves (greedy's flex, joker, tiles and hurt weights).
    if params[W_FLEX] != 0.0:
        flex = 0
        x = m
        while x:
            low = x & -x
            x ^= low
            flex += unseen_with(obs, low_bit_index(low))
        v -= params[W_FLEX] * flex / C.N_PIRATES
    if params[W_JOKER] != 0.0 and (
        (tile_on(obs, 9) and m >> C.WALRUS & 1) or (obs[C.F_GHOST] >= 0 and m >> obs[C.F_GHOST] & 1)
    ):
        v -= params[W_JOKER]
    if params[W_TILES] == 0.0 and params[W_HURT] == 0.0:
        return v
    under = obs[C.F_TOP + pile]
    for s in range(obs[C.F_N_TILES]):
        if obs[C.F_TILE_DOWN + s]:
            continue
        tile = obs[C.F_TILES + s]
        key = PLAY_KEY_TABLE[tile]
        hit = key >= 0 and m >> key & 1
        if ONTO_PLAYED_TABLE[tile] >= 0 and under >= 0:
            hit = (
                m >> ONTO_PLAYED_TABLE[tile] & 1
                and mask_of(obs, under) >> ONTO_UNDER_TABLE[tile] & 1
            )
        if tile == 40:
            hit = m & (m - 1) == 0
        if hit:
            v += tile_worth(obs, params, tile, me)
    return v


@njit(**RULES_JIT)
def least_connected(obs, card):
    """Higher for a card the Hand needs less (to give, discard or put away)."""
    return -connections(obs, card)


@njit(**RULES_JIT)
def in_hand_with(obs, pirate):
    return obs[SCR_HAND + pirate]


@njit(**RULES_JIT)
def decision_value(obs, params, code, me):
    phase = obs[L.H_PHASE]
    if phase == C.PH_MAIN or phase == C.PH_EXTRA or phase == C.PH_FULL_SAILS:
        if code < C.C_DRAW:
            return play_value(obs, params, code % C.CARD_SPAN, code // C.CARD_SPAN, me)
        if code == C.C_DRAW:
            return -params[W_SHED]
        return 0.0
    if phase == C.PH_T38_DRAW or phase == C.PH_T15 or phase == C.PH_T19:
        return 0.0 if code == C.C_PASS else -params[W_SHED]  # decline cards
    if phase == C.PH_T14 or phase == C.PH_T24:
        return 1.0 if code == C.C_YES else 0.0  # reveal a Rabbit; give the Turtle away
    if phase == C.PH_T3 or phase == C.PH_T35:
        if code == C.C_PASS:
            return 0.0
        return params[W_SHED] + 0.01 * least_connected(obs, (code - C.C_CARD) % C.CARD_SPAN)
    if phase == C.PH_T17 or (phase == C.PH_T5_GIVE and obs[C.F_CTX_B] == me):
        return float(connections(obs, (code - C.C_CARD) % C.CARD_SPAN))  # take the best card
    if phase == C.PH_T30:
        card = code - C.C_CARD
        return 1.0 if mask_of(obs, card) >> C.TURTLE & 1 else -0.01 * connections(obs, card)
    if phase == C.PH_T5_NAME:
        x = code - C.C_NAME
        pirate = x // C.MAX_PLAYERS
        opponent = x % C.MAX_PLAYERS
        return (
            10.0 * urgency(obs, opponent)
            + 0.1 * unseen_with(obs, pirate)
            + 0.01 * in_hand_with(obs, pirate)
        )
    if phase == C.PH_T20_NAME:
        return float(unseen_with(obs, code - C.C_PIRATE))
    if phase == C.PH_T40:
        return float(in_hand_with(obs, code - C.C_PIRATE))
    if phase == C.PH_T27:
        if code == C.C_PASS:
            return 0.0
        tile = obs[C.F_TILES + code - C.C_TILE]
        return -params[W_TILES] * TILE_VALUE[tile] + (
            0.5 if tile == 22 and obs[C.F_T22_HOLDER] == me else 0.0
        )
    if phase == C.PH_ASSIGN:
        x = code - C.C_ASSIGN
        p = x // 4
        return params[W_TILES] * TILE_VALUE[obs[C.F_ROUND_END + p]] if p < 3 else 0.0
    if phase == C.PH_REPLACE:
        return -params[W_TILES] * TILE_VALUE[obs[C.F_TILES + code - C.C_TILE]]
    # a card to give, put on the deck or discard: the least needed
    return float(least_connected(obs, (code - C.C_CARD) % C.CARD_SPAN))


@njit(**RULES_JIT)
def weighted_bot(obs, legal, n_legal, params, rng):
    """The best ``decision_value``; ties broken uniformly at random."""
    me = obs[L.H_SEAT]
    count_pirates(obs)
    best = -1e300
    n_best = 0
    choice = 0
    for i in range(n_legal):
        v = decision_value(obs, params, legal[i], me)
        if v > best + 1e-12:
            best = v
            n_best = 1
            choice = i
        elif v > best - 1e-12:
            n_best += 1
            if randint(rng, n_best) == 0:
                choice = i
    return choice


BUILTIN = {
    "random": Bot(
        "random",
        random_bot,
        (),
        "uniform over the legal decisions of each step",
        reads_observation=False,  # the loop then plays engine.step_blind
    ),
    "greedy": Bot(
        "greedy",
        weighted_bot,
        GREEDY_PARAMS,
        "sheds fastest: keeps most playable cards, hurts the player with fewest cards",
        PARAM_NAMES,
    ),
    "captain": Bot(
        "captain",
        weighted_bot,
        CAPTAIN_PARAMS,
        "tuned weighting: sheds, values the tiles it triggers, keeps Jokers, stops the leader",
        PARAM_NAMES,
    ),
}
