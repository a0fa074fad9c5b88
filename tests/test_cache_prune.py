"""Old cache directories are listed and pruned (core/cache.py, ``cardsim cache``): on fake
directories, so nothing compiles."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.core import cache

DAY = 86400.0


@pytest.fixture
def root(monkeypatch, tmp_path) -> Path:
    monkeypatch.setenv("CARDSIM_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setattr(cache, "_marked", {})
    (tmp_path / "root").mkdir()
    return tmp_path / "root"


def fake(root: Path, name: str, days_ago: float, size: int = 1000, marker: bool = True) -> Path:
    """A cache directory last used ``days_ago`` days ago, holding ``size`` bytes."""
    path = root / name
    (path / "loops").mkdir(parents=True, exist_ok=True)
    data = path / "loops" / "code.nbc"
    data.write_bytes(b"x" * size)
    when = time.time() - days_ago * DAY
    os.utime(data, (when, when))
    if marker:
        (path / cache.LAST_USE).touch()
        os.utime(path / cache.LAST_USE, (when, when))
    os.utime(path, (when, when))
    return path


def names(dirs) -> set[str]:
    return {d.name for d in dirs}


def test_prune_removes_old_and_surplus_directories_but_never_the_current_or_one_in_use(root):
    current = cache.compiled_dir()
    fake(root, current.name, 100)  # the current one, however old
    for i, days in enumerate([0.01, 1, 2, 3, 4, 5, 6, 40]):
        fake(root, f"numba-0-{i}", days)
    fake(root, "numba-0-busy", 0.001)  # used a minute and a half ago
    (root / "not-a-cache-dir").mkdir()
    removed, in_use = cache.prune(max_age_days=30, keep=5)
    # kept: the current one and the 5 most recently used others (busy, 0..3)
    assert names(removed) == {"numba-0-4", "numba-0-5", "numba-0-6", "numba-0-7"}
    left = {p.name for p in root.iterdir()}
    assert left == {current.name, "numba-0-busy", "numba-0-0", "numba-0-1", "numba-0-2",
                    "numba-0-3", "not-a-cache-dir"}  # fmt: skip
    assert in_use == []

    removed, in_use = cache.prune(max_age_days=0, keep=None)  # everything that can go
    assert names(removed) == {"numba-0-1", "numba-0-2", "numba-0-3"}
    assert names(in_use) == {"numba-0-busy", "numba-0-0"}  # used within the hour
    assert current.exists() and (root / "numba-0-busy").exists()


def test_dry_run_and_the_plan_without_limits(root):
    fake(root, "numba-0-old", 400)
    removed, _ = cache.prune(max_age_days=30, keep=None, dry_run=True)
    assert names(removed) == {"numba-0-old"} and (root / "numba-0-old").exists()
    assert cache.prune(max_age_days=None, keep=None) == ([], [])


def test_last_use_is_the_marker_else_the_newest_file(root):
    old = fake(root, "numba-0-a", 50, marker=False)
    newer_file = old / "loops" / "newer.nbi"
    newer_file.write_bytes(b"y")
    when = time.time() - 2 * DAY
    os.utime(newer_file, (when, when))
    assert abs(cache.last_used(old) - when) < 5
    cache.mark_used(old)
    assert time.time() - cache.last_used(old) < 60


def test_a_run_marks_its_directory_and_prunes_at_most_once_a_day(root, monkeypatch):
    cache.mark_used()
    assert (cache.compiled_dir() / cache.LAST_USE).is_file()
    fake(root, "numba-0-old", 40)
    assert names(cache.auto_prune()) == {"numba-0-old"}
    fake(root, "numba-0-old2", 40)
    assert cache.auto_prune() == []  # pruned less than a day ago
    assert (root / "numba-0-old2").exists()
    assert names(cache.auto_prune(now=time.time() + DAY + 60)) == {"numba-0-old2"}
    fake(root, "numba-0-old3", 40)
    monkeypatch.setenv("CARDSIM_CACHE_AUTO_PRUNE", "0")
    assert cache.auto_prune(now=time.time() + 3 * DAY) == []


def test_the_listing_shows_each_directory_its_size_last_use_and_the_current_one(root):
    fake(root, cache.compiled_dir().name, 0, size=3 * 2**20)
    fake(root, "numba-0-old", 3, size=2**20)
    result = CliRunner().invoke(cli, ["cache"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert cache.compiled_dir().name in lines[2] and "yes" in lines[2] and "3.0 MiB" in lines[2]
    assert "numba-0-old" in lines[3] and "1.0 MiB" in lines[3] and "(3 d)" in lines[3]
    assert "2 directories, 4.0 MiB" in result.output
    result = CliRunner().invoke(cli, ["cache", "list", "--format", "json"])
    table = json.loads(result.output)["directories"]
    assert [(Path(r["directory"]).name, r["current"]) for r in table] == [
        (cache.compiled_dir().name, True),
        ("numba-0-old", False),
    ]
    assert table[1]["bytes"] >= 2**20


def test_prune_command(root):
    fake(root, "numba-0-old", 40, size=2**20)
    fake(root, "numba-0-new", 1)
    result = CliRunner().invoke(cli, ["cache", "prune", "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "would remove numba-0-old (1.0 MiB)" in result.output
    assert (root / "numba-0-old").exists()
    result = CliRunner().invoke(cli, ["cache", "prune", "--keep", "0"])
    assert result.exit_code == 0, result.output
    assert "removed 2 directories" in result.output
    assert not (root / "numba-0-old").exists() and not (root / "numba-0-new").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["prune", "--keep", "-1"],
        ["prune", "--keep", "many"],
        ["prune", "--older-than", "-3"],
        ["prune", "--older-than", "abc"],
        ["prune", "--bogus"],
        ["list", "--format", "xml"],
        ["--format", "yaml"],
        ["shrink"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(root, args):
    fake(root, "numba-0-old", 40)
    result = CliRunner().invoke(cli, ["cache", *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardsim: error: "), result.stderr
    assert (root / "numba-0-old").exists()


def test_the_listing_fits_80_columns(root):
    fake(root, cache.compiled_dir().name, 0)
    fake(root, "numba-0.68.1-0123456789abcdef0123", 300)
    result = CliRunner().invoke(cli, ["cache"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
