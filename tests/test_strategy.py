"""Tests for msanalysis.strategy: moves, the autoplayer and the strategies."""

from __future__ import annotations

import random

import pytest

from msanalysis.game import Game
from msanalysis.position import Position
from msanalysis.strategy import (STRATEGIES, Move, PaperStrategy, Strategy, _enumerate,
                                 _frontier_groups, _propagate, autoplay, make_strategy)
from reference import enumerate_layouts, game_positions

POSITIONS = [p for p in game_positions(120) if enumerate_layouts(p).solutions]


def test_move_kinds():
    assert Move("flag", (1, 2)).kind == "flag"
    with pytest.raises(ValueError, match="unknown move kind"):
        Move("chord", (0, 0))


def test_make_strategy_names():
    assert {"paper"} <= set(STRATEGIES)
    for name in STRATEGIES:
        strategy = make_strategy(name, seed=1)
        assert isinstance(strategy, Strategy) and strategy.name == name
    with pytest.raises(ValueError, match="unknown strategy 'nope'"):
        make_strategy("nope")


# -- paper -------------------------------------------------------------------------------------

def _known(position: Position) -> set:
    return set(position.flags) | set(position.shown_mines)


@pytest.mark.parametrize("position", POSITIONS)
def test_paper_propagation_is_sound(position):
    reference = enumerate_layouts(position, use_count=False)
    safe: set = set()
    mines = _known(position)
    new_mines = _propagate(position.states, mines, safe)
    assert safe <= reference.forced_safe
    assert new_mines <= reference.forced_mines


@pytest.mark.parametrize("position", POSITIONS)
def test_paper_backtracking_finds_every_forced_frontier_cell(position):
    # Without the mine count, a cell is forced exactly when it is forced by the frontier alone,
    # which the enumeration of each group must find.
    reference = enumerate_layouts(position, use_count=False)
    mines = _known(position)
    safe, forced_mines = set(), set()
    for cells, constraints in _frontier_groups(position.states, mines, set()):
        count, mine_counts, sample = _enumerate(cells, constraints, None, None, 10**6,
                                                random.Random(0))
        assert len(sample) == len(cells) and count >= 1
        safe |= {c for c, k in zip(cells, mine_counts) if k == 0}
        forced_mines |= {c for c, k in zip(cells, mine_counts) if k == count}
    assert safe == reference.forced_safe
    assert forced_mines == reference.forced_mines


def test_paper_enumeration_counts_assignments():
    # One clue "1" over three cells: three assignments, one mine each.
    count, mine_counts, sample = _enumerate([(0, 0), (0, 1), (0, 2)], [([0, 1, 2], 1)], None,
                                            None, 1000, random.Random(0))
    assert (count, mine_counts, sum(sample)) == (3, [1, 1, 1], 1)
    assert _enumerate([(0, 0)], [([0], 1)], 0, None, 1000, random.Random(0)) is None
    assert _enumerate([(0, 0), (0, 1)], [([0, 1], 1)], None, None, 1, random.Random(0)) is None


@pytest.mark.parametrize("position", POSITIONS[:40])
def test_paper_moves_are_safe_or_marked_guesses(position):
    reference = enumerate_layouts(position)
    for move in PaperStrategy(seed=0, flag_mines=True, explain=True).choose(position, None):
        assert move.explanation
        if move.kind == "flag":
            assert move.cell in reference.forced_mines
        elif not move.guess:
            assert move.cell in reference.forced_safe
        else:
            assert move.cell in position.hidden


def test_paper_games_replay_exactly():
    def play(seed):
        game = Game.started(16, 16, 40, first_click=(0, 0), seed=seed)
        moves = []
        played = autoplay(game, make_strategy("paper", seed=seed), on_move=moves.append)
        return played, moves

    for seed in range(3):
        assert play(seed) == play(seed)


def test_paper_flags_mines_when_asked():
    game = Game.started(9, 9, 10, first_click=(0, 0), seed=0)
    autoplay(game, PaperStrategy(seed=0, flag_mines=True))
    flags = game.position().flags
    assert flags and flags <= game.board.mines


def test_autoplay_rejects_a_strategy_that_does_nothing():
    class Idle:
        name, uses_analysis = "idle", False

        def choose(self, position, analysis):
            return []

    class Stuck(Idle):
        def choose(self, position, analysis):
            return [Move("reveal", next(iter(position.revealed)))]

    for strategy in (Idle(), Stuck()):
        with pytest.raises(RuntimeError, match="idle"):
            autoplay(Game.started(9, 9, 10, first_click=(0, 0), seed=0), strategy)
