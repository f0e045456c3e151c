"""Tests for msanalysis.counting and msanalysis.joining against the brute-force reference."""

from __future__ import annotations

import contextlib
import sys
import time
from fractions import Fraction
from math import comb

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.approximation import treewidth_min_degree

import msanalysis.counting as counting
import msanalysis.joining as joining
from msanalysis.constraints import build
from msanalysis.counting import ComponentCount, Problem, count_by_need, count_component
from msanalysis.errors import AnalysisTooHard, InconsistentPosition, InvalidInput
from msanalysis.joining import Backdrop, count, join, together
from msanalysis.position import HIDDEN, Position
from msanalysis.sat import problem_verdicts
from reference import all_layouts, enumerate_layouts, game_positions


def _check(position: Position, ignore_flags: bool = False) -> None:
    expected = enumerate_layouts(position, ignore_flags=ignore_flags)
    try:
        result = count(build(position, ignore_flags=ignore_flags))
    except InconsistentPosition:
        assert expected.solutions == 0
        return
    assert result.solutions == expected.solutions
    probabilities = result.probabilities()
    assert set(probabilities) == set(expected.unknown)
    for cell in expected.unknown:
        assert probabilities[cell] == expected.probability(cell), cell


def test_counts_and_probabilities_match_brute_force():
    for position in game_positions(300, start=1000):
        _check(position)


def test_tree_decomposition_path_matches_brute_force(monkeypatch):
    # Force every component through a real tree decomposition, not one bag.
    monkeypatch.setattr(counting, "_SINGLE_BAG_BOXES", 1)
    for position in game_positions(200, start=2000, max_unknown=16):
        _check(position)
        _check(position, ignore_flags=True)


def networkx_tree(sizes: list[int], scopes: list[tuple[int, ...]]
                   ) -> tuple[list[set[int]], list[int]]:
    """Bags and parents (children first) from networkx's ``treewidth_min_degree``: an
    independent decomposition to count with instead of the hand-written one."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(sizes)))
    for scope in scopes:
        graph.add_edges_from((a, b) for i, a in enumerate(scope) for b in scope[i + 1:])
    _, decomposition = treewidth_min_degree(graph)
    nodes = list(decomposition.nodes)
    root = max(nodes, key=lambda bag: (len(bag), sorted(bag)))
    index = {root: 0}
    order, parents = [root], [-1]
    for parent, child in nx.bfs_edges(decomposition, root):
        index[child] = len(order)
        order.append(child)
        parents.append(index[parent])
    # Reverse: children first, as _elimination_tree gives them.
    last = len(order) - 1
    return ([set(bag) for bag in reversed(order)],
            [last - p if p >= 0 else -1 for p in reversed(parents)])


@pytest.mark.parametrize("use_networkx, merged", [(True, 10), (False, 1), (True, 1)])
def test_other_decompositions_match_brute_force(monkeypatch, use_networkx, merged):
    # networkx's own heuristic, and bags left unmerged, must give the same exact answers.
    monkeypatch.setattr(counting, "_SINGLE_BAG_BOXES", 1)
    if use_networkx:
        monkeypatch.setattr(counting, "_elimination_tree", networkx_tree)
    monkeypatch.setattr(counting, "_MERGED_BAG_BOXES", merged)
    for position in game_positions(60, start=2500, max_unknown=16):
        _check(position)


def test_long_thin_frontier_matches_brute_force():
    # 18 boxes in a chain: decomposed, not enumerated whole.
    rng = np.random.default_rng(5)
    for _ in range(3):
        mines = rng.random(18) < 0.4
        padded = np.concatenate([[0], mines, [0]]).astype(int)
        clues = padded[:-2] + padded[1:-1] + padded[2:]
        text = "?" * 18 + "\n" + "".join(map(str, clues))
        _check(Position.from_text(text, total_mines=int(mines.sum())))
        _check(Position.from_text(text))


def test_long_row_of_ones_has_closed_form():
    # A row of n hidden cells above a row of n "1"s: mines every third cell, so the count is the
    # number of starting offsets that end correctly: small, whatever n. With n = 400 there are
    # about 2**133 assignments of the frontier to prune: the count must go by width, not length.
    for n in (30, 31, 32, 400):
        position = Position.from_text("?" * n + "\n" + "1" * n)
        expected = 0
        for start in range(3):
            mines = list(range(start, n, 3))
            row = [0] * n
            for m in mines:
                row[m] = 1
            ok = all(sum(row[max(0, i - 1):i + 2]) == 1 for i in range(n))
            expected += ok
        assert count(build(position)).solutions == expected


def test_sea_weighting_with_binomials():
    # One 1 with 3 neighbours and a sea of 4 cells; 2 mines in total.
    position = Position.from_text("mines: 2\n1???\n????")
    c = build(position)
    result = count(c)
    assert len(c.sea) == 4
    assert result.solutions == 3 * comb(4, 1)
    assert result.sea_probability() == Fraction(1, 4)
    assert result.box_probability(0) == Fraction(1, 3)


def test_unknown_total_counts_every_layout_once():
    result = count(build(Position.from_text("1???\n????")))
    assert result.solutions == 3 * 2 ** 4
    assert result.sea_probability() == Fraction(1, 2)


def test_component_polynomial_by_mine_count():
    c = build(Position.from_text("???\n?2?\n???"))
    part = count_component(Problem.of_component(c, c.components[0]))
    assert part.offset == 2 and part.layouts == (comb(8, 2),)
    assert part.box_mines == ((2 * comb(8, 2),),)


def test_inconsistent_component_raises():
    with pytest.raises(InconsistentPosition):
        count(build(Position.from_text("1?1\n...")))


def test_deadline_raises_too_hard():
    # A dense grid of clues: one big component with a wide decomposition.
    rng = np.random.default_rng(1)
    states = np.full((40, 40), -1, dtype=np.int8)
    states[::2, ::2] = rng.integers(1, 4, size=(20, 20))
    with pytest.raises(AnalysisTooHard):
        count(build(Position(states)), deadline=0.0)


def test_joining_the_pieces_looks_at_the_clock(monkeypatch):
    # On a large board the products that join a component's pieces outlast the counting of
    # them (a 100x100 position: 5 s of products after a 2 s limit), so the join checks too.
    from msanalysis.board import Board
    from msanalysis.game import Game

    rng = np.random.default_rng(5)
    board = Board(rng.random((40, 40)) < 0.2)
    game = Game(board, rules="unsafe")
    safe = np.argwhere(~board.mask)
    for row, col in safe[rng.random(len(safe)) < 0.3].tolist():
        if not game.is_revealed((row, col)):
            game.reveal((row, col))
    checked = counting._check_deadline

    def stop_at_the_join(deadline, what):
        if what == "joining the pieces of a component":
            raise AnalysisTooHard(what)
        checked(deadline, what)

    monkeypatch.setattr(counting, "_check_deadline", stop_at_the_join)
    with pytest.raises(AnalysisTooHard, match="joining the pieces"):
        count(build(game.position()), deadline=float("inf"))


def test_every_long_step_of_a_tree_count_looks_at_the_clock(monkeypatch):
    # On hostile positions (a 150x150 board of numbers and unknowns) the products of the
    # upward pass and the keys of a bag with millions of assignments ran for seconds without
    # a look at the clock: `analyze --time-limit 20` stopped after 27 s. Every such step must
    # look, whatever the position (here one that counts in a blink).
    monkeypatch.setattr(counting, "_SINGLE_BAG_BOXES", 1)
    looked: set[tuple[str, int]] = set()
    checked = counting._check_deadline

    def record(deadline, what):
        caller = sys._getframe(1)
        looked.add((caller.f_code.co_name, caller.f_lineno))
        checked(deadline, what)

    monkeypatch.setattr(counting, "_check_deadline", record)
    text = "mines: 8\n?????2F\n??22121\nF?F1...\n??31...\n2?1...."
    count(build(Position.from_text(text)))
    assert "times" in {name for name, _ in looked}  # the products of both passes
    # In _count_tree itself: per bag enumerated, per block of its assignments, per bag of the
    # upward pass, per bag and per box of the downward pass (two of them before).
    assert sum(name == "_count_tree" for name, _ in looked) >= 5


def test_a_comb_of_the_sea_that_cannot_end_in_time_is_not_begun(monkeypatch):
    # The layouts of a sea of millions of cells are one comb of millions of digits (18 s for a
    # 2000x2000 board with 800,000 mines), which cannot be stopped once begun.
    def no_comb(n, k):
        raise AssertionError("the comb was begun")

    monkeypatch.setattr(joining, "comb", no_comb)
    # 600x600 with 72,000 mines: 78,200 digits, 0.2 s at least.
    position = Position(np.full((600, 600), HIDDEN, dtype=np.int8), 72_000)
    with pytest.raises(AnalysisTooHard, match="a number of 78,200 digits"):
        count(build(position), deadline=time.perf_counter() + 0.05)
    monkeypatch.undo()
    # A small sea is counted whatever the limit.
    small = Position(np.full((16, 30), HIDDEN, dtype=np.int8), 99)
    assert count(build(small), deadline=time.perf_counter() + 5).solutions == comb(480, 99)


# -- the sub-problem API: fixing cells, layouts, join ----------------------------------------------

def _with_mines(position: Position, cells) -> Position:
    """The position with ``cells`` shown as mines: brute force then counts the layouts in which
    they are mines."""
    states = position.states.copy()
    for cell in cells:
        states[cell] = -3
    return Position(states, position.total_mines)


def _counted(positions):
    """``(position, count)`` of each position that some layout fits."""
    for position in positions:
        try:
            yield position, count(build(position))
        except InconsistentPosition:
            continue


def test_solutions_fixing_matches_brute_force():
    rng = np.random.default_rng(11)
    checked = 0
    for position, result in _counted(game_positions(150, start=3000)):
        unknown = sorted(result.constraints.unknown)
        if not unknown:
            continue
        for _ in range(3):
            picked = [unknown[i] for i in rng.choice(len(unknown), size=min(2, len(unknown)),
                                                     replace=False)]
            expected = enumerate_layouts(_with_mines(position, picked)).solutions
            assert result.solutions_fixing(mines=picked) == expected, (position, picked)
            checked += 1
        # Fixing a cell safe and fixing it a mine share out all the layouts.
        cell = unknown[0]
        assert (result.solutions_fixing(mines=[cell]) + result.solutions_fixing(safe=[cell])
                == result.solutions)
    assert checked > 200


def test_layouts_are_exactly_the_brute_force_layouts():
    checked = 0
    for position in game_positions(200, start=4000, max_unknown=14):
        if position.total_mines is None or position.flags:
            continue  # all_layouts places a known number of mines and reads no flags
        try:
            result = count(build(position))
        except InconsistentPosition:
            continue
        known = set(result.constraints.known_mines)
        expected = {frozenset(board.mines) - known for board in all_layouts(position)}
        listed = list(result.layouts())
        assert len(listed) == len(set(listed)) == result.solutions
        assert set(listed) == expected
        if result.solutions > 2:
            assert len(list(result.layouts(limit=2))) == 2
        checked += 1
    assert checked > 30


def test_problem_layouts_by_number_of_mines():
    problem = Problem.from_clues([((1, 1), 2, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)])])
    part = count_component(problem)
    for k, ways in enumerate(part.layouts):
        found = list(problem.layouts(mines=[part.offset + k]))
        assert len(found) == ways and all(len(layout) == part.offset + k for layout in found)


def test_join_equals_count_and_products():
    for _, result in _counted(game_positions(100, start=5000)):
        c = result.constraints
        joined = join(result.components, len(c.sea), c.remaining)
        assert joined.solutions == result.solutions and joined.sea_mines == result.sea_mines
        # The components as one product part join to the same totals.
        merged = join([together(result.components)], len(c.sea), c.remaining)
        assert merged.solutions == result.solutions and merged.sea_mines == result.sea_mines


def test_a_backdrop_joins_each_part_as_join_does():
    # Every component of a position in turn is the part, the others together are the rest.
    checked = 0
    for _, result in _counted(game_positions(100, start=5000)):
        c = result.constraints
        if c.remaining is None:
            continue
        parts = list(result.components)
        for i, part in enumerate(parts):
            rest = together(parts[:i] + parts[i + 1:])
            backdrop = Backdrop(rest, len(c.sea), c.remaining)
            joined = join([rest, part], len(c.sea), c.remaining)
            assert backdrop.join(part) == (joined.solutions, joined.sea_mines,
                                           joined.box_mines(1))
            assert backdrop.join(part)[0] == result.solutions
            checked += 1
        alone = join([together(parts)], len(c.sea), c.remaining)
        assert Backdrop(together(parts), len(c.sea), c.remaining).join(None) == (
            alone.solutions, alone.sea_mines, [])
    assert checked > 50


def test_fixing_every_cell_leaves_an_empty_problem():
    problem = Problem.from_clues([((1, 0), 1, [(0, 0), (0, 1)])])
    fixed, placed = problem.fixing(mines=[(0, 0)], safe=[(0, 1)])
    assert fixed.boxes == () and fixed.needs == (0,) and placed == 1
    assert count_component(fixed).shifted(placed) == ComponentCount(1, (1,))
    with pytest.raises(InconsistentPosition):
        count_component(problem.fixing(mines=[(0, 0), (0, 1)])[0])


def test_layouts_without_a_mine_count_list_every_layout_once():
    positions = (p.with_total_mines(None) for p in game_positions(80, start=4500, max_unknown=12))
    for position, result in _counted(positions):
        listed = list(result.layouts())
        assert len(set(listed)) == len(listed) == enumerate_layouts(position).solutions


# -- every need of one clue at once ----------------------------------------------------------------

def _by_need_one_at_a_time(problem: Problem, clue: int) -> dict[int, ComponentCount]:
    """count_component for each need of ``clue`` on its own: what count_by_need must give."""
    cells = sum(len(problem.boxes[v]) for v in problem.scopes[clue])
    found = {}
    for need in range(cells + 1):
        with contextlib.suppress(InconsistentPosition):
            found[need] = count_component(problem.with_need(clue, need))
    return found


def _check_by_need(positions: list[Position]) -> int:
    checked = 0
    for position in positions:
        c = build(position)
        for component in c.components:
            problem = Problem.of_component(c, component)
            for clue in range(len(problem.needs)):
                assert count_by_need(problem, clue) == _by_need_one_at_a_time(problem, clue)
                checked += 1
    return checked


def test_count_by_need_equals_one_count_per_need():
    assert _check_by_need(game_positions(150, start=6000)) > 500


def test_count_by_need_through_a_tree_decomposition(monkeypatch):
    monkeypatch.setattr(counting, "_SINGLE_BAG_BOXES", 1)
    monkeypatch.setattr(counting, "_MERGED_BAG_BOXES", 3)
    assert _check_by_need(game_positions(60, start=6500)) > 200


def test_count_by_need_matches_the_layouts_of_brute_force():
    # Independent of count_component: list the layouts and sort them by the clue's mines.
    for position in game_positions(40, start=7000, max_unknown=14):
        c = build(position)
        for component in c.components:
            problem = Problem.of_component(c, component)
            clue = len(problem.needs) - 1
            scope = {cell for v in problem.scopes[clue] for cell in problem.boxes[v]}
            expected: dict[int, dict[int, int]] = {}
            for layout in _free_layouts(problem, clue):
                need, mines = len(layout & scope), len(layout)
                expected.setdefault(need, {}).setdefault(mines, 0)
                expected[need][mines] += 1
            found = count_by_need(problem, clue)
            assert set(found) == set(expected)
            for need, part in found.items():
                assert {part.offset + k: n for k, n in enumerate(part.layouts) if n} \
                    == expected[need]


def _free_layouts(problem: Problem, clue: int):
    """The layouts of ``problem`` without clue ``clue`` (its need left free)."""
    keep = [c for c in range(len(problem.needs)) if c != clue]
    return Problem(problem.boxes, tuple(problem.scopes[c] for c in keep),
                   tuple(problem.needs[c] for c in keep)).layouts()


def test_count_by_need_of_one_clue_over_one_box_is_every_choice_of_cells():
    # The look ahead's cell in the sea: its clue alone over one box, counted without a search.
    for size in range(1, 9):
        cells = [(0, c) for c in range(size)]
        problem = Problem.from_clues([((1, 0), 0, cells)])
        assert count_by_need(problem, 0) == _by_need_one_at_a_time(problem, 0)


def test_count_by_need_of_an_unsatisfiable_problem_is_empty():
    problem = Problem.from_clues([((1, 0), 2, [(0, 0)]), ((1, 1), 0, [(0, 0), (0, 1)])])
    assert count_by_need(problem, 1) == {}
    with pytest.raises(ValueError, match="clue 2"):
        count_by_need(problem, 2)


@pytest.mark.parametrize("scopes, needs", [
    (((3,),), (1,)), (((-1,),), (1,)), (((0,), (0,)), (1,)), (((0,),), (1, 1))])
def test_a_problem_made_wrong_is_refused_by_name(scopes, needs):
    # Problems of positions always fit; one made by hand with a box it does not have was an
    # IndexError deep in the count.
    problem = Problem((((0, 0), (0, 1)),), scopes, needs)
    with pytest.raises(InvalidInput, match="the scopes of a problem name its boxes by index"):
        count_component(problem)
    with pytest.raises(InvalidInput, match="the scopes of a problem name its boxes by index"):
        count_by_need(problem, 0)
    with pytest.raises(InvalidInput, match="the scopes of a problem name its boxes by index"):
        problem_verdicts(problem)
    with pytest.raises(InvalidInput, match="clue 5 is not one of the problem's"):
        problem.with_need(5, 1)
