"""Strong solutions of Nana shogi and Dobutsu shogi, read from their tablebases.

The shape is python-chess's ``chess.syzygy``::

    import nana

    with nana.open_tablebases("tablebase") as tb:
        answer = tb.probe("nana", "current")            # the start position
        print(answer.category, answer.dtm, answer.best_move)
        print([m.uci for m in tb.probe("dobutsu", "tanaka").moves])

``probe`` raises :class:`MissingTableError` where the folder has no table of the game and rule
set, :class:`DamagedTableError` where the table cannot be read, and ``ValueError`` for a position
that does not read (with the command line's message); ``get_probe`` returns a default instead
of raising :class:`MissingTableError`. ``record_batches``, ``to_arrow`` and ``to_pandas`` give
every stored position of a table as rows, the columns of ``nana export``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Optional, TypeVar, Union

from nana._errors import DamagedTableError, MissingTableError, TableError
from nana._nana import BATCH_ENTRIES, COLUMNS, Tablebases as _Tablebases

if TYPE_CHECKING:
    import pandas
    import pyarrow

__all__ = [
    "open_tablebases",
    "Tablebase",
    "Answer",
    "Move",
    "Stats",
    "TableError",
    "MissingTableError",
    "DamagedTableError",
    "COLUMNS",
]

T = TypeVar("T")

# The keys of an answer and of a move that are not the game's ending flags.
_ANSWER_KEYS = ("fen", "category", "dtm", "best_move", "moves", "mainline")
_MOVE_KEYS = ("uci", "san", "category", "dtm")


@dataclass(frozen=True)
class Move:
    """A legal move with the value it leads to.

    Attributes:
        uci: The move in the game's machine notation.
        san: The move in the game's human notation.
        category: ``"win"``, ``"loss"`` or ``"draw"`` for the side to move *after* the move.
        dtm: The distance to mate in plies after the move; ``None`` for a draw.
        endings: One flag per way the game can end (``checkmate``, ``stalemate`` for Nana;
            ``lion_captured``, ``try`` for Dobutsu): whether the move ends it so.
    """

    uci: str
    san: str
    category: str
    dtm: Optional[int]
    endings: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The move as the JSON answer of ``nana query --json`` writes it."""
        return {"uci": self.uci, "san": self.san, "category": self.category, "dtm": self.dtm, **self.endings}


@dataclass(frozen=True)
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
    endings: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Answer":
        """An answer from the JSON object ``nana query --json`` prints."""
        moves = [
            Move(m["uci"], m["san"], m["category"], m["dtm"], {k: v for k, v in m.items() if k not in _MOVE_KEYS})
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


@dataclass(frozen=True)
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

    def __init__(self, directory: Union[str, "os.PathLike[str]"]) -> None:
        self._inner: Optional[_Tablebases] = _Tablebases(os.fspath(directory))
        self.directory = os.fspath(directory)

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

    def probe(self, game: str, rules: str, fen: Optional[str] = None) -> Answer:
        """Looks up a position.

        Args:
            game: ``"nana"`` or ``"dobutsu"``.
            rules: A rule set of the game (``"current"``, ``"original"``; ``"tanaka"``,
                ``"safe-try"``).
            fen: The position in the game's string form; the start when ``None``.

        Returns:
            Its value, every move ranked best first and the mainline.

        Raises:
            ValueError: The position does not read, or the game or rule set is unknown.
            MissingTableError: The folder has no table of the game and rule set.
            DamagedTableError: The table cannot be read.
        """
        return Answer.from_dict(json.loads(self._tb().answer_json(game, rules, fen)))

    def get_probe(
        self, game: str, rules: str, fen: Optional[str] = None, default: Optional[T] = None
    ) -> Union[Answer, Optional[T]]:
        """:meth:`probe`, or ``default`` where the table is missing."""
        try:
            return self.probe(game, rules, fen)
        except MissingTableError:
            return default

    def mainline(self, game: str, rules: str, fen: Optional[str] = None, draw_plies: int = 10) -> list[str]:
        """The principal variation from a position in the machine notation: best moves to the
        end of the game, or a drawing line of at most ``draw_plies`` moves for a draw.

        Raises as :meth:`probe` does.
        """
        return self._tb().mainline(game, rules, fen, draw_plies)

    def get_mainline(
        self,
        game: str,
        rules: str,
        fen: Optional[str] = None,
        draw_plies: int = 10,
        default: Optional[T] = None,
    ) -> Union[list[str], Optional[T]]:
        """:meth:`mainline`, or ``default`` where the table is missing."""
        try:
            return self.mainline(game, rules, fen, draw_plies)
        except MissingTableError:
            return default

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
        try:
            return self.stats(game, rules)
        except MissingTableError:
            return default

    def size(self, game: str, rules: str) -> int:
        """The number of index entries of a table (rows are at most as many)."""
        return self._tb().size(game, rules)

    def record_batch(self, game: str, rules: str, first: int, count: int) -> "pyarrow.RecordBatch":
        """The rows of index entries ``first`` to ``first + count - 1`` (cut at the table's
        end) as one pyarrow record batch: a sample of a table too large to read whole. Needs
        pyarrow."""
        import pyarrow.ipc

        return pyarrow.ipc.open_stream(self._tb().rows_ipc(game, rules, first, count)).read_next_batch()

    def record_batches(self, game: str, rules: str) -> Iterator["pyarrow.RecordBatch"]:
        """Every stored position of a table as pyarrow record batches, in index order, the
        columns of ``nana export`` (:data:`COLUMNS`). A batch covers a fixed number of index
        entries, so memory stays bounded whatever the table. Needs pyarrow.
        """
        import pyarrow.ipc

        tb = self._tb()
        size = tb.size(game, rules)
        for first in range(0, size, BATCH_ENTRIES):
            reader = pyarrow.ipc.open_stream(tb.rows_ipc(game, rules, first, BATCH_ENTRIES))
            yield from reader

    def to_arrow(self, game: str, rules: str) -> "pyarrow.Table":
        """Every stored position of a table as one pyarrow table (held in memory)."""
        import pyarrow
        import pyarrow.ipc

        batches = list(self.record_batches(game, rules))
        if not batches:
            return pyarrow.ipc.open_stream(self._tb().rows_ipc(game, rules, 0, 0)).read_all()
        return pyarrow.Table.from_batches(batches)

    def to_pandas(self, game: str, rules: str) -> "pandas.DataFrame":
        """Every stored position of a table as a pandas data frame (held in memory). Needs
        pyarrow and pandas."""
        return self.to_arrow(game, rules).to_pandas()


def open_tablebases(directory: Union[str, "os.PathLike[str]"]) -> Tablebase:
    """Opens the tables of every game and named rule set in ``directory``.

    Args:
        directory: A folder of tables, as ``nana solve --out DIR`` writes them.

    Returns:
        A :class:`Tablebase`, to use in a ``with`` block.

    Raises:
        ValueError: ``directory`` is not a folder.
    """
    return Tablebase(directory)
