"""The ``cardsim`` command line: one module per command, each a thin adapter over library calls.

Nothing here imports numba or the engines: ``cardsim --help`` and shell completion load only the
command table of ``main.py`` (and, for completion, the light ruleset records).
"""
