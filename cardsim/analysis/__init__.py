"""Balance analysis: outcomes (raw chunks or DataFrames) -> tables, in three rooms by role.

- ``stats``: statistics of outcomes (win rates, intervals, paired differences, ratings, power);
- ``experiments``: designs and statistics of experiments on common games (compare, sweep, diff,
  ladder, tuning);
- ``reports``: tables, figures and verdicts written as HTML and markdown.

``results`` (``Results``, what ``cardsim.simulate`` returns) and ``values`` (``Estimate``) are the
public records, read by all three. Each room imports only the rooms before it in this list
(``tests/test_architecture.py``). pandas, numpy and scipy only: no numba import anywhere under
``cardsim.analysis``.
"""
