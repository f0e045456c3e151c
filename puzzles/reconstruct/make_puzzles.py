"""Write the number grids of puzzles/reconstruct/ and their answers.json, reproducibly.

Run from the repository root: ``.venv/bin/python puzzles/reconstruct/make_puzzles.py``. Layouts
of the grids made from boards are asserted equal to those boards; tests/test_reconstruct.py
checks every recorded answer again (by brute force where the grid is small).
"""

import json
import re
from pathlib import Path

import numpy as np

from msanalysis.board import Board
from msanalysis.reconstruction import NumberGrid, reconstruct
from msanalysis.rules import generate

out = Path(__file__).resolve().parent
answers = {}
SEED_003 = """001110022
001110022
001110011
001221000
012321000
123321000
122211011
222111011
111111011"""


def write(name: str, grid: NumberGrid, comments: list[str]):
    """Write one grid with its comments, and record its exact answer."""
    result = reconstruct(grid, limit=None)
    assert result.exhaustive
    lines = [f"# {line}" for line in comments] + [f"# rule: {grid.rule}; answer in answers.json"]
    (out / name).write_text("\n".join(lines) + "\n" + grid.to_text() + "\n")
    entry = {"rule": grid.rule, "solutions": result.count, "unique": result.unique,
             "layout": result.first.to_text().splitlines() if result.unique else None}
    if result.count == 0:
        entry["conflict"] = [list(cell) for cell in result.conflict]
    answers[name] = entry
    print(name, result)
    return result


def thin(board: Board, rule: str, seed: int) -> NumberGrid:
    """Hide numbers one at a time in a seeded order, keeping each hide that leaves one layout."""
    grid = NumberGrid.from_board(board, rule=rule)
    rng = np.random.default_rng(seed)
    for cell in rng.permutation(np.argwhere(np.ones(grid.clues.shape, dtype=bool))):
        trial = grid.with_unknown([tuple(int(v) for v in cell)])
        if reconstruct(trial).unique:
            grid = trial
    return grid


def widen(grid: NumberGrid, seed: int, at_least: int) -> NumberGrid:
    """Hide numbers in a seeded order until at least ``at_least`` layouts fit."""
    rng = np.random.default_rng(seed)
    for cell in rng.permutation(np.argwhere(np.ones(grid.clues.shape, dtype=bool))):
        if reconstruct(grid, limit=None).count >= at_least:
            break
        grid = grid.with_unknown([tuple(int(v) for v in cell)])
    return grid


def hidden(grid: NumberGrid) -> int:
    return int((grid.clues < 0).sum())


write("seed003-mosaic.txt", NumberGrid.from_text(SEED_003, rule="mosaic"), [
    "Seed 003's 9x9 example (Pradipta, backtracking paper, section III).",
    "Its numbers count the 3x3 block including the cell: the mosaic rule. One layout fits."])

for name, (w, h, m), seed in [("beginner", (9, 9, 10), 11), ("intermediate", (16, 16, 40), 12),
                              ("expert", (30, 16, 99), 13)]:
    board = generate(w, h, m, rules="unsafe", seed=seed)
    for rule in ("classic", "mosaic"):
        counted = "8 neighbours" if rule == "classic" else "3x3 block with the cell"
        result = write(f"{name}-{rule}.txt", NumberGrid.from_board(board, rule=rule), [
            f"Every number of generate({w}, {h}, {m}, rules=\"unsafe\", seed={seed}), {name},",
            f"uncovered, mine cells included ({counted})."])
        assert not result.unique or result.first == board

board = generate(30, 16, 99, rules="unsafe", seed=14)
grid = thin(board, "classic", 1)
result = write("expert-classic-puzzle.txt", grid, [
    "A puzzle: generate(30, 16, 99, rules=\"unsafe\", seed=14) under the classic rule,",
    f"with {hidden(grid)} of its 480 numbers hidden (?) one at a time, in a seeded random order,",
    "as long as the layout stayed the only one. The answer is that board."])
assert result.first == board

board = generate(15, 15, 90, rules="unsafe", seed=15)
grid = thin(board, "mosaic", 2)
result = write("mosaic-puzzle-15x15.txt", grid, [
    "A Fill-a-Pix style puzzle: generate(15, 15, 90, rules=\"unsafe\", seed=15) under the mosaic",
    f"rule, with {hidden(grid)} of its 225 numbers hidden while the layout stayed the only one."])
assert result.first == board

grid = widen(NumberGrid.from_board(Board.from_text("*...\n..*.\n....\n.*..")), 3, 5)
write("several-classic-4x4.txt", grid, [
    "Several layouts: the numbers of the 4x4 layout *... / ..*. / .... / .*.. with",
    f"{hidden(grid)} clues hidden. Small enough for the tests to count every layout by brute force."])
grid = widen(NumberGrid.from_board(Board.from_text("*...\n....\n..*.\n...."), rule="mosaic"), 4, 3)
write("several-mosaic-4x4.txt", grid, [
    "Several layouts under the mosaic rule: the numbers of *... / .... / ..*. / .... with",
    f"{hidden(grid)} clues hidden."])

write("none-classic-5x5.txt", NumberGrid.from_text("00000\n01110\n01810\n01110\n00000"), [
    "No layout: an 8 in the middle needs all eight neighbours to be mines, but the zeros around",
    "them say none of those cells can be. The conflict is a small set of these clues."])
write("none-mosaic-3x3.txt", NumberGrid.from_text("000\n090\n000", rule="mosaic"), [
    "No layout under the mosaic rule: the 9 fills the whole 3x3 block, the corner 0s empty it."])

text = json.dumps(answers, indent=2)
text = re.sub(r"\[\s+(\d+),\s+(\d+)\s+\]", r"[\1, \2]", text)  # a cell on one line
(out / "answers.json").write_text(text + "\n")
