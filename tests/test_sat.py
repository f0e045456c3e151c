"""Tests for msanalysis.sat: forced cells, explanations and cores, against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import msanalysis.sat as sat
from msanalysis.analysis import analyze
from msanalysis.constraints import build
from msanalysis.errors import InconsistentPosition, InvalidInput, TimeLimitReached
from msanalysis.game import Game
from msanalysis.position import Position
from msanalysis.sat import Explanation, explain, forced_cells, inconsistency
from reference import enumerate_layouts, game_positions


def _sub(position, ignore_flags, clues, use_count):
    return enumerate_layouts(position, ignore_flags=ignore_flags, clues=clues,
                             use_count=use_count)


def test_forced_cells_and_cores_match_brute_force():
    for position in game_positions(300, start=3000):
        for ignore_flags in (False, True):
            expected = enumerate_layouts(position, ignore_flags=ignore_flags)
            try:
                safe, mines = forced_cells(build(position, ignore_flags=ignore_flags))
            except InconsistentPosition as error:
                assert expected.solutions == 0
                # The named clues (with the count if said) cannot hold, and each one is needed.
                assert _sub(position, ignore_flags, error.clues, error.uses_mine_count) \
                    .solutions == 0
                for clue in error.clues:
                    rest = set(error.clues) - {clue}
                    assert _sub(position, ignore_flags, rest, error.uses_mine_count).solutions
                continue
            assert expected.solutions > 0
            assert safe == expected.forced_safe and mines == expected.forced_mines


def test_explanations_force_the_cell_and_are_minimal():
    checked = 0
    for position in game_positions(150, start=4000):
        try:
            safe, mines = forced_cells(build(position))
        except InconsistentPosition:
            continue
        for cell in sorted(safe | mines)[:4]:
            e = explain(position, cell)
            assert e.verdict == ("safe" if cell in safe else "mine")
            assert e.clues == sorted(e.clues)
            alone = _sub(position, False, e.clues, e.uses_mine_count)
            assert cell in (alone.forced_safe if e.verdict == "safe" else alone.forced_mines)
            for clue in e.clues:
                fewer = _sub(position, False, set(e.clues) - {clue}, e.uses_mine_count)
                assert cell not in fewer.forced_safe | fewer.forced_mines
            if e.uses_mine_count:
                without = _sub(position, False, e.clues, False)
                assert cell not in without.forced_safe | without.forced_mines
            checked += 1
    assert checked > 100


def test_endgame_decided_by_the_count_alone():
    # The 1 holds the only mine: only the count says that the sea (columns 3-5) is safe.
    position = Position.from_text("mines: 1\n??????\n?1????\n??????")
    safe, mines = forced_cells(build(position))
    assert safe == {(r, c) for r in range(3) for c in range(3, 6)} and not mines
    e = explain(position, (0, 5))
    assert e == Explanation((0, 5), "safe", [(1, 1)], True, (), (1,))
    assert "the total mine count" in str(e)


def test_sea_forced_mines_when_frontier_is_pinned():
    # The 1 pins one mine on the frontier; the other two mines must fill the two sea cells.
    position = Position.from_text("mines: 3\n1??\n???")
    safe, mines = forced_cells(build(position))
    assert not safe and mines == {(0, 2), (1, 2)}


def test_per_component_and_joined_solvers_agree(monkeypatch):
    loose_with_count = 0
    for position in game_positions(80, start=5000):
        # With the count unknown, and with it known when the bounds say it cannot matter.
        for total in {None, position.total_mines}:
            position = position.with_total_mines(total)
            constraints = build(position)
            try:
                loose = forced_cells(constraints)
            except InconsistentPosition:
                continue
            if total is not None:
                if not sat._count_is_loose(constraints):
                    continue
                loose_with_count += 1
            monkeypatch.setattr(sat, "_count_is_loose", lambda *args: False)
            assert forced_cells(build(position)) == loose
            monkeypatch.undo()
    # Small positions rarely leave the count loose; expert mid-game positions often do.
    rng = np.random.default_rng(3)
    for seed in range(8):
        game = Game.started(30, 16, 99, first_click=(8, 15), seed=seed)
        for _ in range(30):
            covered = [c for c in zip(*np.nonzero(~game.board.mask)) if not game.is_revealed(c)]
            if game.status != "playing" or not covered:
                break
            game.reveal(tuple(int(v) for v in covered[int(rng.integers(len(covered)))]))
        constraints = build(game.position())
        if game.status != "playing" or not sat._count_is_loose(constraints):
            continue
        loose_with_count += 1
        loose = forced_cells(constraints)
        monkeypatch.setattr(sat, "_count_is_loose", lambda *args: False)
        assert forced_cells(constraints) == loose
        monkeypatch.undo()
    assert loose_with_count >= 4


def test_explain_rejects_cells_that_are_not_hidden_or_not_forced():
    position = Position.from_text("F1?\n?1?\n???")
    with pytest.raises(ValueError, match="revealed"):
        explain(position, (0, 1))
    with pytest.raises(ValueError, match="flagged"):
        explain(position, (0, 0))
    with pytest.raises(ValueError, match="not forced"):
        explain(position, (0, 2), ignore_flags=True)
    with pytest.raises(ValueError, match="off the"):
        explain(position, (5, 0))
    e = explain(position, (0, 2))
    assert e.verdict == "safe" and e.flags == ((0, 0),) and "as mines" in str(e)


def test_flag_contradiction_is_reported_as_such():
    # The flag fits the 1 below it, but then the 1-2-2-1 cannot hold.
    position = Position.from_text("F???\n1221")
    with pytest.raises(InconsistentPosition) as info:
        forced_cells(build(position))
    assert "flags" in str(info.value) and "contradict" in str(info.value)
    forced_cells(build(position, ignore_flags=True))


def test_inconsistency_names_the_count():
    position = Position.from_text("mines: 3\n???\n121\n...")
    error = inconsistency(build(position))
    assert error.uses_mine_count and error.clues
    assert "together with 3 mines in total" in str(error)


def test_an_explanation_keeps_its_time_limit(monkeypatch):
    position = Position.from_text("???\n121")
    ticks = itertools.count(step=100)  # every look at the clock 100 s after the one before
    monkeypatch.setattr(sat.time, "perf_counter", lambda: next(ticks))
    with pytest.raises(TimeLimitReached, match=r"time limit ran out before \(0, 1\) was explained"):
        explain(position, (0, 1), time_limit=60)
    monkeypatch.undo()
    assert explain(position, (0, 1), time_limit=60).verdict == "safe"
    assert analyze(position).explain((0, 1), time_limit=60).verdict == "safe"


def test_a_time_limit_is_a_positive_number_of_seconds():
    position = Position.from_text("mines: 2\n????\n121?\n...?")
    for seconds in (0, -1, float("nan"), "5", True):
        with pytest.raises(InvalidInput, match="a time limit is a positive number of seconds"):
            explain(position, (0, 1), time_limit=seconds)
    assert explain(position, (0, 1), time_limit=float("inf")).verdict == "safe"
    with pytest.raises(InvalidInput, match=r"cell \(-1, 1\) is off the 4x3 board"):
        explain(position, (-1, 1))


def _random_problems(count: int, seed: int):
    """Small problems with random boxes, scopes and needs, many with no layout at all; every
    box under some clue, as in a position."""
    import random

    from msanalysis.counting import Problem

    rng = random.Random(seed)
    for _ in range(count):
        sizes = [rng.randint(1, 3) for _ in range(rng.randint(1, 5))]
        boxes = tuple(tuple((b, k) for k in range(size)) for b, size in enumerate(sizes))
        covered = [set(rng.sample(range(len(sizes)), rng.randint(1, len(sizes))))
                   for _ in range(rng.randint(1, 4))]
        for b in set(range(len(sizes))).difference(*covered):
            rng.choice(covered).add(b)
        scopes = tuple(tuple(sorted(scope)) for scope in covered)
        needs = tuple(rng.randint(0, sum(sizes[b] for b in scope)) for scope in scopes)
        yield Problem(boxes, scopes, needs)


def _fits(problem, mines_per_box) -> bool:
    return all(sum(mines_per_box[b] for b in scope) == need
               for scope, need in zip(problem.scopes, problem.needs))


def test_problem_verdicts_and_mine_bounds_match_every_layout():
    """Per box, the verdict is what every fitting choice of its mines says, with and without a
    model to start from; the rough bounds hold every fitting total."""
    from msanalysis.sat import problem_verdicts

    checked = 0
    for problem in _random_problems(400, seed=7):
        fitting = [k for k in itertools.product(*(range(n + 1) for n in problem.sizes))
                   if _fits(problem, k)]
        verdicts = problem_verdicts(problem)
        if not fitting:
            assert verdicts is None
            continue
        checked += 1
        expected = [1 if all(k[b] == n for k in fitting) else
                    -1 if all(k[b] == 0 for k in fitting) else 0
                    for b, n in enumerate(problem.sizes)]
        assert verdicts == expected
        # A model with the mines of each box at the front of it, as the tracker's are not.
        for k in (fitting[0], fitting[-1]):
            model = [j < k[b] for b, n in enumerate(problem.sizes) for j in range(n)]
            assert problem_verdicts(problem, model) == expected
        low, high = problem.mine_bounds()
        assert low <= min(map(sum, fitting)) and max(map(sum, fitting)) <= high
    assert checked > 100
