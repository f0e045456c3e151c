"""The tracker against analyze() after every click, and against brute force on small boards."""

import random

import numpy as np
import pytest

from msanalysis.analysis import analyze_constraints as analyze
from msanalysis.board import Board
from msanalysis.errors import IllegalMove, InconsistentPosition, InvalidInput
from msanalysis.game import Game
from msanalysis.position import HIDDEN, Position
from msanalysis.rules import generate
from msanalysis.tracker import COMPONENT, MINE_COUNT, PAIR, SINGLE, Tracker
from reference import enumerate_layouts


def same_as_analyze(tracker: Tracker) -> None:
    position = tracker.position
    expected = analyze(position, ignore_flags=tracker.ignore_flags)
    safe, mines = tracker.forced
    assert (safe, mines) == (expected.forced_safe, expected.forced_mines), position.to_text()
    analysis = tracker.analysis
    assert analysis.solutions == expected.solutions
    assert tracker.probabilities() == expected.counts.probabilities()
    assert np.array_equal(analysis.probabilities, expected.probabilities, equal_nan=True)
    assert analysis.requires_guess == expected.requires_guess
    assert analysis.best_guess == expected.best_guess
    # The whole position's counts, made from the tracker's own (what the strategies read).
    counts, counted = analysis.counts, expected.counts
    assert analysis.constraints.components == counted.constraints.components
    assert (counts.solutions, counts.box_mines, counts.sea_mines, counts.components) == (
        counted.solutions, counted.box_mines, counted.sea_mines, counted.components)


def play(tracker: Tracker, rng: random.Random, *, flags: float = 0.0, steps: int | None = None,
         check=same_as_analyze) -> int:
    """Reveal a proven safe cell when there is one, else a random safe cell; sometimes flag a
    mine. Check after every click; returns the clicks checked."""
    board = tracker.board
    clicks = 0
    while tracker.status == "playing" and (steps is None or clicks < steps):
        check(tracker)
        clicks += 1
        safe, _ = tracker.forced
        if safe:
            tracker.reveal(min(safe))
            continue
        hidden = sorted(tracker.position.hidden)
        if rng.random() < flags:
            tracker.flag(rng.choice([c for c in hidden if board.is_mine(c)]))
            continue
        tracker.reveal(rng.choice([c for c in hidden if not board.is_mine(c)]))
    return clicks


@pytest.mark.parametrize("size, games", [((9, 9, 10), 12), ((16, 16, 40), 3), ((30, 16, 99), 1)])
def test_equals_analyze_after_every_click(size, games):
    width, height, mines = size
    for seed in range(games):
        board = generate(width, height, mines, rules="safe-cell", first_click=(0, 0), seed=seed)
        tracker = Tracker(board, (0, 0))
        assert play(tracker, random.Random(seed), flags=0.1) > 0


def test_equals_analyze_on_a_large_board():
    board = generate(100, 100, 2000, rules="safe-opening", first_click=(50, 50), seed=3)
    tracker = Tracker(board, (50, 50))
    assert play(tracker, random.Random(3), steps=4) == 4


def test_follows_a_game_like_its_own_play():
    board = generate(16, 16, 40, rules="safe-cell", first_click=(0, 0), seed=8)
    game = Game(board)
    game.reveal((0, 0))
    followed, own = Tracker.from_game(game), Tracker(board, (0, 0))
    rng = random.Random(8)
    while game.status == "playing":
        assert followed.position == own.position == game.position()
        assert followed.forced == own.forced
        safe, mines = own.forced
        if mines and rng.random() < 0.3:
            cell = min(mines)
            followed.flag(cell)
            own.flag(cell)
            if rng.random() < 0.5:  # chord around a number next to the flag
                numbers = [c for c in own.position.revealed
                           if abs(c[0] - cell[0]) <= 1 and abs(c[1] - cell[1]) <= 1]
                if numbers:
                    assert followed.chord(numbers[0]) == own.chord(numbers[0])
            continue
        cell = min(safe) if safe else min(c for c in own.position.hidden if not board.is_mine(c))
        assert followed.reveal(cell) == own.reveal(cell)
    assert followed.status == own.status == game.status


def test_unflag_and_wrong_flags():
    board = generate(9, 9, 10, rules="safe-opening", first_click=(4, 4), seed=4)
    tracker = Tracker(board, (4, 4))
    safe_hidden = [c for c in tracker.position.hidden if not board.is_mine(c)]
    wrong = safe_hidden[0]
    tracker.flag(wrong)
    try:
        expected = analyze(tracker.position).forced_safe
    except InconsistentPosition:
        with pytest.raises(InconsistentPosition):
            _ = tracker.forced
    else:
        assert tracker.forced[0] == expected
    tracker.unflag(wrong)
    same_as_analyze(tracker)
    ignoring = Tracker(board, (4, 4), ignore_flags=True)
    ignoring.flag(wrong)
    same_as_analyze(ignoring)


def test_against_brute_force_on_small_boards():
    sizes = [(4, 4, 3), (5, 5, 5), (6, 5, 6), (7, 5, 8), (8, 6, 10), (6, 6, 9)]

    def brute(tracker: Tracker) -> None:
        position = tracker.position
        if len(position.hidden) + len(position.flags) > 18:
            return
        reference = enumerate_layouts(position, ignore_flags=tracker.ignore_flags)
        safe, mines = tracker.forced
        assert (safe, mines) == (reference.forced_safe, reference.forced_mines)
        assert tracker.analysis.solutions == reference.solutions
        probabilities = tracker.probabilities()
        for cell in reference.unknown:
            assert probabilities[cell] == reference.probability(cell), (position, cell)

    for seed in range(40):
        width, height, mines = sizes[seed % len(sizes)]
        rng = random.Random(seed)
        first = (rng.randrange(height), rng.randrange(width))
        board = generate(width, height, mines, rules="safe-cell", first_click=first, seed=seed)
        tracker = Tracker(board, first, ignore_flags=seed % 5 == 0)
        play(tracker, rng, flags=0.2, check=brute)


def test_steps_come_cheapest_first():
    # A 1 with two hidden cells, one of which a 0-free 1 pins down: each grade in turn.
    tracker = Tracker(Board.from_text("*...\n....\n...*"), (0, 3))
    step = tracker.step()
    assert step.grade == PAIR and step.safe == ((2, 0), (2, 1), (2, 2))
    step = tracker.step()
    assert step.grade == SINGLE and step.mines == ((2, 3),)
    assert tracker.step() is None
    # The 1, 2 and 1 of the corner together, no two of them.
    tracker = Tracker(Board.from_text("..*..\n.....\n*...*\n....."), (0, 0))
    step = tracker.step()
    assert step.grade == COMPONENT and step.safe == ((2, 2),)
    # A 3 in the middle of 3 mines: only the count says that the far cells are safe.
    tracker = Tracker(Board.from_text(".....\n..*..\n.*.*.\n.....\n....."), (2, 2))
    assert tracker.step(max_grade=COMPONENT) is None
    step = tracker.step()
    assert step.grade == MINE_COUNT and len(step.safe) == 16 and step.mines == ()


def test_moves_and_errors():
    board = Board.from_text("*..\n...\n...")
    tracker = Tracker(board)
    assert tracker.position.hidden == frozenset(tracker.position.cells())
    with pytest.raises(IllegalMove, match="off the"):
        tracker.reveal((5, 0))
    assert tracker.reveal((0, 0)) == [(0, 0)] and tracker.status == "lost"
    assert tracker.exploded == (0, 0) and tracker.position.is_lost
    expected = analyze(tracker.position)
    assert tracker.forced == (expected.forced_safe, expected.forced_mines)
    with pytest.raises(IllegalMove, match="over"):
        tracker.reveal((1, 1))
    moved = Tracker(board, (0, 0), rules="windows-xp")
    assert moved.status == "playing" and moved.board.is_mine((0, 1))
    assert (moved.position.states == HIDDEN).sum() < 9


def test_perturb_moves_mines_and_keeps_the_count():
    board = generate(30, 16, 170, rules="safe-opening", first_click=(3, 3), seed=1)
    tracker = Tracker(board, (3, 3))
    while tracker.step() is not None:
        tracker.reveal_safe()
    assert tracker.status == "playing"
    assert tracker.perturb(random.Random(1), [(3, 3)])
    moved = tracker.board
    assert moved.mine_count == 170 and moved != board
    revealed = tracker.position.states >= 0
    assert not moved.mask[revealed].any()
    assert (tracker.position.states[revealed] == moved.numbers[revealed]).all()
    same_as_analyze(tracker)


def test_whole_counts_come_from_the_tracker():
    # Proven cells join the tracker's components into the position's: the counts made from the
    # tracker's parts equal counting the position again, and most positions need no counting.
    from msanalysis.constraints import build
    from msanalysis.joining import count

    made = merged = 0
    for seed in range(3):
        board = generate(30, 16, 99, rules="safe-cell", first_click=(0, 0), seed=seed)
        tracker, rng = Tracker(board, (0, 0)), random.Random(seed)
        while tracker.status == "playing":
            constraints = build(tracker.position)
            ours = tracker._whole_count(constraints)
            if ours is not None:
                made += 1
                merged += len(constraints.components) < len(tracker._components)
                counted = count(constraints)
                assert (ours.solutions, ours.box_mines, ours.sea_mines, ours.components) == (
                    counted.solutions, counted.box_mines, counted.sea_mines, counted.components)
            safe, _ = tracker.forced
            if safe:
                tracker.reveal(min(safe))
                continue
            tracker.reveal(rng.choice([c for c in sorted(tracker.position.hidden)
                                       if not board.is_mine(c)]))
    assert made > 100 and merged > 0


def test_a_tracker_catches_up_with_moves_made_on_its_game():
    # Moves made on the game directly, not through the tracker: the tracker notices and reads
    # the position again, so that it agrees with an analysis from scratch after every move.
    game = Game.started(16, 16, 40, first_click=(0, 0), seed=3)
    tracker = Tracker.from_game(game)
    rng = random.Random(3)
    for _ in range(12):
        hidden = sorted(game.position().hidden)
        safe = [cell for cell in hidden if not game.board.is_mine(cell)]
        if not safe or game.status != "playing":
            break
        cell = rng.choice(safe)
        if rng.random() < 0.3:
            game.flag(rng.choice(hidden))
        else:
            game.reveal(cell)
        assert tracker.position == game.position()
        assert tracker.forced == (analyze(game.position()).forced_safe,
                                  analyze(game.position()).forced_mines)
    tracker.reveal_safe()  # and moves through it go on from there
    assert tracker.position == game.position()


def test_a_tracker_plays_like_its_game_with_flags():
    # As in a game, more flags than mines may be placed; the analysis then says a flag is wrong.
    tracker = Tracker(Board.from_text("*.\n.*\n.."), first_click=(2, 0))
    for cell in [(0, 0), (0, 1), (1, 1)]:
        tracker.flag(cell)
    assert tracker.flags_placed == 3
    with pytest.raises(InconsistentPosition, match="the flags outnumber the mines"):
        _ = tracker.analysis


def test_a_tracker_without_a_layout_says_it_cannot_play():
    tracker = Tracker.from_position(Position.from_text("mines: 1\n??\n11"))
    for play in (lambda: tracker.reveal((0, 0)), lambda: tracker.board,
                 tracker.reveal_safe, lambda: tracker.step(reveal=True)):
        with pytest.raises(IllegalMove, match="from a position alone"):
            play()


@pytest.mark.parametrize("mines, message", [
    ([-1], r"numbered 0 to 8 on a 3x3 board, got -1"),
    ([9], "got 9"),
    ([2, 2], "two mines are dealt to one cell"),
    ([1.5], "must be a whole number"),
])
def test_a_dealt_layout_is_checked(mines, message):
    with pytest.raises(InvalidInput, match=message):
        Tracker.dealt(3, 3, mines)


@pytest.mark.parametrize("grade", [0, -1, 5, "3"])
def test_a_step_takes_a_grade_from_1_to_4(grade):
    with pytest.raises(InvalidInput, match="max_grade is a grade from 1 to 4"):
        Tracker(Board.from_text("*.\n.."), first_click=(1, 1)).step(grade)


@pytest.mark.parametrize("follow", [False, True])
def test_revealing_a_cell_a_wrong_flag_called_a_mine(follow):
    # The flag on (0, 0) is wrong; with it the 1s and the count prove (0, 4) a mine. Revealing
    # it shows the truth: the tracker reads the position again (it used to fail an assertion)
    # and then says, as analyze does, that a flag is wrong.
    board = Board.from_text("..*...*")
    if follow:
        game = Game(board)
        game.reveal((0, 1))
        game.reveal((0, 3))
        tracker = Tracker.from_game(game)
    else:
        tracker = Tracker(board, (0, 1))
        tracker.reveal((0, 3))
    tracker.flag((0, 0))
    assert tracker.forced[1] == {(0, 4)}
    assert tracker.reveal((0, 4)) == [(0, 4), (0, 5)]
    assert tracker.position.to_text() == "mines: 2\nF1?1.1?"
    with pytest.raises(InconsistentPosition, match="the flag at"):
        _ = tracker.forced
    with pytest.raises(InconsistentPosition):
        analyze(tracker.position)
    if not follow:
        with pytest.raises(IllegalMove, match="a flag is wrong"):
            tracker.perturb(random.Random(0))


@pytest.mark.parametrize("how", ["reveal_safe", "step"])
def test_revealing_a_cell_a_wrong_flag_called_safe_loses(how):
    # The flag on (1, 0) is wrong: with it the 1 at (0, 1) proves the mine at (0, 0) safe.
    # Clicking it loses, as in a game (the tracker used to show the mine as a 0 and win).
    board = Board.from_text("*..\n...\n..*")
    tracker = Tracker(board, (0, 2))
    tracker.flag((1, 0))
    if how == "step":
        step = tracker.step(reveal=True)
        assert step is not None and step.safe == ((0, 0),)
    else:
        assert tracker.forced[0] == {(0, 0), (2, 0)}
        assert tracker.reveal_safe() == 1
    game = Game(board)
    game.reveal((0, 2))
    game.flag((1, 0))
    game.reveal((0, 0))
    assert (tracker.status, tracker.exploded) == ("lost", (0, 0)) == (game.status, game.exploded)
    assert tracker.position == game.position()


def test_clicks_by_proof_never_show_a_mine_as_a_number():
    # Random flags, right and wrong, then cells revealed as they are proven: every cell shown
    # is the board's, and a mine clicked loses the game.
    checked = lost = 0
    for seed in range(300):
        rng = random.Random(seed)
        board = generate(6, 5, 7, rules="safe-cell", first_click=(2, 2), seed=seed)
        tracker = Tracker(board, (2, 2))
        for cell in rng.sample(sorted(tracker.position.hidden), rng.randint(0, 3)):
            tracker.flag(cell)
        try:
            if seed % 2:
                _ = tracker.forced  # proves what reveal_safe reveals
                tracker.reveal_safe()
            while tracker.status == "playing" and tracker.step(reveal=True):
                pass
        except InconsistentPosition:
            pass  # the wrong flags leave no layout: said, as analyze says it
        shown = tracker.position.states >= 0
        assert not (shown & board.mask).any(), seed
        assert (tracker.position.states[shown] == board.numbers[shown]).all(), seed
        lost += tracker.status == "lost"
        assert (tracker.exploded is not None) == (tracker.status == "lost")
        checked += 1
    assert checked == 300 and lost > 0


@pytest.mark.parametrize("follow", [False, True])
def test_an_analysis_kept_answers_for_its_own_position(follow):
    # An analysis read after its tracker moved on answers for the position it was made of,
    # whether the move went through the tracker or straight to the game it follows, and
    # whether a count was read before the move or not.
    for seed in range(20):
        game = Game.started(9, 9, 10, rules="safe-opening", first_click=(4, 4), seed=seed)
        tracker = Tracker.from_game(game) if follow else Tracker(game.board, (4, 4))
        analysis = tracker.analysis
        if not analysis.forced_safe:
            continue
        if seed % 2:
            _ = analysis.solutions
        (game if follow else tracker).reveal(min(analysis.forced_safe))
        expected = analyze(analysis.position)
        assert analysis.solutions == expected.solutions
        for cell in sorted(analysis.position.hidden):
            assert analysis.exact_probability(cell) == expected.exact_probability(cell)


def test_a_tracker_of_a_position_has_no_exploded_mine():
    assert Tracker.from_position(Position.from_text("mines: 1\n??\n11")).exploded is None
