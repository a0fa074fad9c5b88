"""The one exception type for mistakes in what a user asked for, and the runner's "stop now".

The CLI turns a ``CardsimError`` into one line on stderr and exit code 2; anything else is a bug
and keeps its traceback. Both live here, with no dependency, so that a command can catch them
before it loads the engines.
"""


class CardsimError(ValueError):
    """Bad input from a user: unknown game, bot or rule option, a value out of range, ..."""


class StopNow(KeyboardInterrupt):
    """A second Ctrl-C while a chunk is being played: the caller ends the process at once (the
    compiled code in flight cannot be stopped; every chunk handed to the sinks is kept)."""
