"""``nana-engine`` as a shogi GUI starts it: cshogi's USI client (``cshogi.usi.Engine``) runs the
program alone, with no arguments, in its own folder; the tables come from
``NANA_TABLEBASE_DIR``. Each move it answers is played on a ``nana.Board``, which refuses an
illegal one."""

from __future__ import annotations

from pathlib import Path

import pytest
from cshogi.usi import Engine

import nana


@pytest.fixture
def engine(nana_bin: str, tables: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("NANA_TABLEBASE_DIR", str(tables))
    engine = Engine(str(Path(nana_bin).with_name("nana-engine")))
    yield engine
    engine.quit()


def play_out(engine: Engine, board: nana.Board) -> list[str]:
    """Both sides played by the engine from the start to the end of the game."""
    moves: list[str] = []
    while not board.is_game_over():
        engine.position(moves)
        best, _ = engine.go()
        board.push(best)
        moves.append(best)
    return moves


def test_the_engine_program_plays_tanakas_whole_game_for_cshogi(engine: Engine) -> None:
    assert engine.name.startswith("nana ")
    engine.setoption("USI_Variant", "dobutsu")
    engine.isready()
    engine.usinewgame()
    board = nana.Board("dobutsu", "tanaka")
    moves = play_out(engine, board)
    # Perfect play both ways: the second player wins in 78 plies (Tanaka 2009).
    assert len(moves) == 78, moves
    assert board.result() == "0-1"
