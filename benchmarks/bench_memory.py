"""Peak memory of reading a run and of reporting on one, each in a fresh process.

    python benchmarks/bench_memory.py read     # read_results of 10M four-player Fruit Picking games
    python benchmarks/bench_memory.py report   # cardsim report of 100k four-player Pajarracos games

Every figure is the peak resident set size of a child process (``resource.getrusage`` of
``RUSAGE_CHILDREN`` after it ends, so nothing of this process counts), next to the peak of the
same child doing only its imports, so what the work itself costs reads off as the difference.
``read`` measures ``io.read_results`` with ``compact=False`` (the int32 columns the parts store,
the parts read whole then joined) and with the default compact dtypes, in the same run.

The 10M-game dataset is built once under ``--data`` (default /tmp/cardsim-bench-memory): one
simulated block of 100,000 games written 100 times with its game indices shifted (the columns,
types and value ranges of a real run; only the games repeat), which takes a minute instead of
the hours of playing ten million games on a loaded machine. The Pajarracos run is played.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BLOCK = 100_000


def child_peak_mib(code: str) -> float:
    """Run ``code`` in a fresh Python and return its peak RSS in MiB (Linux: ru_maxrss is KiB)."""
    script = (
        f"{code}\nimport resource\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    return int(done.stdout.strip().splitlines()[-1]) / 1024


def build_fruit_dataset(path: Path, games: int) -> Path:
    """``games`` four-player Fruit Picking games: one played block repeated (see the module)."""
    if path.exists():
        return path
    sys.path.insert(0, str(REPO))
    import cardsim
    from cardsim.core import dataset as io

    block = cardsim.simulate("fruit-picking", games=BLOCK, players=4, seed=1)
    meta = io.json_ready(dict(block.metadata))
    meta.pop("games_done", None)
    meta |= {"first_game": 0, "games": games, "format": io.FORMAT}
    meta |= {"format_version": io.FORMAT_VERSION, "complete": False}
    meta.setdefault("seat_counters", list(block.ruleset.seat_counters))
    io.prepare_new_dataset(path, "results")
    io.write_metadata(path, meta)
    frame = block.frame
    for start in range(0, games, BLOCK):
        part = frame.iloc[: min(BLOCK, games - start)].copy()
        part["game"] = part["game"] + start
        io.write_part(path, part, meta)
    meta["complete"] = True
    io.write_metadata(path, meta)
    return path


def bench_read(data: Path, games: int) -> None:
    path = build_fruit_dataset(data / f"fruit-4p-{games}", games)
    imports = "from cardsim.core import dataset as io; import pandas, pyarrow.parquet"
    base = child_peak_mib(imports)
    print(f"read_results of {games:,} four-player Fruit Picking games ({path}):")
    print(f"  imports only:              {base:8.0f} MiB")
    for compact in (False, True):
        code = (
            f"{imports}\nframe, _ = io.read_results({str(path)!r}, compact={compact})\n"
            f"assert len(frame) == {games}"
        )
        t0 = time.perf_counter()
        peak = child_peak_mib(code)
        seconds = time.perf_counter() - t0
        label = "compact dtypes (default)" if compact else "compact=False (int32)"
        print(f"  {label:26s} {peak:8.0f} MiB peak ({seconds:.0f} s)")


def bench_report(data: Path, games: int) -> None:
    path = data / f"pajarracos-4p-{games}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if not path.exists():
        cmd = [sys.executable, "-m", "cardsim.cli.main", "run", "pajarracos", "-n", str(games)]
        subprocess.run([*cmd, "-p", "4", "-q", "--out", str(path)], check=True, env=env)
    out = data / "report"
    imports = "from cardsim.cli.main import cli; from cardsim.analysis.reports import balance"
    base = child_peak_mib(imports)
    report = (
        "import sys\nfrom cardsim.cli.main import cli\n"
        f"sys.argv = ['cardsim', 'report', {str(path)!r}, '--report', {str(out)!r}, '--force']\n"
        "try:\n    cli(prog_name='cardsim')\nexcept SystemExit as done:\n"
        "    assert not done.code, done.code"
    )
    # as before: batches of io.BATCH_ROWS games, each counter's fit left to the cyclic collector
    before = (
        "from cardsim.analysis.reports import balance\nfrom cardsim.analysis.stats import counters\n"
        "from cardsim.core import dataset as io\n"
        "balance.REPORT_BATCH_ROWS = io.BATCH_ROWS\n"
        "counters.gc = type('NoCollect', (), {'collect': staticmethod(lambda: 0)})\n"
    )
    print(f"cardsim report of {games:,} four-player Pajarracos games ({path}):")
    print(f"  imports only:              {base:8.0f} MiB")
    print(
        f"  as before (big batches, fits not collected): {child_peak_mib(before + report):6.0f} MiB peak"
    )
    print(f"  the report:                {child_peak_mib(report):8.0f} MiB peak")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("read", "report"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--data", type=Path, default=Path("/tmp/cardsim-bench-memory"))
    args = parser.parse_args()
    args.data.mkdir(parents=True, exist_ok=True)
    if args.what == "read":
        bench_read(args.data, args.games or 10_000_000)
    else:
        bench_report(args.data, args.games or 100_000)


if __name__ == "__main__":
    main()
