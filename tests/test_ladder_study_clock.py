"""The ladder studies' clock (analysis/ladder.py ``StudyClock``): a study killed and resumed
reports the time of both runs, not only the resume's."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "analysis"))
import ladder as study_ladder  # noqa: E402


def test_a_resume_adds_the_killed_runs_seconds(tmp_path, monkeypatch):
    monkeypatch.setattr(study_ladder.StudyClock, "EVERY", 0.02)
    path = tmp_path / "game-2p.seconds"
    killed = study_ladder.StudyClock(path, resume=False)
    killed.__enter__()
    time.sleep(0.2)
    # a kill: no __exit__, only what the ticks wrote is left
    killed.done.set()
    killed.thread.join()
    left = float(path.read_text())
    assert 0.1 < left <= killed.seconds()
    with study_ladder.StudyClock(path, resume=True) as resumed:
        time.sleep(0.05)
    assert resumed.seconds() >= left + 0.05
    assert float(path.read_text()) >= left + 0.05


def test_a_fresh_study_starts_the_clock_at_zero(tmp_path):
    path = tmp_path / "game-2p.seconds"
    path.write_text("1000.0\n")
    with study_ladder.StudyClock(path, resume=False) as fresh:
        pass
    assert fresh.seconds() < 5
    assert float(path.read_text()) < 5
