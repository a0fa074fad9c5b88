"""The results dataset (cardsim/core/dataset/): layout, atomic parts, reading in game order, resuming
only the gaps whatever wrote the parts, refusing damaged or foreign datasets, and reading the
single files of earlier versions."""

import json
import os
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from cardsim.analysis.results import Results
from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core import runner
from cardsim.core.errors import CardsimError
from cardsim.core.lock import LOCK_FILE, DatasetLock
from cardsim.core.outcomes import chunk_frame

GAME = "fruit-picking"
ARGS = ["-p", "2", "-b", "planner,greedy", "-s", "4"]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def run_out(path, games=1000, *extra):
    result = invoke("run", GAME, "-n", games, *ARGS, "--out", path, "-q", *extra)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def spec():
    return runner.make_spec(GAME, 1000, 2, ["planner", "greedy"], seed=4)


@pytest.fixture(scope="module")
def expected(spec):
    frames = [chunk_frame(spec.ruleset, 2, spec.bot_names, c) for c in runner.iter_chunks(spec)]
    return pd.concat(frames, ignore_index=True)


def mtimes(path):
    return {n: os.stat(path / n).st_mtime_ns for n in os.listdir(path) if n.startswith("part-")}


def test_layout_metadata_and_parts(tmp_path, expected):
    path = tmp_path / "r"
    run_out(path, 1000, "--chunk-size", 400)
    names = sorted(os.listdir(path))
    assert names == [LOCK_FILE, io.METADATA_FILE, "part-000000000000-000000000400.parquet",
                     "part-000000000400-000000000800.parquet",
                     "part-000000000800-000000001000.parquet"]  # fmt: skip
    assert (path / LOCK_FILE).read_bytes() == b""  # the run let go: it no longer names itself
    raw = json.loads((path / io.METADATA_FILE).read_text())
    assert raw["format"] == io.FORMAT and raw["format_version"] == io.FORMAT_VERSION
    assert raw["complete"] is True and raw["games"] == 1000 and raw["seed"] == 4
    assert "games_done" not in raw  # the parts say which games are done
    part = pq.ParquetFile(path / names[3])
    info = json.loads(part.schema_arrow.metadata[io.PART_KEY])
    assert info == {"first": 400, "stop": 800, "run": io.run_key(raw)}
    df, meta = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(df, expected)
    assert meta["games_done"] == 1000 and meta["complete"] is True and "format" not in meta


def test_other_tools_read_the_directory_as_it_is(tmp_path, expected):
    path = tmp_path / "r"
    run_out(path, 1000, "--chunk-size", 300)
    (path / ".part-x.parquet.1.ab.tmp").write_bytes(b"half written")  # ignored by readers
    table = pads.dataset(path, format="parquet").to_table()
    assert sorted(table.column("game").to_pylist()) == list(range(1000))
    assert io.read_results(path, compact=False)[0]["game"].tolist() == list(range(1000))


def test_iter_batches_streams_in_game_order_with_categories(tmp_path, expected):
    path = tmp_path / "r"
    run_out(path, 1000, "--chunk-size", 250)
    batches = list(io.iter_batches(path, batch_rows=100))
    assert max(len(b) for b in batches) <= 100
    whole = pd.concat(batches, ignore_index=True)
    pd.testing.assert_frame_equal(whole, expected)
    some = list(io.iter_batches(path, columns=["game", "win_0", "bot_1"]))
    assert list(some[0].columns) == ["game", "win_0", "bot_1"]
    assert list(some[0]["bot_1"].cat.categories) == ["planner", "greedy"]


def test_same_run_same_bytes_whatever_the_threads(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_out(a, 600, "--chunk-size", 200, "--threads", 1)
    run_out(b, 600, "--chunk-size", 200, "--threads", min(2, runner.available_threads()))
    for name in os.listdir(a):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_resume_plays_only_the_gaps_and_keeps_every_saved_part(tmp_path, spec, expected):
    path = tmp_path / "r"
    run_out(path, 1000, "--chunk-size", 100)
    for first in (200, 300, 700):  # as if a hard kill had lost these parts
        (path / io.part_name(first, first + 100)).unlink()
    meta = json.loads((path / io.METADATA_FILE).read_text())
    meta["complete"] = False
    io.write_metadata(path, meta)
    assert io.missing_ranges(path, spec) == [(200, 400), (700, 800)]
    kept = mtimes(path)
    result = run_out(path, 1000, "--chunk-size", 64, "--resume")
    assert result.stderr == ""
    assert all(mtimes(path)[n] == t for n, t in kept.items())  # never rewritten
    assert io.part_name(200, 264) in os.listdir(path)  # the gap, in the new chunk size
    pd.testing.assert_frame_equal(io.read_results(path, compact=False)[0], expected)
    assert io.missing_ranges(path, spec) == []


def test_parts_of_any_size_written_by_another_writer_are_resumed(tmp_path, spec, expected):
    """As a cluster task writes them: write_part of any range, then a local --resume."""
    path = tmp_path / "r"
    io.prepare_new_dataset(path)
    meta = io.dataset_metadata(spec)
    io.write_metadata(path, meta)
    for first, stop in [(0, 130), (130, 170), (500, 999)]:
        io.write_part(path, expected.iloc[first:stop], meta)
    io.write_part(path, expected.iloc[130:170], meta)  # a retried task: same name, same bytes
    assert io.missing_ranges(path, spec) == [(170, 500), (999, 1000)]
    assert io.read_metadata(path)["games_done"] == 130 + 40 + 499
    run_out(path, 1000, "--resume")
    pd.testing.assert_frame_equal(io.read_results(path, compact=False)[0], expected)


def test_extend_a_finished_run_and_refuse_to_shrink_it(tmp_path):
    path = tmp_path / "r"
    run_out(path, 300, "--chunk-size", 100)
    run_out(path, 500, "--chunk-size", 100, "--resume")
    df, meta = io.read_results(path, compact=False)
    assert df["game"].tolist() == list(range(500)) and meta["games"] == 500
    result = invoke("run", GAME, "-n", 200, *ARGS, "--out", path, "--resume")
    assert result.exit_code == 2 and "beyond --games 200" in result.stderr


def test_resume_with_nothing_saved_says_it_starts_afresh(tmp_path, expected):
    path = tmp_path / "r"
    result = run_out(path, 1000, "--resume")
    assert (
        result.stderr.strip() == f"cardsim: nothing to resume at '{path}': starting the run afresh"
    )
    pd.testing.assert_frame_equal(io.read_results(path, compact=False)[0], expected)


def test_an_existing_dataset_is_never_overwritten(tmp_path):
    path = tmp_path / "r"
    run_out(path, 200)
    before = mtimes(path)
    result = invoke("run", GAME, "-n", 200, *ARGS, "--out", path)
    assert result.exit_code == 2 and "--resume" in result.stderr
    assert mtimes(path) == before


def test_results_save_and_load_a_dataset(tmp_path, expected, spec):
    from cardsim.analysis.results import run_metadata

    results = Results(expected, run_metadata(spec))
    path = results.save(tmp_path / "saved")
    assert io.is_dataset(path)
    loaded = Results.load(path)  # compact integer types: the same values
    pd.testing.assert_frame_equal(loaded.frame, expected, check_dtype=False)
    assert loaded.metadata == results.metadata


def legacy_file(path, frame, meta):
    """A single results file as earlier versions wrote them."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({io.LEGACY_METADATA_KEY: json.dumps(meta)})
    pq.write_table(table, path)
    return path


def test_single_files_of_earlier_versions_are_still_read(tmp_path, expected, spec):
    from cardsim.analysis.results import run_metadata

    path = legacy_file(tmp_path / "old.parquet", expected, run_metadata(spec))
    df, meta = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(df, expected)
    assert pd.concat(io.iter_batches(path), ignore_index=True).equals(df)
    result = invoke("report", path, "--report", tmp_path / "report")
    assert result.exit_code == 0 and "Report of 1,000 games" in result.stdout
    # it cannot be resumed into (a dataset is a directory), and says so
    result = invoke("run", GAME, "-n", 1000, *ARGS, "--out", path, "--resume")
    assert result.exit_code == 2 and "single results file" in result.stderr


# -- damaged datasets ------------------------------------------------------------------------------


@pytest.fixture
def dataset(tmp_path):
    path = tmp_path / "r"
    run_out(path, 1000, "--chunk-size", 250)
    return path


def damage_overlap(path, expected):
    meta = json.loads((path / io.METADATA_FILE).read_text())
    io.write_part(path, expected.iloc[100:300], meta)


def damage_foreign_part(path, expected):
    other = path.parent / "other"
    run_out(other, 1000, "--chunk-size", 250, "--seed", 99)
    name = io.part_name(250, 500)
    os.replace(other / name, path / name)


def damage_renamed_part(path, expected):
    os.replace(path / io.part_name(250, 500), path / io.part_name(250, 400))


def damage_missing_part_of_a_complete_run(path, expected):
    (path / io.part_name(500, 750)).unlink()


def damage_truncated_part(path, expected):
    part = path / io.part_name(0, 250)
    part.write_bytes(part.read_bytes()[:500])


def damage_metadata_not_json(path, expected):
    (path / io.METADATA_FILE).write_text("{not json")


def damage_metadata_a_list(path, expected):
    (path / io.METADATA_FILE).write_text("[1, 2]")


def damage_metadata_empty_object(path, expected):
    (path / io.METADATA_FILE).write_text("{}")


DAMAGE = {
    "overlapping parts": (damage_overlap, "overlap"),
    "part of another run": (damage_foreign_part, "not a part of this run"),
    "part renamed": (damage_renamed_part, "damaged"),
    "complete but a part missing": (damage_missing_part_of_a_complete_run, "missing"),
    "truncated part": (damage_truncated_part, "not readable"),
    "metadata not JSON": (damage_metadata_not_json, "not valid JSON"),
    "metadata a list": (damage_metadata_a_list, "not an object"),
    "metadata empty": (damage_metadata_empty_object, "damaged or not cardsim's"),
}


@pytest.mark.parametrize("damage, fragment", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_dataset_is_refused_in_one_line(dataset, expected, damage, fragment):
    damage(dataset, expected)
    with pytest.raises(CardsimError, match=fragment) as info:
        io.read_results(dataset, compact=False)
    assert "\n" not in str(info.value)
    for args in (["report", dataset, "--report", dataset.parent / "rep"],
                 ["run", GAME, "-n", 1000, *ARGS, "--out", dataset, "--resume"]):  # fmt: skip
        result = invoke(*args)
        assert result.exit_code == 2, (result.output, result.exception)
        assert len(result.stderr.strip().splitlines()) == 1 and fragment in result.stderr


# -- one writer at a time (cardsim/core/lock.py, issue 33) ----------------------------------------


def files(path):
    """Every file of a dataset directory (the lock and temporary files too) with its bytes."""
    return {n: (path / n).read_bytes() for n in sorted(os.listdir(path))}


@pytest.mark.parametrize(
    "damage", [damage_truncated_part, damage_foreign_part], ids=["truncated", "foreign"]
)
def test_a_refused_resume_writes_nothing_not_even_the_metadata(dataset, expected, damage):
    """A resume with a larger --games onto a damaged part used to write games and
    complete=false into _cardsim.json before it found the damage."""
    meta = json.loads((dataset / io.METADATA_FILE).read_text())
    meta["complete"] = False  # as a killed run leaves it: the resume reads every part
    io.write_metadata(dataset, meta)
    damage(dataset, expected)
    before = files(dataset)
    result = invoke("run", GAME, "-n", 1500, *ARGS, "--out", dataset, "--resume", "-q")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert files(dataset) == before


def test_a_dataset_another_writer_holds_is_refused_before_anything_changes(dataset, spec):
    with DatasetLock(dataset).acquire():
        before = files(dataset)
        holder = json.loads(before[LOCK_FILE])
        # this process's own program (pytest, or its worker under pytest-xdist)
        programs = {Path(a[0]).name for a in (sys.argv, sys.orig_argv) if a}
        assert holder["pid"] == os.getpid() and holder["command"].split()[0] in programs
        result = invoke("run", GAME, "-n", 1500, *ARGS, "--out", dataset, "--resume", "-q")
        assert result.exit_code == 2
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(
            f"cardsim: error: results dataset '{dataset}' is being written by another process "
            f"(pid {os.getpid()} on "
        )
        assert files(dataset) == before
        with pytest.raises(CardsimError, match="being written by another process"):
            io.DatasetSink(dataset, spec, resume=True)  # the library's writer takes it too
        assert files(dataset) == before
    assert (dataset / LOCK_FILE).read_bytes() == b""


def test_readers_say_when_a_run_is_still_writing(dataset, tmp_path):
    assert "writer" not in io.read_metadata(dataset)
    with DatasetLock(dataset).acquire():
        meta = io.read_metadata(dataset)
        assert meta["writer"].startswith(f"pid {os.getpid()} on ")
        result = invoke("report", dataset, "--report", tmp_path / "rep")
        assert result.exit_code == 0, result.output
        assert f"a run is still writing {dataset} (pid {os.getpid()} on " in result.stderr
        assert "covers the 1,000 games saved so far" in result.stderr
    assert "writer" not in io.read_metadata(dataset)


def test_a_new_dataset_refused_after_taking_the_lock_leaves_no_directory(tmp_path, spec):
    path = tmp_path / "new"
    lock = io.lock_out(path, spec, resume=False)
    assert sorted(os.listdir(path)) == [LOCK_FILE]
    with pytest.raises(CardsimError, match=f"has no game yet: a run is starting to write it "
                       rf"\(pid {os.getpid()} on "):  # fmt: skip
        io.read_metadata(path)  # a reader while the new run's engine compiles
    lock.release()
    assert not path.exists()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    for resume, fragment in [(False, "not empty and not a results"), (True, "no _cardsim.json")]:
        with pytest.raises(CardsimError, match=fragment):
            io.lock_out(foreign, spec, resume=resume)
    assert os.listdir(foreign) == ["notes.txt"]  # no lock file left in someone else's directory
