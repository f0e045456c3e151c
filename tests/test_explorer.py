"""The explorer's Python side: moves, edits and replays change the state and the analysis; bad
edits are refused with our errors; what travels to the browser is small and, applied the way the
page applies it, gives the board Python holds."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from reference import enumerate_layouts, game_position

pytest.importorskip("anywidget", reason="anywidget is not installed (the explorer extra)")

from msanalysis import (
    Board,
    Explorer,
    Game,
    IllegalMove,
    InvalidInput,
    Position,
    analyze,
)
from msanalysis.play.judge import analyze_replay, record_autoplay
from msanalysis.position import FLAG


class Wire:
    """Records the messages the widget sends, and applies them as explorer.js does."""

    def __init__(self, explorer: Explorer) -> None:
        self.messages: list[dict] = []
        explorer.comm.send = lambda data=None, buffers=None, **_: self.messages.append(data)
        self.board = explorer.get_state()["_board"]
        self.cells = list(self.board["cells"])
        n = self.board["width"] * self.board["height"]
        unknown = lambda i: self.cells[i] == "?" or (self.cells[i] == "F"
                                                      and self.board["ignore_flags"])
        self.keys = [-1 if unknown(i) else -2 for i in range(n)]
        for i, key in self.board["keys"].items():
            self.keys[int(i)] = key

    def sizes(self) -> list[int]:
        return [len(json.dumps(m, separators=(",", ":"))) for m in self.messages]

    def apply(self) -> None:
        for message in self.messages:
            patch = message.get("state", {}).get("_patch")
            if patch and patch["serial"] > self.board["serial"]:
                for i, char, key in patch["cells"]:
                    self.cells[i], self.keys[i] = char, key
                self.board = {**self.board, **{k: v for k, v in patch.items() if k != "cells"}}
        self.messages.clear()


def _same_as_python(wire: Wire, explorer: Explorer) -> None:
    """The page's board after the patches equals the board Python would send whole."""
    whole = explorer.get_state()["_board"]
    assert "".join(wire.cells) == whole["cells"]
    assert {str(i): k for i, k in enumerate(wire.keys) if k >= 0} == whole["keys"]
    assert wire.board["table"] == whole["table"]
    assert wire.board["best"] == whole["best"]


def _click(explorer: Explorer, cell, kind: str = "click", **extra) -> None:
    explorer._on_message(explorer, {"kind": kind, "index": cell[0] * explorer.position.width
                                    + cell[1], "token": 1, **extra}, [])


def _midgame(width: int, height: int, mines: int, seed: int) -> Game:
    game = Game.started(width, height, mines, rules="safe-opening",
                        first_click=(height // 2, width // 2), seed=seed)
    for _ in range(3):
        for cell in sorted(analyze(game.position()).forced_safe)[:6]:
            if game.status == "playing":
                game.reveal(cell)
    return game


# -- play ---------------------------------------------------------------------------------------

def test_moves_from_python_and_from_the_page_follow_the_game():
    game = Game(Board.from_text("*...\n....\n..*.\n...."))
    explorer = Explorer(game)
    revisions = []
    explorer.observe(lambda change: revisions.append(change["new"]), names=["revision"])
    assert explorer.reveal((0, 1)) == [(0, 1)]
    assert explorer.position == game.position() and explorer.game is game
    _click(explorer, (0, 0), kind="right")      # a right click flags
    assert explorer.position.state((0, 0)) == -2
    _click(explorer, (0, 0), kind="right")      # and unflags
    assert explorer.position.state((0, 0)) == -1
    explorer.flag((0, 0))
    _click(explorer, (1, 1))                    # reveal the 2 next to two mines
    explorer.flag((2, 2))
    _click(explorer, (1, 1))                    # a click on a number chords
    assert game.is_revealed((0, 1)) and game.is_revealed((2, 1))
    assert len(revisions) == 7 and revisions == sorted(revisions)
    # The analysis is the analysis of the position shown, recomputed after every move.
    fresh = analyze(explorer.position)
    assert explorer.analysis.position == explorer.position
    assert explorer.analysis.forced_safe == fresh.forced_safe
    assert explorer.analysis.forced_mines == fresh.forced_mines


def test_won_and_lost_are_shown():
    explorer = Explorer(Game(Board.from_text("*..\n...\n...")))
    explorer.reveal((2, 2))
    assert explorer.status == "won" and "won" in explorer.summary
    explorer.load(Board.from_text("*..\n...\n..."))
    explorer.reveal((0, 0))
    assert explorer.status == "lost" and "lost" in explorer.summary
    _click(explorer, (1, 1))  # after the end: the page shows the refusal, nothing is raised
    assert "over" in explorer.message
    with pytest.raises(IllegalMove, match="the game is over"):
        explorer.reveal((1, 1))


def test_a_new_game_for_every_first_click_rule():
    explorer = Explorer()
    for rules in ("safe-cell", "unsafe", "safe-opening", "windows-xp", "no-guess"):
        explorer._on_message(explorer, {"kind": "new", "width": 8, "height": 8, "mines": 10,
                                        "rules": rules, "seed": "4"}, [])
        assert explorer.message == "", rules
        assert explorer.game.rules == rules and explorer.game.clicks == 1
        assert explorer.position.shape == (8, 8) and explorer.position.total_mines == 10
    explorer._on_message(explorer, {"kind": "new", "width": 3, "height": 3, "mines": 20,
                                    "rules": "safe-cell", "seed": ""}, [])
    assert "mines" in explorer.message and explorer.game.rules == "no-guess"


def test_probabilities_against_the_reference_enumerator():
    for seed in range(6):
        position = game_position(seed)
        explorer = Explorer(position)
        reference = enumerate_layouts(position)
        if reference.solutions == 0:
            assert explorer.analysis is None and explorer.inconsistency is not None
            continue
        for cell in reference.unknown:
            p = reference.probability(cell)
            assert explorer.probability_text(cell).startswith(
                f"{p.numerator}/{p.denominator} "), (seed, cell)
        table = explorer.get_state()["_board"]["table"]
        keys = explorer.get_state()["_board"]["keys"]
        width = position.width
        for (row, col) in reference.forced_safe:
            key = keys.get(str(row * width + col), -1)
            assert table[str(key)][0] == "safe"


def test_hovering_and_selecting_a_forced_cell():
    explorer = Explorer(Position.from_text("mines: 2\n????\n121?\n...?"))
    sent = []
    explorer.comm.send = lambda data=None, buffers=None, **_: sent.append(data)
    _click(explorer, (0, 1), kind="hover")
    assert sent[0]["content"] == {"hover": 1, "text": "0/1 (0%)"}
    _click(explorer, (0, 0), explain=True)  # shift+click: why is it forced?
    selected = explorer.selected
    assert selected["cell"] == 0 and selected["clues"]
    assert selected["text"].startswith("(0, 0) is a mine")
    explorer.load(Position.from_text("mines: 1\n??\n11"))
    explorer.explain((0, 1))
    assert explorer.selected["text"] == "(0, 1): mine probability 1/2 (50%)"


# -- edit ---------------------------------------------------------------------------------------

def test_edits_change_the_position_and_its_analysis():
    explorer = Explorer(Game(Board.from_text("*..\n...\n...")), mode="edit")
    explorer.set_cell((1, 1), 1)
    assert explorer.game is None and explorer.position.state((1, 1)) == 1
    explorer.set_mines(1)
    assert explorer.analysis.solutions == 8
    assert explorer.analysis.exact_probability((0, 0)) == Fraction(1, 8)
    _click(explorer, (0, 1), tool="F")          # the page's palette: a flag
    assert explorer.position.state((0, 1)) == -2
    assert explorer.analysis.solutions == 1
    explorer.resize(4, 2)
    assert explorer.position.to_text() == "mines: 1\n?F??\n?1??"
    explorer._on_message(explorer, {"kind": "size", "width": 4, "height": 3, "mines": ""}, [])
    assert explorer.position.shape == (3, 4) and explorer.position.total_mines is None


def test_an_inconsistent_edit_shows_the_clues_that_contradict():
    explorer = Explorer(Position.from_text("mines: 1\n???\n?1?\n???"), mode="edit")
    explorer.set_cell((0, 0), 3)
    assert explorer.analysis is None
    clues = explorer.inconsistency.clues
    assert (0, 0) in clues
    assert explorer.get_state()["_board"]["conflict"] == [r * 3 + c for r, c in clues]
    assert "no layout" in explorer.summary
    explorer.set_cell((0, 0), "?")              # undone: consistent again
    assert explorer.inconsistency is None and explorer.analysis.solutions == 8


@pytest.mark.parametrize(("edit", "message"), [
    (lambda e: e.set_cell((5, 0), 1), r"cell \(5, 0\) is off the 3x2 board"),
    (lambda e: e.set_cell((0, 0), 9), r"cannot set cell \(0, 0\) to 9"),
    (lambda e: e.set_cell((0, 0), "*"), r"cannot set cell \(0, 0\) to '\*'"),
    (lambda e: e.set_cell("a1", 1), r"a cell is a pair of whole numbers .*, got a str: 'a1'"),
    (lambda e: e.resize(0, 3), r"0"),
    (lambda e: e.set_mines(7), r"7 mines do not fit on 6 cells"),
    (lambda e: e.set_mines(-1), r"cannot be negative"),
    (lambda e: e.go_to(1), r"no replay loaded"),
])
def test_bad_edits_are_refused_with_a_clear_message(edit, message):
    explorer = Explorer(Position.from_text("mines: 1\n?1.\n?1."), mode="edit")
    before = explorer.position
    with pytest.raises(InvalidInput, match=message):
        edit(explorer)
    assert explorer.position == before


def test_moves_without_a_game_are_refused():
    explorer = Explorer(Position.from_text("mines: 1\n?1.\n?1."))
    with pytest.raises(IllegalMove, match="no game to play"):
        explorer.reveal((0, 0))
    _click(explorer, (0, 0))  # in play mode without a game, a click explains instead
    assert explorer.selected["text"] == "(0, 0): mine probability 1/2 (50%)"
    with pytest.raises(TypeError, match="cannot explore a list"):
        explorer.load([[1]])


# -- replay -------------------------------------------------------------------------------------

def test_replay_steps_show_each_click_and_its_verdict():
    replay = record_autoplay(9, 9, 10, seed=3, strategy="safest")
    explorer = Explorer(replay)
    judged = analyze_replay(replay)
    assert explorer.mode == "replay" and explorer.steps == len(replay.actions)
    assert explorer.position == replay.game().position()
    for index, (kind, row, col, verdict, _) in enumerate(explorer._replay):
        assert (kind, (row, col)) == (replay.actions[index].kind, replay.actions[index].cell)
        expected = {j.verdict.value for j in judged.judgements if j.index == index}
        assert verdict == ", ".join(sorted(expected))
    explorer.step = 1                            # the slider in the page
    game = replay.game()
    game.reveal(replay.actions[0].cell)
    assert explorer.position == game.position()
    explorer.go_to(explorer.steps)
    assert explorer.position == replay.play().position()
    assert explorer.analysis.ignore_flags       # judged as the judge does: flags ignored
    with pytest.raises(InvalidInput, match="out of range"):
        explorer.go_to(explorer.steps + 1)
    shown = explorer.position
    explorer.step = explorer.steps + 1           # set past the end: said, and put back
    assert "out of range" in explorer.message
    assert explorer.step == explorer.steps and explorer.position == shown
    # A replay is stepped through, not played: moves on it say so and leave it shown.
    hidden = sorted(explorer.position.hidden)[0]
    for move in (explorer.reveal, explorer.flag, explorer.unflag, explorer.chord):
        with pytest.raises(IllegalMove, match="a replay is shown"):
            move(hidden)
    assert explorer.replay is replay and explorer.position == shown
    explorer.mode = "edit"                       # editing leaves the replay for a position
    explorer.flag(hidden)
    assert explorer.replay is None and explorer.position.state(hidden) == FLAG
    explorer.load(replay)
    assert explorer.mode == "replay" and explorer.position == replay.game().position()
    # Play mode plays on from the step shown: the replay's game there becomes the game.
    explorer.go_to(1)
    after_first = explorer.position
    explorer.mode = "play"
    assert explorer.replay is None and explorer.game is not None and explorer.steps == 0
    assert explorer.position == after_first and explorer.game.status == "playing"
    assert explorer.message == "playing on from step 1 of the replay"
    cell = sorted(explorer.position.hidden - explorer.game.board.mines)[0]
    explorer.reveal(cell)
    assert explorer.position.state(cell) >= 0
    explorer.load(replay)
    explorer.load(Position.from_text("?1"))
    assert explorer.mode == "play" and explorer.steps == 0


def test_a_path_is_read_as_a_file_replay_position_or_board(tmp_path):
    from pathlib import Path

    from msanalysis.errors import ParseError
    from msanalysis.replay import save_replay

    replay = record_autoplay(9, 9, 10, seed=3, strategy="safest")
    save_replay(replay, tmp_path / "game.msreplay.jsonl")
    explorer = Explorer(tmp_path / "game.msreplay.jsonl")
    assert explorer.mode == "replay" and explorer.steps == len(replay.actions)
    (tmp_path / "p.txt").write_text("mines: 1\n??\n11\n")
    explorer.load(tmp_path / "p.txt")
    assert explorer.mode == "play" and explorer.position == Position.from_text("mines: 1\n??\n11")
    puzzles = Path(__file__).resolve().parent.parent / "puzzles"
    explorer.load(puzzles / "boards" / "beginner-safe-cell-seed-1.mbf")
    assert explorer.position.shape == (9, 9)
    with pytest.raises(ParseError, match="line 1, column 1: unknown character 'x'"):
        (tmp_path / "bad.txt").write_text("x\n")
        explorer.load(tmp_path / "bad.txt")
    with pytest.raises(FileNotFoundError):
        explorer.load(tmp_path / "missing.txt")


# -- what travels -------------------------------------------------------------------------------

def test_a_click_sends_a_patch_not_the_board():
    explorer = Explorer(_midgame(100, 100, 1600, seed=1))
    wire = Wire(explorer)
    whole = len(json.dumps(explorer.get_state()["_board"], separators=(",", ":")))
    for cell in sorted(explorer.analysis.forced_safe)[:4]:
        _click(explorer, cell)
        sizes = wire.sizes()
        # One update for the click: the changed cells and the table of groups, not the 10,000
        # cells (the whole board is about 12 KB here; a click about 4 KB, mostly the table).
        assert len(sizes) == 1 and sizes[0] < whole / 2, (sizes, whole)
        assert "_board" not in wire.messages[0]["state"]
        wire.apply()
        _same_as_python(wire, explorer)


def test_patches_rebuild_the_board_through_moves_edits_and_steps():
    explorer = Explorer(_midgame(30, 16, 99, seed=5))
    wire = Wire(explorer)
    rng = np.random.default_rng(0)
    for _ in range(12):
        hidden = sorted(explorer.position.hidden)
        cell = hidden[int(rng.integers(len(hidden)))]
        if explorer.analysis is not None and explorer.analysis.forced_safe:
            cell = sorted(explorer.analysis.forced_safe)[0]
        if explorer.game is not None and explorer.status == "playing":
            _click(explorer, cell)
        else:
            _click(explorer, cell, tool=str(int(rng.integers(0, 4))))
            explorer.mode = "edit"
        wire.apply()
        _same_as_python(wire, explorer)


def test_without_a_front_end_the_board_is_a_picture():
    explorer = Explorer(Position.from_text("mines: 1\n??\n11"))
    data, _ = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["image/svg+xml"].startswith("<svg") and "50%" in data["image/svg+xml"]
    explorer.overlays = False
    assert "50%" not in explorer._repr_svg_()


def test_the_front_end_ships_beside_the_module():
    # The wheel takes every file of the package directory (pyproject.toml), these two included.
    import msanalysis.explorer as module

    assert "export default" in str(module.Explorer._esm)
    assert ".mse-cell" in str(module.Explorer._css)


def test_a_move_made_on_the_game_itself_is_shown():
    explorer = Explorer(Game.started(9, 9, 10, first_click=(0, 0), seed=4))
    game = explorer.game
    revision = explorer.revision
    cell = next(c for c in sorted(game.position().hidden) if not game.board.is_mine(c))
    game.reveal(cell)
    assert explorer.position == game.position() and explorer.revision > revision
    assert explorer.analysis.position == game.position()


@pytest.mark.parametrize("edit", [lambda e: e.resize(2.5, 3), lambda e: e.set_mines(2.9)])
def test_sizes_and_counts_are_whole_numbers_not_truncated(edit):
    explorer = Explorer(Position.from_text("mines: 1\n?1.\n?1."), mode="edit")
    with pytest.raises(InvalidInput, match="must be a whole number"):
        edit(explorer)


def test_an_analysis_refused_leaves_the_explorer_whole():
    # Refused before any counting (the position too large for the time): the board is shown
    # with no analysis, and the summary says why.
    from msanalysis.errors import TimeLimitReached

    def refusing(position, ignore_flags):
        if position.shape[0] > 2:
            raise TimeLimitReached("too large for the time limit")
        return analyze(position, ignore_flags=ignore_flags)

    explorer = Explorer("??\n11", analyser=refusing)
    explorer.resize(5, 5)
    assert explorer.position.shape == (5, 5) and explorer.analysis is None
    assert explorer.get_state()["_board"]["width"] == 5
    assert "no analysis (too large for the time limit)" in explorer.summary


def test_a_failed_load_keeps_the_game_shown():
    explorer = Explorer(Board.from_text("*..\n...\n..."))
    game = explorer.game
    with pytest.raises(InvalidInput, match="cannot explore an int"):
        explorer.load(42)
    assert explorer.game is game
    explorer.reveal((2, 2))
    assert explorer.game.status.value == "won"


@pytest.mark.parametrize("options", [{"mode": "bogus"}, {"cell_size": "x"}, {"cell_size": 0},
                                     {"overlays": "no"}, {"analyser": 5}])
def test_the_explorer_checks_its_options_itself(options):
    # traitlets raised its own TraitError (no error of ours), and took a cell size of 0.
    with pytest.raises(InvalidInput):
        Explorer(**options)


def test_a_message_the_page_could_not_have_sent_becomes_the_message_line():
    explorer = Explorer("??\n11")
    wire = Wire(explorer)
    explorer._on_message(explorer, {"kind": "click", "index": float("inf"), "token": 4}, [])
    assert explorer.message  # int(inf) raised OverflowError past the handler
    assert {"method": "custom", "content": {"done": 4}} in wire.messages


def test_options_set_after_the_start_are_checked_as_at_the_start():
    explorer = Explorer("??\n11")
    for value in (0, -5, 10**12, "20", 2.5):
        with pytest.raises(InvalidInput, match="cell_size"):
            explorer.cell_size = value
    assert explorer.cell_size == Explorer().cell_size
    for value in ("explain", 3, None):
        with pytest.raises(InvalidInput, match="mode is one of play, edit, replay"):
            explorer.mode = value
    with pytest.raises(InvalidInput, match="overlays is True or False"):
        explorer.overlays = "yes"
    assert (explorer.mode, explorer.overlays) == ("play", True)
    with pytest.raises(InvalidInput, match="no replay loaded"):
        explorer.step = 5
    assert explorer.step == 0


@pytest.mark.parametrize("name", ["status", "message", "summary", "steps", "revision",
                                  "selected"])
def test_what_the_explorer_reports_cannot_be_set_from_outside(name):
    # Setting them would show a state the game and the analysis do not have.
    import traitlets

    explorer = Explorer(Game(Board.from_text("*..\n...\n...")))
    before = getattr(explorer, name)
    with pytest.raises(traitlets.TraitError, match=f"{name}.*read-only"):
        setattr(explorer, name, before)
    explorer.reveal((2, 2))
    assert explorer.status == "won" and explorer.revision == 2 and explorer.steps == 0


def test_explain_mode_on_a_game_reads_its_flags_as_play_mode_does():
    # Replay mode without a replay (clicks explain) analysed as if flags were not there: three
    # flags for two mines showed 28 layouts. Only a replay's flags, a player's, are ignored.
    explorer = Explorer(Game(Board.from_text("*..\n...\n..*")), mode="replay")
    explorer.reveal((1, 1))
    for cell in [(0, 1), (2, 1), (1, 0)]:
        explorer.flag(cell)
    assert explorer.analysis is None and "no layout fits" in explorer.summary
    replay = record_autoplay(9, 9, 10, seed=3, strategy="safest")
    explorer.load(replay)
    explorer.go_to(len(replay.actions) // 2)
    hidden = sorted(explorer.position.hidden)
    explorer.set_cell(hidden[0], "F")  # an edit lets the replay go: the flag is the user's
    assert explorer.analysis.solutions == analyze(explorer.position).solutions
    assert explorer.analysis.solutions != analyze(explorer.position, ignore_flags=True).solutions


def test_a_file_name_given_as_text_is_told_to_be_a_path(tmp_path):
    file = tmp_path / "game.avf"
    file.write_bytes(b"")
    from msanalysis.errors import ParseError

    with pytest.raises(ParseError, match=r"not as a file's name: load\(Path\("):
        Explorer(str(file))


def test_a_long_probability_is_shown_short():
    # Clues of many sizes make fractions of dozens of digits (a thousand on 100x100 boards):
    # the hover shows six digits then, the exact fraction staying the analysis's.
    import random

    from msanalysis.exact import fraction_text

    game = Game.started(40, 40, 320, rules="safe-opening", first_click=(20, 20), seed=1)
    rng = random.Random(1)
    for cell in rng.sample(sorted(c for c in game.position().hidden
                                  if not game.board.is_mine(c)), 30):
        game.reveal(cell)
    explorer = Explorer(game)
    exact = explorer.analysis.exact_probability
    cell = max(explorer.position.hidden, key=lambda c: len(fraction_text(exact(c))))
    assert len(fraction_text(exact(cell))) > 24
    text = explorer.probability_text(cell)
    assert text.split(" (")[0] == f"≈{float(exact(cell)):.6g}", text


def test_a_long_chance_near_1_is_not_rounded_to_a_certain_mine():
    from msanalysis.explorer import _short_fraction

    near = Fraction(10**30 - 7, 10**30 + 13)
    assert _short_fraction(near) == "≈1 - 2e-29"
    assert _short_fraction(Fraction(1, 3)) == "1/3"


def test_probability_text_follows_a_game_moved_directly_and_refuses_a_cell_off_the_board():
    game = Game(Board.from_text("*..\n...\n..*"))
    game.reveal((0, 2))
    explorer = Explorer(game)
    assert explorer.probability_text((1, 0)) == "1/2 (50%)"
    game.reveal((2, 0))  # not through the explorer: (1, 0) is now a revealed 1
    assert explorer.probability_text((1, 0)) == ""
    explorer.explain((1, 0))
    assert explorer.selected == {}
    for cell in [(7, 7), "junk"]:
        with pytest.raises(InvalidInput):
            explorer.probability_text(cell)
