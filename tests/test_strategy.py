"""Tests for the play layer's strategies: moves, the autoplayer, paper, safest, best, endgame."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from msanalysis.analysis import analyze
from msanalysis.board import Board, neighbours
from msanalysis.errors import InvalidInput, WrongType
from msanalysis.game import Game
from msanalysis.play.autoplay import Move, Strategy, autoplay
from msanalysis.play.bench import PlaySpec, play_one
from msanalysis.play.best import BestStrategy
from msanalysis.play.endgame import Endgame
from msanalysis.play.outlook import Outlook
from msanalysis.play.paper import PaperStrategy, _enumerate, _frontier_groups, _propagate
from msanalysis.play.safest import SafestStrategy
from msanalysis.play.strategies import STRATEGIES, make_strategy
from msanalysis.position import Position
from reference import all_layouts, endgame_positions, enumerate_layouts, game_positions

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


def _replay(name: str, seed: int, width: int = 9, height: int = 9, mines: int = 10):
    """Play one game and return how it went with every move made."""
    game = Game.started(width, height, mines, first_click=(0, 0), seed=seed)
    moves = []
    played = autoplay(game, make_strategy(name, seed=seed), on_move=moves.append)
    return played, moves


def test_paper_games_replay_exactly():
    for seed in range(3):
        assert _replay("paper", seed, 16, 16, 40) == _replay("paper", seed, 16, 16, 40)


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
        with pytest.raises(InvalidInput, match="idle"):
            autoplay(Game.started(9, 9, 10, first_click=(0, 0), seed=0), strategy)

    class Wordy(Idle):
        def choose(self, position, analysis):
            return ["reveal"]

    with pytest.raises(WrongType, match="strategy 'idle' chose 'reveal', not a Move"):
        autoplay(Game.started(9, 9, 10, first_click=(0, 0), seed=0), Wordy())


# -- safest and best ---------------------------------------------------------------------------


def _needs_guess(position: Position) -> bool:
    if position.total_mines is None or position.is_lost:
        return False
    reference = enumerate_layouts(position)
    return (reference.solutions > 0 and not reference.forced_safe
            and len(reference.forced_mines) < len(reference.unknown))


GUESSES = [p for p in game_positions(700, start=1000) if _needs_guess(p)][:40]


def test_there_are_guess_positions_to_test():
    assert len(GUESSES) >= 10


@pytest.mark.parametrize("position", GUESSES)
def test_safest_takes_the_lowest_probability_first_row_major(position):
    reference = enumerate_layouts(position)
    (move,) = SafestStrategy(explain=True).choose(position, analyze(position))
    lowest = min(reference.mines[c] for c in reference.unknown)
    assert move.guess and move.explanation
    assert move.cell == min(c for c in reference.unknown if reference.mines[c] == lowest)


@pytest.mark.parametrize("position", GUESSES)
def test_outlook_counts_each_number_like_brute_force(position):
    # Independent check: reveal the cell as each number and enumerate the layouts again.
    reference = enumerate_layouts(position)
    outlook = Outlook(analyze(position))
    for cell in reference.unknown:
        if reference.mines[cell] == reference.solutions:
            continue
        outcomes = outlook.outcomes(cell)
        assert sum(o.layouts for o in outcomes) == reference.solutions - reference.mines[cell]
        for number, layouts, progress, safety in outcomes:
            states = position.states.copy()
            states[cell] = number
            after = enumerate_layouts(Position(states, position.total_mines))
            assert after.solutions == layouts
            assert progress == bool(after.forced_safe), (cell, number)
            if progress:
                assert safety == 1
            else:  # the safest next guess, up to the approximation for untouched components
                lowest = min(Fraction(after.mines[c], after.solutions) for c in after.unknown)
                assert 0 <= safety <= 1 and abs(safety - (1 - lowest)) < 0.2


def test_outlook_blends_the_two_safest_next_guesses_like_brute_force():
    # With blend b, a reveal that brings no progress is worth 1 - (r1 + b r2) / (1 + b) for the
    # two lowest mine probabilities r1 <= r2 of the cells left; exact when the reveal touches
    # every component (the others keep their old probabilities, an approximation).
    exact = 0
    for position in GUESSES:
        reference = enumerate_layouts(position)
        analysis = analyze(position)
        outlook = Outlook(analysis, blend=0.25)
        components = [set(component.cells) for component in analysis.constraints.components]
        for cell in reference.unknown:
            if reference.mines[cell] == reference.solutions:
                continue
            near = {cell, *neighbours(cell, *position.states.shape)}
            touches_all = all(near & component for component in components)
            for number, _, progress, safety in outlook.outcomes(cell):
                if progress:
                    continue
                states = position.states.copy()
                states[cell] = number
                after = enumerate_layouts(Position(states, position.total_mines))
                risks = sorted(after.probability(c) for c in after.unknown)
                r1, r2 = (risks * 2)[:2]  # with one cell left, its risk is both r1 and r2
                expected = 1 - (r1 + r2 / 4) / Fraction(5, 4)
                if touches_all:
                    exact += 1
                    assert safety == pytest.approx(float(expected)), (cell, number)
                else:
                    assert abs(safety - expected) < 0.2
    assert exact >= 20


def _reveals_beside_every_component(before_options, after_options):
    """Each number of each cell whose reveal touches every component of a guess position (where
    the look ahead's next guess is exact), as two Outlooks value it, with the position revealed
    that way enumerated again: (the Outcome before, the Outcome after, the enumeration, the
    cells it touches, the sea, the board's shape)."""
    for position in GUESSES:
        reference = enumerate_layouts(position)
        analysis = analyze(position)
        first, second = Outlook(analysis, **before_options), Outlook(analysis, **after_options)
        components = [set(component.cells) for component in analysis.constraints.components]
        sea = set(analysis.constraints.sea)
        for cell in reference.unknown:
            if reference.mines[cell] == reference.solutions:
                continue
            near = {cell, *neighbours(cell, *position.states.shape)}
            if not all(near & component for component in components):
                continue
            for before, outcome in zip(first.outcomes(cell), second.outcomes(cell), strict=True):
                assert before[:3] == outcome[:3]
                states = position.states.copy()
                states[cell] = outcome.number
                after = enumerate_layouts(Position(states, position.total_mines))
                yield before, outcome, after, near, sea, position.states.shape


def test_outlook_counts_a_lone_safe_cell_as_the_next_guess_like_brute_force():
    # With lone_safe, a reveal after which exactly one cell is safe is worth that cell blended
    # with the safest cell left, 1 - (0 + b r) / (1 + b); with two or more safe, 1 as before.
    # Exact where the reveal touches every component (as for the blend above).
    lone_cells = 0
    for before, outcome, after, _, sea, _ in _reveals_beside_every_component(
            {"blend": 0.25}, {"blend": 0.25, "lone_safe": True}):
        if not outcome.progress or len(after.forced_safe) > 1:
            assert outcome.safety == before.safety
        elif not after.forced_safe & sea:
            lone_cells += 1
            r = min(after.probability(c) for c in after.unknown if c not in after.forced_safe)
            won = r == 1  # the safe cell is the last: nothing but mines left
            assert outcome.safety == pytest.approx(1 if won else float(1 - r / 5)), outcome
    assert lone_cells >= 10


def test_outlook_counts_only_living_safe_cells_with_living_like_brute_force():
    # With living too, a safe cell whose unknown neighbours are all then settled (mines or safe
    # in every layout) is dead: one living safe cell is a lone one, none living is no progress
    # for the next guess's safety. Exact where the reveal touches every component.
    lone_cells = dead_only = 0
    for before, outcome, after, near, sea, shape in _reveals_beside_every_component(
            {"blend": 0.25, "lone_safe": True}, {"blend": 0.25, "lone_safe": True, "living": True}):
        safety = outcome.safety
        if not outcome.progress or after.forced_safe & (sea - near):  # or the whole sea safe
            assert safety == before.safety
            continue
        settled = after.forced_safe | after.forced_mines
        alive = [s for s in after.forced_safe
                 if any(n in after.unknown and n not in settled
                        for n in neighbours(s, *shape))]
        risks = sorted(after.probability(c) for c in after.unknown if c not in after.forced_safe)
        if len(alive) > 1 or not risks or risks[0] == 1:  # or nothing but mines left
            assert safety == 1
        elif alive:
            lone_cells += 1
            assert safety == pytest.approx(float(1 - risks[0] / 5)), outcome
        else:
            dead_only += 1
            r1, r2 = (risks * 2)[:2]  # with one cell left, its risk is both r1 and r2
            expected = 1 - (r1 + r2 / 4) / Fraction(5, 4)
            assert safety == pytest.approx(float(expected)), outcome
    assert lone_cells >= 10 and dead_only >= 1


def test_endgame_on_a_fifty_fifty():
    analysis = analyze(Position.from_text("mines: 1\n??\n11"))
    cell, chance = Endgame(analysis, 1000).best()
    assert chance == 0.5 and cell == (0, 0)


def _best_play(position: Position) -> float:
    """The chance of winning ``position`` with perfect play, by brute force over the game tree.

    Every layout is a :class:`Board`; a click shows what the board's numbers and a flood fill
    of its zeros show; any covered cell may be clicked, safe or not. Independent of Endgame.
    """
    boards = all_layouts(position)
    hidden = [tuple(map(int, c)) for c in zip(*np.nonzero(position.states == -1))]
    height, width = position.shape

    def opened(board: Board, cell) -> dict:
        seen, queue = {cell: int(board.numbers[cell])}, [cell]
        for r, c in queue:
            if board.numbers[r, c] == 0:
                for n in itertools.product(range(r - 1, r + 2), range(c - 1, c + 2)):
                    if 0 <= n[0] < height and 0 <= n[1] < width and n not in seen:
                        seen[n] = int(board.numbers[n])
                        queue.append(n)
        return seen

    def win(alive: tuple, revealed: frozenset) -> float:
        if len(alive) == 1:
            return 1.0
        best = 0.0
        for cell in hidden:
            if cell in revealed:
                continue
            groups: dict = {}
            for k in alive:
                if cell not in boards[k].mines:
                    seen = opened(boards[k], cell)
                    groups.setdefault(tuple(sorted(seen.items())), []).append(k)
            if not groups:
                continue  # a mine in every layout left
            chance = sum(len(g) * win(tuple(g), revealed | set(dict(seen)))
                         for seen, g in groups.items()) / len(alive)
            best = max(best, chance)
        return best

    return win(tuple(range(len(boards))), frozenset())


ENDGAMES = endgame_positions(25, needs_guess=_needs_guess)


@pytest.mark.parametrize("position", ENDGAMES)
def test_endgame_finds_the_best_play_of_brute_force(position):
    endgame = Endgame(analyze(position), 10_000)
    cell, chance = endgame.best()
    assert chance == pytest.approx(_best_play(position))
    # ... and clicking the chosen cell first reaches it.
    assert endgame._reveal(endgame.cells.index(cell), endgame.everything) == pytest.approx(chance)


@pytest.mark.parametrize("width, height, mines", [(3, 3, 2), (4, 3, 2), (3, 4, 3)])
def test_perfect_play_of_a_whole_board_is_the_brute_force_game_tree_s(width, height, mines):
    import optimal  # benchmarks/optimal.py

    # By brute force from the first click's position, safe cells not revealed beforehand.
    after_first_click = Counter(optimal.started(width, height, layout).position().to_text()
                                for layout in optimal.layouts(width, height, mines))
    expected = sum(count * _best_play(Position.from_text(text))
                   for text, count in after_first_click.items())
    assert optimal.perfect_play(width, height, mines) == pytest.approx(expected)


def test_best_plays_a_whole_small_board_perfectly_and_its_look_ahead_alone_does_not():
    import optimal

    perfect = optimal.perfect_play(4, 4, 3)
    assert perfect == pytest.approx(400)  # of 455 layouts
    # Every position of 4x4/3 has at most 1,000 layouts: best's exact endgame plays throughout.
    assert optimal.wins(4, 4, 3, {}) == 400
    assert optimal.wins(4, 4, 3, {"endgame_layouts": 0, "drawn_endgame": 0}) == 399


@pytest.mark.parametrize("words, message", [
    (["--board", "5x5"], "error: the board '5x5' is not WxH/M (e.g. 5x5/4)"),
    (["--board", "3x3/9"], "error: the board '3x3/9' has no layout with the first click safe"),
    (["--board", "40x40/9"], "error: the board '40x40/9' has more than 1,000,000 layouts to "
                             "play (4x6/5 has 33,649)"),
    (["--nodes", "0"], "error: --nodes is at least 1, got 0"),
    (["--variant", "seed=3"], "error: seed is the games' to set, not an option of the strategy"),
    (["--board", "4x5/4", "--nodes", "100"], "error: 4x5/4: a position of 360 layouts needs "
     "more than 100 sets of layouts solved (--nodes, and 4 GiB of them remembered)"),
])
def test_perfect_play_benchmark_refuses_what_it_cannot_do_in_one_line(words, message, capsys):
    import optimal

    with pytest.raises(SystemExit) as stopped:
        optimal.main(words)
    assert stopped.value.code in (1, 2)
    assert capsys.readouterr().err == message + "\n"


@pytest.mark.parametrize("position", ENDGAMES[:10])
def test_the_endgame_on_drawn_layouts_is_the_exact_one_when_every_layout_is_drawn(position):
    # Given every layout as its "sample", the search is the exact one; and best's drawn
    # endgame, drawing far more layouts than the 3 to 12 there are, draws them all.
    analysis = analyze(position)
    hidden = position.unknown_mask(False)
    every = [tuple(map(tuple, np.argwhere(board.mask & hidden).tolist()))
             for board in all_layouts(position)]
    assert Endgame(analysis, 10_000, layouts=every).best() == Endgame(analysis, 10_000).best()
    exact = BestStrategy().choose(position, analysis)
    drawn = BestStrategy(endgame_layouts=0, drawn_endgame=10**6, drawn_layouts=2000,
                         explain=True).choose(position, analysis)
    assert [m.cell for m in drawn] == [m.cell for m in exact]
    assert "layouts drawn of the" in drawn[0].explanation
    assert "sample" not in drawn[0].explanation  # every layout drawn: the chance is exact


def test_the_drawn_endgame_plays_a_large_position_alike_every_time():
    # 9x9 with a 1 in the corner: far more layouts than are drawn; the same position draws
    # the same layouts (the generator is seeded by the position), so it gets the same guess.
    from msanalysis.play.best import forget_guesses

    position = Position.from_text("mines: 3\n1" + "?" * 5 + "\n" + "\n".join(["?" * 6] * 5))
    analysis = analyze(position)
    assert analysis.solutions > 1000
    options = dict(endgame_layouts=0, drawn_endgame=10**9, drawn_layouts=300, explain=True)
    first = BestStrategy(**options).choose(position, analysis)
    forget_guesses()
    assert BestStrategy(**options).choose(position, analysis) == first
    assert first[0].explanation.startswith("endgame: ") and "drawn" in first[0].explanation
    assert first[0].explanation.endswith("(a sample's chance: in the game it is usually lower)")
    for bad in (dict(drawn_endgame=-1), dict(drawn_layouts=0)):
        with pytest.raises(InvalidInput):
            BestStrategy(**bad)


@pytest.mark.parametrize("position", GUESSES[:30])
def test_best_guesses_an_unknown_cell_that_may_be_safe(position):
    reference = enumerate_layouts(position)
    (move,) = BestStrategy(explain=True).choose(position, analyze(position))
    assert move.guess and move.explanation
    assert move.cell in reference.unknown and reference.mines[move.cell] < reference.solutions


def test_strategies_reveal_all_forced_cells_and_flag_when_asked():
    position = Position.from_text("mines: 2\n????\n121?\n...?")
    for name in ("best", "safest"):
        moves = make_strategy(name, flag_mines=True).choose(position, analyze(position))
        assert {m.cell for m in moves if m.kind == "reveal"} == {(0, 1), (0, 3), (1, 3), (2, 3)}
        assert {m.cell for m in moves if m.kind == "flag"} == {(0, 0), (0, 2)}
        assert not any(m.guess for m in moves)


@pytest.mark.parametrize("position", GUESSES)
def test_best_ranked_puts_its_guess_first(position):
    # ranked works out every candidate that guess() may drop early: the same winner, and the
    # values in order.
    best = BestStrategy(endgame_layouts=0, drawn_endgame=0)
    analysis = analyze(position)
    ranked = best.ranked(position, analysis)
    assert ranked[0][0] == best.guess(position, analysis).cell
    values = [value for _, value in ranked]
    assert values == sorted(values, reverse=True) and len(set(c for c, _ in ranked)) == len(ranked)
    assert {c for c, _ in ranked} >= set(best.considered(position, analysis))


def _expert_corners(free: tuple[int, int] | None = None) -> Position:
    """Expert with a 1 in every corner but ``free``, the rest hidden."""
    rows = [list("?" * 30) for _ in range(16)]
    for row, col in ((0, 0), (0, 29), (15, 0), (15, 29)):
        if (row, col) != free:
            rows[row][col] = "1"
    return Position.from_text("mines: 99\n" + "\n".join("".join(row) for row in rows))


def test_best_takes_sea_cells_beside_the_frontier_once_no_corner_is_free():
    # With a 1 in each corner the sea cells two steps from one (beside its frontier) look best
    # ahead: a number there shares cells with the corner's 1. While a corner is free they are
    # not asked: the corner is guessed.
    position = _expert_corners()
    analysis = analyze(position)
    beside = {(0, 2), (1, 2), (2, 2), (2, 1), (2, 0)}  # those of the corner (0, 0)
    edge = BestStrategy(near_sea=0)
    assert not beside & set(edge.considered(position, analysis))
    near = BestStrategy()
    assert beside <= set(near.considered(position, analysis))
    ranked = dict(near.ranked(position, analysis))
    guess = near.guess(position, analysis).cell
    assert guess == (0, 2) and ranked[guess] > ranked[edge.guess(position, analysis).cell]
    with_corner = _expert_corners(free=(15, 29))
    analysis = analyze(with_corner)
    assert not beside & set(near.considered(with_corner, analysis))
    assert near.guess(with_corner, analysis).cell == (15, 29)


def test_best_plays_beginner_games_reproducibly():
    results = [_replay("best", seed) for seed in range(4)]
    assert results == [_replay("best", seed) for seed in range(4)]
    assert all(played.status in ("won", "lost") for played, _ in results)


class _TooHard:
    """An analysis whose counting gives up, as on a position beyond the engine's bounds."""

    def __init__(self, analysis):
        self._analysis = analysis
        self.forced_safe, self.forced_mines = analysis.forced_safe, analysis.forced_mines
        self.constraints, self.is_over = analysis.constraints, analysis.is_over

    @property
    def __class__(self):  # the strategies take only an Analysis: pass as one, as a mock does
        from msanalysis.analysis import Analysis

        return Analysis

    def __getattr__(self, name):
        from msanalysis.errors import AnalysisTooHard

        raise AnalysisTooHard("counting gave up")


@pytest.mark.parametrize("position", GUESSES[:10])
def test_a_position_too_hard_to_count_still_gets_a_guess(position):
    reference = enumerate_layouts(position)
    for name in ("best", "safest"):
        (move,) = make_strategy(name, explain=True).choose(position,
                                                           _TooHard(analyze(position)))
        assert move.guess and "rough guess" in move.explanation
        assert move.cell in reference.unknown and move.cell not in reference.forced_mines


@pytest.mark.parametrize("name", ["safest", "best"])
@pytest.mark.parametrize("flag_mines", [False, True])
def test_following_step_by_step_guesses_as_analysing_every_turn(name, flag_mines):
    # Followed by a tracker, forced cells are revealed as each step of its deductions finds
    # them; analysed from scratch every turn, all of them at once. The guesses must not move.
    for seed in range(3):
        runs = []
        for engine in (None, analyze):
            game = Game.started(16, 16, 40, first_click=(0, 0), seed=seed)
            moves: list[Move] = []
            played = autoplay(game, make_strategy(name, seed=seed, flag_mines=flag_mines),
                              analyze=engine, on_move=moves.append)
            position = game.position()
            runs.append((played.status, played.guesses, [m.cell for m in moves if m.guess],
                         set(position.revealed), position.flags))
        assert runs[0] == runs[1]


def test_remembered_guesses_are_the_guesses_made_afresh(monkeypatch):
    # The guesses of a process are kept by position and options: playing the same games again
    # with every guess remembered, and with none, gives the same guesses.
    import msanalysis.play.best as best

    def guesses(options: dict) -> list:
        made = []
        for seed in range(6):
            game = Game.started(16, 16, 40, first_click=(0, 0), seed=seed)
            autoplay(game, make_strategy("best", seed=seed, **options),
                     on_move=lambda m: made.append((m.cell, m.explanation)) if m.guess else None)
        return made

    class Forgetful(dict):
        def __setitem__(self, key, value):
            pass

    monkeypatch.setattr(best, "_GUESSES", Forgetful())
    fresh = guesses({})
    monkeypatch.setattr(best, "_GUESSES", {})
    assert guesses({}) == fresh  # positions met twice in these games are remembered
    assert len(best._GUESSES) > 0
    assert guesses({}) == fresh  # every one remembered now
    # Other options are other guesses: explained ones are not the unexplained ones remembered.
    explained = guesses({"explain": True})
    assert [cell for cell, _ in explained] == [cell for cell, _ in fresh]
    assert all(why for _, why in explained) and not any(why for _, why in fresh)


def test_the_count_forcing_a_safe_cell_is_read_off_what_the_parts_may_hold():
    # Against the plain reading, on the parts' product: the sea's share for every total the
    # parts may hold; when some total is ruled out, join them and look for a box with no mine.
    from msanalysis.counting import ComponentCount
    from msanalysis.joining import join, together
    from msanalysis.play.outlook import _count_forces_safe, _held, _held_together

    def plain(parts, sea, remaining):
        product = together(parts)
        left = [remaining - product.offset - t for t, n in enumerate(product.layouts) if n]
        if sea and all(n == 0 for n in left if 0 <= n <= sea) and 0 in left:
            return True
        if all(0 <= n <= sea for n in left):
            return False
        joined = join(parts, sea, remaining)
        return any(m == 0 for i in range(len(parts)) for m in joined.box_mines(i))

    rng = random.Random(3)
    outcomes = set()
    for _ in range(3000):
        parts = []
        for _ in range(rng.randint(1, 3)):
            spread = rng.randint(1, 4)
            layouts = (1, *(rng.choice((0, 1, 2)) for _ in range(spread - 2)), 1)[:spread]
            boxes = tuple(tuple(rng.randint(0, 2) * n for n in layouts)
                          for _ in range(rng.randint(1, 2)))
            parts.append(ComponentCount(rng.randint(0, 3), layouts, boxes))
        sea, remaining = rng.randint(0, 4), rng.randint(0, 12)
        held = 0b1
        for part in parts:
            held = _held_together(held, _held(part))
        assert _held(together(parts)) == held
        fewest = sum(part.offset for part in parts)
        found = _count_forces_safe(parts, fewest, held, sea, remaining)
        assert found == plain(parts, sea, remaining)
        outcomes.add(found)
    assert outcomes == {True, False}


@pytest.mark.parametrize("option, message", [
    ({"margin": -1}, "margin is a number from 0 to 1, got -1"),
    ({"margin": float("nan")}, "margin is a number from 0 to 1, got nan"),
    ({"blend": "x"}, "blend is a number from 0 to 1"),
    ({"candidates": 0}, "candidates is a whole number from 1 up, got 0"),
    ({"endgame_layouts": 2.5}, "endgame_layouts must be a whole number"),
    ({"fifty_fifty": "no"}, "fifty_fifty is True or False, got 'no'"),
    ({"quick_look": 1}, "quick_look is True or False, got 1"),
    ({"endgame_layouts": 10**6}, "endgame_layouts is a whole number from 0 to 100,000"),
    ({"drawn_layouts": 0}, "drawn_layouts is a whole number from 1 to 100,000, got 0"),
    ({"endgame_nodes": 10**8}, "endgame_nodes is a whole number from 1 to 10,000,000"),
    ({"near_sea": -1}, "near_sea is a whole number from 0 up, got -1"),
    ({"defer_regions": "yes"}, "defer_regions is True or False, got 'yes'"),
    ({"block_missing": 2}, "block_missing is a whole number from 0 to 1, got 2"),
    ({"lone_safe": "1"}, "lone_safe is True or False, got '1'"),
    ({"living": 0}, "living is True or False, got 0"),
])
def test_best_refuses_options_it_cannot_play_with(option, message):
    # (A negative margin used to play into an assertion error at the first guess.)
    with pytest.raises(InvalidInput, match=message):
        make_strategy("best", **option)


@pytest.mark.parametrize("options", [
    {"candidates": 1, "sea_candidates": 0},
    {"sea_candidates": 0, "margin": 0.0, "fifty_fifty": False},
    {"endgame_layouts": 0, "drawn_endgame": 0, "blend": 1.0, "living": False},
    {"drawn_layouts": 1, "endgame_nodes": 1, "lone_safe": False},
])
def test_best_plays_whole_games_at_the_ends_of_its_options(options):
    # Each guess is a hidden cell that may be safe, whatever the options: sea_candidates=0 once
    # played into an assertion error where the sea was safest by more than the margin.
    spec = PlaySpec.standard("expert", options=options)
    results = [play_one(spec, seed) for seed in range(6)]
    assert sum(result.guesses for result in results) > 6


def test_autoplay_says_what_it_takes():
    game = Game.started(9, 9, 10, first_click=(0, 0), seed=1)
    with pytest.raises(WrongType, match=r"got a str \(make_strategy\('best'\) makes one\)"):
        autoplay(game, "best")
    with pytest.raises(WrongType, match="autoplay takes a Game, got a Board"):
        autoplay(Board.from_text("*."), make_strategy("best"))
    with pytest.raises(InvalidInput, match="no book named 'nope'"):
        make_strategy("best", book="nope")


def test_best_leaves_the_endgame_searches_to_positions_with_few_unknown_cells():
    # 150x150 with one mine: 22,499 layouts, the drawn search's range, but its tables would
    # hold 22,499 cells by 22,499; 30x30 with one, 900 layouts, took the search 7 minutes. The
    # look ahead guesses there instead; up to 150 cells (not certain mines), the search.
    def explained(height, width, mines):
        position = Position(np.full((height, width), -1, dtype=np.int8), mines)
        return BestStrategy(explain=True).choose(position, analyze(position))[0].explanation

    assert explained(150, 150, 1).startswith("guess: ")
    assert explained(30, 30, 1).startswith("guess: ")
    assert explained(10, 15, 1).startswith("endgame: 150 layouts left")
    assert explained(10, 16, 1).startswith("guess: ")
    game = Game(Board.from_cells(100, 100, [(0, 1), (50, 50)]), rules="unsafe")
    game.reveal((0, 0))
    autoplay(game, BestStrategy())
    assert game.status in ("won", "lost")


def test_paper_takes_a_seed_from_0_up():
    # Python's generator took -5 for 5: the same games on both sides of 0.
    with pytest.raises(InvalidInput, match="a seed is a whole number from 0 to"):
        PaperStrategy(seed=-5)


@pytest.mark.parametrize("name", ["best", "safest", "paper"])
@pytest.mark.parametrize("seed", ["abc", -1, 1.5, [1]])
def test_every_strategy_checks_its_seed(name, seed):
    # best and safest use none, and took any: a mistake they now name as paper does.
    with pytest.raises(InvalidInput, match="a seed"):
        make_strategy(name, seed=seed)


@pytest.mark.parametrize("game, strategy, options, message", [
    ("x", "paper", {}, "autoplay takes a Game"),
    (None, "best", {}, "autoplay plays a strategy object"),  # the name of one, not one
    (None, "paper", {"on_move": 5}, "on_move is a function"),
    (None, "paper", {"analyze": 5}, "analyze is a function"),
])
def test_autoplay_checks_what_it_is_given_before_a_move(game, strategy, options, message):
    game = game or Game.started(9, 9, 10, first_click=(0, 0), seed=3)
    strategy = make_strategy(strategy) if strategy == "paper" else strategy
    with pytest.raises(WrongType, match=message):
        autoplay(game, strategy, **options)
    if isinstance(game, Game):
        assert game.changes == 1  # the first click only: no move was made
