"""Tests for msanalysis.obvious: the quick look, against brute force and a cell-by-cell rewrite."""

from __future__ import annotations

import pytest

from msanalysis.board import neighbours
from msanalysis.game import Game
from msanalysis.obvious import deciding_number, obvious_cells
from msanalysis.play.autoplay import autoplay
from msanalysis.play.strategies import make_strategy
from msanalysis.position import FLAG, HIDDEN, MINE, Position
from reference import enumerate_layouts, game_positions

POSITIONS = game_positions(400, start=7000)


def _one_number_at_a_time(position: Position):
    """The same two rules, number by number in plain Python (the independent rewrite)."""
    states = position.states
    height, width = states.shape
    numbers = [(r, c) for r in range(height) for c in range(width) if states[r, c] >= 0]

    def around(cell):
        near = list(neighbours(cell, height, width))
        hidden = [n for n in near if states[n] == HIDDEN]
        return hidden, states[cell] - sum(states[n] in (FLAG, MINE) for n in near)

    mines = set()
    for cell in numbers:
        hidden, needed = around(cell)
        if needed < 0 or needed > len(hidden):
            return set(), set()
        if hidden and needed == len(hidden):
            mines.update(hidden)
    safe = set()
    for cell in numbers:
        hidden, needed = around(cell)
        marked = [n for n in hidden if n in mines]
        if len(marked) > needed:
            return set(), set()
        if len(marked) == needed:
            safe.update(n for n in hidden if n not in mines)
    return safe, mines


def test_there_are_obvious_cells_to_check():
    found = [obvious_cells(p) for p in POSITIONS]
    assert sum(bool(safe) for safe, _ in found) >= 100
    assert sum(bool(mines) for _, mines in found) >= 100


@pytest.mark.parametrize("position", POSITIONS[:200])
def test_obvious_cells_are_forced_even_without_the_mine_count(position):
    safe, mines = obvious_cells(position)
    reference = enumerate_layouts(position, use_count=False)
    if reference.solutions:
        assert safe <= reference.forced_safe
        assert mines <= reference.forced_mines


def test_obvious_cells_match_the_rules_applied_number_by_number():
    for position in POSITIONS:
        safe, mines = obvious_cells(position)
        assert (set(safe), set(mines)) == _one_number_at_a_time(position), position.to_text()


def test_each_obvious_safe_cell_has_a_number_that_decides_it():
    for position in POSITIONS:
        safe, mines = obvious_cells(position)
        for cell in safe:
            number = deciding_number(position, cell, mines)
            assert number is not None and cell in neighbours(number, *position.shape)
            marked = [n for n in neighbours(number, *position.shape)
                      if n in mines or position.states[n] in (FLAG, MINE)]
            assert len(marked) == position.states[number]


def test_a_number_that_cannot_hold_leaves_the_look_empty():
    # Two flags around a 1: the analysis says what is wrong, the quick look decides nothing.
    assert obvious_cells(Position.from_text("FF?\n1??\n???")) == (frozenset(), frozenset())
    # A 3 with two hidden neighbours.
    assert obvious_cells(Position.from_text("3?\n?.")) == (frozenset(), frozenset())


@pytest.mark.parametrize("name", ["safest", "best"])
def test_the_quick_look_changes_no_guess(name):
    # A cell safe now stays safe, so the analysis before each guess sees the same position.
    for seed in range(4):
        runs = []
        for quick in (True, False):
            strategy = make_strategy(name, seed=seed, quick_look=quick)
            game = Game.started(16, 16, 40, first_click=(0, 0), seed=seed)
            moves = []
            played = autoplay(game, strategy, on_move=moves.append)
            runs.append((played.status, played.guesses, [m.cell for m in moves if m.guess],
                         set(game.position().revealed), played.turns))
        (status, guesses, guessed, revealed, quick_turns), slow = runs
        assert (status, guesses, guessed, revealed) == slow[:4]
        assert quick_turns >= slow[4]
