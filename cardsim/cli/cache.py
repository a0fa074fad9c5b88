"""``cardsim cache``: where compiled engines are kept, and emptying it."""

from __future__ import annotations

import click

from cardsim.core import cache as compiled_cache


@click.group("cache", short_help="Show or clear the cache of compiled engines.")
def cache() -> None:
    """Compiled play loops are cached on disk, keyed by a hash of every source they come from
    (so an edit never runs stale code); a new key compiles again. Set CARDSIM_CACHE_DIR to move
    the cache."""


@cache.command("dir")
def cache_dir() -> None:
    """Print the cache directory of this installation."""
    click.echo(str(compiled_cache.compiled_dir()))


@cache.command("clear")
def cache_clear() -> None:
    """Delete every cached compiled engine (the next run compiles again)."""
    files, size = compiled_cache.clear()
    click.echo(f"removed {files} files ({size / 2**20:.1f} MiB) from {compiled_cache.cache_root()}")
