"""A position to move through, in the shape of python-chess's ``chess.Board``."""

from __future__ import annotations

import json as _json
from dataclasses import dataclass as _dataclass, field as _field
from html import escape as _escape
from typing import Any, Optional

from nana import _svg
from nana._nana import Position as _Position

__all__ = ["Board", "Outcome"]


@_dataclass(frozen=True)
class Outcome:
    """How the game ended at a position, as python-chess's ``Outcome`` tells it.

    Attributes:
        termination: The ending, by its name in the answers' flags: ``checkmate``,
            ``stalemate`` (Nana); ``lion_captured``, ``try``, ``both_tries``, ``no_move``
            (Dobutsu).
        winner: The player who has won, by the game's name of it (``black``, ``white``;
            ``first``, ``second``); ``None`` for a draw.
        description: The game's sentence for it, as ``nana play`` prints it.
    """

    termination: str
    winner: Optional[str]
    description: str
    _result: str = _field(repr=False, default="*")

    def result(self) -> str:
        """``1-0`` where the first player has won, ``0-1`` where the second has, ``1/2-1/2``
        for a draw."""
        return self._result


class Board:
    """A position of a game under one of its rule sets, with the moves played to reach it.

    ``Board(game, rules=None, fen=None)`` is the position ``fen`` (the start where ``None``) of
    ``game`` (``"nana"``, ``"dobutsu"``) under the rule set ``rules`` (the game's default,
    ``current`` or ``tanaka``, where ``None``). Moves are strings in any notation the game reads
    (its machine notation, the one the tablebase answers use, and its human notation); the
    board gives them back in the machine notation. The rules are the game's own, as ``nana
    play`` moves by them; no table is read.

    Raises:
        ValueError: The game, the rule set or the position is unknown or does not read, with
            the command line's message.
    """

    __slots__ = ("_position",)

    def __init__(self, game: str, rules: Optional[str] = None, fen: Optional[str] = None) -> None:
        self._position = _Position(game, rules, fen)

    @classmethod
    def _wrap(cls, position: _Position) -> "Board":
        board = cls.__new__(cls)
        board._position = position
        return board

    @property
    def game(self) -> str:
        """The game's name (``nana``, ``dobutsu``)."""
        return self._position.game()

    @property
    def rules(self) -> str:
        """The rule set's name (``current``, ``tanaka``)."""
        return self._position.rules()

    @property
    def turn(self) -> str:
        """The side to move, by the game's name of it (``black``, ``white``; ``first``,
        ``second``)."""
        return self._position.turn()

    def fen(self) -> str:
        """The position in the game's string form, as ``nana query`` reads and prints it."""
        return self._position.fen()

    def push(self, move: str) -> str:
        """Plays a legal move, given in any notation the game reads or as a USI engine writes it.

        Returns:
            The move in the machine notation, as :attr:`move_stack` holds it.

        Raises:
            ValueError: The move does not read or is not legal here (the game's reason in
                one line; where the game is over, it says so).
        """
        return self._position.push(move)

    def pop(self) -> str:
        """Takes the last move back and returns it.

        Raises:
            IndexError: No move has been played.
        """
        move = self._position.pop()
        if move is None:
            raise IndexError("pop from an empty move stack")
        return move

    def peek(self) -> str:
        """The last move played.

        Raises:
            IndexError: No move has been played.
        """
        stack = self._position.move_stack()
        if not stack:
            raise IndexError("peek at an empty move stack")
        return stack[-1]

    @property
    def move_stack(self) -> list[str]:
        """The moves played, first first, in the machine notation (a new list: change the
        board with :meth:`push` and :meth:`pop`)."""
        return self._position.move_stack()

    @property
    def legal_moves(self) -> list[str]:
        """Every legal move in the machine notation, sorted as strings; none where the game is
        over."""
        return self._position.legal_moves()

    def is_legal(self, move: str) -> bool:
        """Whether ``move`` reads as a legal move here."""
        try:
            self._position.san(move)
        except ValueError:
            return False
        return True

    def san(self, move: str) -> str:
        """A legal move in the game's human notation (Hodges style; SAN-like), as the answers'
        ``san`` gives it.

        Raises:
            ValueError: As :meth:`push` does.
        """
        return self._position.san(move)

    def outcome(self) -> Optional[Outcome]:
        """How the game ended here by the rules; ``None`` while it goes on (repetitions are not
        counted: the tables value a position whatever led to it)."""
        over = self._position.outcome()
        if over is None:
            return None
        termination, winner, result, description = over
        return Outcome(termination, winner, description, result)

    def is_game_over(self) -> bool:
        """Whether the game is over here (:meth:`outcome` is not ``None``)."""
        return self._position.outcome() is not None

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` where the game is over (the first player's score
        first), ``*`` while it goes on."""
        over = self.outcome()
        return "*" if over is None else over.result()

    def copy(self, *, stack: bool = True) -> "Board":
        """A copy; with ``stack=False``, one with an empty move stack at this position."""
        return Board._wrap(self._position.copy(stack))

    def __copy__(self) -> "Board":
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> "Board":
        return self.copy()

    def __eq__(self, other: object) -> bool:
        """Boards are equal where their game, rule set and position are (the moves that led
        there aside, as python-chess compares boards)."""
        if not isinstance(other, Board):
            return NotImplemented
        return (self.game, self.rules, self.fen()) == (other.game, other.rules, other.fen())

    __hash__ = None  # type: ignore[assignment]  # a board changes as moves are pushed

    def __str__(self) -> str:
        """The board as text, as ``nana play`` prints it."""
        return self._position.diagram()

    def __repr__(self) -> str:
        return f"Board({self.game!r}, {self.rules!r}, {self.fen()!r})"

    def svg(self, *, size: Optional[int] = None, flipped: bool = False) -> str:
        """The board as an SVG image: both hands, the side to move, the last move's squares.

        Args:
            size: The image's width in pixels; its natural width where ``None``.
            flipped: Seen from the second player's side.
        """
        return _svg.draw(_json.loads(self._position.view_json()), size=size, flipped=flipped)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        """The drawing, the game, the rule set and the position string underneath, and how the game
        ended where it is over."""
        over = self.outcome()
        lines = [f"{self.game} {self.rules}: {self.fen()}"]
        if over is not None:
            lines.append(f"{over.result()}: {over.description}")
        text = "".join(f"<div>{_escape(line)}</div>" for line in lines)
        return f'<div class="nana-board">{self.svg()}<div style="font-family: monospace">{text}</div></div>'
