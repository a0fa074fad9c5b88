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


def fake(
    root: Path, name: str, days_ago: float, size: int = 1000, marker: bool = True, tag: bool = True
) -> Path:
    """A cache directory last used ``days_ago`` days ago, holding ``size`` bytes; ``marker``:
    with its last-use file, ``tag``: with the CACHEDIR.TAG saying cardsim made it."""
    path = root / name
    (path / "loops").mkdir(parents=True, exist_ok=True)
    if tag:
        cache.make_dir(path)
    data = path / "loops" / "code.nbc"
    data.write_bytes(b"x" * size)
    when = time.time() - days_ago * DAY
    os.utime(data, (when, when))
    if marker:
        (path / cache.LAST_USE).touch()
        os.utime(path / cache.LAST_USE, (when, when))
    if tag:
        os.utime(path / cache.TAG, (when, when))
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


# -- only what cardsim made is removed; nothing is loaded from a cache others may write (issue 33)


def foreign_entries(root: Path) -> dict[Path, bytes]:
    """Entries cardsim never made, put into its cache directory (their files and bytes): a
    user's file, a directory named like a cache directory but with neither cardsim's tag nor a
    last-use file, a symbolic link to a tagged directory elsewhere (never followed), a directory
    of someone else's."""
    (root / "notes.txt").write_text("mine, not cardsim's")
    lookalike = root / "numba-9-lookalike"
    lookalike.mkdir()
    (lookalike / "data.bin").write_bytes(b"keep")
    elsewhere = fake(root.parent, "numba-0-elsewhere", 400)
    (root / "numba-0-link").symlink_to(elsewhere, target_is_directory=True)
    (root / "photos").mkdir()
    (root / "photos" / "a.jpg").write_bytes(b"jpg")
    kept = [root / "notes.txt", lookalike / "data.bin", root / "photos" / "a.jpg"]
    return {path: path.read_bytes() for path in kept}


def test_clear_removes_only_the_directories_cardsim_made_and_says_which(root):
    fake(root, cache.compiled_dir().name, 0, size=2**20)
    fake(root, "numba-0-old", 40, tag=False)  # an earlier version's: its last-use file
    cache.make_dir(root / ".compiling")
    (root / cache.PRUNE_STAMP).touch()
    kept = foreign_entries(root)
    result = CliRunner().invoke(cli, ["cache", "clear"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sorted(line.split(" (")[0] for line in lines[:-2]) == sorted(
        ["removed .compiling", f"removed {cache.compiled_dir().name}", "removed numba-0-old"]
    )
    assert lines[-2].startswith("removed 3 directories (") and lines[-2].endswith(str(root))
    assert lines[-1] == (
        "left 4 entries cardsim did not make: notes.txt, numba-0-link, numba-9-lookalike, photos"
    )
    assert sorted(os.listdir(root)) == ["notes.txt", "numba-0-link", "numba-9-lookalike", "photos"]
    assert all(path.read_bytes() == data for path, data in kept.items())
    assert (root.parent / "numba-0-elsewhere" / cache.TAG).is_file()  # the link was not followed


def test_prune_never_removes_a_directory_cardsim_did_not_make(root):
    fake(root, "numba-0-old", 400)
    untagged = fake(root, "numba-0-someone-elses", 400, marker=False, tag=False)
    removed, _ = cache.prune(max_age_days=0, keep=0)
    assert names(removed) == {"numba-0-old"}
    assert untagged.exists() and "numba-0-someone-elses" not in names(cache.cache_dirs())


def test_a_cache_directory_others_may_write_or_own_is_refused_in_one_line(root, monkeypatch):
    assert cache.directory_problem(root) is None
    root.chmod(0o777)
    problem = cache.directory_problem(root)
    assert "every user may write it (mode 0777)" in problem
    assert f"Fix: chmod go-w '{root}'" in problem and "\n" not in problem
    root.chmod(0o755)
    inner = cache.make_dir(root / cache.compiled_dir().name / "loops")
    inner.chmod(0o757)
    assert "every user may write it" in cache.cache_problem()
    inner.chmod(0o755)
    assert cache.cache_problem() is None
    monkeypatch.setattr(cache, "_user_ids", lambda: (os.getuid() + 4321,))
    problem = cache.directory_problem(root)
    assert "not to you" in problem and "set CARDSIM_CACHE_DIR to a directory of your own" in problem


def test_nothing_is_loaded_from_a_cache_directory_every_user_may_write(tmp_path):
    """A new process points numba's cache and the generated loops at a private directory, and
    says why in one line on stderr."""
    import subprocess
    import sys

    root = tmp_path / "shared"
    root.mkdir()
    root.chmod(0o777)
    code = (
        "import cardsim.core, numba.core.config as c; from cardsim.core import cache; "
        "print(c.CACHE_DIR); print(cache.compiled_dir())"
    )
    env = {**os.environ, "CARDSIM_CACHE_DIR": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"cardsim: warning: compiled code is not loaded from '{root}'")
    numba_dir, compiled = done.stdout.split()
    assert numba_dir == compiled and not Path(compiled).is_relative_to(root)
    assert not Path(compiled).exists()  # the private directory went with the process
    assert os.listdir(root) == []
