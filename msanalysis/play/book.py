"""An opening book: guesses for positions that recur at the start of games, chosen offline.

From a fixed first click the positions before the first guesses repeat across games (on expert
from the corner, half of all games make their first guess after a lone 1, 2 or 3 in the
corner). For such positions ``benchmarks/opening_book.py`` races the candidate guesses by
rollouts (:mod:`msanalysis.play.rollout`) and writes a book: a JSON file holding, per position,
the guess to make (the race's leader where it beat ``best``'s own guess beyond chance, else
``best``'s guess) and how sure the race was. :class:`OpeningBook` reads one;
``best`` plays from it with ``book=`` (see :class:`~msanalysis.play.best.BestStrategy`). The
books shipped with the package are in ``msanalysis/play/books/``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from msanalysis.board import Cell, as_cell
from msanalysis.errors import InvalidInput, ParseError, WrongType, check_type
from msanalysis.files import check_path, read_text
from msanalysis.position import Position

__all__ = ["BOOKS", "Entry", "OpeningBook"]

BOOKS = ("beginner-safe-cell", "expert-safe-cell")
"""The books shipped with the package, by name (``books/<name>.json``)."""


@dataclass(frozen=True)
class Entry:
    """One position of the book: the guess to make there and the race that chose it.

    Attributes
    ----------
    guess : (row, col)
        The cell to reveal.
    base : (row, col)
        The guess the strategy makes there without the book.
    wins, played : dict
        Per candidate raced (``"row,col"``), rollouts won and played.
    p : float
        Sign-test p of the race's leader (the candidate that won most rollouts) against
        ``base`` on the layouts where exactly one of them won; 1.0 when the leader is ``base``.
        ``guess`` is the leader only when ``p`` is below the race's threshold, else ``base``.
    """

    guess: Cell
    base: Cell
    wins: dict[str, int]
    played: dict[str, int]
    p: float


class OpeningBook:
    """Guesses for given positions of one kind of game (board size, mines, first click).

    Parameters
    ----------
    entries : dict
        Position text (:meth:`msanalysis.position.Position.to_text`) -> :class:`Entry`.
    about : dict
        What the book is for and how it was made (board, rules, first click, strategy,
        seeds): kept with the file, not read by play.

    Examples
    --------
    >>> p = Position.from_text("mines: 1\\n??\\n1?")
    >>> book = OpeningBook({p.to_text(): Entry((0, 1), (0, 0), {}, {}, 0.001)})
    >>> book.guess(p), book.guess(Position.from_text("mines: 1\\n??\\n??"))
    ((0, 1), None)
    """

    def __init__(self, entries: dict[str, Entry], about: dict[str, Any] | None = None) -> None:
        # Checked once here, so that a guess (at every move of a game) reads them unchecked.
        check_type(entries, dict, "OpeningBook", "position text -> Entry: from_json reads one")
        for text, entry in entries.items():
            if not (isinstance(text, str) and isinstance(entry, Entry)):
                raise WrongType(f"a book's entries are position text -> Entry, got {text!r} -> "
                                f"{entry!r}")
        if not isinstance(about, (dict, type(None))):
            raise WrongType(f"a book's about is a dict (what the book is for) or None, got "
                            f"{about!r}")
        self.entries = dict(entries)
        self.about = dict(about or {})

    def guess(self, position: Position) -> Cell | None:
        """The book's guess for ``position``, or None when the position is not in it."""
        check_type(position, Position, "OpeningBook.guess", "Position.from_text reads one")
        entry = self.entries.get(position.to_text())
        return None if entry is None else entry.guess

    def check_game(self, width: int, height: int, mines: int, rules: str,
                   first_click: Cell | None) -> None:
        """Refuse games other than the book's own, by what its ``about`` says (board, rules,
        first click; a book that says nothing takes any): none of its positions would be met,
        and the games would be played as without it.

        Examples
        --------
        >>> book = OpeningBook({}, {"board": "30x16/99", "rules": "safe-cell"})
        >>> book.check_game(30, 16, 99, "safe-cell", (0, 0))
        >>> book.check_game(9, 9, 10, "safe-cell", (0, 0))
        Traceback (most recent call last):
        ...
        msanalysis.errors.InvalidInput: the opening book is for 30x16/99 games, these are 9x9/10
        """
        about = self.about
        board = f"{width}x{height}/{mines}"
        if about.get("board") not in (None, board):
            raise InvalidInput(f"the opening book is for {about['board']} games, these are "
                               f"{board}")
        if about.get("rules") not in (None, str(rules)):
            raise InvalidInput(f"the opening book is for games of rules {about['rules']}, these "
                               f"are of {rules}")
        click = about.get("first_click")
        if click is not None and first_click is not None and click != list(first_click):
            raise InvalidInput(f"the opening book is for games from the first click "
                               f"{tuple(click) if isinstance(click, list) else click!r}, these "
                               f"start at {tuple(first_click)}")

    def __len__(self) -> int:
        return len(self.entries)

    def to_json(self) -> str:
        """The book as JSON text (what :meth:`from_json` reads)."""
        entries = [{"position": text, "guess": list(e.guess), "base": list(e.base),
                    "wins": e.wins, "played": e.played, "p": e.p}
                   for text, e in sorted(self.entries.items())]
        return json.dumps({"about": self.about, "entries": entries}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = "<book>") -> OpeningBook:
        """Read a book written by :meth:`to_json`; a malformed one raises ParseError naming
        ``source`` and the entry."""
        check_type(text, str, "OpeningBook.from_json", "a book's JSON text")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:  # nested past Python's stack, too
            raise ParseError(f"{source}: not JSON ({error})") from None
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            raise ParseError(f"{source}: a book is an object with a list of entries")
        if not isinstance(data.get("about"), (dict, type(None))):
            raise ParseError(f"{source}: a book's \"about\" is an object (how it was made)")
        entries = {}
        for i, item in enumerate(data["entries"]):
            try:
                position = Position.from_text(item["position"])
                guess, base = (as_cell(item[name], *position.shape) for name in ("guess", "base"))
                entry = Entry(guess, base, dict(item["wins"]), dict(item["played"]),
                              float(item["p"]))
            except (KeyError, IndexError, TypeError, ValueError) as error:
                raise ParseError(f"{source}: entry {i + 1}: {error}") from None
            if guess not in position.hidden:
                raise ParseError(f"{source}: entry {i + 1}: the guess {guess} is not a hidden "
                                 f"cell of its position")
            if not 0 <= entry.p <= 1:
                raise ParseError(f"{source}: entry {i + 1}: p is a probability, got {entry.p}")
            key = position.to_text()
            if key in entries:
                raise ParseError(f"{source}: entry {i + 1}: its position is an earlier entry's")
            entries[key] = entry
        return cls(entries, data.get("about"))

    @classmethod
    def load(cls, path: str | Path) -> OpeningBook:
        """Read a book file (a name that is neither a shipped book nor a file says both)."""
        check_path(path)
        if not Path(path).is_file():
            there = "it is not a file" if Path(path).exists() else "no such file exists"
            raise InvalidInput(f"no book named {str(path)!r}: the books shipped are "
                               f"{', '.join(BOOKS)}, and {there}")
        return cls.from_json(read_text(path), source=str(path))

    @classmethod
    def named(cls, name: str) -> OpeningBook:
        """A book shipped with the package (one of :data:`BOOKS`)."""
        if not isinstance(name, str) or name not in BOOKS:
            raise InvalidInput(f"no book named {name!r}; the books are {', '.join(BOOKS)}")
        text = resources.files("msanalysis.play").joinpath("books", f"{name}.json").read_text()
        return cls.from_json(text, source=f"book {name}")
