"""Searching rule values for balance (``cardsim tune``) and finding which rule options move it
(``cardsim screen``), every candidate played on the same deals.

- ``params``: ``--param`` texts -> searched options; the levels a screen gives each option;
- ``objectives``: what a tune minimises, per block of deals, and its length constraint;
- ``measures``: per-game values of a run and the balance figures of a set of games, with a
  bootstrap over deals that keeps the pairing;
- ``search``: the optuna study (TPE sampler, Wilcoxon pruner on blocks of deals);
- ``verify``: the best candidates re-played on games the search never saw;
- ``screen``: screening designs (Plackett-Burman, fractional factorial, Morris) and effects;
- ``output``: text, JSON and the variant file of a result; ``report``: the HTML/markdown report.

The engine is reached only through a ``play(rules, first_game, n_games) -> frame`` function
given by the caller (``cardsim.api``), so nothing here imports numba.
"""
