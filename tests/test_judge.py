"""Tests for judging replays (msanalysis.play.judge), against the brute-force reference.

Seeded games are played by a deliberately sloppy player (it reveals forced safe cells, but also
clicks at random, clicks forced mines, flags right and wrong, and chords), saved as replays and
read back; every verdict, probability and survival chance must agree with
:func:`tests.reference.enumerate_layouts` wherever the position is small enough to enumerate.
Real replays are checked against ms-toollib's own probability engine.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import xml.dom.minidom
from fractions import Fraction

import numpy as np
import pytest

from msanalysis.analysis import analyze
from msanalysis.board import Board, neighbours
from msanalysis.errors import TimeLimitReached, WrongType
from msanalysis.game import Game
from msanalysis.play.judge import Verdict, analyze_replay, from_scratch, record_autoplay
from msanalysis.position import HIDDEN, Position
from msanalysis.replay import (
    Action,
    ActionKind,
    Replay,
    ReplayRecorder,
    load_replay,
    position_without_flags,
    save_replay,
)
from msanalysis.rules import generate
from reference import all_layouts, enumerate_layouts
from replay_files import SHARED, SHARED_FILES, needs_shared

CHECKED_UNKNOWN = 16
"""Positions with at most this many covered cells are enumerated (2**16 layouts)."""


def sloppy_game(seed: int, width: int, height: int, mines: int, *,
                careful_above: int | None = None) -> Replay:
    """A seeded game by a player who guesses needlessly, blunders, misflags and chords.

    With ``careful_above`` the player plays only forced safe cells (or a random guess when there
    is none, the safest guess) while more cells than that are covered, and is sloppy two turns
    in five after.
    """
    rng = random.Random(seed)
    first = (rng.randrange(height), rng.randrange(width))
    board = generate(width, height, mines, rules="safe-cell", first_click=first, seed=seed)
    game = Game(board, rules="safe-cell")
    recorder = ReplayRecorder(game, player="sloppy", clock=itertools.count().__next__)
    recorder.reveal(first)
    for _ in range(400):
        if game.status != "playing":
            break
        analysis = analyze(position_without_flags(game.position()), forced_only=True)
        covered = [(r, c) for r in range(height) for c in range(width)
                   if not game.is_revealed((r, c)) and not game.is_flagged((r, c))]
        flagged = [(r, c) for r in range(height) for c in range(width) if game.is_flagged((r, c))]
        safe = sorted(set(covered) & analysis.forced_safe)
        mines_seen = sorted(set(covered) & analysis.forced_mines)
        chords = [(r, c) for r in range(height) for c in range(width)
                  if game.is_revealed((r, c)) and board.numbers[r, c] > 0
                  and sum(game.is_flagged(n) for n in neighbours((r, c), height, width))
                  == board.numbers[r, c]
                  and any(n in covered for n in neighbours((r, c), height, width))]
        wrong = [cell for cell in covered if not board.is_mine(cell)]
        roll = rng.random()
        if careful_above is not None and covered and (
                len(covered) + len(flagged) > careful_above or rng.random() < 0.6):
            roll = rng.random()
            if roll < 0.25 and mines_seen:
                recorder.flag(rng.choice(mines_seen))
            else:
                # With the only safe cells under wrong flags, there is no best guess: any will do.
                recorder.reveal(rng.choice(safe) if safe else analysis.best_guess
                                or rng.choice(covered))
        elif not covered:
            recorder.unflag(rng.choice(flagged))
        elif roll < 0.12 and mines_seen:
            recorder.flag(rng.choice(mines_seen))
        elif roll < 0.18 and wrong:
            recorder.flag(rng.choice(wrong))
        elif roll < 0.21 and flagged:
            recorder.unflag(rng.choice(flagged))
        elif roll < 0.40 and chords:
            recorder.chord(rng.choice(chords))
        elif roll < 0.48:
            recorder.reveal(rng.choice(covered))
        elif roll < 0.50 and mines_seen:
            recorder.reveal(rng.choice(mines_seen))
        elif safe:
            recorder.reveal(rng.choice(safe))
        else:
            recorder.reveal(rng.choice(covered))
    return recorder.replay()


def _targets(game: Game, kind: ActionKind, cell) -> list:
    """The cells an action opens directly, worked out again here from the rules of the game."""
    height, width = game.board.height, game.board.width
    if kind is ActionKind.REVEAL:
        return [] if game.is_revealed(cell) or game.is_flagged(cell) else [cell]
    if kind is not ActionKind.CHORD or not game.is_revealed(cell):
        return []
    around = list(neighbours(cell, height, width))
    if sum(game.is_flagged(n) for n in around) != game.board.numbers[cell]:
        return []
    return sorted(n for n in around if not game.is_revealed(n) and not game.is_flagged(n))


def _joint_safe(position: Position, cells: list) -> Fraction | None:
    """Brute force: the share of layouts in which none of ``cells`` is a mine."""
    hidden = int((position.states == HIDDEN).sum())
    if math.comb(hidden, position.total_mines) > 20_000:
        return None
    layouts = all_layouts(position)
    return Fraction(sum(not any(b.is_mine(c) for c in cells) for b in layouts), len(layouts))


def check_against_reference(replay: Replay, stats: dict) -> None:
    """Every judgement of ``replay`` that brute force can check, and its survival if it can."""
    result = analyze_replay(replay)
    judged = iter(result.judgements)
    survival: Fraction | None = Fraction(1)
    opening = 0
    for index, action, game in replay.before_each():
        targets = _targets(game, action.kind, action.cell)
        if not targets:
            continue
        opening += 1
        mine = [next(judged) for _ in targets]
        assert [(j.index, j.cell) for j in mine] == [(index, cell) for cell in targets]
        if opening == 1:
            assert all(j.verdict is Verdict.FIRST and j.probability == 0 for j in mine)
            continue
        position = position_without_flags(game.position())
        if len(position.hidden) > CHECKED_UNKNOWN:
            survival = None
            continue
        ref = enumerate_layouts(position)
        lowest = min(ref.probability(c) for c in ref.unknown)
        for j in mine:
            p = ref.probability(j.cell)
            expected = (Verdict.SAFE if p == 0 else Verdict.BLUNDER if p == 1
                        else Verdict.NEEDLESS if ref.forced_safe else Verdict.GUESS)
            assert j.verdict is expected, (index, j)
            assert j.probability == p
            stats[expected] = stats.get(expected, 0) + 1
            if j.is_risky:
                assert j.best_probability == lowest
                assert ref.probability(j.best_cell) == lowest
                assert j.position == position
            if expected is Verdict.NEEDLESS:
                assert j.best_cell in ref.forced_safe
                assert j.explanation.cell == j.best_cell and j.explanation.verdict == "safe"
                # The clues named are enough on their own (with the count when it says so).
                alone = enumerate_layouts(position, clues=j.explanation.clues,
                                          use_count=j.explanation.uses_mine_count)
                assert j.best_cell in alone.forced_safe
        chance = dict(result.click_survival)[index]
        uncertain = [c for c in targets if ref.probability(c) != 0]
        if len(uncertain) > 1:
            stats["joint"] = stats.get("joint", 0) + 1
            expected_chance = _joint_safe(position, uncertain)
        else:
            expected_chance = 1 - ref.probability(uncertain[0]) if uncertain else Fraction(1)
        if expected_chance is None:
            survival = None
        else:
            assert chance == expected_chance
            if survival is not None:
                survival *= expected_chance
    assert next(judged, None) is None
    if survival is not None:
        assert result.survival == survival
        stats["games with survival checked"] = stats.get("games with survival checked", 0) + 1


SMALL = [(5, 4, 4), (6, 4, 5), (5, 5, 5), (6, 5, 6), (4, 4, 3)]


def test_verdicts_agree_with_brute_force_on_small_boards(tmp_path):
    stats: dict = {}
    for seed in range(200):
        width, height, mines = SMALL[seed % len(SMALL)]
        replay = sloppy_game(seed, width, height, mines)
        if seed % 10 == 0:  # through the file format now and then: it must change nothing
            path = tmp_path / f"game{seed}.msreplay.jsonl"
            save_replay(replay, path)
            replay = load_replay(path)
        check_against_reference(replay, stats)
    for verdict in (Verdict.SAFE, Verdict.GUESS, Verdict.NEEDLESS, Verdict.BLUNDER):
        assert stats.get(verdict, 0) >= 3, stats
    assert stats.get("joint", 0) >= 1, stats
    assert stats["games with survival checked"] >= 10, stats


def test_verdicts_agree_with_brute_force_on_beginner_games():
    """8x8/10 (beginner in the programs that record replays): late positions are enumerated."""
    stats: dict = {}
    for seed in range(100, 120):
        check_against_reference(sloppy_game(seed, 8, 8, 10, careful_above=20), stats)
    assert sum(stats.get(v, 0) for v in Verdict) >= 20, stats
    assert stats.get(Verdict.NEEDLESS, 0) + stats.get(Verdict.BLUNDER, 0) >= 2, stats


def test_survival_and_luck_of_a_game():
    replay = sloppy_game(3, 5, 4, 4)
    result = analyze_replay(replay)
    product = Fraction(1)
    for _, chance in result.click_survival:
        product *= chance
    assert result.survival == product
    if product:
        assert result.luck_bits == pytest.approx(-math.log2(product))
    else:
        assert result.luck_bits == math.inf and result.to_dict()["luck_bits"] is None


def test_a_blunder_explains_the_mine_and_loses():
    for seed in range(200):
        replay = sloppy_game(seed, 5, 5, 5)
        result = analyze_replay(replay)
        blunders = [j for j in result.judgements if j.verdict is Verdict.BLUNDER]
        if blunders:
            break
    blunder = blunders[0]
    assert blunder.probability == 1 and result.status == "lost"
    assert blunder.explanation.cell == blunder.cell and blunder.explanation.verdict == "mine"
    assert result.survival == 0


def test_first_click_follows_the_rules():
    replay = record_autoplay(9, 9, 10, seed=1, rules="unsafe", strategy="safest")
    result = analyze_replay(replay)
    first = result.judgements[0]
    assert first.verdict is Verdict.FIRST and first.probability == Fraction(10, 81)
    assert result.click_survival[0][1] == Fraction(71, 81)
    unknown = Replay(replay.board, replay.actions, rules=None)
    assert analyze_replay(unknown).survival is None
    safe = Replay(replay.board, replay.actions, rules="safe-opening")
    assert analyze_replay(safe).judgements[0].probability == 0


def test_summary_counts_and_speed():
    replay = record_autoplay(16, 16, 40, seed=8, strategy="safest", flag_mines=True)
    result = analyze_replay(replay)
    assert result.clicks == sum(1 for a in replay.actions if a.kind is ActionKind.REVEAL)
    assert sum(result.verdicts.values()) == len(result.judgements) == result.clicks
    assert result.verdicts["first"] == 1 and result.verdicts["needless"] == 0
    assert result.not_safest == 0  # "safest" always takes the lowest probability
    assert result.bbbv == replay.board.bbbv
    if result.won:
        assert result.bbbv_solved == result.bbbv
    assert result.bbbv_per_second == pytest.approx(result.bbbv_solved / replay.duration)


def test_bbbv_solved_of_a_lost_game():
    for seed in range(50):
        replay = record_autoplay(9, 9, 10, seed=seed, strategy="safest")
        if replay.play().status == "lost":
            break
    result = analyze_replay(replay)
    revealed = result.final.states >= 0
    assert 0 < result.bbbv_solved < result.bbbv
    # Brute force: the fewest clicks that reveal what this game revealed, cell by cell.
    board = replay.board
    done = sum(1 for region in board.opening_regions()
               if any(revealed[c] and board.numbers[c] == 0 for c in region))
    inside = set().union(*board.opening_regions()) if board.openings else set()
    done += sum(1 for r in range(9) for c in range(9)
                if revealed[r, c] and (r, c) not in inside)
    assert result.bbbv_solved == done


def test_json_has_exactly_the_issue_keys():
    replay = sloppy_game(7, 6, 5, 6)
    data = analyze_replay(replay).to_dict()
    assert list(data) == ["file", "width", "height", "mines", "won", "clicks", "verdicts",
                          "survival", "luck_bits", "guesses", "bbbv", "seconds"]
    assert list(data["verdicts"]) == ["first", "safe", "guess", "needless", "blunder"]
    json.dumps(data)
    for guess in data["guesses"]:
        assert list(guess) == ["index", "time", "cell", "verdict", "probability",
                               "best_probability", "best_cell"]
        assert guess["verdict"] in ("guess", "needless", "blunder")
        assert Fraction(guess["probability"]) > 0 and "/" in guess["probability"]
    assert "/" in data["survival"]


def test_dataframe_and_picture():
    pytest.importorskip("pandas")
    replay = sloppy_game(11, 6, 5, 6)
    result = analyze_replay(replay)
    frame = result.to_dataframe()
    assert len(frame) == len(result.judgements)
    assert list(frame["verdict"]) == [j.verdict.value for j in result.judgements]
    assert frame["probability"].iloc[0] == 0.0
    picture = result._repr_svg_()
    xml.dom.minidom.parseString(picture)
    assert picture.count("</text>") >= len(result.guesses)


def test_the_analyser_can_be_swapped():
    calls = []

    def counting(position):
        calls.append(position)
        return from_scratch(position)

    replay = sloppy_game(21, 8, 8, 10)
    ours = analyze_replay(replay, analyser=counting)
    assert ours.judgements == analyze_replay(replay).judgements
    assert calls and all(isinstance(p, Position) and not p.flags for p in calls)
    assert all(p.total_mines == 10 for p in calls)


# -- real replays --------------------------------------------------------------------------------

@needs_shared
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name[:24])
def test_real_replays_agree_with_ms_toollib_probabilities(path):
    """ms-toollib's own probability engine (floats), an independent peer on real games."""
    ms_toollib = pytest.importorskip("ms_toollib")
    replay = load_replay(path)
    result = analyze_replay(replay)
    by_action: dict[int, list] = {}
    for j in result.judgements:
        by_action.setdefault(j.index, []).append(j)
    for index, _action, game in replay.before_each():
        if index not in by_action or by_action[index][0].verdict is Verdict.FIRST:
            continue
        position = position_without_flags(game.position())
        board = [[10 if v < 0 else int(v) for v in row] for row in position.states.tolist()]
        chances, _ = ms_toollib.cal_probability_onboard(board, replay.mines)
        chances = np.array(chances)
        covered = position.states == HIDDEN
        any_safe = bool((chances[covered] < 1e-12).any())
        for j in by_action[index]:
            theirs = chances[j.cell]
            if j.verdict is Verdict.SAFE:
                assert theirs < 1e-12
            else:
                assert float(j.probability) == pytest.approx(theirs, abs=1e-9)
                assert float(j.best_probability) == pytest.approx(chances[covered].min(),
                                                                  abs=1e-9)
                assert (j.verdict is Verdict.NEEDLESS) == any_safe


@needs_shared
def test_the_expert_replay_summary():
    result = analyze_replay(load_replay(SHARED / "Zhang Shen Jia_Exp_38.82(3bv122).mvf"))
    assert result.won and result.bbbv == 122 and result.bbbv_solved == 122
    assert result.bbbv_per_second == pytest.approx(122 / 37.81)
    assert result.verdicts["first"] == 1 and result.verdicts["blunder"] == 0
    assert 0 < result.survival < 1
    assert result.clicks == sum(1 for _ in result.click_survival)


def test_judging_keeps_its_time_limit_inside_an_analysis():
    # A guess far out in a 1000x1000 sea: its probability needs the number of ways to put
    # 200,000 mines among a million cells, some seconds of one uninterruptible product. Under a
    # time limit the count is refused at once and the judging stops, naming the action.
    rng = np.random.default_rng(5)
    mines = rng.random((1000, 1000)) < 0.2
    mines[:2, :2] = False
    mines[500, 500] = False
    board = Board(mines)
    replay = Replay(board, (Action("reveal", (0, 0), 0.0), Action("reveal", (500, 500), 1.0)),
                    rules="safe-cell")
    with pytest.raises(TimeLimitReached) as stopped:
        analyze_replay(replay, time_limit=0.5)
    assert str(stopped.value) == "judging stopped at the time limit (0.5 s) at action 2 of 2"
    # (The count is refused at once; on a loaded machine SAT may already have run out.)
    assert isinstance(stopped.value.__cause__, TimeLimitReached)


def test_a_replay_judged_in_time_is_judged_whole():
    # The same judgements with a time limit as without (every analysis, count and explanation
    # is then given the time left).
    replay = record_autoplay(16, 16, 40, seed=8, strategy="safest")
    judged = analyze_replay(replay, time_limit=600).judgements
    assert judged == analyze_replay(replay).judgements
    assert sum(j.verdict is Verdict.GUESS for j in judged) >= 2


def test_analyze_replay_says_what_it_takes():
    with pytest.raises(WrongType, match=r"analyze_replay takes a Replay, got a str \(load_"):
        analyze_replay("game.mvf")
