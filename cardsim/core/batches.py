"""Reading a results file batch by batch (bounded memory), until ``io.iter_batches`` exists.

Temporary: issue 9 defines ``io.iter_batches`` for the Parquet dataset format; this module only
streams today's single files so that streamed reports can be built and tested meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from cardsim.core import io

BATCH_GAMES = 1 << 16


def result_columns(path: str | Path) -> list[str]:
    """The column names of a results file."""
    return list(pq.read_schema(path).names)


def result_rows(path: str | Path) -> int:
    """Games stored in a results file (from its footer)."""
    return pq.ParquetFile(path).metadata.num_rows


def iter_batches(path: str | Path, batch_games: int = BATCH_GAMES) -> Iterator[pd.DataFrame]:
    """The games of a results file as frames of at most ``batch_games`` rows, in order, with the
    categorical columns of ``io.read_results``."""
    meta = io.read_metadata(path)
    cats = io._categorical_columns(meta)
    pf = pq.ParquetFile(path, read_dictionary=list(cats))
    for batch in pf.iter_batches(batch_size=batch_games):
        yield io._restore_categories(batch.to_pandas(), meta)
