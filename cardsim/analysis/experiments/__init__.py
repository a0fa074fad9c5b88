"""Experiments on common games, as designs and their statistics: which runs an experiment plays
and what it measures from them. A bot comparison under every seating (``compare``), a grid of rule
values (``sweep``), two variants (``variant_diff``), the skill ladder (``ladder``), and the rule
search and screening of ``tuning``.

Playing the runs is ``cardsim.experiments``' job (it holds the compiled engine); nothing here
imports numba, so an experiment's tables can be read and re-made without the compiler.
"""
