"""A hash of many games' outcomes, per ruleset, player count, bot seating and rule-option set.

Proves that a change to the engines or the play loop kept every game identical: run it before and
after the change (same game logic) and compare the printed lines (``diff`` of the two outputs).

    python benchmarks/results_hash.py [--games 3000] [--game NAME] > hashes.txt

Cases, for every registered ruleset (``--game`` to pick some):

- every allowed player count, every built-in bot in every seat, default rules;
- the built-in bots seated together (seat ``i`` takes bot ``i mod k``), every player count;
- one rule option at a time at each of its other simple values (each non-default choice, the
  other boolean, the ends of an integer range), default player count and bots, skipping values the
  ruleset refuses;
- every variant file under ``analysis/variants/`` for the ruleset.

Each line is ``<case> <sha256 of game_out and seat_out bytes>``; a last line hashes all lines.
Games are played on all threads in small chunks, which must not matter.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from cardsim.core import registry, runner
from cardsim.core.errors import CardsimError

ROOT = Path(__file__).resolve().parent.parent


def run_hash(spec) -> str:
    digest = hashlib.sha256()
    for chunk in runner.iter_chunks(spec, chunk_size=997):
        digest.update(chunk.game_out.tobytes())
        digest.update(chunk.seat_out.tobytes())
    return digest.hexdigest()[:24]


def option_values(option) -> list:
    """Simple alternative values of one rule option (never its default)."""
    if option.kind == "bool":
        return [not option.default] if option.default is not None else [True, False]
    if option.kind == "choice":
        return [c for c in option.choices if c != option.default]
    if option.kind in ("int", "int_or_choice"):
        values = [v for v in (option.lo, option.hi) if v is not None]
        values += [c for c in option.choices if c != option.default]
        return [v for v in values if v != option.default]
    return []


def cases(ruleset):
    """(label, players, bots, rules) for one ruleset."""
    # the heuristic bots (a search bot's games would take hours at this count)
    builtin = sorted(name for name, bot in ruleset.bots().items() if not bot.search)
    players = range(ruleset.min_players, ruleset.max_players + 1)
    for n in players:
        for bot in builtin:
            yield f"p{n} bot={bot}", n, [bot], {}
        yield f"p{n} mixed", n, [builtin[i % len(builtin)] for i in range(n)], {}
    for option in ruleset.options:
        for value in option_values(option):
            yield f"rule {option.name}={value}", None, [], {option.name: value}
    variants = sorted((ROOT / "analysis" / "variants").glob("*.toml"))
    for path in variants:
        from cardsim.core.variants import load_variant

        try:
            variant = load_variant(path, ruleset)
        except CardsimError:
            continue
        yield f"variant {path.name}", None, [], dict(variant.rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--game", action="append", help="ruleset(s); default: all")
    args = parser.parse_args()
    everything = hashlib.sha256()
    for name in args.game or registry.available():
        ruleset = registry.get(name)
        for label, players, bots, rules in cases(ruleset):
            try:
                spec = runner.make_spec(name, args.games, players, bots, rules, seed=args.seed)
            except CardsimError as exc:
                line = f"{name} {label} refused: {exc}"
            else:
                line = f"{name} {label} {run_hash(spec)}"
            print(line, flush=True)
            everything.update(line.encode())
    print(f"all {everything.hexdigest()[:24]}")


if __name__ == "__main__":
    main()
