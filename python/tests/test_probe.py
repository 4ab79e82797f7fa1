"""``probe``, ``mainline``, ``stats`` and their ``get_*`` variants against ``nana query --json``
and ``nana stats``; the exceptions."""

from __future__ import annotations

import os
import random
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pytest

import nana
from conftest import RULE_SETS, query_json, run_nana

# The positions per game of the random comparison, and the rule set each is drawn from.
RANDOM_POSITIONS = 400
RANDOM_RULES = [("nana", "current"), ("dobutsu", "tanaka")]


def test_every_rule_set_is_found(tb: nana.Tablebase) -> None:
    assert set(RULE_SETS) <= set(tb.tables())
    assert tb.damaged() == {}


@pytest.mark.parametrize("game,rules", RULE_SETS)
def test_the_start_agrees_with_the_command_line(tb, nana_bin, tables, game, rules) -> None:
    answer = tb.probe(game, rules)
    assert answer.to_dict() == query_json(nana_bin, tables, game, rules)
    assert answer.moves and answer.best_move == answer.moves[0].uci
    assert tb.mainline(game, rules) == answer.mainline
    assert tb.probe(game, rules, answer.fen) == answer


def random_positions(tb: nana.Tablebase, game: str, rules: str, n: int, seed: int) -> list[str]:
    """`n` stored positions of distinct index entries spread over the whole index: the first
    row of a run of entries at a random place, until `n` are found."""
    rng = random.Random(seed)
    size = tb.size(game, rules)
    found: dict[str, None] = {}
    while len(found) < n:
        batch = tb.record_batch(game, rules, rng.randrange(size), 64)
        if batch.num_rows:
            found[batch.column("fen")[0].as_py()] = None
    return list(found)


@pytest.mark.parametrize("game,rules", RANDOM_RULES)
def test_random_positions_agree_with_the_command_line(tb, nana_bin, tables, game, rules) -> None:
    fens = random_positions(tb, game, rules, RANDOM_POSITIONS, seed=38)
    with ThreadPoolExecutor(4) as pool:
        expected = list(pool.map(lambda fen: query_json(nana_bin, tables, game, rules, fen), fens))
    decided = 0
    for fen, want in zip(fens, expected):
        answer = tb.probe(game, rules, fen)
        assert answer.to_dict() == want, fen
        assert tb.mainline(game, rules, fen) == want["mainline"], fen
        decided += want["category"] != "draw"
    # Both games have won and lost positions among any thousand.
    assert decided > 0


@pytest.mark.parametrize("game,rules", RANDOM_RULES)
def test_integer_probes_agree_with_the_answer(tb, game, rules) -> None:
    sign = {"win": 1, "draw": 0, "loss": -1}
    for fen in [None, *random_positions(tb, game, rules, 200, seed=52)]:
        answer = tb.probe(game, rules, fen)
        wdl = tb.probe_wdl(game, rules, fen)
        assert wdl == sign[answer.category], fen
        assert tb.probe_dtm(game, rules, fen) == wdl * (answer.dtm or 0), fen
        assert tb.get_wdl(game, rules, fen) == wdl and tb.get_dtm(game, rules, fen) == tb.probe_dtm(game, rules, fen)


def test_integer_probes_raise_as_probe_does(tmp_path, tb) -> None:
    with pytest.raises(ValueError, match="unknown game"):
        tb.probe_wdl("chess", "current")
    with pytest.raises(ValueError):
        tb.probe_dtm("nana", "current", "not a position")
    with nana.open_tablebases(tmp_path) as empty:
        for call in (empty.probe_wdl, empty.probe_dtm):
            with pytest.raises(nana.MissingTableError):
                call("nana", "current")
        sentinel = object()
        assert empty.get_wdl("nana", "current") is None
        assert empty.get_dtm("dobutsu", "tanaka", default=sentinel) is sentinel


def test_record_batches_is_a_reader_of_the_export_columns(tb) -> None:
    reader = tb.record_batches("dobutsu", "tanaka")
    assert isinstance(reader, pa.RecordBatchReader)
    assert reader.schema.names == nana.COLUMNS
    first = reader.read_next_batch()
    assert first.num_rows > 0 and first.schema == reader.schema


def test_the_move_counts_are_the_answers(tb) -> None:
    # A row's winning_moves and drawing_moves are how many of the answer's moves lead to a loss,
    # and a draw, for the opponent: "exactly one winning move" is a filter on a column.
    batch = tb.record_batches("nana", "current").read_next_batch()
    rows = batch.to_pylist()
    only = [r for r in rows if r["category"] == "win" and r["winning_moves"] == 1]
    assert only and len(only) < len(rows)
    for row in only[:100] + rows[:: max(1, len(rows) // 200)]:
        moves = tb.probe("nana", "current", row["fen"]).moves
        counts = tuple(sum(m.category == c for m in moves) for c in ("loss", "draw"))
        assert (row["winning_moves"], row["drawing_moves"]) == counts, row


@pytest.mark.parametrize("call", ["to_arrow", "to_pandas"])
def test_a_table_too_large_for_memory_is_refused_with_the_ways_to_read_it(tb, call) -> None:
    size = tb.size("dobutsu", "tanaka")
    assert size > nana.IN_MEMORY_ENTRIES
    with pytest.raises(ValueError) as e:
        getattr(tb, call)("dobutsu", "tanaka")
    message = str(e.value)
    assert f"{size:,} index entries" in message
    assert "record_batches('dobutsu', 'tanaka')" in message
    assert "`nana --game dobutsu export --rules tanaka dobutsu-tanaka.parquet`" in message


def test_the_version_is_the_command_lines(nana_bin) -> None:
    assert run_nana(nana_bin, "--version").stdout.split() == ["nana", nana.__version__]


def test_the_module_shows_its_api_alone() -> None:
    assert not {"os", "json", "dataclass", "field"} & set(dir(nana))
    assert all(hasattr(nana, name) for name in nana.__all__)


@pytest.mark.parametrize("game,rules", RULE_SETS)
def test_stats_agree_with_the_command_line(tb, nana_bin, tables, game, rules) -> None:
    file = tables / f"{game}-{rules}.tb"
    out = run_nana(nana_bin, "--game", game, "stats", "--rules", rules, "--tablebase", str(file), "--no-reachable").stdout
    m = re.search(r"entries: wins (\d+), losses (\d+), draws (\d+), unused (\d+); longest \w+ (\d+) plies", out)
    assert m, out
    assert tb.stats(game, rules) == nana.Stats(*map(int, m.groups()))


def cli_error(nana_bin: str, *args: str) -> str:
    done = run_nana(nana_bin, *args, check=False)
    assert done.returncode != 0 and done.stderr.startswith("error: "), done.stderr
    return done.stderr[len("error: ") :].strip()


@pytest.mark.parametrize(
    "game,rules,fen",
    [("nana", "current", "not a position"), ("nana", "original", "1k1/1SC/1K1 x RB 1"), ("dobutsu", "tanaka", "x" * 500)],
)
def test_a_bad_position_is_a_value_error_in_the_command_lines_words(tb, nana_bin, tables, game, rules, fen) -> None:
    message = cli_error(nana_bin, "--game", game, "--tablebase-dir", str(tables), "query", "--rules", rules, fen)
    for call in (tb.probe, tb.get_probe, tb.mainline, tb.get_mainline):
        with pytest.raises(ValueError) as e:
            call(game, rules, fen)
        assert str(e.value) == message


def test_unknown_games_and_rule_sets_are_value_errors(tb) -> None:
    with pytest.raises(ValueError, match=r'unknown game "chess" \(known: nana, dobutsu\)'):
        tb.probe("chess", "current")
    with pytest.raises(ValueError, match=r'unknown rule set "tanaka" of nana \(known: current, original\)'):
        tb.stats("nana", "tanaka")


def test_a_missing_table_raises_and_get_returns_the_default(tmp_path: Path) -> None:
    with nana.open_tablebases(tmp_path) as empty:
        assert empty.tables() == []
        with pytest.raises(nana.MissingTableError) as e:
            empty.probe("dobutsu", "tanaka")
        assert isinstance(e.value, KeyError) and isinstance(e.value, nana.TableError)
        assert str(e.value) == (
            f"no tablebase at {tmp_path / 'dobutsu-tanaka.tb'}; make it with "
            f"`nana --game dobutsu solve --rules tanaka --out {tmp_path}`"
        )
        with pytest.raises(nana.MissingTableError):
            empty.mainline("nana", "current")
        with pytest.raises(nana.MissingTableError):
            empty.stats("nana", "original")
        sentinel = object()
        assert empty.get_probe("nana", "current") is None
        assert empty.get_probe("nana", "current", default=sentinel) is sentinel
        assert empty.get_mainline("nana", "current", default=sentinel) is sentinel
        assert empty.get_stats("dobutsu", "safe-try", default=sentinel) is sentinel


def test_found_tables_are_returned_not_the_default(tb) -> None:
    assert tb.get_probe("nana", "current", default=0) == tb.probe("nana", "current")
    assert tb.get_stats("dobutsu", "tanaka") == tb.stats("dobutsu", "tanaka")
    assert tb.get_mainline("nana", "original") == tb.mainline("nana", "original")


def test_a_file_that_is_not_a_table_is_a_damaged_table_error(tmp_path, tables, nana_bin) -> None:
    target = tmp_path / "nana-current.tb"
    target.write_bytes(b"not a tablebase at all" * 10)
    message = cli_error(nana_bin, "--tablebase-dir", str(tmp_path), "query", "--json")
    with nana.open_tablebases(tmp_path) as tb:
        assert tb.damaged() == {("nana", "current"): message}
        for call in (tb.probe, tb.get_probe):
            with pytest.raises(nana.DamagedTableError) as e:
                call("nana", "current")
            assert str(e.value) == message


def test_a_damaged_block_is_a_damaged_table_error(tmp_path, tables, nana_bin) -> None:
    target = tmp_path / "nana-current.tb"
    shutil.copy(tables / "nana-current.tb", target)
    data = bytearray(target.read_bytes())
    middle = len(data) // 2
    for i in range(middle, middle + 64):
        data[i] ^= 0xFF
    target.write_bytes(bytes(data))
    with nana.open_tablebases(tmp_path) as tb:
        assert tb.tables() == [("nana", "current")]
        with pytest.raises(nana.DamagedTableError) as e:
            for _ in tb.record_batches("nana", "current"):
                pass
        assert str(e.value).startswith(f"{target}: ")
        assert str(e.value).endswith(f"; regenerate it with `nana --game nana solve --rules current --out {tmp_path}`")


def test_a_block_that_cannot_be_read_is_an_error_for_its_positions_alone(tb, nana_bin) -> None:
    """Nana's current table with the block of the start's entry damaged on disk (its checksum no
    longer matches), the stand-in for a device's failed read, which the package, reading files,
    cannot be handed: the start raises ``DamagedTableError`` in the command line's words, each
    time; positions across the table answer as the intact table does, or raise the same error
    where their answer reads that block."""
    folder = Path(os.environ["NANA_TEST_DAMAGED_START"])
    message = cli_error(nana_bin, "--tablebase-dir", str(folder), "query", "--json")
    assert "checksum mismatch" in message, message
    with nana.open_tablebases(folder) as damaged:
        assert damaged.tables() == [("nana", "current")]
        for _ in range(2):
            for call in (damaged.probe, damaged.probe_wdl, damaged.get_probe):
                with pytest.raises(nana.DamagedTableError) as e:
                    call("nana", "current")
                assert str(e.value) == message
        size = tb.size("nana", "current")
        fens = [
            fen
            for first in range(0, size, size // 40)
            for fen in tb.record_batch("nana", "current", first, 256).column("fen").to_pylist()[::8]
        ]
        answered = refused = 0
        for fen in fens:
            try:
                got = damaged.probe("nana", "current", fen)
            except nana.DamagedTableError as e:
                assert "checksum mismatch" in str(e), str(e)
                refused += 1
                continue
            assert got == tb.probe("nana", "current", fen), fen
            answered += 1
        assert answered >= 200, (answered, refused)
        print(f"the start refused; of {len(fens)} positions across the table, {answered} answered, {refused} refused")


def test_a_closed_tablebase_refuses_lookups(tables) -> None:
    with nana.open_tablebases(tables) as tb:
        tb.probe("nana", "current")
    with pytest.raises(ValueError, match="closed"):
        tb.probe("nana", "current")


def test_a_missing_folder_is_a_missing_table_error_naming_the_commands(tmp_path) -> None:
    nowhere = tmp_path / "nowhere"
    with pytest.raises(nana.MissingTableError) as e:
        nana.open_tablebases(nowhere)
    assert str(e.value) == (
        f"no tablebase folder at {nowhere}; make its tables with `nana --game nana solve --out {nowhere}`"
        f" and `nana --game dobutsu solve --out {nowhere}`"
    )


def test_a_file_given_as_the_folder_is_a_value_error(tmp_path) -> None:
    file = tmp_path / "file"
    file.write_text("")
    with pytest.raises(ValueError, match="not a directory"):
        nana.open_tablebases(file)
