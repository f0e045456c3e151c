"""Tests for msanalysis.constraints: clues, boxes, components, sea, mine count."""

from __future__ import annotations

import networkx as nx
import pytest

from msanalysis.constraints import build
from msanalysis.errors import InconsistentPosition
from msanalysis.position import Position
from reference import game_positions


def test_clues_count_flags_and_shown_mines_as_mines():
    c = build(Position.from_text("mines: 3\n?F?\n?3*\n???"))
    (clue,) = c.clues
    assert clue.cell == (1, 1) and clue.number == 3 and clue.mines == 1
    assert len(clue.cells) == 6
    assert c.known_mines == {(0, 1), (1, 2)} and c.remaining == 1


def test_ignore_flags_makes_flags_unknown():
    c = build(Position.from_text("mines: 3\n?F?\n?3*\n???"), ignore_flags=True)
    assert c.clues[0].mines == 2 and (0, 1) in c.unknown and c.remaining == 2


def test_boxes_group_cells_with_the_same_clues():
    c = build(Position.from_text("???\n?1?\n???\n...\n..."))
    # The 1 sees all eight cells, the zeros force nothing about row 0 and 1 only through row 2.
    sizes = sorted(box.size for box in c.boxes)
    assert sum(sizes) == 8
    for box in c.boxes:
        clue_sets = {frozenset(i for i, clue in enumerate(c.clues) if cell in clue.cells)
                     for cell in box.cells}
        assert clue_sets == {frozenset(box.clues)}


def test_components_are_independent_and_sea_is_the_rest():
    c = build(Position.from_text("1?????1\n???????\n???????"))
    assert len(c.components) == 2
    assert c.components[0].clues == ((0, 0),) and c.components[1].clues == ((0, 6),)
    frontier = {cell for comp in c.components for cell in comp.cells}
    assert frontier.isdisjoint(c.sea) and frontier | set(c.sea) == c.unknown
    assert len(c.graph().nodes) == len(c.clues) + len(c.boxes)


def test_partition_invariants_on_game_positions():
    for position in game_positions(100):
        try:
            c = build(position)
        except InconsistentPosition:
            continue
        cells = [cell for box in c.boxes for cell in box.cells]
        assert len(cells) == len(set(cells))
        assert set(cells) | set(c.sea) == c.unknown
        for i, clue in enumerate(c.clues):
            assert set(clue.cells) == {cell for j in clue.boxes for cell in c.boxes[j].cells}
            assert 0 <= clue.mines <= len(clue.cells)
            assert all(i in c.boxes[j].clues for j in clue.boxes)
        ids = sorted(i for comp in c.components for i in comp.clue_ids)
        assert ids == list(range(len(c.clues)))


@pytest.mark.parametrize("text, clue, words", [
    ("F?\n1F", (1, 0), "flags at (0, 0), (1, 1) contradict the clue 1 at (1, 0)"),
    ("*?\n1*", (1, 0), "has 2 mines shown around it"),
    ("3.\n??", (0, 0), "needs 3 more mines"),
])
def test_a_clue_that_cannot_hold_alone(text, clue, words):
    with pytest.raises(InconsistentPosition) as info:
        build(Position.from_text(text))
    assert info.value.clues == [clue] and words in str(info.value)


def test_mine_count_that_cannot_hold():
    with pytest.raises(InconsistentPosition) as info:
        build(Position(Position.from_text("??\n1.").states, total_mines=3))
    assert info.value.uses_mine_count
    with pytest.raises(InconsistentPosition):
        build(Position(Position.from_text("F*\n2?").states, total_mines=1))


def test_components_are_the_connected_components_of_the_networkx_graph():
    for position in game_positions(60, start=700):
        try:
            c = build(position)
        except InconsistentPosition:
            continue
        graph = c.graph()
        expected = {frozenset(i for kind, i in part if kind == "clue")
                    for part in nx.connected_components(graph)}
        assert {frozenset(component.clue_ids) for component in c.components} == expected
