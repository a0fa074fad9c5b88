"""``cardsim power --edge E --players K``: how many games a run needs before it starts, to detect
a seat edge and to pin every seat's win rate down to +/-E (``cardsim.analysis.stats.power``)."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, format_option, records_csv
from cardsim.core.errors import CardsimError

power_players_option = click.option(
    "--players",
    "-p",
    "players",
    type=int,
    default=None,
    metavar="K",
    help="Number of players (default: one line for each count from 2 to 6).",
)


@click.command("power", short_help="How many games it takes to detect a seat edge.")
@options.edge_option
@power_players_option
@options.alpha_option
@options.power_option
@format_option
def power(edge, players, alpha, power, fmt) -> None:
    """Games needed to detect a seat that wins --edge more (or less) than the fair 1/K with a
    two-sided test, and games for every 95% win-rate interval to be within +/- the edge (what
    `cardsim run --until-ci E` plays)."""
    from cardsim.analysis.stats.power import games_for_half_width, games_needed, parse_share

    if players is not None and players < 2:
        raise CardsimError(f"--players must be at least 2, got {players}")
    share = parse_share(edge, "--edge", signed=True)
    rows = []
    for k in [players] if players is not None else range(2, 7):
        fair = 1 / k
        rows.append(
            {
                "players": k,
                "edge": share,
                "fair_rate": fair,
                "alpha": alpha,
                "power": power,
                "games_to_detect": games_needed(share, k, alpha, power),
                "games_for_interval": games_for_half_width(abs(share), fair),
            }
        )
    if fmt == "json":
        echo_json("power", {"edge": share, "alpha": alpha, "power": power, "by_players": rows})
    elif fmt == "csv":
        click.echo(records_csv(rows))
    elif players is not None:
        click.echo(_sentences(rows[0]))
    else:
        click.echo(_table(rows, share, alpha, power))


def _sentences(row: dict) -> str:
    from cardsim.text import wrap

    share, fair, k = row["edge"], row["fair_rate"], row["players"]
    return "\n".join(
        [
            wrap(
                f"To detect a seat that wins {100 * share:+.2f} points against the fair "
                f"{100 * fair:.2f}% ({k} players) with a two-sided test at {row['alpha']:g} and "
                f"power {row['power']:.0%}: {row['games_to_detect']:,} games."
            ),
            wrap(
                f"For a seat's 95% interval to be within +/-{100 * abs(share):.2f} points at a "
                f"win rate near {100 * fair:.2f}%: about {row['games_for_interval']:,} games "
                f"(rates nearer 50% need more; `cardsim run --until-ci {abs(share):g}` plays "
                "until every seat's is)."
            ),
        ]
    )


def _table(rows: list[dict], share: float, alpha: float, power: float) -> str:
    from cardsim.text import rich_table, wrap

    lines = [
        wrap(
            f"Games to detect a seat that wins {100 * share:+.2f} points against the fair share "
            f"(two-sided test at {alpha:g}, power {power:.0%}), and games for every seat's 95% "
            f"interval to be within +/-{100 * abs(share):.2f} points:"
        ),
        "",
    ]
    rows = [
        [
            str(r["players"]),
            f"{100 * r['fair_rate']:.2f}%",
            f"{r['games_to_detect']:,}",
            f"{r['games_for_interval']:,}",
        ]
        for r in rows
    ]
    header = ["players", "fair share", "to detect", "for the interval"]
    lines.append(rich_table(header, rows, right=range(4), fill=[]))
    lines += ["", "Give --players K for one count."]
    return "\n".join(lines)
