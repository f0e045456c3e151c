"""Tests for the package's lazy top-level names, and for what its functions do with arguments
of the wrong kind."""

from __future__ import annotations

import importlib
import re

import pytest

import msanalysis


def test_all_names_exactly_the_lazy_exports():
    assert sorted(msanalysis.__all__) == sorted(msanalysis._EXPORTS)


def test_each_exported_name_resolves_to_its_module_object():
    for name, module in msanalysis._EXPORTS.items():
        expected = getattr(importlib.import_module(f"msanalysis.{module}"), name)
        assert getattr(msanalysis, name) is expected
        assert name in dir(msanalysis)


# -- the library's arguments: what an adversarial try of the API passed in ---------------------

def _calls():
    from msanalysis import Board, Position, analyze, explain, reconstruct
    from msanalysis.play.bench import PlaySpec
    from msanalysis.play.noguess import generate_no_guess
    from msanalysis.play.strategies import make_strategy
    from msanalysis.puzzle import Puzzle, read_grid
    from msanalysis.replay import Replay, ReplayRecorder, save_replay
    from msanalysis.tracker import Tracker

    position = Position.from_text("mines: 1\n??\n11")
    board = Board.from_text("*.\n..")
    return [
        # None, bytes or a number where text is read: AttributeError or TypeError before.
        (lambda: Position.from_text(None), "Position.from_text takes a str, got a NoneType"),
        (lambda: Position.from_text(b"??"), "Position.from_text takes a str, got a bytes"),
        (lambda: Position.from_mine(None), "Position.from_mine takes a str"),
        (lambda: Board.from_text(None), "Board.from_text takes a str"),
        (lambda: Board.from_mbf("abcd"), "Board.from_mbf takes bytes, got a str"),
        (lambda: Puzzle.from_text(None), "Puzzle.from_text takes a str"),
        (lambda: read_grid(5), "read_grid takes a str, got an int"),
        # None where an object is wanted.
        (lambda: Tracker(None, (0, 0)), "Tracker takes a Board"),
        (lambda: Tracker.from_position(None), "Tracker.from_position takes a Position"),
        (lambda: Tracker.from_game(None), "Tracker.from_game takes a Game"),
        (lambda: Tracker.dealt(3, 3, None), "Tracker.dealt takes the mines' cell numbers"),
        (lambda: explain(None, (0, 0)), "explain takes a Position"),
        (lambda: save_replay(None, "x.msreplay.jsonl"), "save_replay takes a Replay"),
        (lambda: ReplayRecorder(None), "ReplayRecorder takes a Game"),
        (lambda: Replay(board, [None]), "a replay's action is an Action or a (kind, cell, time)"),
        (lambda: Replay(board, "abc"), "a replay's actions are a sequence of Actions"),
        (lambda: PlaySpec.standard("expert", options=5), "options are a strategy's options"),
        (lambda: make_strategy("best", book=5), "book is the name of a shipped book"),
        (lambda: generate_no_guess(9, 9, 10, first_click=None), "a cell is a pair of whole"),
        # True is an int to Python, and "yes" is true: neither was refused.
        (lambda: Position.from_text("??", total_mines=True), "must be a whole number"),
        (lambda: board.is_mine((True, 0)), "a cell is a pair of whole numbers"),
        (lambda: reconstruct("1?\n??", limit=True), "limit must be a positive integer"),
        (lambda: analyze(position, ignore_flags="yes"), "ignore_flags is True or False"),
        (lambda: analyze(position, forced_only=1), "forced_only is True or False"),
    ]


def test_wrong_arguments_are_our_errors_naming_what_was_wanted():
    from msanalysis.errors import InvalidInput

    for call, fragment in _calls():
        with pytest.raises(InvalidInput, match=re.escape(fragment)):
            call()


def test_a_time_limit_past_any_float_is_no_limit():
    from msanalysis import Position, analyze

    # OverflowError before: the limit was turned into a float.
    assert analyze(Position.from_text("mines: 1\n??\n11"), time_limit=10 ** 400).solutions == 2


def test_a_replays_actions_may_come_from_a_generator():
    import dataclasses

    from msanalysis.play.judge import record_autoplay

    replay = record_autoplay(9, 9, 10, seed=2, strategy="safest")
    again = dataclasses.replace(replay, actions=(a for a in replay.actions))
    assert again.actions == replay.actions  # read once to check, then used: it was emptied


def test_a_puzzle_seed_is_a_whole_number_from_0():
    from msanalysis.errors import InvalidInput
    from msanalysis.puzzle import Puzzle, make_puzzle

    grid = make_puzzle(width=4, height=3, seed=2).grid
    # A negative seed wrote a header that reading the puzzle back refused.
    with pytest.raises(InvalidInput, match="seed"):
        Puzzle.from_grid(grid, seed=-1)
    assert Puzzle.from_text(Puzzle.from_grid(grid, seed=7).to_text()).seed == 7
