"""``nana export`` of Nana's current-rules table: its rows against ``nana stats`` and the probe,
read back by pyarrow and DuckDB (Parquet readers the project did not write); the CSV against
the Parquet; the package's own rows against both; and the queries of docs/PYTHON.md."""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.compute
import pyarrow.csv
import pyarrow.parquet as pq
import pytest

import nana

# An export of a whole table: 30 s in the tests' build, left to the self-check.
pytestmark = pytest.mark.self_check
from conftest import run_nana

DOC = Path(__file__).resolve().parents[2] / "docs" / "PYTHON.md"
CHECKED_ROWS = 1000


@pytest.fixture(scope="module")
def exported(tmp_path_factory, nana_bin, tables) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("export")
    table = str(tables / "nana-current.tb")
    files = {"parquet": out / "nana-current.parquet", "csv": out / "nana-current.csv"}
    for path in files.values():
        done = run_nana(nana_bin, "export", "--tablebase", table, str(path))
        assert done.stdout.startswith(f"{path}: "), done.stdout
    return files


@pytest.fixture(scope="module")
def parquet(exported) -> pa.Table:
    return pq.read_table(exported["parquet"])


def stats_positions(nana_bin: str, tables: Path) -> int:
    out = run_nana(nana_bin, "stats", "--tablebase", str(tables / "nana-current.tb"), "--no-reachable").stdout
    m = re.search(r"entries: wins (\d+), losses (\d+), draws (\d+),", out)
    assert m, out
    return sum(map(int, m.groups()))


def test_the_rows_are_the_stored_positions(parquet, nana_bin, tables, tb) -> None:
    assert parquet.column_names == nana.COLUMNS
    assert parquet.num_rows == stats_positions(nana_bin, tables) == tb.stats("nana", "current").positions
    assert len(set(parquet.column("fen").to_pylist())) == parquet.num_rows


def expand_hand(hand: str) -> str:
    """A position string's hands with each piece written as often as held: `2rB` is `rrB`."""
    out, count = "", ""
    for c in "" if hand == "-" else hand:
        if c.isdigit():
            count += c
        else:
            out += c * int(count or "1")
            count = ""
    return out


def test_rows_agree_with_the_probe(parquet, tb) -> None:
    rng = random.Random(38)
    rows = parquet.take(sorted(rng.sample(range(parquet.num_rows), CHECKED_ROWS))).to_pylist()
    for row in rows:
        answer = tb.probe("nana", "current", row["fen"])
        assert answer.fen == row["fen"]
        assert (row["category"], row["dtm"], row["best_move"]) == (answer.category, answer.dtm, answer.best_move)
        # Black moves first in Nana: "b" in the position string.
        side = row["fen"].split(" ")[1]
        assert row["side_to_move"] == {"b": "black", "w": "white"}[side], row
        assert sorted(row["hand"]) == sorted(expand_hand(row["fen"].split(" ")[2])), row


def test_duckdb_reads_the_same_file(exported, parquet) -> None:
    path = str(exported["parquet"])
    count, wins, longest = duckdb.sql(
        f"SELECT count(*), count(*) FILTER (WHERE category = 'win'), max(dtm) FROM '{path}'"
    ).fetchall()[0]
    column = parquet.column("category").cast(pa.string()).to_pylist()
    assert count == parquet.num_rows and wins == column.count("win")
    assert longest == max(d for d in parquet.column("dtm").to_pylist() if d is not None)


def test_the_csv_holds_the_parquets_rows(exported, parquet) -> None:
    with open(exported["csv"], newline="") as f:
        assert next(csv.reader(f)) == nana.COLUMNS
    # Every field as text, as written: an empty field for a null.
    text = {name: pa.string() for name in nana.COLUMNS}
    options = pyarrow.csv.ConvertOptions(column_types=text, strings_can_be_null=False, quoted_strings_can_be_null=False)
    read = pyarrow.csv.read_csv(exported["csv"], convert_options=options)
    assert read.column_names == nana.COLUMNS and read.num_rows == parquet.num_rows
    for name in nana.COLUMNS:
        want = pyarrow.compute.fill_null(parquet.column(name).cast(pa.string()), "")
        assert read.column(name).combine_chunks().equals(want.combine_chunks()), name


def same_rows(ours: pa.Table, theirs: pa.Table) -> None:
    assert ours.column_names == theirs.column_names and ours.num_rows == theirs.num_rows
    for name in nana.COLUMNS:
        a, b = ours.column(name), theirs.column(name)
        if pa.types.is_dictionary(a.type):
            a, b = a.cast(pa.string()), b.cast(pa.string())
        assert a.combine_chunks().equals(b.combine_chunks()), name


def test_the_packages_rows_are_the_files(parquet, tb) -> None:
    # Rows come in index order: the package's first batch is the file's first rows.
    first = pa.Table.from_batches([tb.record_batches("nana", "current").read_next_batch()])
    assert first.num_rows > 0
    same_rows(first, parquet.slice(0, first.num_rows))
    # Samples from anywhere in the index: the file's rows of the same positions.
    rng = random.Random(38)
    for _ in range(3):
        sample = pa.Table.from_batches([tb.record_batch("nana", "current", rng.randrange(tb.size("nana", "current")), 4096)])
        theirs = parquet.filter(pa.compute.is_in(parquet.column("fen"), value_set=sample.column("fen")))
        same_rows(sample, theirs)


def test_duckdb_and_pandas_read_the_packages_rows(parquet, tb) -> None:
    # DuckDB scans the reader as a table, pulling batches as it needs them: the first rows are
    # the file's first rows (index order).
    reader = tb.record_batches("nana", "current")
    rows = duckdb.sql("SELECT fen, dtm FROM reader LIMIT 5000").fetchall()
    assert rows == list(zip(*(parquet.column(c).slice(0, 5000).to_pylist() for c in ("fen", "dtm"))))
    # pandas gets nullable integers, the whole table: a draw's dtm is <NA>, not a float NaN.
    frame = tb.to_pandas("nana", "current")
    assert len(frame) == parquet.num_rows
    assert isinstance(frame["dtm"].dtype, pd.api.extensions.ExtensionDtype), frame["dtm"].dtype
    draws = pa.compute.sum(pa.compute.is_null(parquet.column("dtm"))).as_py()
    assert int(frame["dtm"].isna().sum()) == draws > 0


def doc_queries() -> list[tuple[str, str]]:
    """Each DuckDB query of docs/PYTHON.md over Nana's export, with the output the doc shows."""
    text = DOC.read_text()
    pairs = re.findall(r"```sql\n(.*?)```\n\n?```text\n(.*?)```", text, re.S)
    return [(q, out) for q, out in pairs if "'nana-current.parquet'" in q]


def test_the_doc_shows_what_the_queries_print(exported) -> None:
    queries = doc_queries()
    assert len(queries) >= 3
    for query, shown in queries:
        sql = query.replace("'nana-current.parquet'", f"'{exported['parquet']}'")
        printed = "".join(f"{row}\n" for row in duckdb.sql(sql).fetchall())
        assert printed == shown, query
