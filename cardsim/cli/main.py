"""The ``cardsim`` command group and its one error policy.

Mistakes in what the user asked for (``CardsimError``, and click's own usage errors) become one
line ``cardsim: error: <problem>`` on stderr and exit code 2; anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations

import importlib

import click

from cardsim import __version__
from cardsim.core.errors import CardsimError

PROG = "cardsim"
# command name -> module defining a click command of that name; imported only when used, so that
# listing games does not load the compiled engine
COMMANDS = {
    "games": "cardsim.cli.games",
    "bots": "cardsim.cli.bots",
    "rules": "cardsim.cli.rules",
    "run": "cardsim.cli.run",
    "replay": "cardsim.cli.replay",
    "report": "cardsim.cli.report",
    "compare": "cardsim.cli.compare",
    "power": "cardsim.cli.power",
    "sweep": "cardsim.cli.sweep",
    "diff": "cardsim.cli.diff",
    "cache": "cardsim.cli.cache",
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
            return getattr(importlib.import_module(COMMANDS[name]), name)
        return super().get_command(ctx, name)

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


@click.group(cls=CardsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROG)
def cli() -> None:
    """cardsim: is this card game balanced? Simulate it millions of times and see.

    Start with `cardsim games`, then `cardsim run GAME --games 1e6`.
    """


if __name__ == "__main__":
    cli(prog_name=PROG)
