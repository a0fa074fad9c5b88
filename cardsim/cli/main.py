"""The ``cardsim`` command group and its one error policy.

Mistakes in what the user asked for (``CardsimError``, and click's own usage errors) become one
line ``cardsim: error: <problem>`` on stderr and exit code 2; anything else is a bug and keeps its
traceback. Ctrl-C is one line and exit code 130 (``cardsim run`` says what it saved), a closed
output pipe one line and 141.
"""

from __future__ import annotations

import importlib
import sys

import click

from cardsim.cli.exits import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, end_now, quiet_stdout
from cardsim.core.errors import CardsimError
from cardsim.version import __version__

PROG = "cardsim"
# command name -> (module defining a click command of that name, its one-line help). A module is
# imported only when its command runs, so `cardsim --help` and shell completion never load numba
# or the engines; tests check that each line matches the command's own short_help.
COMMANDS = {
    "games": ("cardsim.cli.games", "List the games cardsim can simulate."),
    "bots": ("cardsim.cli.bots", "List the built-in bots of a game."),
    "rules": ("cardsim.cli.rules", "List the rule options of a game."),
    "counters": ("cardsim.cli.counters", "List what a game's counters count."),
    "run": ("cardsim.cli.run", "Simulate many games and print the balance summary."),
    "replay": ("cardsim.cli.replay", "Tell the story of one game of a run."),
    "report": ("cardsim.cli.report", "Write the balance report (HTML + markdown) of a saved run."),
    "compare": ("cardsim.cli.compare", "Compare bots on the same deals under every seating."),
    "ladder": ("cardsim.cli.ladder", "Balance at every skill level: matchups, first-player edge."),
    "power": ("cardsim.cli.power", "How many games it takes to detect a seat edge."),
    "sweep": ("cardsim.cli.sweep", "Balance over a grid of rule values, on the same games."),
    "diff": ("cardsim.cli.diff", "The change of every metric between two variants."),
    "tune": ("cardsim.cli.tune", "Search rule values for a fairer game, on the same deals."),
    "screen": ("cardsim.cli.screen", "Which rule options move balance most, on the same deals."),
    "cache": ("cardsim.cli.cache", "Show or clear the cache of compiled engines."),
    "compile": ("cardsim.cli.compile", "Build the compiled engines ahead of a first run."),
}


class OneLineError(click.ClickException):
    """A user mistake, shown as one line (exit code 2)."""

    exit_code = 2

    def show(self, file=None) -> None:
        message = " ".join(line.strip() for line in self.format_message().splitlines())
        click.echo(f"{PROG}: error: {message.strip()}", err=True, file=file)


def _usage_line(exc: click.UsageError) -> str:
    hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    return f"{exc.format_message()}{hint}"


class CardsimGroup(click.Group):
    """A click group that loads its commands lazily and turns user mistakes into one-line
    errors, wherever they are found."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(super().list_commands(ctx)))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS:
            return getattr(importlib.import_module(COMMANDS[name][0]), name)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help`` from the table: no command module is imported."""
        rows = [(name, COMMANDS[name][1]) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def shell_complete(self, ctx: click.Context, incomplete: str):
        """Command names from the table (click's default imports every command to read its
        help); options of the group itself as click completes them."""
        from click.shell_completion import CompletionItem

        if incomplete.startswith("-"):
            return click.Command.shell_complete(self, ctx, incomplete)
        return [
            CompletionItem(name, help=COMMANDS[name][1])
            for name in sorted(COMMANDS)
            if name.startswith(incomplete)
        ]

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise OneLineError(_usage_line(exc)) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CardsimError as exc:
            raise OneLineError(str(exc)) from None
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise OneLineError(_usage_line(exc)) from None
        except KeyboardInterrupt as exc:  # a command that does not say more itself
            _stopped(exc)
        except BrokenPipeError:
            quiet_stdout()
            _line("output closed early (broken pipe)")
            raise click.exceptions.Exit(EXIT_BROKEN_PIPE) from None


def _line(text: str) -> None:
    try:
        click.echo(f"{PROG}: {text}", err=True)
    except OSError:
        pass


def _stopped(exc: KeyboardInterrupt) -> None:
    """Ctrl-C in a command: one line and exit code 130 (not click's "Aborted!" and 1); after a
    second Ctrl-C while compiled code runs (``runner.StopNow``), end the process at once."""
    if type(exc).__name__ == "StopNow":
        _line("stopped at once")
        end_now(EXIT_INTERRUPTED)
    _line("interrupted")
    raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


@click.group(cls=CardsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROG)
def cli() -> None:
    """cardsim: is this card game balanced? Simulate it millions of times and see.

    Start with `cardsim games`, then `cardsim run GAME --games 1e6`.
    """


def main() -> None:
    """The ``cardsim`` program: ``cli``, then the process ends without Python's teardown.

    Freeing the interpreter's objects at exit (numba's and LLVM's among them) took 0.08-0.18 s
    of a warm command's ~0.7 s on the 2-core machine (2026-12-02, ``benchmarks/bench_exit.py``).
    By the time ``cli`` returns,
    each command has closed what it wrote (datasets, reports, a local cluster) and waited for
    any child process; only daemon threads remain, so flushing stdout and stderr is all that is
    left to do. ``cli`` itself (``CliRunner`` in the tests) returns as usual; an exception that
    is a bug keeps its traceback and the ordinary exit.
    """
    try:
        cli.main(prog_name=PROG)
        code = 0
    except SystemExit as done:
        code = done.code
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): Python prints it and exits with 1
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left before the last lines: as any closed pipe
        _line("output closed early (broken pipe)")
        code = code or EXIT_BROKEN_PIPE
    except (OSError, ValueError):
        pass
    end_now(code)


if __name__ == "__main__":
    main()
