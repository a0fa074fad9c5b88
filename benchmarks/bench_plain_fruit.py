"""cardsim's Fruit Picking loop beside a plain, independent implementation of the same rules.

Issue 10 is checked "side by side with an independent implementation of the rules on this
machine". This file holds one: a straightforward single-file Numba implementation of Fruit
Picking, 2 players, default rules (``fruit-picking.md``; rules cited as R..), random bots
choosing uniformly among the same legal decisions as cardsim's ``random`` bot. It imports nothing
of cardsim's engine, loop or random numbers: only numpy and numba.

What "the same work" means (cardsim's ``games/fruit_picking/engine.py`` and ``bots.py``):

- a **turn** is one player's turn (R6-R19): one or more plantings (R8; again after a House
  target, R10), then watering (R12) or buying (R13-R18); or the "no seeds" rule (R7, A3);
- a **decision** is a planting (any of positions 1..6 holding a seed, R8) or the target action
  (WATER always, R12, A5; plus each market slot holding a card of the target's fruit that the
  House can pay, R13, R15). When only one decision is legal it is taken without a random draw
  (cardsim's loop does the same); otherwise the bot draws one uniformly.

Then the script checks that both do the same work (mean turns and decisions per game, seat and
first-player win rates, the distribution of legal-list sizes, each with a 95% CI), and times both
in this one process, alternated, one thread, process CPU, minimum of the repeats::

    python benchmarks/bench_plain_fruit.py [--games 200000] [--repeat 5] [--check-games 50000]

cardsim is timed through ``runner.iter_chunks`` on one thread: the code path of
``bench_engines.py``'s "fruit-picking 2 random" row.
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np
from numba import njit

# ---------------------------------------------------------------------------------------------
# 1. The plain implementation (numpy + numba only)
# ---------------------------------------------------------------------------------------------

PINEAPPLE, GRAPES, CHERRY, BANANA, STRAWBERRY, RAIN, HOUSE = 0, 1, 2, 3, 4, 5, 6
# fruits (or raindrops) on each kind of farm card, and on every market card of a fruit (R12, A2)
FRUITS = np.array([1, 1, 2, 2, 3, 2, 0], np.int64)
SURCHARGE = np.array([3, 2, 1, 0], np.int64)  # R15: from the slot next to the stack
N_SLOTS = 4  # R5
PER_KIND = 6  # 30 market cards, 6 per fruit kind (Components)
N_CARDS = 5 * PER_KIND
SEEDS = 18  # R1
TURN_CAP = 1000  # rounds (A18 safeguard, cardsim's default turn_cap)
PLANT, TARGET = 0, 1  # the two kinds of decision (for the legal-list statistics)
MAX_LEGAL = 8

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def next_random(rng):
    """splitmix64: advance rng[0] and return 64 random bits."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def below(rng, n):
    """A uniform integer in [0, n) (multiply-shift on the top 32 bits)."""
    return np.int64(((next_random(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def choose(rng, legal, n):
    """A uniform choice among ``legal[:n]``; a single legal one is forced and draws nothing (the
    engine's loop does the same)."""
    return legal[below(rng, n)] if n > 1 else legal[0]


@njit(cache=True)
def shuffle(rng, a):
    for i in range(len(a) - 1, 0, -1):
        j = below(rng, i + 1)
        a[i], a[j] = a[j], a[i]


@njit(cache=True)
def no_seeds(seeds, storage, seat):
    """R7 (and A3): up to 3 seeds from the House back to storage, then 1 seed from storage on
    each of positions 1, 2, 3 (storage then holds at least 3: all 18 are there or on the House)."""
    back = min(3, seeds[seat, 0])
    seeds[seat, 0] -= back
    storage[seat] += back
    for p in range(1, 4):
        storage[seat] -= 1
        seeds[seat, p] += 1


@njit(cache=True, inline="always")
def play_games(n_games, rng, turns_out, first_out, win_out, decisions_out, lists, record):
    """Play ``n_games`` 2-player games with random decisions; per game, write the turns, the
    first seat, the winners (bit per seat) and the decisions (real choices). With ``record``,
    ``lists[g, phase, n]`` counts the legal lists of size n built in game g (n = 1: forced)."""
    farm = np.empty(7, np.int64)  # kind of the card at each farm position (R2); 0 is the House
    deck = np.empty(N_CARDS, np.int64)  # the market stack, top card last (R5)
    seeds = np.empty((2, 7), np.int64)  # seeds on each farm position; position 0 is money (R14)
    storage = np.empty(2, np.int64)
    owned = np.empty((2, 5), np.int64)  # market cards bought, per fruit kind (R17)
    fruits = np.empty(2, np.int64)  # fruits printed on them (R22)
    completed = np.empty(2, np.int64)  # completed a set (R20)
    market_kind = np.empty(N_SLOTS, np.int64)  # -1: empty slot (A6)
    market_price = np.empty(N_SLOTS, np.int64)
    legal = np.empty(MAX_LEGAL, np.int64)
    for g in range(n_games):
        # Setup (R1-R5)
        first = below(rng, 2)  # R2, A19: a random initial player
        farm[0] = HOUSE
        farm[1], farm[2], farm[3], farm[4], farm[5], farm[6] = (
            RAIN, PINEAPPLE, GRAPES, CHERRY, BANANA, STRAWBERRY
        )  # fmt: skip
        shuffle(rng, farm[1:])  # R2, A16: the other 6 cards in a random order
        for c in range(N_CARDS):
            deck[c] = c
        shuffle(rng, deck)  # R5
        left = N_CARDS
        for seat in range(2):
            seeds[seat, 0] = 0
            seeds[seat, 1] = seeds[seat, 2] = seeds[seat, 3] = 2  # R4
            seeds[seat, 4] = seeds[seat, 5] = seeds[seat, 6] = 0
            storage[seat] = SEEDS - 6  # R3, R4
            fruits[seat] = 0
            completed[seat] = 0
            for k in range(5):
                owned[seat, k] = 0
        for s in range(N_SLOTS - 1, -1, -1):  # R5: four cards face up
            left -= 1
            market_kind[s] = deck[left] // PER_KIND
            market_price[s] = FRUITS[market_kind[s]] + SURCHARGE[s]
        # Turns (R6, R19)
        seat = first
        turns = 0
        decisions = 0
        triggered = False
        while True:
            target = 0
            while True:  # R8-R10: plant, and plant again while the House is the target
                n = 0
                for p in range(1, 7):  # R8: a card other than the House holding a seed
                    if seeds[seat, p] > 0:
                        legal[n] = p
                        n += 1
                if n == 0:  # R7 at the start of the turn, A3 after a House target
                    no_seeds(seeds, storage, seat)
                    break
                if record:
                    lists[g, PLANT, n] += 1
                decisions += n > 1
                origin = choose(rng, legal, n)
                hand = seeds[seat, origin]
                seeds[seat, origin] = 0
                pos = origin
                for _ in range(hand):  # R8: one seed per card clockwise, the House included
                    pos = pos + 1 if pos < 6 else 0
                    seeds[seat, pos] += 1
                target = pos  # R9
                if target != 0:
                    break
            if target != 0:
                # R11: water (always allowed, A5) or buy a card of the target's fruit (R13)
                kind = farm[target]
                money = seeds[seat, 0]
                n = 1
                legal[0] = -1  # water
                for s in range(N_SLOTS):
                    if market_kind[s] == kind and market_price[s] <= money:
                        legal[n] = s
                        n += 1
                if record:
                    lists[g, TARGET, n] += 1
                decisions += n > 1
                slot = choose(rng, legal, n)  # legal[0] = -1: water
                if slot < 0:  # R12: water from storage
                    add = min(FRUITS[kind], storage[seat])
                    storage[seat] -= add
                    seeds[seat, target] += add
                else:
                    # R16: pay from the House, the target's seeds back to storage
                    price = market_price[slot]
                    seeds[seat, 0] -= price
                    storage[seat] += price + seeds[seat, target]
                    seeds[seat, target] = 0
                    owned[seat, kind] += 1  # R17
                    fruits[seat] += FRUITS[kind]
                    # R20: Variety, Greedy, Smiley, Family
                    ones = twos = threes = most = 0
                    for k in range(5):
                        c = owned[seat, k]
                        ones += c >= 1
                        twos += c >= 2
                        threes += c >= 3
                        most = max(most, c)
                    if ones == 5 or most >= 4 or twos >= 3 or (threes >= 1 and twos >= 2):
                        completed[seat] = 1
                        triggered = True  # R21
                    # R18: slide toward +0, refill the +3 slot from the stack
                    for s in range(slot, 0, -1):
                        market_kind[s] = market_kind[s - 1]
                        market_price[s] = (
                            FRUITS[market_kind[s]] + SURCHARGE[s] if market_kind[s] >= 0 else 0
                        )
                    if left > 0:
                        left -= 1
                        market_kind[0] = deck[left] // PER_KIND
                        market_price[0] = FRUITS[market_kind[0]] + SURCHARGE[0]
                        if left == 0:
                            triggered = True  # R21, A7
                    else:
                        market_kind[0] = -1  # A6
                        market_price[0] = 0
            turns += 1
            seat = 1 - seat  # R19
            if triggered and seat == first:  # R21: the round is complete
                break
            if turns >= 2 * TURN_CAP:
                break
        # R22 (A8-A10): completed a set, then fruits, then seeds on the farm (House included)
        best = -1
        win = 0
        for s in range(2):
            key = (completed[s] * 1000 + fruits[s]) * 1000
            for p in range(7):
                key += seeds[s, p]
            if key > best:
                best = key
                win = 1 << s
            elif key == best:
                win |= 1 << s
        turns_out[g] = turns
        first_out[g] = first
        win_out[g] = win
        decisions_out[g] = decisions


@njit(cache=True)
def play_plain(n_games, seed, turns_out, first_out, win_out, decisions_out):
    """The timed entry point: no statistics recorded."""
    rng = np.array([np.uint64(seed)], np.uint64)
    lists = np.zeros((1, 1, 1), np.int64)
    play_games(n_games, rng, turns_out, first_out, win_out, decisions_out, lists, False)


@njit(cache=True)
def play_plain_recorded(n_games, seed, turns_out, first_out, win_out, decisions_out, lists):
    rng = np.array([np.uint64(seed)], np.uint64)
    play_games(n_games, rng, turns_out, first_out, win_out, decisions_out, lists, True)


# ---------------------------------------------------------------------------------------------
# 2. The check and the timing (cardsim from here on)
# ---------------------------------------------------------------------------------------------


def cardsim_lists(n_games: int, seed: int):
    """cardsim's own games, played by its rules one call at a time (``engine.KERNELS``) as its
    loop plays them (same streams, forced decisions taken without a draw), counting the legal
    lists per game like ``play_plain_recorded``; returns (lists, turns per game)."""
    from cardsim.core import layout as L
    from cardsim.core import runner
    from cardsim.core.rng import BOT_STREAM, CHANCE_STREAM, randint, stream_start
    from cardsim.games.fruit_picking import cards as C
    from cardsim.games.fruit_picking.engine import KERNELS

    setup, legal, apply, _, _ = KERNELS
    spec = runner.make_spec("fruit-picking", n_games, 2, ["random"], {}, seed=seed)

    @njit
    def drive(rules, n_players, turn_cap, seed, n_games, lists, turns):
        state = np.zeros(C.STATE_LEN, np.int32)
        out = np.zeros(C.MAX_LEGAL, np.int32)
        chance = np.zeros(1, np.uint64)
        bot_rng = np.zeros(1, np.uint64)
        for g in range(n_games):
            chance[0] = stream_start(seed, g, CHANCE_STREAM)
            bot_rng[0] = stream_start(seed, g, BOT_STREAM)
            state[:] = 0
            state[L.H_CAP_TURNS] = turn_cap * n_players
            setup(state, rules, n_players, chance)
            while state[L.H_OVER] == 0:
                phase = state[L.H_PHASE]
                n = legal(state, out)
                lists[g, 0 if phase == C.PHASE_PLANT else 1, n] += 1
                choice = randint(bot_rng, n) if n > 1 else 0
                apply(state, rules, out[choice], chance)
            turns[g] = state[L.H_TURNS]

    lists = np.zeros((n_games, 2, MAX_LEGAL + 1), np.int64)
    turns = np.zeros(n_games, np.int64)
    drive(spec.rules_vector(), 2, spec.turn_cap(), seed, n_games, lists, turns)
    return lists, turns


def cardsim_run(n_games: int, seed: int):
    """(process CPU s, turns, first seat, win mask, decisions) of cardsim's loop on 1 thread."""
    from cardsim.core import layout as L
    from cardsim.core import runner

    spec = runner.make_spec("fruit-picking", n_games, 2, ["random"], {}, seed=seed)
    runner.set_threads(1)
    parts = []
    c0 = time.process_time()
    for chunk in runner.iter_chunks(spec):
        parts.append((chunk.game_out, chunk.seat_out))
    cpu = time.process_time() - c0
    game_out = np.concatenate([p[0] for p in parts])
    seat_out = np.concatenate([p[1] for p in parts])
    win = seat_out[:, 0, L.S_WIN] + 2 * seat_out[:, 1, L.S_WIN]
    return (
        cpu,
        game_out[:, L.G_TURNS].astype(np.int64),
        game_out[:, L.G_FIRST_SEAT].astype(np.int64),
        win,
        game_out[:, L.G_DECISIONS].astype(np.int64),
    )


def plain_run(n_games: int, seed: int):
    """The same figures for the plain implementation (its output arrays allocated inside the
    timing, as cardsim's chunks are)."""
    c0 = time.process_time()
    turns = np.zeros(n_games, np.int32)
    first = np.zeros(n_games, np.int8)
    win = np.zeros(n_games, np.int8)
    decisions = np.zeros(n_games, np.int32)
    play_plain(n_games, seed, turns, first, win, decisions)
    cpu = time.process_time() - c0
    return cpu, turns.astype(np.int64), first.astype(np.int64), win.astype(np.int64), decisions


def mean_ci(x) -> tuple[float, float]:
    x = np.asarray(x, np.float64)
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x))


def compare(label: str, a, b, digits: int = 3) -> bool:
    """Print both means with 95% CIs and the z of their difference; True if |z| < 3."""
    ma, ca = mean_ci(a)
    mb, cb = mean_ci(b)
    z = (ma - mb) / math.sqrt((ca / 1.96) ** 2 + (cb / 1.96) ** 2 or 1e-300)
    ok = abs(z) < 3
    print(
        f"  {label:<34}{ma:>10.{digits}f} +- {ca:<8.{digits}f}{mb:>10.{digits}f} +- "
        f"{cb:<8.{digits}f}{z:>+7.2f}{'' if ok else '  <-- differs'}"
    )
    return ok


def outcome_rows(turns, first, win, decisions) -> dict:
    return {
        "turns per game": turns,
        "decisions per game": decisions,
        "seat 0 wins": win & 1,
        "seat 1 wins": win >> 1,
        "first player wins": (win >> first) & 1,
        "second player wins": (win >> (1 - first)) & 1,
        "shared wins (ties)": win == 3,
    }


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--check-games", type=int, default=50_000, help="for the legal lists")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load()} at start")

    # warm both (compile or load from the cache), then alternate
    plain_run(2000, 1)
    cardsim_run(2000, 1)
    best = {"cardsim": math.inf, "plain": math.inf}
    runs = {}
    for r in range(args.repeat):
        for name, fn in (("cardsim", cardsim_run), ("plain", plain_run)):
            runs[name] = fn(args.games, args.seed + r)
            best[name] = min(best[name], runs[name][0])

    print(f"\nSame work? {args.games:,} games each (the last repetition), 95% CIs, z of the gap")
    print(f"  {'':<34}{'cardsim':>22}{'plain':>20}{'z':>7}")
    ok = True
    rows_c = outcome_rows(*runs["cardsim"][1:])
    rows_p = outcome_rows(*runs["plain"][1:])
    for label in rows_c:
        ok &= compare(label, rows_c[label], rows_p[label])

    # cardsim's legal lists: the last repetition's games again, one rules call at a time
    last_seed = args.seed + args.repeat - 1
    check_games = min(args.check_games, args.games)
    lists_c, turns_c = cardsim_lists(check_games, last_seed)
    if not np.array_equal(runs["cardsim"][1][:check_games], turns_c):
        print("  (the one-call-at-a-time replay of cardsim's games differs from its loop!)")
        ok = False
    lists_p = np.zeros((check_games, 2, MAX_LEGAL + 1), np.int64)
    scratch = [np.zeros(check_games, t) for t in (np.int32, np.int8, np.int8, np.int32)]
    play_plain_recorded(check_games, last_seed, *scratch, lists_p)
    print(f"\nLegal lists per game by size ({check_games:,} games each; size 1: forced)")
    for phase, name in ((PLANT, "planting"), (TARGET, "target")):
        for n in range(1, MAX_LEGAL + 1):
            if lists_c[:, phase, n].any() or lists_p[:, phase, n].any():
                ok &= compare(f"{name}, {n} legal", lists_c[:, phase, n], lists_p[:, phase, n])
    print("  same work: " + ("yes (every |z| < 3)" if ok else "NO: see the rows marked"))

    turns_c = int(runs["cardsim"][1].sum())
    turns_p = int(runs["plain"][1].sum())
    ns_c = best["cardsim"] / turns_c * 1e9
    ns_p = best["plain"] / turns_p * 1e9
    print(
        f"\nTime, 1 thread, process CPU, minimum of {args.repeat} alternated runs of "
        f"{args.games:,} games:"
    )
    print(f"  cardsim loop   {ns_c:7.1f} ns/turn   {args.games / best['cardsim']:>10,.0f} games/s")
    print(f"  plain          {ns_p:7.1f} ns/turn   {args.games / best['plain']:>10,.0f} games/s")
    print(f"  cardsim / plain  {ns_c / ns_p:.2f}x   ({load()} at end)")


if __name__ == "__main__":
    main()
