"""The puzzles collection: every board's recorded metrics, and a README entry for every file.

Board metrics are checked twice: against :class:`~msanalysis.board.Board` (what the library
answers) and against an independent count made here by clicking through the board with
:class:`~msanalysis.game.Game` and a plain flood fill, sharing no code with ``board.py``'s
metrics. The answers of the positions are checked by the analysis tests.
"""

import json
from collections import deque
from pathlib import Path

import pytest
from typer.testing import CliRunner

from msanalysis.board import Board
from msanalysis.cli import app
from msanalysis.game import Game
from msanalysis.rules import generate

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
BOARDS = PUZZLES / "boards"
BOARD_ANSWERS = json.loads((BOARDS / "answers.json").read_text())


def around(cell, height, width):
    row, col = cell
    for r in range(row - 1, row + 2):
        for c in range(col - 1, col + 2):
            if (r, c) != cell and 0 <= r < height and 0 <= c < width:
                yield (r, c)


def clicked_metrics(board: Board) -> dict[str, int]:
    """Openings, islands and 3BV as a player finds them, with the game's cascade.

    Openings: clicks on zero cells that a previous click had not opened. 3BV: those clicks plus
    one per safe cell still closed. Islands: 8-connected groups of those last cells.
    """
    height, width = board.height, board.width
    mines = board.mines
    number = {(r, c): sum(n in mines for n in around((r, c), height, width))
              for r in range(height) for c in range(width)}
    game = Game(board)
    openings = 0
    for cell in sorted(number):
        if cell not in mines and number[cell] == 0 and not game.is_revealed(cell):
            game.reveal(cell)
            openings += 1
    closed = {cell for cell in number if cell not in mines and not game.is_revealed(cell)}
    islands, seen = 0, set()
    for start in sorted(closed):
        if start in seen:
            continue
        islands += 1
        seen.add(start)
        queue = deque([start])
        while queue:
            for nb in around(queue.popleft(), height, width):
                if nb in closed and nb not in seen:
                    seen.add(nb)
                    queue.append(nb)
    return {"width": width, "height": height, "mines": len(mines), "openings": openings,
            "islands": islands, "bbbv": openings + len(closed)}


def test_every_board_file_has_recorded_metrics():
    assert sorted(p.name for p in BOARDS.glob("*.mbf")) == sorted(BOARD_ANSWERS)


@pytest.mark.parametrize("name", sorted(BOARD_ANSWERS))
def test_board_metrics_match_the_library_and_an_independent_count(name):
    board = Board.load(BOARDS / name)
    expected = BOARD_ANSWERS[name]
    assert {"width": board.width, "height": board.height, "mines": board.mine_count,
            "openings": board.openings, "islands": board.islands,
            "bbbv": board.bbbv} == expected
    assert clicked_metrics(board) == expected


@pytest.mark.parametrize("name", sorted(BOARD_ANSWERS))
def test_metrics_command_prints_the_recorded_metrics(name):
    result = CliRunner().invoke(app, ["metrics", str(BOARDS / name), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == BOARD_ANSWERS[name]


@pytest.mark.parametrize("name, size, rules, first_click, seed", [
    ("beginner-safe-cell-seed-1.mbf", (9, 9, 10), "safe-cell", (0, 0), 1),
    ("intermediate-safe-opening-seed-2.mbf", (16, 16, 40), "safe-opening", (3, 3), 2),
    ("expert-windows-xp-seed-3.mbf", (30, 16, 99), "windows-xp", (0, 0), 3),
])
def test_seeded_boards_are_what_their_seed_generates(name, size, rules, first_click, seed):
    # Notebooks and documents cite these seeds: a change in the generator must show up here.
    assert Board.load(BOARDS / name) == generate(*size, rules=rules, first_click=first_click,
                                                 seed=seed)


def test_the_readme_documents_every_file():
    readme = (PUZZLES / "README.md").read_text()
    files = [p for p in PUZZLES.rglob("*") if p.is_file() and p.name != "README.md"
             and p.name != "answers.json"]
    missing = [str(p.relative_to(PUZZLES)) for p in files if p.name not in readme]
    assert missing == []


# -- positions ----------------------------------------------------------------------------------

POSITIONS = PUZZLES / "positions"
POSITION_ANSWERS = json.loads((POSITIONS / "answers.json").read_text())


def recorded(answer: dict) -> dict:
    """The recorded answer in the shape compared below: cells as tuples, exact fractions."""
    from fractions import Fraction

    if answer.get("inconsistent"):
        return {"inconsistent": True}
    probabilities = {tuple(cell): Fraction(p) for p, cells in answer["probabilities"].items()
                     for cell in cells}
    return {"solutions": int(answer["solutions"]),
            "forced_safe": {tuple(c) for c in answer["forced_safe"]},
            "forced_mines": {tuple(c) for c in answer["forced_mines"]},
            "requires_guess": answer["requires_guess"],
            "best_guess": None if answer.get("best_guess") is None else tuple(answer["best_guess"]),
            "probabilities": probabilities}


def analysed(position, **options) -> dict:
    from msanalysis.analysis import analyze
    from msanalysis.errors import InconsistentPosition

    try:
        analysis = analyze(position, **options)
        solutions = analysis.solutions
    except InconsistentPosition:
        return {"inconsistent": True}
    undecided = (set(analysis.constraints.unknown) - analysis.forced_safe
                 - analysis.forced_mines)
    return {"solutions": solutions, "forced_safe": set(analysis.forced_safe),
            "forced_mines": set(analysis.forced_mines),
            "requires_guess": analysis.requires_guess, "best_guess": analysis.best_guess,
            "probabilities": {cell: analysis.exact_probability(cell) for cell in undecided}}


def enumerated(position, **options) -> dict:
    """The same facts from tests/reference.py's brute force, for positions small enough."""
    from reference import enumerate_layouts

    ref = enumerate_layouts(position, **options)
    if ref.solutions == 0:
        return {"inconsistent": True}
    undecided = [c for c in ref.unknown if c not in ref.forced_safe and c not in ref.forced_mines]
    over = not undecided and not ref.forced_safe
    requires_guess = not over and not ref.forced_safe
    probabilities = {cell: ref.probability(cell) for cell in undecided}
    best = min(undecided, key=lambda c: (probabilities[c], c)) if requires_guess else None
    return {"solutions": ref.solutions, "forced_safe": set(ref.forced_safe),
            "forced_mines": set(ref.forced_mines), "requires_guess": requires_guess,
            "best_guess": best, "probabilities": probabilities}


def variants(name: str):
    """(label, position, analyze options, recorded answer) for a file and its variants."""
    from msanalysis.position import Position

    position = Position.load(POSITIONS / name)
    answer = POSITION_ANSWERS[name]
    yield "as recorded", position, {}, answer
    if "ignore_flags" in answer:
        yield "flags ignored", position, {"ignore_flags": True}, answer["ignore_flags"]
    if "without_count" in answer:
        yield "without the count", position.with_total_mines(None), {}, answer["without_count"]


def test_every_position_file_has_a_recorded_answer():
    files = sorted(p.name for p in POSITIONS.iterdir() if p.suffix in (".txt", ".mine"))
    assert files == sorted(POSITION_ANSWERS)
    assert len(files) >= 30


@pytest.mark.parametrize("name", sorted(POSITION_ANSWERS))
def test_position_answers_match_the_analysis_and_brute_force(name):
    from reference import MAX_UNKNOWN

    for label, position, options, answer in variants(name):
        expected = recorded(answer)
        assert analysed(position, **options) == expected, label
        unknown = len(position.hidden) + (len(position.flags) if options.get("ignore_flags") else 0)
        if unknown <= MAX_UNKNOWN:
            assert enumerated(position, **options) == expected, label
