"""Strong solutions of Nana shogi and Dobutsu shogi, read from their tablebases.

The shape is python-chess's ``chess.syzygy``::

    import nana

    with nana.open_tablebases("tablebase") as tb:
        answer = tb.probe("nana", "current")            # the start position
        print(answer.category, answer.dtm, answer.best_move)
        print([m.uci for m in tb.probe("dobutsu", "tanaka").moves])

A position to move through is a :class:`Board`, in the shape of python-chess's ``chess.Board``:
``push``, ``pop``, ``legal_moves``, ``outcome``, and a drawing in notebooks::

    board = nana.Board("nana")
    board.push(tb.probe("nana", "current", board).best_move)
    boards = tb.mainline_boards("nana", "current", board)   # the board, then one after each move

``probe`` raises :class:`MissingTableError` where the folder has no table of the game and rule
set, :class:`DamagedTableError` where the table cannot be read, and ``ValueError`` for a position
that does not read (with the command line's message); ``get_probe`` returns a default instead
of raising :class:`MissingTableError`. ``record_batches``, ``to_arrow`` and ``to_pandas`` give
every stored position of a table as rows, the columns of ``nana export``.
"""

from __future__ import annotations

import json as _json
import os as _os
from dataclasses import dataclass as _dataclass, field as _field
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

from nana._board import Board, Outcome
from nana._errors import DamagedTableError, MissingTableError, TableError
from nana._nana import BATCH_ENTRIES, COLUMNS, __version__, Tablebases as _Tablebases

if TYPE_CHECKING:
    from typing import Callable, Iterator

    import pandas
    import pyarrow

__all__ = [
    "open_tablebases",
    "Tablebase",
    "Board",
    "Outcome",
    "Answer",
    "Move",
    "Stats",
    "TableError",
    "MissingTableError",
    "DamagedTableError",
    "COLUMNS",
    "IN_MEMORY_ENTRIES",
]

IN_MEMORY_ENTRIES = 20_000_000
"""The most index entries :meth:`Tablebase.to_arrow` and :meth:`Tablebase.to_pandas` read into
memory unless told otherwise: Nana's tables (18,609,858 entries), not Dobutsu's (259,374,340),
which :meth:`Tablebase.record_batches` and ``nana export`` read a batch at a time."""

T = TypeVar("T")
R = TypeVar("R")


def _or_default(default: T, call: "Callable[..., R]", *args: Any) -> Union[R, T]:
    """``call(*args)``, or ``default`` where it raises :class:`MissingTableError` (the ``get_*``
    calls)."""
    try:
        return call(*args)
    except MissingTableError:
        return default


_FenOrBoard = Union[str, Board, None]
"""A position where a call reads one: its string form, a :class:`Board` of the same game and rule
set, or ``None`` for the start."""


def _fen(game: str, rules: str, position: _FenOrBoard) -> Optional[str]:
    """The string form of ``position``, as the Rust half reads it."""
    if isinstance(position, Board):
        if (position.game, position.rules) != (game, rules):
            raise ValueError(
                f"the board is a position of {position.game} under the {position.rules} rules, not "
                f"{game} {rules}: pass board.fen() to look it up under other rules"
            )
        return position.fen()
    return position


# The keys of an answer and of a move that are not the game's ending flags.
_ANSWER_KEYS = ("fen", "category", "dtm", "best_move", "moves", "mainline")
_MOVE_KEYS = ("uci", "san", "usi", "kif", "category", "dtm")


@_dataclass(frozen=True)
class Move:
    """A legal move with the value it leads to.

    Attributes:
        uci: The move in the game's machine notation.
        san: The move in the game's human notation.
        category: ``"win"``, ``"loss"`` or ``"draw"`` for the side to move *after* the move.
        dtm: The distance to mate in plies after the move; ``None`` for a draw.
        endings: One flag per way the game can end (``checkmate``, ``stalemate`` for Nana;
            ``lion_captured``, ``try`` for Dobutsu): whether the move ends it so.
        usi: The move as a USI GUI writes it (Nana's is its ``uci``; Dobutsu's ``2c2b``).
        kif: The move as a KIF record writes it (Dobutsu's ``２二ひよこ(23)``); ``None`` for
            a game without KIF (Nana).
    """

    uci: str
    san: str
    category: str
    dtm: Optional[int]
    endings: dict[str, bool] = _field(default_factory=dict)
    usi: str = ""
    kif: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        """The move as the JSON answer of ``nana query --json`` writes it."""
        d = {"uci": self.uci, "san": self.san, "usi": self.usi or self.uci}
        if self.kif is not None:
            d["kif"] = self.kif
        return {**d, "category": self.category, "dtm": self.dtm, **self.endings}


@_dataclass(frozen=True)
class Answer:
    """What the tables say about a position: the fields of the HTTP API and ``nana query --json``.

    Attributes:
        fen: The position in the game's string form.
        category: ``"win"``, ``"loss"`` or ``"draw"`` for the side to move.
        dtm: The distance to mate in plies; ``None`` for a draw.
        best_move: The best move in the machine notation; ``None`` where the game is over.
        moves: Every legal move, best first.
        mainline: The principal variation (a drawing line of at most 10 plies for a draw).
        endings: One flag per way the game can end: whether it is over here for that reason.
    """

    fen: str
    category: str
    dtm: Optional[int]
    best_move: Optional[str]
    moves: list[Move]
    mainline: list[str]
    endings: dict[str, bool] = _field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Answer":
        """An answer from the JSON object ``nana query --json`` prints."""
        moves = [
            Move(
                m["uci"],
                m["san"],
                m["category"],
                m["dtm"],
                {k: v for k, v in m.items() if k not in _MOVE_KEYS},
                m.get("usi", m["uci"]),
                m.get("kif"),
            )
            for m in d["moves"]
        ]
        endings = {k: v for k, v in d.items() if k not in _ANSWER_KEYS}
        return cls(d["fen"], d["category"], d["dtm"], d["best_move"], moves, list(d["mainline"]), endings)

    def to_dict(self) -> dict[str, Any]:
        """The answer as ``nana query --json`` prints it (the same keys and values)."""
        return {
            "fen": self.fen,
            "category": self.category,
            "dtm": self.dtm,
            **self.endings,
            "best_move": self.best_move,
            "moves": [m.to_dict() for m in self.moves],
            "mainline": list(self.mainline),
        }


@_dataclass(frozen=True)
class Stats:
    """A table's counts, as ``nana stats`` prints them.

    Attributes:
        wins: Positions won for the side to move.
        losses: Positions lost for the side to move.
        draws: Drawn positions.
        unused: Index entries that hold no position.
        max_dtm: The longest distance to mate, in plies.
    """

    wins: int
    losses: int
    draws: int
    unused: int
    max_dtm: int

    @property
    def positions(self) -> int:
        """The stored positions: the rows of the table's export."""
        return self.wins + self.losses + self.draws


class Tablebase:
    """The tables of every game and named rule set found in a folder.

    Open it with :func:`open_tablebases`; a context manager, closed on leaving the ``with`` block.
    Games are named as ``nana --game`` names them (``nana``, ``dobutsu``), rule sets as
    ``--rules`` does (``current``, ``original``; ``tanaka``, ``safe-try``). A table is the file
    ``nana solve`` writes (``nana-current.tb``, ``dobutsu-tanaka.tb``).
    """

    def __init__(self, directory: Union[str, "_os.PathLike[str]"]) -> None:
        self._inner: Optional[_Tablebases] = _Tablebases(_os.fspath(directory))
        self.directory = _os.fspath(directory)

    def _tb(self) -> _Tablebases:
        if self._inner is None:
            raise ValueError("the tablebase is closed")
        return self._inner

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes every table (lookups afterwards raise ``ValueError``)."""
        self._inner = None

    def tables(self) -> list[tuple[str, str]]:
        """``(game, rules)`` of every table opened."""
        return [(game, rules) for game, rules, _ in self._tb().tables()]

    def damaged(self) -> dict[tuple[str, str], str]:
        """Every table found that could not be opened, with why."""
        return {(game, rules): message for game, rules, message in self._tb().damaged()}

    def probe(self, game: str, rules: str, fen: _FenOrBoard = None) -> Answer:
        """Looks up a position.

        Args:
            game: ``"nana"`` or ``"dobutsu"``.
            rules: A rule set of the game (``"current"``, ``"original"``; ``"tanaka"``,
                ``"safe-try"``).
            fen: The position in the game's string form, or a :class:`Board` of the same game
                and rule set; the start when ``None``.

        Returns:
            Its value, every move ranked best first and the mainline.

        Raises:
            ValueError: The position does not read, the game or rule set is unknown, or the
                board is of another game or rule set.
            MissingTableError: The folder has no table of the game and rule set.
            DamagedTableError: The table cannot be read.
        """
        return Answer.from_dict(_json.loads(self._tb().answer_json(game, rules, _fen(game, rules, fen))))

    def get_probe(
        self, game: str, rules: str, fen: _FenOrBoard = None, default: Optional[T] = None
    ) -> Union[Answer, Optional[T]]:
        """:meth:`probe`, or ``default`` where the table is missing."""
        return _or_default(default, self.probe, game, rules, fen)

    def probe_wdl(self, game: str, rules: str, fen: _FenOrBoard = None) -> int:
        """The value of a position for the side to move, as python-chess's ``probe_wdl`` gives
        it: ``1`` won, ``0`` drawn, ``-1`` lost. Reads one entry: no moves ranked.

        Raises as :meth:`probe` does.
        """
        return self._tb().value(game, rules, _fen(game, rules, fen))[0]

    def get_wdl(
        self, game: str, rules: str, fen: _FenOrBoard = None, default: Optional[T] = None
    ) -> Union[int, Optional[T]]:
        """:meth:`probe_wdl`, or ``default`` where the table is missing."""
        return _or_default(default, self.probe_wdl, game, rules, fen)

    def probe_dtm(self, game: str, rules: str, fen: _FenOrBoard = None) -> int:
        """The distance to mate in plies, signed for the side to move: ``n`` where it wins in
        ``n`` plies, ``-n`` where it loses in ``n``, ``0`` for a draw and for a position whose
        game is over with the side to move lost (:meth:`probe_wdl` tells those two apart).

        Raises as :meth:`probe` does.
        """
        wdl, plies = self._tb().value(game, rules, _fen(game, rules, fen))
        return 0 if plies is None else wdl * plies

    def get_dtm(
        self, game: str, rules: str, fen: _FenOrBoard = None, default: Optional[T] = None
    ) -> Union[int, Optional[T]]:
        """:meth:`probe_dtm`, or ``default`` where the table is missing."""
        return _or_default(default, self.probe_dtm, game, rules, fen)

    def mainline(self, game: str, rules: str, fen: _FenOrBoard = None, draw_plies: int = 10) -> list[str]:
        """The principal variation from a position in the machine notation: best moves to the
        end of the game, or a drawing line of at most ``draw_plies`` moves for a draw.

        Raises as :meth:`probe` does.
        """
        return self._tb().mainline(game, rules, _fen(game, rules, fen), draw_plies)

    def get_mainline(
        self,
        game: str,
        rules: str,
        fen: _FenOrBoard = None,
        draw_plies: int = 10,
        default: Optional[T] = None,
    ) -> Union[list[str], Optional[T]]:
        """:meth:`mainline`, or ``default`` where the table is missing."""
        return _or_default(default, self.mainline, game, rules, fen, draw_plies)

    def mainline_boards(
        self, game: str, rules: str, fen: _FenOrBoard = None, draw_plies: int = 10
    ) -> list[Board]:
        """The principal variation as boards: the position itself first, then the position
        after each move of :meth:`mainline`, each with the moves so far on its move stack (a
        board given keeps its own moves beneath them). For a won or lost position the last one
        is over (:meth:`Board.is_game_over`).

        Raises as :meth:`probe` does.
        """
        board = fen.copy() if isinstance(fen, Board) else Board(game, rules, fen)
        line = self.mainline(game, rules, board, draw_plies)
        boards = [board]
        for move in line:
            board = board.copy()
            board.push(move)
            boards.append(board)
        return boards

    def stats(self, game: str, rules: str) -> Stats:
        """A table's counts (``nana stats``'s ``entries:`` line).

        Raises:
            ValueError: The game or rule set is unknown.
            MissingTableError: The folder has no table of the game and rule set.
            DamagedTableError: The table cannot be read.
        """
        return Stats(*self._tb().stats(game, rules))

    def get_stats(self, game: str, rules: str, default: Optional[T] = None) -> Union[Stats, Optional[T]]:
        """:meth:`stats`, or ``default`` where the table is missing."""
        return _or_default(default, self.stats, game, rules)

    def size(self, game: str, rules: str) -> int:
        """The number of index entries of a table (rows are at most as many)."""
        return self._tb().size(game, rules)

    def record_batch(self, game: str, rules: str, first: int, count: int) -> "pyarrow.RecordBatch":
        """The rows of index entries ``first`` to ``first + count - 1`` (cut at the table's
        end) as one pyarrow record batch: a sample of a table too large to read whole. Needs
        pyarrow."""
        import pyarrow.ipc

        return pyarrow.ipc.open_stream(self._tb().rows_ipc(game, rules, first, count)).read_next_batch()

    def record_batches(self, game: str, rules: str) -> "pyarrow.RecordBatchReader":
        """Every stored position of a table as a pyarrow record batch reader, in index order, the
        columns of ``nana export`` (:data:`COLUMNS`); DuckDB and Polars read it as a table. A
        batch covers a fixed number of index entries, read when the batch is asked for, so
        memory stays bounded whatever the table. Needs pyarrow.
        """
        import pyarrow
        import pyarrow.ipc

        tb = self._tb()
        size = tb.size(game, rules)
        schema = pyarrow.ipc.open_stream(tb.rows_ipc(game, rules, 0, 0)).schema

        def batches() -> "Iterator[pyarrow.RecordBatch]":
            for first in range(0, size, BATCH_ENTRIES):
                yield from pyarrow.ipc.open_stream(tb.rows_ipc(game, rules, first, BATCH_ENTRIES))

        return pyarrow.RecordBatchReader.from_batches(schema, batches())

    def to_arrow(
        self, game: str, rules: str, *, max_entries: Optional[int] = IN_MEMORY_ENTRIES
    ) -> "pyarrow.Table":
        """Every stored position of a table as one pyarrow table, held in memory. Needs pyarrow.

        Raises:
            ValueError: The table has more index entries than ``max_entries``
                (:data:`IN_MEMORY_ENTRIES` unless given; ``None`` for no limit): read it with
                :meth:`record_batches` or ``nana export`` instead, as the message says.
        """
        size = self._tb().size(game, rules)
        if max_entries is not None and size > max_entries:
            raise ValueError(
                f"{game} {rules} has {size:,} index entries, over the {max_entries:,} that to_arrow "
                f"and to_pandas hold in memory: read it a batch at a time with "
                f"record_batches({game!r}, {rules!r}), or write it to a file with "
                f"`nana --game {game} export --rules {rules} {game}-{rules}.parquet` "
                f"(or pass max_entries=None)"
            )
        return self.record_batches(game, rules).read_all()

    def to_pandas(
        self, game: str, rules: str, *, max_entries: Optional[int] = IN_MEMORY_ENTRIES
    ) -> "pandas.DataFrame":
        """Every stored position of a table as a pandas data frame, held in memory, its integer
        columns pandas' nullable integers (``dtm`` is ``<NA>`` for a draw). Needs pyarrow and
        pandas.

        Raises:
            ValueError: As :meth:`to_arrow` does.
        """
        import pandas
        import pyarrow

        nullable = {
            pyarrow.int8(): pandas.Int8Dtype(),
            pyarrow.int16(): pandas.Int16Dtype(),
            pyarrow.int32(): pandas.Int32Dtype(),
            pyarrow.int64(): pandas.Int64Dtype(),
            pyarrow.uint8(): pandas.UInt8Dtype(),
            pyarrow.uint16(): pandas.UInt16Dtype(),
            pyarrow.uint32(): pandas.UInt32Dtype(),
            pyarrow.uint64(): pandas.UInt64Dtype(),
        }
        return self.to_arrow(game, rules, max_entries=max_entries).to_pandas(types_mapper=nullable.get)


def open_tablebases(directory: Union[str, "_os.PathLike[str]"]) -> Tablebase:
    """Opens the tables of every game and named rule set in ``directory``.

    Args:
        directory: A folder of tables, as ``nana solve --out DIR`` writes them.

    Returns:
        A :class:`Tablebase`, to use in a ``with`` block.

    Raises:
        ValueError: ``directory`` is not a folder.
    """
    return Tablebase(directory)
