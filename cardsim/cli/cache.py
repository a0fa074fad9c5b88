"""``cardsim cache``: the directories of compiled engines (size, last use, which is current),
pruning the old ones, and emptying the cache."""

from __future__ import annotations

import time

import click

from cardsim.cli.output import echo_listing, format_option
from cardsim.core import cache as compiled_cache


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def _when(seconds: float, now: float) -> str:
    """``2026-12-01 15:02 (3 d)``: the time and how long ago."""
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))
    age = max(0.0, now - seconds)
    if age < 3600:
        ago = f"{int(age // 60)} min"
    elif age < 2 * 86400:
        ago = f"{int(age // 3600)} h"
    else:
        ago = f"{int(age // 86400)} d"
    return f"{stamp} ({ago})"


def _listing(fmt: str) -> None:
    dirs = compiled_cache.cache_dirs()
    now = time.time()
    rows, records = [], []
    for d in dirs:
        rows.append([d.name, "yes" if d.current else "", _mib(d.size), _when(d.last_used, now)])
        records.append(
            {
                "directory": str(d.path),
                "bytes": d.size,
                "last_used": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(d.last_used)),
                "current": d.current,
            }
        )
    total = sum(d.size for d in dirs)
    current = ""
    if not any(d.current for d in dirs):
        current = f" The current one, {compiled_cache.compiled_dir().name}, is not built yet."
    footer = (
        f"{len(dirs)} directories, {_mib(total)} in {compiled_cache.cache_root()}.{current} Each edit of "
        "cardsim's engines compiles into a new directory; a run removes, at most once a day, "
        f"those unused for {compiled_cache.MAX_AGE_DAYS:g} days and all but the "
        f"{compiled_cache.KEEP} most recently used besides the current one (never one used in "
        "the last hour). `cardsim cache prune` does it now; `cardsim cache clear` removes all."
    )
    header = ["directory", "current", "size", "last used (ago)"]
    echo_listing(
        fmt,
        header,
        rows,
        records,
        footer,
        right=[2],
        command="cache",
        key="directories",
        context={"root": str(compiled_cache.cache_root()), "bytes": total},
    )


@click.group(
    "cache", invoke_without_command=True, short_help="Show or clear the cache of compiled engines."
)
@format_option
@click.pass_context
def cache(ctx: click.Context, fmt: str) -> None:
    """Compiled play loops are cached on disk, in a directory keyed by a hash of every source
    they come from (so an edit never runs stale code); a new key compiles again. Without a
    command: list the cache's directories with their size and last use. Set CARDSIM_CACHE_DIR
    to move the cache, CARDSIM_CACHE_AUTO_PRUNE=0 to keep old directories."""
    if ctx.invoked_subcommand is None:
        _listing(fmt)


@cache.command("list")
@format_option
def cache_list(fmt: str) -> None:
    """List the cache's directories: size, last use, and which one this installation uses."""
    _listing(fmt)


@cache.command("dir")
def cache_dir() -> None:
    """Print the cache directory of this installation."""
    click.echo(str(compiled_cache.compiled_dir()))


@cache.command("prune")
@click.option(
    "--older-than",
    "older_than",
    type=click.FloatRange(min=0),
    default=compiled_cache.MAX_AGE_DAYS,
    show_default=True,
    help="Remove directories last used more than this many days ago.",
)
@click.option(
    "--keep",
    type=click.IntRange(min=0),
    default=compiled_cache.KEEP,
    show_default=True,
    help="Besides the current directory, keep at most this many (the most recently used).",
)
@click.option("--dry-run", is_flag=True, help="Only say what would be removed.")
def cache_prune(older_than: float, keep: int, dry_run: bool) -> None:
    """Remove old cache directories now. The current one is never removed, nor one used in the
    last hour (another run may be using it)."""
    removed, in_use = compiled_cache.prune(older_than, keep, dry_run=dry_run)
    verb = "would remove" if dry_run else "removed"
    for d in removed:
        click.echo(f"{verb} {d.name} ({_mib(d.size)})")
    total = sum(d.size for d in removed)
    line = f"{verb} {len(removed)} directories ({_mib(total)})"
    if in_use:
        line += f"; kept {len(in_use)} used in the last hour"
    click.echo(line)


@cache.command("clear")
def cache_clear() -> None:
    """Delete every cached compiled engine (the next run compiles again)."""
    files, size = compiled_cache.clear()
    click.echo(f"removed {files} files ({size / 2**20:.1f} MiB) from {compiled_cache.cache_root()}")
