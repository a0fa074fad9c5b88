"""The search bot ``ismcts``: single-observer information-set Monte Carlo tree search, compiled.

One implementation for every ruleset that has a determinizer (``Ruleset.determinize``); the game
is reached only through its ``step`` and ``finalize`` (``kernel.py``), its determinizer and its
built-in bots (the rollout policy), handed in by the generated play loop (``specialize.py``) as
compile-time constants, so that numba compiles the search once per ruleset inside that loop.

The algorithm (SO-ISMCTS: Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 2012; the shape of OpenSpiel's ``algorithms/is_mcts.cc``). Each decision of the bot:

1. a fresh **determinization** per iteration: ``determinize(obs, ...)`` deals a complete game
   consistent with what the searching seat has observed (the cards it cannot see dealt again);
2. **select**: from the root, at each node, among the decisions legal *in this determinization*,
   by UCB1 on rewards in [0, 1] with **availability counts** (an edge's count of the iterations in
   which it was legal at its node replaces the parent's visits: ``mean + c * sqrt(ln(avail) /
   visits)``), until a legal decision has no node yet;
3. **expand** one such decision (chosen uniformly at random) and **simulate** to the end of the
   game with the rollout bot (``rollout``: any built-in bot of the game, every seat);
4. **backpropagate** the final rewards: each node adds the reward of the seat that took its
   decision.

Variant, and why: *single observer* (one tree). The other seats' decisions are nodes of the same
tree, keyed by (seat, phase, decision code) and chosen by the same UCB on *their* rewards: a
decision code names a public act in all four games (a position, a slot, a card that is then
shown), so the searching seat can tell the branches apart, and one tree spends the whole budget on
one set of statistics (MO-ISMCTS, one tree per seat, splits it and is 2-4x slower per iteration in
Cowling et al.). The known price is strategy fusion where a seat's act stays hidden. **Chance**
(draws, shuffles) happens inside ``step`` with the search's own random stream, so a node averages
over chance outcomes (an "open-loop" tree below the root, as in Cowling et al.'s Dou Di Zhu trees).

Heuristic advice (``prior``, ``bias``): progressive bias (Chaslot et al., "Progressive Strategies
for Monte-Carlo Tree Search", 2008). At a tree node, the prior bot's choice in this determinization
is expanded before the other untried decisions, and its UCB score gains ``bias / (visits + 1)``,
so a heuristic's advice steers the first visits and fades as the node's statistics grow. It is
what made the search beat Pajarracos's ``strategist`` (docs/search.md, "Strength"): a luck-heavy
game with 3-6 seats, where 1,000 plain iterations leave each root decision ~50 noisy rollouts.
Opponents (``opponents``): ``tree`` is the single-observer tree above; ``rollout`` takes the
other seats' decisions with the rollout bot and keeps only the searching seat's in the tree (TAG's
"SelfOnly"), an opponent model instead of a search of their replies.

Rewards: ``win``: 1 to a winner, shared equally among tied winners, 0 otherwise; ``margin``: the
seat's score placed between the game's lowest (0) and highest (1) score (0.5 each when all tie).
The final choice is the root's decision with the most ``visits`` (robust child) or the best mean
``value``. When the node pool is full the tree stops growing and iterations keep simulating from
its leaves.

Everything is compiled without reference counting (``jit.RULES_JIT``): the tree is flat arrays in a
pool the play loop allocates once per thread (``search_buffers``), nothing is allocated per call.
The search's randomness is a stream started from one draw of the bot's stream per decision, so a
game's result depends on (seed, game) only: not on threads, chunks or machines.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.jit import RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached
from cardsim.core.rng import next_u64, randint

# The bot's parameter vector (float64): the named parameters (PARAM_NAMES), then the rollout
# bots' own default parameters, ROLLOUT_WIDTH entries each in the order of ``rollout_names``.
P_ITERATIONS, P_C, P_ROLLOUT, P_REWARD, P_FINAL, P_OPPONENTS, P_PRIOR, P_BIAS = range(8)
PARAM_NAMES = ("iterations", "c", "rollout", "reward", "final", "opponents", "prior", "bias")
P_ROLLOUT_PARAMS = len(PARAM_NAMES)
REWARDS = ("win", "margin")
REWARD_WIN, REWARD_MARGIN = range(2)
FINALS = ("visits", "value")
FINAL_VISITS, FINAL_VALUE = range(2)
# How the other seats decide inside the tree (module docstring, "Opponents"): ``tree``, by UCB on
# their own rewards in the one tree; ``rollout``, by the rollout bot (the tree holds the searching
# seat's own decisions only)
OPPONENTS = ("tree", "rollout")
OPPONENTS_TREE, OPPONENTS_ROLLOUT = range(2)
# Progressive bias (Chaslot et al. 2008): at every tree node the ``prior`` bot's choice is
# expanded first and its UCB score gains ``bias / (visits + 1)``, a heuristic's advice that fades
# as the node's own statistics grow; ``prior=none`` (value 0) turns it off
NO_PRIOR = "none"
DEFAULT_BIAS = 10.0  # Pajarracos 3p against strategist: bias 1 level, 3 level, 10 and 30 ahead
DEFAULT_C = (
    0.7  # UCB exploration on rewards in [0, 1] (TAG uses 1; 0.7 ~ 1/sqrt(2), Kocsis-Szepesvari)
)
MAX_ITERATIONS = 1_000_000

# The tree: int32 [POOL, T_FIELDS], a node per row (the root is row 0), and float64 [POOL] of the
# reward sums. A node is the decision that leads to it: seat, phase and code, plus its statistics.
T_PARENT = 0  # row of the parent (-1: the root)
T_CHILD = 1  # first child (-1: none)
T_SIBLING = 2  # next child of the same parent (-1: last)
T_SEAT = 3  # seat that took the decision (whose reward the node sums)
T_PHASE = (
    4  # state[H_PHASE] when it was taken (the same code can mean another act in another phase)
)
T_ACTION = 5  # decision code (the root's: engine turns its iterations played, for benchmarks)
T_VISITS = 6  # iterations through this node
T_AVAIL = 7  # iterations in which its decision was legal at its parent (availability count)
T_FIELDS = 8
POOL = 1 << 16  # nodes per thread (an iteration adds at most one: 2.5 MB a thread)
MAX_SEATS = 8  # rows of the scratch seat outcome (more than any ruleset's players)

# Default budget per ruleset: the ``iterations`` at which the skill ladder's time target holds
# (issue 30: ~1,100 self-play games at the top level in ~10 of its 30 minutes on 2 cores, so about
# 1 s a game with ismcts in every seat, one thread); a ruleset not listed gets DEFAULT_ITERATIONS.
# Chosen with `python benchmarks/bench_budgets.py` (2026-12-06, on a machine shared with other
# engineers, load 5-11): each game's seconds a game at its usual player count are measured
# against Fruit Picking 4p at 1,000 in the same minute, and a game gets the round budget that
# costs no more than that reference (docs/search.md, "Budgets"):
# - Fruit Picking 4p, 1,000: the reference (1.8-2.0 s a game at load ~10, one thread);
# - Pajarracos 4p: 300 iterations cost 0.15x the reference with random rollouts, 0.26x with the
#   default greedy ones (ROLLOUTS), so 1,000 ~0.9x;
# - Piepmatz 4p: 300 iterations cost 0.44x with random rollouts (1,000 ~1.5x: 600 chosen) and
#   0.64x with greedy ones, so 600 costs ~1.3x the reference with the default greedy rollouts:
#   kept because the strength study measured 600 (beats planner); lower it to ~450 if the ladder
#   overruns its time.
DEFAULT_ITERATIONS = 1000
# - Piña Pirata 4p: `python benchmarks/bench_budgets.py --game pina-pirata --iterations 40 100
#   200` (2026-12-06 18:48 UTC, load 5-6): 40 iterations 0.19x the reference, 100 1.1x, 200 1.9x;
#   100 is the round budget at the reference's cost (a game lasts ~310 turns against Fruit
#   Picking's ~60, so far fewer iterations cost the same).
ITERATIONS = {"fruit-picking": 1000, "pajarracos": 1000, "piepmatz": 600, "pina-pirata": 100}

# Default rollout policy per ruleset (a built-in bot's name; not listed: ``random``), where the
# strength study (analysis/search_strength.py) found random rollouts losing to a heuristic.
# `cardsim compare GAME --bots ismcts,HEURISTIC -n 20|30` at the default budget, 2026-12-06:
# - Pajarracos 3p against strategist (33.3% fair): random rollouts 25.9% [19.9, 33.1], greedy
#   32.5% [25.8, 40.0], strategist rollouts 29.8%, the margin reward 22.5%; greedy at 3,000
#   iterations 33.9% [27.4, 41.1]: greedy is the best policy found, level with strategist;
# - Piepmatz 2p against planner: random rollouts 50.0% [36.4, 63.6], greedy 68.3% [55.6, 78.8].
ROLLOUTS: dict[str, str] = {"pajarracos": "greedy", "piepmatz": "greedy"}

# Default opponent model per ruleset (``OPPONENTS``; not listed: ``tree``).
OPPONENT_MODELS: dict[str, str] = {}
# Default prior per ruleset (a built-in bot's name; not listed: ``none``).
PRIORS: dict[str, str] = {"pajarracos": "strategist"}

# Default exploration per ruleset (not listed: DEFAULT_C). Pajarracos 3p, where a 3-player win
# share of ~1/3 leaves the children's means a few points apart: at c = 0.7 the exploration term
# keeps a node's visits nearly even, and twice the iterations did not beat the default (2,000
# against 1,000: 33.0% [30.9, 35.2], fair 33.3%, 200 deals); at 0.3 the visits follow the means:
# 2,000 against 1,000 35.1% [33.6, 36.7] on 400 deals, and 1,000 against strategist 38.8%
# [35.7, 42.1] (reports/search-strength/pajarracos.md; docs/search.md, "Strength").
EXPLORATION: dict[str, float] = {"pajarracos": 0.3}


def rollout_names(ruleset) -> tuple[str, ...]:
    """The rollout policies of ``ruleset``'s search bot: its built-in bots (not search bots), in
    the order of ``ruleset.bots()``; ``rollout=NAME`` is an index into this."""
    return tuple(name for name, bot in builtin_bots(ruleset).items() if not bot.search)


def builtin_bots(ruleset) -> dict:
    """The ruleset's own bots, without the search bots ``registry`` adds."""
    bots = ruleset.bots
    return dict(getattr(bots, "inner", bots)())


def rollout_width(ruleset) -> int:
    """Entries of the parameter vector each rollout bot's defaults take (at least 1)."""
    return max([1] + [len(b.params) for b in builtin_bots(ruleset).values()])


def search_bot(ruleset):
    """The ``ismcts`` ``Bot`` of ``ruleset`` (which has a determinizer)."""
    from cardsim.core.bots import Bot

    names = rollout_names(ruleset)
    rollout = names.index(ROLLOUTS.get(ruleset.name, "random"))
    iterations = ITERATIONS.get(ruleset.name, DEFAULT_ITERATIONS)
    opponents = OPPONENTS.index(OPPONENT_MODELS.get(ruleset.name, "tree"))
    prior = (NO_PRIOR, *names).index(PRIORS.get(ruleset.name, NO_PRIOR))
    c = EXPLORATION.get(ruleset.name, DEFAULT_C)
    params = [  # in the order of PARAM_NAMES
        float(iterations), c, float(rollout), REWARD_WIN, FINAL_VISITS, float(opponents),
        float(prior), DEFAULT_BIAS,
    ]  # fmt: skip
    width = rollout_width(ruleset)
    bots = builtin_bots(ruleset)
    for name in names:
        own = list(bots[name].params)
        params += own + [0.0] * (width - len(own))
    return Bot(
        "ismcts",
        SEARCH_BOT,
        tuple(params),
        f"information-set MCTS: {iterations} iterations a decision, {names[rollout]} rollouts "
        "(docs/search.md)",
        PARAM_NAMES,
        search=True,
        choices=(
            ("rollout", names),
            ("reward", REWARDS),
            ("final", FINALS),
            ("opponents", OPPONENTS),
            ("prior", (NO_PRIOR, *names)),
        ),
        bounds=(
            ("iterations", 1, MAX_ITERATIONS, True),
            ("c", 0.0, 100.0, False),
            ("bias", 0.0, 100.0, False),
        ),
    )


def search_buffers(ruleset_sizes) -> tuple[np.ndarray, ...]:
    """One thread's search scratch (the play loop's extra ``run_block`` arguments):
    tree, tree_value, sim_state, sim_legal, sim_game_row, sim_seat_rows, seat_reward, search_rng.
    ``ruleset_sizes``: (state_len, legal_len, game columns, seat columns)."""
    state_len, legal_len, game_cols, seat_cols = ruleset_sizes
    return (
        np.empty((POOL, T_FIELDS), np.int32),
        np.empty(POOL, np.float64),
        np.empty(state_len, np.int32),
        np.empty(legal_len, np.int32),
        np.empty(game_cols, np.int32),
        np.empty((MAX_SEATS, seat_cols), np.int32),
        np.empty(MAX_SEATS, np.float64),
        np.empty(1, np.uint64),
    )


# The tree -----------------------------------------------------------------------------------------

SEARCH_JIT = {**RULES_JIT, "cache": False}
"""The options of the bound search functions (``bind_search``): the rules' (no reference
counting), but not cached on their own: each ruleset's copy is compiled into, and cached with,
the play loop that seats it (``specialize.py``); cached on their own, the copies of two rulesets
would share one cache index (same file, same name, same argument types)."""

# The game's functions, as the search functions below read them: module globals that
# ``bind_search`` replaces by a ruleset's own (compile-time constants, called directly, which is
# what lets numba cache the play loop: a function passed as an argument is a "dynamic global" that
# numba refuses to cache). Unbound, the search functions are never compiled.
step = determinize = finalize = rollout_bot = None


@njit(**RULES_JIT)
def new_node(tree, tree_value, row, parent, seat, phase, action):
    """Write node ``row`` (unvisited, no children) and link it first among ``parent``'s children."""
    tree[row, T_PARENT] = parent
    tree[row, T_CHILD] = -1
    tree[row, T_SIBLING] = tree[parent, T_CHILD] if parent >= 0 else -1
    tree[row, T_SEAT] = seat
    tree[row, T_PHASE] = phase
    tree[row, T_ACTION] = action
    tree[row, T_VISITS] = 0
    tree[row, T_AVAIL] = 0
    tree_value[row] = 0.0
    if parent >= 0:
        tree[parent, T_CHILD] = row


@njit(**RULES_JIT)
def find_child(tree, node, seat, phase, action):
    """The child of ``node`` for (seat, phase, action); -1 if it has none."""
    child = tree[node, T_CHILD]
    while child >= 0:
        if (
            tree[child, T_ACTION] == action
            and tree[child, T_SEAT] == seat
            and tree[child, T_PHASE] == phase
        ):
            return child
        child = tree[child, T_SIBLING]
    return -1


@njit(**RULES_JIT)
def ucb(tree, tree_value, child, c):
    """UCB1 with the availability count in place of the parent's visits (Cowling et al. 2012)."""
    visits = tree[child, T_VISITS]
    mean = tree_value[child] / visits
    return mean + c * math.sqrt(math.log(tree[child, T_AVAIL]) / visits)


@njit(**RULES_JIT)
def expand(tree, tree_value, n_nodes, node, seat, phase, legal, k):
    """Add decision ``legal[k]`` as a new child of ``node`` (available once, unvisited):
    ``select``'s answer (k, child row, nodes in the pool)."""
    new_node(tree, tree_value, n_nodes, node, seat, phase, legal[k])
    tree[n_nodes, T_AVAIL] = 1
    return k, n_nodes, n_nodes + 1


@njit(**RULES_JIT)
def select(tree, tree_value, n_nodes, node, state, legal, n, c, prior_k, bias, rng):
    """One step down the tree at ``node`` for the determinization ``state`` with its legal
    decisions ``legal[:n]``: returns (index into legal, child row, nodes in the pool). Counts the
    availability of every legal child; expands one untried legal decision at random if there is
    one and the pool has room (the child is new: unvisited), else takes the best UCB. Child -1:
    the pool is full and no legal decision has a node (simulate from here). ``prior_k``: the
    index of the prior bot's choice (-1: none), expanded first and biased by ``bias``."""
    seat = state[L.H_SEAT]
    phase = state[L.H_PHASE]
    untried = 0
    prior_untried = False
    best = -1
    best_k = -1
    best_score = -1.0
    for k in range(n):
        child = find_child(tree, node, seat, phase, legal[k])
        if child < 0:
            untried += 1
            prior_untried = prior_untried or k == prior_k
            continue
        tree[child, T_AVAIL] += 1
        if tree[child, T_VISITS] == 0:
            continue  # only a pool-full path leaves an unvisited node: never the best
        score = ucb(tree, tree_value, child, c)
        if k == prior_k:
            score += bias / (tree[child, T_VISITS] + 1)
        if score > best_score:
            best, best_k, best_score = child, k, score
    if untried > 0 and n_nodes < tree.shape[0]:
        if prior_untried:
            return expand(tree, tree_value, n_nodes, node, seat, phase, legal, prior_k)
        pick = randint(rng, untried)
        for k in range(n):
            if find_child(tree, node, seat, phase, legal[k]) < 0:
                if pick == 0:
                    return expand(tree, tree_value, n_nodes, node, seat, phase, legal, k)
                pick -= 1
    return best_k, best, n_nodes


@njit(**RULES_JIT)
def rewards(state, seat_rows, reward_kind, out):
    """Each seat's reward in [0, 1] from ``finalize``'s seat rows (module docstring)."""
    n_players = state[L.H_N_PLAYERS]
    if reward_kind == REWARD_MARGIN:
        lo = seat_rows[0, L.S_SCORE]
        hi = lo
        for s in range(n_players):
            lo = min(lo, seat_rows[s, L.S_SCORE])
            hi = max(hi, seat_rows[s, L.S_SCORE])
        for s in range(n_players):
            out[s] = 0.5 if hi == lo else (seat_rows[s, L.S_SCORE] - lo) / (hi - lo)
        return
    winners = 0
    for s in range(n_players):
        winners += seat_rows[s, L.S_WIN]
    for s in range(n_players):
        out[s] = seat_rows[s, L.S_WIN] / winners if winners > 0 else 0.0


@njit(**RULES_JIT)
def backpropagate(tree, tree_value, node, reward):
    """Add the iteration to ``node`` and its ancestors, each with its deciding seat's reward."""
    while node > 0:
        tree[node, T_VISITS] += 1
        tree_value[node] += reward[tree[node, T_SEAT]]
        node = tree[node, T_PARENT]
    tree[0, T_VISITS] += 1


@njit(**RULES_JIT)
def final_choice(tree, tree_value, state, legal, n, final):
    """The root decision to play: index into ``legal[:n]`` of the most visited child (``visits``)
    or of the best mean (``value``); the first in legal order on ties."""
    best_k = 0
    best = -1.0
    for k in range(n):
        child = find_child(tree, 0, state[L.H_SEAT], state[L.H_PHASE], legal[k])
        if child < 0 or tree[child, T_VISITS] == 0:
            continue
        visits = tree[child, T_VISITS]
        score = visits if final == FINAL_VISITS else tree_value[child] / visits
        if score > best:
            best, best_k = score, k
    return best_k


def simulate(rules, state, legal, n, code, params, rng):
    """Play ``state`` (its legal decisions ``legal[:n]``) to the end with the rollout bot
    ``code`` in every seat, under the loop's rules (a single legal decision is taken without
    asking; the turn cap is checked after every decision)."""
    while state[L.H_OVER] == 0:
        choice = 0
        if n > 1:
            choice = rollout_bot(code, state, legal, n, params, rng)
            if choice < 0 or choice >= n:  # a built-in bot never does; keep the search in bounds
                choice = 0
        n = step(state, rules, legal[choice], rng, legal)
        end_turn_cap_reached(state)


# fmt: off
def iterate(
    rules, obs, legal, n, params, tree, tree_value, n_nodes, sim_state, sim_legal, sim_game_row,
    sim_seat_rows, seat_reward, rng,
):
    # fmt: on
    """One iteration: determinize, select and expand, simulate, backpropagate; returns the nodes
    in the pool."""
    determinize(obs, rules, rng, sim_state)
    for k in range(n):
        sim_legal[k] = legal[k]
    n_sim = n
    node = 0
    c = params[P_C]
    code = np.int64(params[P_ROLLOUT])
    me = obs[L.H_SEAT]
    opponents_by_rollout = np.int64(params[P_OPPONENTS]) == OPPONENTS_ROLLOUT
    prior = np.int64(params[P_PRIOR])
    bias = params[P_BIAS]
    while sim_state[L.H_OVER] == 0:
        k = 0
        child = node
        if n_sim > 1 and opponents_by_rollout and sim_state[L.H_SEAT] != me:
            # another seat's decision, taken by its model, not searched: the next decision of
            # the searching seat hangs below its previous one (open loop over the others' acts)
            k = rollout_bot(code, sim_state, sim_legal, n_sim, params, rng)
            if k < 0 or k >= n_sim:
                k = 0
            expanded = False
        elif n_sim > 1:
            prior_k = -1
            if prior > 0:
                prior_k = rollout_bot(prior - 1, sim_state, sim_legal, n_sim, params, rng)
                if prior_k >= n_sim:
                    prior_k = -1
            k, child, grown = select(  # fmt: skip
                tree, tree_value, n_nodes, node, sim_state, sim_legal, n_sim, c, prior_k, bias,
                rng,
            )
            if child < 0:
                break  # the pool is full: simulate from here
            expanded = grown > n_nodes
            n_nodes = grown
        else:
            expanded = False  # a forced decision is no node of the tree
        n_sim = step(sim_state, rules, sim_legal[k], rng, sim_legal)
        end_turn_cap_reached(sim_state)
        node = child
        if expanded:
            break
    simulate(rules, sim_state, sim_legal, n_sim, code, params, rng)
    tree[0, T_ACTION] += sim_state[L.H_TURNS] - obs[L.H_TURNS]  # engine turns (benchmarks)
    finalize(sim_state, rules, sim_game_row, sim_seat_rows)
    rewards(sim_state, sim_seat_rows, np.int64(params[P_REWARD]), seat_reward)
    backpropagate(tree, tree_value, node, seat_reward)
    return n_nodes


# fmt: off
def ismcts(
    rules, obs, legal, n, params, bot_rng, tree, tree_value, sim_state, sim_legal, sim_game_row,
    sim_seat_rows, seat_reward, search_rng,
):
    # fmt: on
    """The bot: ``params[P_ITERATIONS]`` iterations from the observation ``obs`` (the deciding
    seat's, ``legal[:n]`` its decisions); returns the index of its choice in ``legal``. The
    search's stream starts from one draw of ``bot_rng``; the tree is left in ``tree`` (the root
    is row 0) for ``root_share``."""
    search_rng[0] = next_u64(bot_rng)
    new_node(tree, tree_value, 0, -1, -1, -1, 0)
    n_nodes = 1
    for _ in range(np.int64(params[P_ITERATIONS])):
        n_nodes = iterate(  # fmt: skip
            rules, obs, legal, n, params, tree, tree_value, n_nodes, sim_state, sim_legal,
            sim_game_row, sim_seat_rows, seat_reward, search_rng,
        )
    return final_choice(tree, tree_value, obs, legal, n, np.int64(params[P_FINAL]))


BOUND = ("simulate", "iterate", "ismcts")
"""The search functions that call the game (each calls the one before it)."""


def bind_search(step, determinize, finalize, rollout_bot):
    """The search (``ismcts``) compiled for one ruleset: copies of the functions of ``BOUND``
    whose globals name the ruleset's ``step``, ``determinize``, ``finalize`` and the loop's
    ``rollout_bot`` (all ``@njit``); called by the generated play loop (``specialize.py``)."""
    import types as pytypes

    scope = dict(globals())
    scope.update(step=step, determinize=determinize, finalize=finalize, rollout_bot=rollout_bot)
    for name in BOUND:
        template = globals()[name]
        copy = pytypes.FunctionType(template.__code__, scope, name, template.__defaults__)
        copy.__qualname__ = template.__qualname__
        copy.__doc__ = template.__doc__
        scope[name] = njit(**SEARCH_JIT)(copy)
    return scope["ismcts"]


@njit(**RULES_JIT)
def search_bot_marker(obs, legal, n, params, rng):
    """Stands for the search bot in ``Bot.fn`` (a module-level compiled function, as the play loop
    names bots by): the loop calls ``bind_search``'s copy instead, never this. Answers -1 (a
    fault) if anything ever did."""
    return -1


SEARCH_BOT = search_bot_marker
