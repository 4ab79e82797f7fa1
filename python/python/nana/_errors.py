"""The exceptions of :mod:`nana`, raised by the Rust half too."""

from __future__ import annotations

__all__ = ["TableError", "MissingTableError", "DamagedTableError"]


class TableError(Exception):
    """A table cannot answer: it is missing, or it cannot be read."""


class MissingTableError(TableError, KeyError):
    """No table of the game and rule set in the folder.

    A ``KeyError`` too, as python-chess's ``MissingTableError`` is. The message names the file
    looked for and the ``nana solve`` command that makes it.
    """

    def __str__(self) -> str:
        # KeyError's str() quotes its argument; the message is a sentence.
        return str(self.args[0]) if self.args else ""


class DamagedTableError(TableError):
    """A table that cannot be read: a damaged or outdated file, or one of other rules.

    The message is the command line's, and names the command that makes the table again
    where that cures it.
    """
