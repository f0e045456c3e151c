"""Every public entry point that takes one of the toolkit's objects names it when given something
else: WrongType ("build takes a Position, got a str (Position.from_text reads one)"), never an
AttributeError from deep inside. Found by calling each function of the package's ``__all__``
with strings, numbers and None."""

import pytest

from msanalysis.errors import WrongType


def _entries():
    from msanalysis import (
        constraints,
        counting,
        obvious,
        puzzle,
        replay,
        rules,
        sampling,
        sat,
        svg,
        whole,
    )
    from msanalysis.play import bench, endgame, longterm, outlook, rollout

    return [
        ("analyze_constraints", "Position", whole.analyze_constraints),
        ("build", "Position", constraints.build),
        ("obvious_cells", "Position", obvious.obvious_cells),
        ("position_without_flags", "Position", replay.position_without_flags),
        ("forced_cells", "Constraints", sat.forced_cells),
        ("find_forced", "Constraints", sat.find_forced),
        ("LayoutSampler", "Constraints", sampling.LayoutSampler),
        ("count_component", "Problem", counting.count_component),
        ("count_by_need", "Problem", lambda x: counting.count_by_need(x, 0)),
        ("problem_verdicts", "Problem", sat.problem_verdicts),
        ("bench", "PlaySpec", lambda x: bench.bench(x, 1)),
        ("play_one", "PlaySpec", lambda x: bench.play_one(x, 0)),
        ("Outlook", "Analysis", outlook.Outlook),
        ("Endgame", "Analysis", endgame.Endgame),
        ("LongTermRisk", "Analysis", longterm.LongTermRisk),
        ("rollouts", "Position", lambda x: rollout.rollouts(x, [(0, 0)], None, [])),
        ("game_on", "Position", lambda x: rollout.game_on(x, frozenset())),
        ("grade", "NumberGrid", puzzle.grade),
        ("apply_action", "Game", lambda x: replay.apply_action(x, None)),
        ("windows_xp_move", "Board", lambda x: rules.windows_xp_move(x, (0, 0))),
        ("svg.replay", "ReplayAnalysis", svg.replay),
        ("LayoutSampler.draw", "Random", lambda x: sampling.LayoutSampler(
            constraints.build(_position())).draw(x)),
        ("Tracker.perturb", "Random", lambda x: _tracker().perturb(x)),
    ]


def _position():
    from msanalysis.position import Position

    return Position.from_text("mines: 1\n??\n11")


def _tracker():
    from msanalysis.board import Board
    from msanalysis.tracker import Tracker

    return Tracker(Board.from_text("*..\n...\n..."), (2, 2))


@pytest.mark.parametrize("taker, kind, call", _entries(), ids=lambda e: e if isinstance(e, str)
                         else "")
@pytest.mark.parametrize("value", ["?1", 3, None])
def test_an_entry_point_names_what_it_takes(taker, kind, call, value):
    with pytest.raises(WrongType, match=f"^{taker} takes a {kind}, got a {type(value).__name__}"):
        call(value)


def test_a_strategy_is_named_by_a_string():
    from msanalysis.errors import InvalidInput
    from msanalysis.play.strategies import make_strategy

    with pytest.raises(InvalidInput, match=r"unknown strategy \[\]; choose one of best"):
        make_strategy([])  # a list was a TypeError (unhashable)


def test_an_analyser_is_a_function_that_returns_an_analysis():
    from msanalysis.play.judge import analyze_replay, record_autoplay

    replay = record_autoplay(9, 9, 10, seed=3, strategy="safest")
    with pytest.raises(WrongType, match="analyser is a function of a position, got 3"):
        analyze_replay(replay, analyser=3)
    with pytest.raises(WrongType, match="the analyser returned None, not an analysis"):
        analyze_replay(replay, analyser=lambda position: None)
    with pytest.raises(WrongType, match="quick_look is True or False, got 0"):
        analyze_replay(replay, quick_look=0)


@pytest.mark.parametrize("call, message", [
    (lambda: _tracker().step(2.0), "max_grade is a grade from 1 to 4, got 2.0"),
    (lambda: _tracker().step(reveal=1), "reveal is True or False, got 1"),
    (lambda: _tracker().perturb(__import__("random").Random(0), protected=5),
     "protected is a list of cells, got 5"),
])
def test_a_tracker_checks_its_arguments(call, message):
    from msanalysis.errors import InvalidInput

    with pytest.raises(InvalidInput, match=message):
        call()


def test_a_sampler_takes_a_whole_number_for_its_limit():
    from msanalysis.constraints import build
    from msanalysis.errors import InvalidInput
    from msanalysis.sampling import LayoutSampler

    with pytest.raises(InvalidInput, match="limit must be a whole number"):
        LayoutSampler(build(_position()), limit="a")


def _grid_calls():
    import numpy as np

    from msanalysis import svg
    from msanalysis.numbergrid import NumberGrid
    from msanalysis.play.rollout import rollouts
    from msanalysis.puzzle import make_puzzle
    from msanalysis.reconstruction import reconstruct

    grid = NumberGrid.from_text("???\n?9?\n???", rule="mosaic")
    return [
        (lambda: NumberGrid.from_tatham(None), "NumberGrid.from_tatham takes a str"),
        (lambda: NumberGrid.from_board("*."), "NumberGrid.from_board takes a Board"),
        (lambda: make_puzzle("*."), "make_puzzle takes a Board"),
        (lambda: make_puzzle(width="3", height=3), "width must be a whole number"),
        (lambda: make_puzzle(width=5, height=5, on_test=5), "on_test is a function"),
        (lambda: NumberGrid([[0, 1]]).with_unknown(5), "with_unknown takes a list of cells"),
        (lambda: svg.board(grid, highlight=(0, 0)), "a cell is a pair of whole numbers"),
        (lambda: svg.board(grid, highlight=[(0.7, 0)]), "a cell is a pair of whole numbers"),
        (lambda: svg.board(grid, highlight=None), "highlight is a list of cells"),
        (lambda: svg.board(grid, size=1e308), "size is a positive number of pixels"),
        (lambda: rollouts(_position(), [(0, 0)], 5, []), "strategy makes a strategy"),
        (lambda: rollouts(_position(), [[0, 1.5]], lambda: None, []), "a cell is a pair"),
        (lambda: reconstruct("1?", propagate="no"), "propagate is True or False"),
        (lambda: reconstruct("1?", limit=np.int64(0)), "limit must be a positive integer"),
    ]


@pytest.mark.parametrize("index", range(14))
def test_grids_puzzles_pictures_and_rollouts_name_a_wrong_argument(index):
    # Each was an AttributeError, TypeError, OverflowError or ValueError from inside.
    from msanalysis.errors import InvalidInput

    call, message = _grid_calls()[index]
    with pytest.raises(InvalidInput, match=message):
        call()


def test_rollouts_take_cells_as_lists_and_a_limit_as_a_numpy_integer():
    import numpy as np

    from msanalysis.play.rollout import rollouts
    from msanalysis.play.strategies import make_strategy
    from msanalysis.reconstruction import reconstruct

    won = rollouts(_position(), [[0, 0]], lambda: make_strategy("best", seed=0),
                   [[[0, 1]]])
    assert won.tolist() == [[True]]
    assert reconstruct("1?", limit=np.int64(3)).count == reconstruct("1?", limit=3).count
