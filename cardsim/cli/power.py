"""``cardsim power --edge E --players K``: how many games a run needs before it starts, to detect
a seat edge and to pin every seat's win rate down to +/-E (``cardsim.analysis.power``)."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.core.errors import CardsimError


@click.command("power", short_help="How many games it takes to detect a seat edge.")
@options.edge_option
@options.players_option
@options.alpha_option
@options.power_option
def power(edge, players, alpha, power) -> None:
    """Games needed to detect a seat that wins --edge more (or less) than the fair 1/K with a
    two-sided test, and games for every 95% win-rate interval to be within +/- the edge (what
    `cardsim run --until-ci E` plays)."""
    from cardsim.analysis.power import games_for_half_width, games_needed, parse_share

    if players is None:
        raise CardsimError("power needs --players K (the number of players)")
    if players < 2:
        raise CardsimError(f"--players must be at least 2, got {players}")
    share = parse_share(edge, "--edge", signed=True)
    fair = 1 / players
    n = games_needed(share, players, alpha, power)
    click.echo(
        f"To detect a seat that wins {100 * share:+.2f} points against the fair "
        f"{100 * fair:.2f}% ({players} players) with a two-sided test at {alpha:g} and "
        f"power {power:.0%}: {n:,} games."
    )
    width = games_for_half_width(abs(share), fair)
    click.echo(
        f"For a seat's 95% interval to be within +/-{100 * abs(share):.2f} points at a win rate "
        f"near {100 * fair:.2f}%: about {width:,} games (rates nearer 50% need more; "
        f"`cardsim run --until-ci {abs(share):g}` plays until every seat's is)."
    )
