"""Winning without a guess, checked against logic by brute-force enumeration."""


import numpy as np
import pytest
from typer.testing import CliRunner

from msanalysis.board import Board
from msanalysis.cli import app
from msanalysis.errors import (
    AnalysisTooHard,
    IllegalMove,
    InvalidInput,
    TimeLimitReached,
    WrongType,
)
from msanalysis.game import Game
from msanalysis.play.noguess import (
    generate,
    generate_many,
    generate_no_guess,
    solve_without_guessing,
)
from msanalysis.position import Position
from msanalysis.tracker import Tracker
from reference import enumerate_layouts


def solvable_by_enumeration(board: Board, click) -> bool:
    """Reveal what every layout agrees is safe, using the slow reference, until stuck."""
    game = Game(board)
    game.reveal(click)
    while game.status == "playing":
        safe = enumerate_layouts(game.position()).forced_safe
        if not safe:
            return False
        for cell in sorted(safe):
            if game.status == "playing":
                game.reveal(cell)
    return game.status == "won"


def test_agrees_with_enumeration_on_small_boards():
    verdicts = []
    for seed in range(60):
        board = generate(4, 4, 3, rules="safe-cell", first_click=(0, 0), seed=seed)
        expected = solvable_by_enumeration(board, (0, 0))
        assert solve_without_guessing(board, (0, 0)).solvable == expected, seed
        verdicts.append(expected)
    assert any(verdicts) and not all(verdicts)  # both answers were exercised


def test_stuck_position_is_where_no_cell_is_forced():
    result = solve_without_guessing(Board.from_text("*.\n.."), (1, 1))
    assert not result.solvable and result.rounds == 1 and result.revealed == 1


def test_no_guess_rule_is_reproducible_and_solvable():
    a = generate(16, 16, 40, rules="no-guess", first_click=(3, 3), seed=5)
    assert a == generate(16, 16, 40, rules="no-guess", first_click=(3, 3), seed=5)
    assert a.mine_count == 40 and a.numbers[3, 3] == 0
    assert solve_without_guessing(a, (3, 3)).solvable


def test_no_guess_gives_up_with_a_clear_error():
    # 3x3 opening in the corner of a 4x4 board leaves 12 cells for 11 mines: never solvable.
    # Running out of attempts is a bound hit (exit status 3 on the command line).
    with pytest.raises(AnalysisTooHard, match=r"without a guess .* in 5 attempts"):
        generate_no_guess(4, 4, 11, first_click=(0, 0), seed=0, attempts=5)


@pytest.mark.parametrize("method", ["reject", "adjust"])
def test_a_grade_no_board_can_have_is_said(method):
    # Without mines, or with every safe cell in the first click's block, the first click wins
    # every board: no grade 1 to 4 can be found, and the message says why (it drew 100,000
    # layouts, then said "try another grade").
    for width, height, mines in ((8, 8, 0), (9, 9, 72)):
        with pytest.raises(InvalidInput, match=r"is won by its first click \(4, 4\) alone"):
            generate_no_guess(width, height, mines, first_click=(4, 4), seed=0, grade=1,
                              method=method)
    # Layouts that happened to be won at once say only that.
    with pytest.raises(AnalysisTooHard, match=r"the 2 layouts of 2 mines on 9x9 drawn were won "
                                              r"by the first click \(4, 4\) alone.* try more "
                                              "attempts"):
        generate_no_guess(9, 9, 2, first_click=(4, 4), seed=0, grade=1, method=method,
                          attempts=2)


def test_a_board_too_large_to_set_up_in_the_time_limit_is_refused_at_once():
    # Setting them up took 40 s and 30 s, past limits of 5 s and 1 s.
    with pytest.raises(TimeLimitReached, match="setting up a 1x10000000 board would run past"):
        generate_no_guess(1, 10_000_000, 1_000_000, first_click=(0, 0), seed=0, time_limit=5)
    with pytest.raises(TimeLimitReached, match="setting up a tracker of a 3000x3000 board"):
        Tracker(Board(np.zeros((3000, 3000), dtype=bool)), time_limit=1)


def test_solvable_command(tmp_path):
    runner = CliRunner()
    path = tmp_path / "b.txt"
    path.write_text("*...\n....\n....\n...*\n")
    result = runner.invoke(app, ["solvable", str(path), "--first-click", "1,2", "--json"])
    assert result.exit_code == 0 and '"solvable": true' in result.stdout
    path.write_text("*.\n..\n")
    result = runner.invoke(app, ["solvable", str(path), "--first-click", "1,1"])
    assert result.exit_code == 1 and "not solvable" in result.stdout


def test_grade_is_the_weakest_reasoning_that_wins():
    from msanalysis.play.noguess import _solve
    from msanalysis.tracker import Tracker

    grades = set()
    for seed in range(40):
        board = generate(9, 9, 10, rules="safe-opening", first_click=(4, 4), seed=seed)
        result = solve_without_guessing(board, (4, 4), rules="safe-opening")
        if not result.solvable:
            continue
        grades.add(result.grade)
        # Reasoning up to the grade wins; anything weaker stops.
        for top, wins in ((result.grade, True), (result.grade - 1, False)):
            tracker = Tracker(board, rules="safe-opening")
            tracker.reveal((4, 4))
            if top >= 1:
                assert _solve(tracker, top).solvable == wins, (seed, top)
        assert result.hardest_cells and result.hardest_step < result.rounds
    assert {1, 2} <= grades


def test_without_the_mine_count_is_stricter():
    counts = [0, 0]
    for seed in range(60):
        board = generate(8, 8, 12, rules="safe-opening", first_click=(3, 3), seed=seed)
        with_count = solve_without_guessing(board, (3, 3), rules="safe-opening")
        without = solve_without_guessing(board, (3, 3), rules="safe-opening",
                                         use_mine_count=False)
        assert not without.solvable or with_count.solvable
        assert without.grade <= 3
        counts[0] += with_count.solvable
        counts[1] += without.solvable
    assert counts[0] > counts[1]


def test_swappable_pairs_never_reject_a_winnable_board():
    from msanalysis.play.noguess import _swappable_pair

    caught = 0
    for seed in range(150):
        board = generate(9, 9, 12, rules="safe-opening", first_click=(4, 4), seed=seed)
        if _swappable_pair(board.mask, (4, 4)):
            caught += 1
            assert not solvable_by_enumeration_opening(board, (4, 4)), seed
    assert caught > 0


def solvable_by_enumeration_opening(board, click):
    game = Game(board, rules="safe-opening")
    game.reveal(click)
    while game.status == "playing":
        position = game.position()
        if len(position.hidden) > 18:
            return solve_without_guessing(board, click, rules="safe-opening").solvable
        safe = enumerate_layouts(position).forced_safe
        if not safe:
            return False
        for cell in sorted(safe):
            if game.status == "playing":
                game.reveal(cell)
    return game.status == "won"


@pytest.mark.parametrize("method", ["reject", "adjust"])
def test_generated_boards_are_won_by_logic(method):
    for seed in range(3):
        board = generate_no_guess(16, 16, 40, first_click=(3, 3), seed=seed, method=method)
        assert board.mine_count == 40 and board.numbers[3, 3] == 0 and not board.mask[3, 3]
        assert solve_without_guessing(board, (3, 3), rules="safe-opening").solvable
        assert board == generate_no_guess(16, 16, 40, first_click=(3, 3), seed=seed,
                                          method=method)


def test_adjust_reaches_densities_rejection_cannot():
    board = generate_no_guess(16, 16, 80, first_click=(8, 8), seed=2, method="adjust")
    assert board.mine_count == 80
    assert solve_without_guessing(board, (8, 8), rules="safe-opening").solvable


def test_grade_asked_for():
    for grade in (1, 2, 3):
        board = generate_no_guess(9, 9, 10, first_click=(4, 4), seed=grade, grade=grade)
        assert solve_without_guessing(board, (4, 4), rules="safe-opening").grade == grade
    with pytest.raises(ValueError, match="grade"):
        generate_no_guess(9, 9, 10, first_click=(4, 4), grade=5)
    with pytest.raises(ValueError, match="method"):
        generate_no_guess(9, 9, 10, first_click=(4, 4), method="guess")


def test_generate_command_writes_checked_boards(tmp_path):
    runner = CliRunner()
    out = tmp_path / "boards"
    result = runner.invoke(app, ["generate", "--rules", "no-guess", "--difficulty", "beginner",
                                 "--count", "3", "--output-dir", str(out), "--seed", "4",
                                 "--method", "adjust", "--grade", "2"])
    assert result.exit_code == 0, result.output
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["board-0000.txt", "board-0001.txt", "board-0002.txt"]
    for f in files:
        check = solve_without_guessing(Board.load(f), (3, 3), rules="safe-opening")
        assert check.solvable and check.grade == 2
    result = runner.invoke(app, ["solvable", str(files[0]), "--first-click", "3,3", "--json"])
    assert result.exit_code == 0 and '"grade": 2' in result.stdout
    result = runner.invoke(app, ["generate", "--count", "2"])
    assert result.exit_code == 2 and "--output-dir" in result.output


def tracker_result(board, click, rules="safe-opening", use_mine_count=True):
    """The reference: the same play followed by a Tracker, click by click."""
    from msanalysis.play.noguess import _solve
    from msanalysis.tracker import COMPONENT, MINE_COUNT, Tracker

    tracker = Tracker(board, rules=rules)
    tracker.reveal(click)
    return _solve(tracker, MINE_COUNT if use_mine_count else COMPONENT)


def fields(result):
    return (result.solvable, result.grade, result.rounds, result.hardest_step,
            result.hardest_cells, result.revealed, result.position)


@pytest.mark.parametrize("width, height, mines, boards", [
    (9, 9, 10, 300), (16, 16, 40, 300), (30, 16, 99, 200), (8, 8, 12, 200), (30, 16, 130, 60)])
def test_bit_boards_play_as_the_tracker_does(width, height, mines, boards):
    # Every field: the verdict, the grade, the rounds, where the hardest reasoning was needed
    # and the cells it proved, the final position; with the mine count and without.
    grades = set()
    for seed in range(boards):
        board = generate(width, height, mines, rules="safe-opening", first_click=(3, 3),
                         seed=seed)
        for use_mine_count in (True, False):
            fast = solve_without_guessing(board, (3, 3), rules="safe-opening",
                                          use_mine_count=use_mine_count)
            slow = tracker_result(board, (3, 3), use_mine_count=use_mine_count)
            assert fields(fast) == fields(slow), (seed, use_mine_count)
            # The position made when read compares and hashes as the tracker's made at once.
            assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
            grades.add(fast.grade)
    assert {1, 2, 4} <= grades or width == 30


def test_bit_boards_under_every_first_click_rule():
    for seed in range(40):
        board = generate(9, 9, 10, rules="unsafe", first_click=(0, 0), seed=seed)
        for rules in ("windows-xp", "safe-cell", "unsafe"):
            for click in ((0, 0), (4, 4), (8, 8)):
                if board.is_mine(click) and rules != "windows-xp" and rules != "unsafe":
                    continue
                fast = solve_without_guessing(board, click, rules=rules)
                assert fields(fast) == fields(tracker_result(board, click, rules)), seed
    with pytest.raises(ValueError, match="off the"):
        solve_without_guessing(board, (9, 0))


def test_rejection_gives_the_boards_the_tracker_gave():
    # The same layouts drawn from the seed, each judged by the tracker as before.
    import random

    from msanalysis.play.noguess import _SafeOpening
    from msanalysis.tracker import Tracker

    def by_tracker(width, height, mines, seed, grade=None):
        draw = _SafeOpening(width, height, mines, (3, 3), random.Random(seed))
        while True:
            cells = draw.draw()
            if draw.pairs.found(cells):
                continue
            tracker = Tracker.dealt(height, width, cells)
            tracker.reveal((3, 3))
            result = tracker_result(tracker.board, (3, 3))
            if result.solvable and (grade is None or result.grade == grade):
                return tracker.board

    for width, height, mines, seeds, grade in ((9, 9, 10, 20, None), (16, 16, 40, 10, None),
                                               (30, 16, 99, 3, None), (9, 9, 10, 5, 2)):
        for seed in range(seeds):
            assert generate_no_guess(width, height, mines, first_click=(3, 3), seed=seed,
                                     grade=grade) == by_tracker(width, height, mines, seed,
                                                                grade), (width, seed)


@pytest.mark.parametrize("width, height, mines", [
    (9, 9, 10), (16, 16, 40), (30, 16, 99), (30, 16, 170), (100, 100, 2000), (100, 100, 20),
    (9, 9, 72), (5, 5, 0)])
def test_layouts_are_drawn_as_random_sample_draws_them(width, height, mines):
    # The draws made without Random.sample's method calls are its draws, from the same seed,
    # one layout after another (and it is used itself where it keeps a set of indices).
    import random

    from msanalysis.play.noguess import _SafeOpening

    for seed in range(30):
        draw = _SafeOpening(width, height, mines, (3, 3), random.Random(seed))
        rng = random.Random(seed)
        for _ in range(3):
            assert draw.draw() == rng.sample(draw.candidates, mines), seed


def test_swappable_pairs_are_found_as_cell_by_cell_looking_finds_them():
    import random

    from msanalysis.play.noguess import _SafeOpening

    def slow(mines, height, width, click):
        def around(r, c):
            return {(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b}

        def covered(r, c):
            return not (0 <= r < height and 0 <= c < width) or (r, c) in mines

        block = {(click[0] + a, click[1] + b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
        for m in mines:
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    s = (m[0] + dr, m[1] + dc)
                    if (dr or dc) and 0 <= s[0] < height and 0 <= s[1] < width \
                            and s not in mines and s not in block \
                            and all(covered(*c) for c in (around(*m) ^ around(*s)) - {m, s}):
                        return True
        return False

    found = 0
    for width, height, mines in ((9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20)):
        for seed in range(60):
            draw = _SafeOpening(width, height, mines, (3, 3), random.Random(seed))
            cells = draw.draw()
            layout = {(c // width, c % width) for c in cells}
            assert draw.pairs.found(cells) == slow(layout, height, width, (3, 3)), seed
            found += draw.pairs.found(cells)
    assert found


def test_large_boards_are_played_by_a_tracker_within_the_deadline(monkeypatch, tmp_path):
    # Bit boards take memory that grows with the square of the cells (5 GB at 400x400): a
    # board of more than 10,000 cells is played by a tracker, which proves the same cells.
    import itertools
    import time

    import msanalysis.play.noguess as noguess
    from msanalysis.errors import AnalysisTooHard

    def no_bit_boards(*args, **kwargs):
        raise AssertionError("a large board went to the bit boards")

    monkeypatch.setattr(noguess, "play_by_logic", no_bit_boards)
    monkeypatch.setattr(noguess, "wins_by_logic", no_bit_boards)
    board = generate(120, 120, 1500, rules="safe-opening", first_click=(60, 60), seed=1)
    result = solve_without_guessing(board, (60, 60), rules="safe-opening")
    assert fields(result) == fields(tracker_result(board, (60, 60)))
    # Every look at the clock a second later: the deadline is met inside the first layout.
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks))
    with pytest.raises(AnalysisTooHard, match=r"in the time limit \(0 layouts tried\)"):
        generate_no_guess(120, 120, 1500, first_click=(60, 60), seed=1, time_limit=3)
    path = tmp_path / "large.txt"
    path.write_text(board.to_text() + "\n")
    result = CliRunner().invoke(app, ["solvable", str(path), "--first-click", "60,60",
                                      "--rules", "safe-opening", "--time-limit", "0.5"])
    assert result.exit_code == 3
    assert result.stderr.startswith("error: the check for a guess ran past the time limit")


def test_a_first_click_that_opens_millions_of_cells_looks_at_the_clock(monkeypatch):
    # A first click opens most of a large sparse board: a tracker follows every cell of the
    # cascade in Python (10 s for a million cells), so it looks at the deadline as it goes.
    import msanalysis.tracker as tracker_module
    from msanalysis.errors import AnalysisTooHard

    board = Board.from_cells(300, 400, frozenset({(299, 399)}))
    looks = []

    def late(deadline):
        looks.append(deadline)
        return deadline is not None  # long past the deadline

    monkeypatch.setattr(tracker_module, "time_is_up", late)
    with pytest.raises(AnalysisTooHard, match=r"while a cascade was opened \(\d+ cells so far"):
        solve_without_guessing(board, (0, 0), time_limit=0.5)
    assert len(looks) == 1  # cascades of fewer cells than that never look
    monkeypatch.undo()
    assert solve_without_guessing(board, (0, 0), time_limit=None).solvable


def test_single_clues_followed_for_long_look_at_the_clock(monkeypatch):
    # One round of single clues on a board of millions of cells runs for minutes, its reveals
    # many cascades each too small to look at the clock: the round looks itself. Here every
    # 100 clues, on a board whose first click opens fewer cells than that.
    import msanalysis.tracker as tracker_module
    from msanalysis.errors import AnalysisTooHard

    board = generate(110, 110, 1500, first_click=(0, 0), rules="safe-opening", seed=0)
    monkeypatch.setattr(tracker_module, "_CELLS_BETWEEN_LOOKS", 100)
    monkeypatch.setattr(tracker_module, "time_is_up", lambda deadline: deadline is not None)
    with pytest.raises(AnalysisTooHard, match=r"while single clues were followed \(100 clues "):
        solve_without_guessing(board, (0, 0), time_limit=60)
    monkeypatch.undo()
    assert solve_without_guessing(board, (0, 0), time_limit=None).revealed > 10_000  # no clock


def test_generation_checks_its_counts_before_it_remembers_a_size():
    # The cells a size leaves for mines are remembered by the arguments: an equal 3.0 after 3
    # found 3's and failed deep inside the draw; a list could not be looked up at all.
    generate_no_guess(9, 9, 3, first_click=(4, 4), seed=1)
    for mines in (3.0, np.float64(3), True, []):
        with pytest.raises(InvalidInput, match="the mine count must be a whole number"):
            generate_no_guess(9, 9, mines, first_click=(4, 4), seed=1)
    assert generate_no_guess(9, 9, np.int64(3), first_click=(4, 4), seed=1).mine_count == 3
    with pytest.raises(InvalidInput, match="the grade must be a whole number"):
        generate_no_guess(9, 9, 10, first_click=(4, 4), grade=[])
    for options in ({"count": None}, {"count": 1.5}, {"count": 2, "jobs": None},
                    {"count": 2, "jobs": 1.5}):
        with pytest.raises(InvalidInput, match="must be a whole number"):
            next(generate_many(5, 5, 3, first_click=(2, 2), **options))


def test_solve_without_guessing_checks_its_arguments_first():
    board = Board.from_text("*..\n...\n...")
    with pytest.raises(InvalidInput, match="unknown"):
        solve_without_guessing(board, (2, 2), rules="bogus")  # also on a small board
    with pytest.raises(WrongType, match="solve_without_guessing takes a Board"):
        solve_without_guessing(Position.from_text("mines: 1\n??"), (0, 0))
    with pytest.raises(IllegalMove, match=r"cell \(-1, 2\) is off the 3x3 board"):
        solve_without_guessing(board, (-1, 2))
    assert solve_without_guessing(board, [np.int64(2), 2]).solvable
    # A time limit is seconds, as analyze's and reconstruct's are.
    for seconds in (0, -2, float("nan"), "3"):
        with pytest.raises(InvalidInput, match="a time limit is a positive number of seconds"):
            solve_without_guessing(board, (2, 2), time_limit=seconds)
        with pytest.raises(InvalidInput, match="a time limit is a positive number of seconds"):
            generate_no_guess(9, 9, 10, first_click=(4, 4), seed=1, time_limit=seconds)
    assert solve_without_guessing(board, (2, 2), time_limit=5).solvable
    assert generate_no_guess(9, 9, 10, first_click=(4, 4), seed=1, time_limit=5) == \
        generate_no_guess(9, 9, 10, first_click=(4, 4), seed=1)


@pytest.mark.parametrize("width, height, mines, click, seeds", [
    (30, 16, 130, (8, 15), 6), (30, 16, 170, (0, 0), 4), (16, 16, 60, (15, 3), 8),
    (9, 9, 30, (4, 4), 10)])
def test_moving_mines_on_bit_boards_follows_the_tracker(width, height, mines, click, seeds):
    # MovingPlay against Tracker.perturb, the reference it stands in for: after every round of
    # logic the same cells revealed and proved, after every move the same layout.
    import random

    from msanalysis.bitlogic import MovingPlay
    from msanalysis.tracker import Tracker

    row, col = click
    protected = [(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)]
    moves = 0
    for seed in range(seeds):
        board = generate(width, height, mines, rules="safe-opening", first_click=click,
                         seed=seed)
        tracker = Tracker(board, rules="safe-opening")
        tracker.reveal(click)
        play = MovingPlay(board, click)
        by_tracker, by_bits = random.Random(seed), random.Random(seed)
        for _ in range(40):
            while tracker.status == "playing" and tracker.step(reveal=True) is not None:
                pass
            won = play.settle()
            assert won == (tracker.status == "won"), seed
            assert play.hidden == tracker.position.hidden, seed
            if won:  # (the tracker's forced cells then take the last mines by the count)
                break
            assert play.proven_mines == tracker.forced[1], seed
            moved = tracker.perturb(by_tracker, protected)
            assert play.move_mines(by_bits, protected) == moved, seed
            if not moved:
                break
            moves += 1
            assert play.board == tracker.board, (seed, moves)
    assert moves > 3 * seeds


def test_moving_mines_makes_the_same_boards_on_bit_boards_as_by_tracker(monkeypatch):
    import msanalysis.play.noguess as noguess

    # Below the mine count's grade, the walls of an enclosure are the mines every grade
    # proves: a tracker's forced mines, which the bit boards ask a tracker of the position for.
    cases = [(30, 16, 150, (3, 3), None, True), (16, 16, 70, (0, 0), None, True),
             (9, 9, 25, (4, 4), 4, True), (9, 9, 25, (4, 4), 3, True),
             (16, 16, 50, (8, 8), 3, True),
             (16, 16, 70, (8, 8), 2, False), (9, 9, 30, (4, 4), None, False)]
    made = [[generate_no_guess(width, height, mines, first_click=click, seed=seed,
                               method="adjust", grade=grade, use_mine_count=count)
             for seed in range(5)]
            for width, height, mines, click, grade, count in cases]
    monkeypatch.setattr(noguess, "_BIT_BOARD_CELLS", 0)
    for (width, height, mines, click, grade, count), boards in zip(cases, made):
        for seed, board in enumerate(boards):
            assert board == generate_no_guess(width, height, mines, first_click=click,
                                              seed=seed, method="adjust", grade=grade,
                                              use_mine_count=count), (width, mines, seed)
            result = solve_without_guessing(board, click, rules="safe-opening",
                                            use_mine_count=count)
            assert result.solvable and (grade is None or result.grade == grade)


def test_moving_mines_from_a_corner_or_an_edge():
    # The first click's block reaches off the board there (it once raised "cell (-1, -1) is
    # off the board" from the tracker's moves).
    for click in ((0, 0), (8, 4), (4, 0)):
        board = generate_no_guess(9, 9, 30, first_click=click, seed=1, method="adjust")
        assert board.mine_count == 30
        assert solve_without_guessing(board, click, rules="safe-opening").solvable
    result = CliRunner().invoke(app, ["generate", "--width", "9", "--height", "9", "--mines",
                                      "30", "--rules", "no-guess", "--method", "adjust",
                                      "--first-click", "0,0", "--seed", "1"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("rules, click, message", [
    ("safe-cell", (0, 0), r"the first click \(0, 0\) is on a mine, which rules safe-cell never"),
    ("safe-opening", (1, 1), r"the first click \(1, 1\) has a mine beside it at \(0, 0\), which "
                             r"rules safe-opening never"),
    ("no-guess", (0, 0), r"the first click \(0, 0\) is on a mine, which rules no-guess never"),
])
def test_a_board_its_rules_could_not_deal_is_refused_not_judged(rules, click, message):
    board = Board.from_text("*..\n...\n...")
    with pytest.raises(InvalidInput, match=message):
        solve_without_guessing(board, click, rules=rules)
    # Rules that protect nothing of the board dealt judge it as before.
    assert not solve_without_guessing(board, (0, 0), rules="unsafe").solvable
    moved = solve_without_guessing(board, (0, 0), rules="windows-xp")  # the mine goes to (0, 1)
    assert moved.solvable and moved.position.to_text() == "mines: 1\n1?1\n111\n..."
