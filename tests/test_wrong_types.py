"""Every public entry point that takes one of the toolkit's objects names it when given something
else: WrongType ("build takes a Position, got a str (Position.from_text reads one)"), never an
AttributeError from deep inside. Found by calling each function of the package's ``__all__``
with strings, numbers and None."""

import pytest

from msanalysis.errors import InvalidInput, WrongType, a_name


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
    got = a_name(type(value).__name__)
    with pytest.raises(WrongType, match=f"^{taker} takes {a_name(kind)}, got {got}"):
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


def _analysis(text="mines: 4\n??*???\n13*???"):
    from msanalysis.analysis import analyze
    from msanalysis.position import Position

    return analyze(Position.from_text(text))


def _unknown(analysis):
    import numpy as np

    from msanalysis.position import HIDDEN

    return (analysis.position.states == HIDDEN) & (np.array(analysis.probabilities) < 1)


class _Idle:
    name, uses_analysis = "idle", False

    def choose(self, position, analysis):
        return None


def _play_calls():
    import numpy as np

    from msanalysis.game import Game
    from msanalysis.play import autoplay, bench, endgame, longterm, outlook, regions, rollout

    result = bench.GameResult(0, True, 0, 0.0)
    race = rollout.Race.start([(0, 0), (0, 1)])
    new_game = lambda: Game.started(9, 9, 10, first_click=(0, 0), seed=0)
    best = lambda: None  # a strategy factory that is never called: the checks come first
    return [
        # Each was an AttributeError, TypeError, KeyError, IndexError, ValueError ("truth value
        # of an array is ambiguous") or RuntimeError from inside.
        (lambda: outlook.Outlook(_analysis(), blend=None), InvalidInput, "blend is a number"),
        (lambda: outlook.Outlook(_analysis(), lone_safe="no"), WrongType, "lone_safe is True"),
        (lambda: outlook.Outlook(_analysis(), living=np.array([1, 2])), WrongType, "living is"),
        (lambda: outlook.Outlook(_analysis()).outcomes(None), InvalidInput, "a cell is a pair"),
        (lambda: outlook.Outlook(_analysis()).progress((9, 9)), InvalidInput, "is off the 6x2"),
        (lambda: outlook.Outlook(_analysis()).lookahead((0, 3), "x"), InvalidInput, "cutoff is"),
        (lambda: endgame.Endgame(_analysis(), None), InvalidInput, "node_budget must be a whole"),
        (lambda: endgame.Endgame(_analysis(), layouts=5), WrongType, "layouts is a list of"),
        (lambda: endgame.Endgame(_analysis(), layouts=["x"]), InvalidInput, "a layout is the"),
        (lambda: endgame.Endgame(_analysis(), layouts=[(9, 9)]), InvalidInput, "got \\(9, 9\\)"),
        (lambda: longterm.LongTermRisk(_analysis()).influence("x"), InvalidInput, "a cell is a"),
        (lambda: longterm.LongTermRisk(_analysis()).influence((9, 9)), InvalidInput, "is off"),
        (lambda: regions.regions("x", None), WrongType, "regions takes an Analysis, got a str"),
        (lambda: regions.regions(_analysis(), [1, 2]), WrongType, "unknown is a boolean array"),
        (lambda: regions.left_for_last(_analysis(), np.ones((3, 3), bool)), WrongType,
         r"of the position's shape \(2, 6\)"),
        (lambda: rollout.game_on(_position(), 5), WrongType, "mines is a set of cells, got 5"),
        (lambda: rollout.rollouts(_position(), None, best, []), WrongType, "candidates is a"),
        (lambda: rollout.rollouts(_position(), [(0, 0)], best, 1.5), WrongType, "layouts is a"),
        (lambda: rollout.rollouts(_position(), [(0, 0)], best, [3]), WrongType, "a layout is"),
        (lambda: rollout.race("?1", [(0, 0)], best, rounds=1, per_round=1, seed=1), WrongType,
         "race takes a Position, got a str"),
        (lambda: rollout.race(_position(), None, best, rounds=1, per_round=1, seed=1),
         WrongType, "a race's candidates are a list of cells, got None"),
        (lambda: rollout.race(_position(), [(0, 0), (0, 1)], best, rounds=1, per_round=1,
                              seed=1, on_round=3), WrongType, "on_round is a function"),
        (lambda: race.rate("x"), InvalidInput, "'x' is not a candidate of the race"),
        (lambda: race.versus((0, 0), (5, 5)), InvalidInput, r"\(5, 5\) is not a candidate"),
        (lambda: bench.paired(None, []), WrongType, "paired's a is a list of GameResults"),
        (lambda: bench.paired([result], [3]), WrongType, "paired takes a GameResult, got an int"),
        (lambda: bench.wilson_interval(1, 2, None), InvalidInput, "z is a positive number"),
        (lambda: bench.Paired(4, 2, 3, 1, 2).interval("x"), InvalidInput, "z is a positive"),
        (lambda: bench.Summary(bench.PlaySpec.standard("beginner")).add(None), WrongType,
         "Summary.add takes a GameResult"),
        (lambda: autoplay.autoplay(new_game(), np.int64(3)), WrongType,
         "autoplay plays a strategy object, got an int64"),
        (lambda: autoplay.autoplay(new_game(), _Idle()), WrongType,
         "strategy 'idle' must choose a list of moves, got None"),
    ]


def _face_and_name_calls():
    import numpy as np

    from msanalysis import svg, text
    from msanalysis.board import Board
    from msanalysis.counting import Problem, count_component
    from msanalysis.numbergrid import NumberGrid
    from msanalysis.play.book import OpeningBook
    from msanalysis.play.judge import record_autoplay
    from msanalysis.play.noguess import generate_many, generate_no_guess, solve_without_guessing
    from msanalysis.puzzle import make_puzzle
    from msanalysis.reconstruction import reconstruct
    from msanalysis.replay import Replay
    from msanalysis.rules import board_size, default_first_click
    from msanalysis.whole import analyze_constraints

    array = np.array([1, 2])
    board = Board.from_text("*..\n...")
    return [
        # Each was an AttributeError, TypeError or ValueError from inside ("truth value of an
        # array is ambiguous", "unhashable type", "'NoneType' object is not iterable"), or, for
        # jobs, a pool of 10**30 processes filling the memory.
        (lambda: text.board_rows("*."), WrongType, "board_rows takes a Board, got a str"),
        (lambda: text.position_rows(None), WrongType, "position_rows takes a Position"),
        (lambda: text.percent_rows(None, _position()), WrongType, "percent_rows takes an Anal"),
        (lambda: text.marked_rows(_analysis(), None), WrongType, "marked_rows takes a Position"),
        (lambda: text.marked_rows(_analysis(), _position()), InvalidInput,
         r"of the analysis's size \(2, 6\), got \(2, 2\)"),
        (lambda: text.layouts_summary(None), WrongType, "layouts_summary takes a Reconstruction"),
        (lambda: text.cells_text(5), WrongType, "cells_text takes a list of cells, got 5"),
        (lambda: text.cells_text([1.5]), InvalidInput, "a cell is a pair of whole numbers"),
        (lambda: text.render_grid(array), WrongType, "render_grid takes a non-empty list of rows"),
        (lambda: text.render_grid(["?1"], colour=array), WrongType, "colour is True or False"),
        (lambda: text.percent_grid([]), WrongType, "percent_grid takes a non-empty list"),
        (lambda: svg.board(board, coordinates=array), WrongType, "coordinates is True or Fal"),
        (lambda: svg.board(board, legend="no"), WrongType, "legend is True or False"),
        (lambda: svg.board(board, solution=array), WrongType, "solution is True or False"),
        (lambda: svg.probability_colour(None), WrongType, "a probability is a number from 0"),
        (lambda: NumberGrid([[1]], rule=array), InvalidInput, "unknown rule"),
        (lambda: reconstruct("1?", rule=array), InvalidInput, "unknown rule"),
        (lambda: reconstruct("1?", engine=array), InvalidInput, "unknown engine"),
        (lambda: make_puzzle(width=5, height=5, check=array), InvalidInput, "check must be"),
        (lambda: board_size([]), InvalidInput, r"unknown difficulty \[\]"),
        (lambda: board_size(array), InvalidInput, "unknown difficulty"),
        (lambda: default_first_click(array), WrongType, "rules is the name of a first-click"),
        (lambda: record_autoplay(9, 9, 10, seed=3, rules=array), WrongType, "rules is the name"),
        (lambda: record_autoplay(9, 9, 10, seed=3, clock="x"), WrongType, "clock is a function"),
        (lambda: Replay(board, (), rules=array), InvalidInput, "unknown rules"),
        (lambda: OpeningBook.named(array), InvalidInput, "no book named"),
        (lambda: _position().unknown_mask(array), WrongType, "ignore_flags is True or False"),
        (lambda: _position().mine_mask(array), WrongType, "ignore_flags is True or False"),
        (lambda: analyze_constraints(_position(), forced_only=array), WrongType, "forced_only"),
        (lambda: count_component(Problem.from_clues([((1, 0), 1, [(0, 0), (0, 1)])]),
                                 box_mines=array), WrongType, "box_mines is True or False"),
        (lambda: generate_no_guess(9, 9, 10, first_click=(4, 4), method=array), InvalidInput,
         "unknown method"),
        (lambda: generate_no_guess(9, 9, 10, first_click=(4, 4), use_mine_count=array),
         WrongType, "use_mine_count is True or False"),
        (lambda: solve_without_guessing(board, (1, 2), use_mine_count=array), WrongType,
         "use_mine_count is True or False"),
        (lambda: list(generate_many(9, 9, 10, 3, first_click=(4, 4), jobs=65)),
         InvalidInput, "--jobs takes 1 to 64"),
        (lambda: list(generate_many(9, 9, 10, 3, first_click=(4, 4), seed=None)),
         InvalidInput, "generate_many numbers its boards from a seed"),
    ]


def _strategy_logic_and_run_calls():
    import random

    import numpy as np

    from msanalysis.bitlogic import MovingPlay, play_by_logic, wins_by_logic
    from msanalysis.board import Board
    from msanalysis.files import write_file
    from msanalysis.play.bench import PlaySpec, bench, play_one, run_games
    from msanalysis.play.best import BestStrategy
    from msanalysis.play.book import OpeningBook
    from msanalysis.play.paper import PaperStrategy
    from msanalysis.play.safest import SafestStrategy
    from msanalysis.play.strategies import parse_option, parse_options
    from msanalysis.play.unavoidable import unavoidable_cells, unavoidable_structures

    array = np.array([1, 2])
    board = Board.from_text("*..\n...")
    spec = PlaySpec(9, 9, 10, strategy="paper")
    moving = lambda: MovingPlay(board, (1, 2))
    return [
        # Each was an AttributeError, TypeError, OSError or ValueError ("truth value of an
        # array is ambiguous", "not enough values to unpack") from inside.
        (lambda: BestStrategy().guess(None, _analysis()), WrongType,
         "^BestStrategy.guess takes a Position, got a NoneType"),
        (lambda: BestStrategy().ranked(_position(), "x"), WrongType,
         "^BestStrategy.ranked takes an Analysis, got a str"),
        (lambda: BestStrategy().considered(array, _analysis()), WrongType,
         "^BestStrategy.considered takes a Position, got a ndarray"),
        (lambda: BestStrategy().choose(_position(), None), WrongType,
         "^BestStrategy.choose takes an Analysis, got a NoneType"),
        (lambda: BestStrategy().endgame_search(array), InvalidInput,
         "solutions must be a whole number"),
        (lambda: SafestStrategy().guess(_position(), []), WrongType,
         "^SafestStrategy.guess takes an Analysis, got a list"),
        (lambda: SafestStrategy().choose("?1", _analysis()), WrongType,
         "^SafestStrategy.choose takes a Position, got a str"),
        (lambda: PaperStrategy(seed=0).choose(None), WrongType,
         "^PaperStrategy.choose takes a Position, got a NoneType"),
        (lambda: unavoidable_cells(3), WrongType, "^unavoidable_cells takes an Analysis"),
        (lambda: unavoidable_structures(None), WrongType, "^unavoidable_structures takes an"),
        (lambda: play_by_logic("x", (1, 2)), WrongType,
         r"^play_by_logic takes a Board or \(height, width, mines\), got a str"),
        (lambda: wins_by_logic(board, None), InvalidInput, "a cell is a pair of whole numbers"),
        (lambda: play_by_logic(board, (1, 2), None), InvalidInput,
         "max_grade is a grade from 1 to 4, got None"),
        (lambda: wins_by_logic(board, (1, 2), array), InvalidInput, "max_grade is a grade"),
        (lambda: wins_by_logic(board, (1, 2), hopeless=3), WrongType,
         "wins_by_logic's hopeless is a function, got 3"),
        (lambda: play_by_logic((2, 3.0, [0]), (1, 2)), InvalidInput,
         "a board's width must be a whole number"),
        (lambda: play_by_logic((2, 3, [1.5]), (1, 2)), WrongType,
         "a board's mines are the row-major numbers of its mine cells"),
        (lambda: wins_by_logic((2, 3, None), (1, 2)), WrongType, "a board's mines are"),
        (lambda: MovingPlay(None, (1, 2)), WrongType, "^MovingPlay takes a Board or"),
        (lambda: moving().move_mines(None), WrongType,
         "^MovingPlay.move_mines takes a Random, got a NoneType"),
        (lambda: moving().move_mines(random.Random(0), 5), WrongType,
         "protected is a list of cells, got 5"),
        (lambda: OpeningBook(None), WrongType, "^OpeningBook takes a dict, got a NoneType"),
        (lambda: OpeningBook({"?": 1}), WrongType, "a book's entries are position text -> Entry"),
        (lambda: OpeningBook({}, array), WrongType, "a book's about is a dict"),
        (lambda: OpeningBook({}).guess("?1"), WrongType, "^OpeningBook.guess takes a Position"),
        (lambda: OpeningBook.load(None), WrongType, "a file's path is a str or a pathlib.Path"),
        (lambda: bench(spec, 1, dask=1.5), WrongType,
         "dask is a Dask scheduler's address or a distributed.Client, got a float"),
        (lambda: list(run_games(spec, 1, dask=[])), WrongType, "dask is a Dask scheduler's"),
        (lambda: bench(spec, 1, replays=3), WrongType, "replays is a folder's path"),
        (lambda: list(run_games(spec, 1, replays=array)), WrongType, "replays is a folder's"),
        (lambda: play_one(spec, 0, replays=1.5), WrongType, "replays is a folder's path"),
        (lambda: play_one(spec, 0, replays=__file__), InvalidInput, "is a file, not a folder"),
        (lambda: bench(spec, 1, on_result="x"), WrongType,
         "bench's on_result is a function, got 'x'"),
        (lambda: board.bbbv_solved(None), WrongType,
         r"revealed is a boolean array of the board's shape \(2, 3\), got a NoneType"),
        (lambda: board.bbbv_solved(np.zeros((3, 3), bool)), WrongType,
         r"got an array of bool of shape \(3, 3\)"),
        (lambda: PlaySpec.standard("beginner", first_click=1.5), InvalidInput,
         "a cell is a pair of whole numbers"),
        (lambda: write_file(__file__ + ".never-written", None), WrongType,
         "write_file writes a str or bytes, got a NoneType"),
        (lambda: write_file("a\0b", ""), InvalidInput, "a file's path has no NUL character"),
        (lambda: OpeningBook.load("a\0b"), InvalidInput, "a file's path has no NUL character"),
        (lambda: parse_option(None), WrongType, "^parse_option takes a str, got a NoneType"),
        (lambda: parse_options(5), WrongType, "options are a list of name=value words, got 5"),
        (lambda: parse_options(array), WrongType, "^parse_option takes a str, got an int64"),
    ]


@pytest.mark.parametrize("index", range(len(_play_calls())))
def test_the_play_layer_names_a_wrong_argument(index):
    call, kind, message = _play_calls()[index]
    with pytest.raises(kind, match=message):
        call()


@pytest.mark.parametrize("index", range(len(_face_and_name_calls())))
def test_faces_names_and_flags_name_a_wrong_argument(index):
    call, kind, message = _face_and_name_calls()[index]
    with pytest.raises(kind, match=message):
        call()


@pytest.mark.parametrize("index", range(len(_strategy_logic_and_run_calls())))
def test_strategies_logic_books_and_runs_name_a_wrong_argument(index):
    call, kind, message = _strategy_logic_and_run_calls()[index]
    with pytest.raises(kind, match=message):
        call()


@pytest.mark.parametrize("value, kind", [(None, "a NoneType"), (42, "an int")])
def test_a_number_grid_of_the_wrong_kind_is_a_type_error(value, kind):
    # It was an InvalidInput alone ("got a int"), where the other wrong kinds are WrongTypes.
    from msanalysis.numbergrid import NumberGrid
    from msanalysis.reconstruction import reconstruct

    for make in (NumberGrid, reconstruct):
        with pytest.raises(WrongType, match=f"a number grid needs rows of numbers, got {kind}$"):
            make(value)
