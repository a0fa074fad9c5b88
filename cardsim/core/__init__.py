"""The engine core shared by every ruleset: per-game random numbers, the bot interface, the
compiled play loop and batch runner, outcome records and the ruleset registry."""
