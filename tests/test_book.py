"""The opening book (msanalysis.play.book) and ``best`` playing from it."""

from __future__ import annotations

import pytest

from msanalysis.analysis import analyze
from msanalysis.errors import InvalidInput, ParseError
from msanalysis.play.bench import PlaySpec
from msanalysis.play.best import BestStrategy
from msanalysis.play.book import BOOKS, Entry, OpeningBook
from msanalysis.position import Position

CORNER = Position.from_text("mines: 10\n1????????\n" + "?????????\n" * 7 + "?????????")


def test_round_trip() -> None:
    book = OpeningBook({CORNER.to_text(): Entry((8, 8), (0, 8), {"8,8": 30, "0,8": 20},
                                               {"8,8": 50, "0,8": 50}, 0.004)}, {"board": "9x9"})
    again = OpeningBook.from_json(book.to_json())
    assert again.entries == book.entries and again.about == book.about
    assert again.guess(CORNER) == (8, 8)


def test_best_plays_the_books_guess(tmp_path) -> None:
    plain = BestStrategy().guess(CORNER, analyze(CORNER)).cell
    other = (8, 8) if plain != (8, 8) else (8, 0)
    path = tmp_path / "book.json"
    path.write_text(OpeningBook({CORNER.to_text(): Entry(other, plain, {}, {}, 0.001)}).to_json())
    move = BestStrategy(book=str(path), explain=True).guess(CORNER, analyze(CORNER))
    assert move.cell == other and move.guess and "book" in move.explanation
    elsewhere = Position.from_text("mines: 10\n2????????\n" + "?????????\n" * 7 + "?????????")
    assert (BestStrategy(book=str(path)).guess(elsewhere, analyze(elsewhere)).cell
            == BestStrategy().guess(elsewhere, analyze(elsewhere)).cell)


@pytest.mark.parametrize("name", BOOKS)
def test_shipped_books_read(name: str) -> None:
    book = OpeningBook.named(name)
    for text, entry in book.entries.items():
        assert entry.guess in Position.from_text(text).hidden
        assert entry.guess == entry.base or entry.p < book.about["settings"]["alpha"]


@pytest.mark.parametrize("text, message", [
    ("[", "not JSON"),
    ("{}", "list of entries"),
    ('{"entries": [{"position": "mines: 1\\n??\\n1?"}]}', "entry 1"),
    ('{"entries": [{"position": "mines: 1\\n??\\n1?", "guess": [1, 0], "base": [0, 0], '
     '"wins": {}, "played": {}, "p": 1}]}', "not a hidden cell"),
    # These raised RecursionError, Python's digit limit, or took a float cell for a whole one.
    ("[" * 100_000, "not JSON"),
    ('{"entries": [], "x": 1' + "0" * 5000 + "}", "not JSON"),
    ('{"entries": [], "about": 5}', "about"),
    ('{"entries": [{"position": "mines: 1\\n??\\n1?", "guess": [0.4, 1.9], "base": [0, 0], '
     '"wins": {}, "played": {}, "p": 1}]}', "entry 1: .*whole number"),
    ('{"entries": [{"position": "mines: 1\\n??\\n1?", "guess": [0, 0], "base": [0, 0], '
     '"wins": {}, "played": {}, "p": -3}]}', "p is a probability"),
    ('{"entries": [' + ", ".join(['{"position": "mines: 1\\n??\\n1?", "guess": [0, 0], '
                                  '"base": [0, 0], "wins": {}, "played": {}, "p": 1}'] * 2)
     + "]}", "entry 2: its position is an earlier entry's"),
])
def test_bad_books_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        OpeningBook.from_json(text, source="b.json")


def test_unknown_book() -> None:
    with pytest.raises(InvalidInput, match="no book named"):
        OpeningBook.named("nightmare")


def test_a_book_path_that_is_not_a_file(tmp_path) -> None:
    with pytest.raises(InvalidInput, match="and no such file exists"):
        OpeningBook.load(tmp_path / "missing.json")
    with pytest.raises(InvalidInput, match="and it is not a file"):
        OpeningBook.load(tmp_path)


@pytest.mark.parametrize("size, options, message", [
    ("beginner", {}, "the opening book is for 30x16/99 games, these are 9x9/10"),
    ("expert", {"rules": "safe-opening"}, "for games of rules safe-cell, these are of safe-open"),
    ("expert", {"first_click": (3, 3)}, r"from the first click \(0, 0\), these start at \(3, 3\)"),
])
def test_a_book_of_other_games_is_refused(size, options, message):
    # Its positions would never be met: the games were played as without it, without a word.
    spec = PlaySpec.standard(size, options={"book": "expert-safe-cell"}, **options)
    with pytest.raises(InvalidInput, match=message):
        spec.check()
    PlaySpec.standard("expert", options={"book": "expert-safe-cell"}).check()
