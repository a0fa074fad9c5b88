"""Results on disk: the results dataset (write, resume, read), and the single files of before.

Three modules, one role each: ``format`` (the contract below: names, keys, metadata checks),
``write`` (atomic files, ``DatasetSink``, resume) and ``read`` (reading and validation). This
package is their public face: the names callers use are imported here (``from cardsim.core
import dataset``; ``dataset.read_results(...)``).

The contract (issue 9; cluster runs, issue 13, write the same format)
======================================================================

``cardsim run --out PATH`` writes a *results dataset*: a directory of Parquet part files and one
metadata file. Nothing is ever written in place: every file is written to a temporary name in
``PATH``, fsynced, renamed (``os.replace``, atomic) and the directory fsynced, so a file that
exists is complete, whatever moment the process is killed at (SIGKILL included)::

    PATH/
      _cardsim.json       the run's metadata (JSON object, below); written before the first part,
                          rewritten (atomically) when the run completes or is extended
      part-<first:012d>-<stop:012d>.parquet
                          games [first, stop) of the run, one row per game in game order
                          (``outcomes.chunk_frame`` columns), one part per chunk of the run
      .<name>.<pid>.<random>.tmp
                          a file being written; never read, removed by the next --resume

``_cardsim.json`` holds ``RunSpec.metadata()`` (ruleset, rules, n_players, bots, bot_params,
bot_param_names (the names of a bot's parameters, for bots that name them; datasets of earlier
versions lack it), seating, seed, first_game, games, version, variant), plus ``end_reasons`` and ``seat_counters``
(names of the coded columns), ``format`` = ``"cardsim-dataset"``, ``format_version`` = 1 and
``complete``: ``true`` once a part holds every game of ``[first_game, first_game + games)``.
The parts are the truth about which games are done: ``games done`` is the union of their ranges,
and ``complete`` only saves a reader the check (a dataset that says ``complete`` but misses games
is refused as damaged). Nothing about how the run went (time, threads, chunk size) is stored.

Every part's Parquet schema metadata has the key ``cardsim_part``: JSON
``{"first": f, "stop": s, "run": <run key>}``. The run key (``run_key``) is a hash of what makes
two runs the same games (``RESUME_KEYS``), so a part copied from another run is refused, not
mixed in. A part's bytes depend only on its range and the run (not on threads or machines), so a
retried task that rewrites a part writes the same name with the same bytes.

Reading (``read_results``, ``iter_batches``, ``read_metadata``, ``list_parts``) sorts the parts
by first game and refuses overlapping parts, parts outside the run, parts of another run and parts
whose row count disagrees with their name. Rows are the same whatever the thread count and
``--chunk-size`` (a part is a chunk, so the *files* are the same only for the same chunk size).

Resuming (``DatasetSink(path, spec, resume=True)``, ``missing_ranges``): every complete part is
kept and only the gaps are played, whatever chunk or task size wrote the parts; no saved game is
ever deleted or rewritten by a resume. ``--games`` may be raised to extend a finished run (the
metadata is rewritten with the new count before any new part).

Public functions and their roles: ``write_part`` (one part, atomic), ``write_metadata`` (atomic),
``missing_ranges``, ``read_metadata``, ``read_results`` (a dataset or a single file),
``iter_batches`` (bounded-memory streaming in game order), ``write_results`` (a whole frame as a
dataset, for ``Results.save``), ``DatasetSink`` (the runner's sink).

The single files of earlier versions (one Parquet file, the metadata as JSON under the schema
metadata key ``b"cardsim"``) are still read by every reader; they are no longer written.

No numba here: reading results must not need the compiler.
"""

from cardsim.core.dataset.format import (
    BATCH_ROWS,
    COMPRESSION,
    FORMAT,
    FORMAT_VERSION,
    GAME_COLUMNS,
    LEGACY_METADATA_KEY,
    METADATA_FILE,
    PART_KEY,
    PART_PATTERN,
    RESUME_KEYS,
    SEAT_COLUMNS,
    TMP_SUFFIX,
    Part,
    check_metadata,
    compact_dtype,
    compact_frame,
    dataset_metadata,
    json_ready,
    part_name,
    required_columns,
    run_key,
)
from cardsim.core.dataset.read import (
    count_games,
    empty_chunk,
    frame_chunk,
    is_dataset,
    iter_batches,
    list_parts,
    missing_ranges,
    read_chunks,
    read_metadata,
    read_results,
)
from cardsim.core.dataset.write import (
    DatasetSink,
    PartWriter,
    check_out,
    lock_out,
    prepare_new_dataset,
    remove_temporary_files,
    write_metadata,
    write_part,
    write_results,
)

__all__ = [
    "BATCH_ROWS",
    "COMPRESSION",
    "DatasetSink",
    "FORMAT",
    "FORMAT_VERSION",
    "GAME_COLUMNS",
    "LEGACY_METADATA_KEY",
    "METADATA_FILE",
    "PART_KEY",
    "PART_PATTERN",
    "Part",
    "PartWriter",
    "RESUME_KEYS",
    "SEAT_COLUMNS",
    "TMP_SUFFIX",
    "check_metadata",
    "check_out",
    "compact_dtype",
    "compact_frame",
    "count_games",
    "dataset_metadata",
    "empty_chunk",
    "frame_chunk",
    "is_dataset",
    "iter_batches",
    "json_ready",
    "list_parts",
    "lock_out",
    "missing_ranges",
    "part_name",
    "prepare_new_dataset",
    "read_chunks",
    "read_metadata",
    "read_results",
    "remove_temporary_files",
    "required_columns",
    "run_key",
    "write_metadata",
    "write_part",
    "write_results",
]
