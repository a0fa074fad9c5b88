"""The one exception type for mistakes in what a user asked for.

The CLI turns a ``CardsimError`` into one line on stderr and exit code 2; anything else is a bug
and keeps its traceback.
"""


class CardsimError(ValueError):
    """Bad input from a user: unknown game, bot or rule option, a value out of range, ..."""
