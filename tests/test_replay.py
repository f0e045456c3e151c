"""Tests for reading, writing, recording and playing back replays (msanalysis.replay).

Real replays come from ``../shared/replays`` beside the repository (skipped when absent); the
project's own replays come from seeded games and are tested everywhere.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path

import numpy as np
import pytest

from msanalysis.board import Board
from msanalysis.errors import InvalidInput
from msanalysis.game import Game
from msanalysis.play.judge import record_autoplay
from msanalysis.position import FLAG, HIDDEN
from msanalysis.replay import (
    Action,
    ActionKind,
    Replay,
    ReplayError,
    ReplayRecorder,
    load_replay,
    save_replay,
)
from replay_files import SHARED, SHARED_FILES, needs_shared

# What the shared folder's README says of each file: (width, height, mines).
SIZES = {"Cus_8x11": (8, 11, 7), "Wang_Jia_Ning_Beg": (8, 8, 10), "beg_chinese": (8, 8, 10),
         "Zhang Shen Jia_Exp": (30, 16, 99), "b_5_3.796": (8, 8, 10), "test_rmv2": (8, 8, 10)}


def _toollib_video(path: Path):
    import ms_toollib

    kind = {".avf": ms_toollib.AvfVideo, ".rmv": ms_toollib.RmvVideo,
            ".evf": ms_toollib.EvfVideo, ".mvf": ms_toollib.MvfVideo}[path.suffix]
    video = kind(str(path))
    video.parse()
    video.analyse()
    return video


# -- real replays --------------------------------------------------------------------------------

@needs_shared
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name[:24])
def test_shared_replay_loads_with_its_size_and_facts(path):
    replay = load_replay(path)
    size = next(value for prefix, value in SIZES.items() if path.name.startswith(prefix))
    assert (replay.width, replay.height, replay.mines) == size
    assert replay.source == str(path)
    assert replay.player and replay.program and replay.date is not None
    assert replay.rules in ("safe-cell", "no-guess")
    assert replay.actions and 0 <= replay.actions[0].time < 0.1
    assert all(a.time <= b.time for a, b in zip(replay.actions, replay.actions[1:]))
    assert replay.first_click is not None and not replay.board.is_mine(replay.first_click)
    video = _toollib_video(path)
    assert replay.board.bbbv == video.bbbv
    assert replay.seconds == pytest.approx(video.rtime)


@needs_shared
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name[:24])
def test_played_back_a_replay_ends_on_the_board_the_file_records(path):
    """Our play-back of our actions against ms-toollib's own final board, read separately."""
    replay = load_replay(path)
    game = replay.play()
    assert game.status == "won"
    video = _toollib_video(path)
    recorded = np.array(video.events[-1].next_game_board.game_board)
    ours = game.position().states
    assert np.array_equal(recorded <= 8, ours >= 0)
    assert np.array_equal(recorded[recorded <= 8], ours[ours >= 0])
    assert np.array_equal(recorded == 11, ours == FLAG)


@needs_shared
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name[:24])
def test_the_layout_reproduces_every_number_the_player_saw(path):
    replay = load_replay(path)
    numbers = replay.board.numbers
    seen = 0
    for event in _toollib_video(path).events:
        if event.useful_level:
            shown = np.array(event.next_game_board.game_board)
            revealed = shown <= 8
            assert not (revealed & replay.board.mask).any()
            assert np.array_equal(shown[revealed], numbers[revealed])
            seen += 1
    assert seen >= len([a for a in replay.actions if a.kind is not ActionKind.UNFLAG]) // 2


@needs_shared
def test_preflags_and_chords_become_actions():
    replay = load_replay(SHARED / "test_rmv2_16px_preflags.rmv")
    kinds = [a.kind for a in replay.actions]
    first_reveal = kinds.index(ActionKind.REVEAL)
    assert first_reveal > 0 and set(kinds[:first_reveal]) == {ActionKind.FLAG}
    assert ActionKind.CHORD in kinds and ActionKind.UNFLAG in kinds
    # A chord is on a revealed number, a flag on a covered cell.
    for _index, action, game in replay.before_each():
        if action.kind is ActionKind.CHORD:
            assert game.is_revealed(action.cell)
        elif action.kind is ActionKind.FLAG:
            assert not game.is_revealed(action.cell)


@needs_shared
def test_pixels_of_a_24_pixel_replay_map_to_cells():
    replay = load_replay(SHARED / "test_rmv2_24px.rmv")
    assert replay.play().status == "won"
    assert all(0 <= a.cell[0] < 8 and 0 <= a.cell[1] < 8 for a in replay.actions)


@needs_shared
def test_a_real_replay_survives_our_format(tmp_path):
    replay = load_replay(SHARED / "Zhang Shen Jia_Exp_38.82(3bv122).mvf")
    save_replay(replay, tmp_path / "exp.msreplay.jsonl")
    again = load_replay(tmp_path / "exp.msreplay.jsonl")
    assert again == replay and again.program == "Minesweeper Clone 0.97 beta"


# -- our own replays -----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_recorded_games_round_trip(tmp_path, seed):
    rules = ["safe-cell", "safe-opening", "windows-xp", "unsafe"][seed % 4]
    replay = record_autoplay(9, 9, 10, seed=seed, rules=rules, strategy="safest",
                             flag_mines=seed % 2 == 0)
    path = tmp_path / f"game{seed}.msreplay.jsonl"
    save_replay(replay, path)
    loaded = load_replay(path)
    assert loaded == replay
    assert loaded.source == str(path) and replay.source is None
    assert loaded.rules == rules and loaded.program == "msanalysis"
    header = json.loads(path.read_text().splitlines()[0])
    assert header["result"] == replay.play().status
    assert header["first_click"] == list(replay.first_click)


def test_a_recorded_game_plays_back_to_the_same_end():
    board = Board.from_text("*....\n.....\n..*..\n.....\n....*")
    game = Game(board)
    recorder = ReplayRecorder(game, clock=iter(range(100)).__next__)
    recorder.reveal((0, 4))
    recorder.flag((0, 0))
    recorder.flag((2, 2))
    recorder.unflag((2, 2))
    recorder.reveal((4, 0))
    replay = recorder.replay()
    again = replay.play()
    assert np.array_equal(again.position().states, game.position().states)
    assert again.status == game.status
    assert [a.kind for a in replay.actions] == ["reveal", "flag", "flag", "unflag", "reveal"]


def test_windows_xp_keeps_the_layout_in_play():
    # Seed 1 puts a mine under (0, 0) before the move (checked here), so the layout changes.
    from msanalysis.rules import generate

    for seed in range(200):
        if generate(9, 9, 10, rules="unsafe", seed=seed).is_mine((4, 4)):
            break
    replay = record_autoplay(9, 9, 10, seed=seed, rules="windows-xp", first_click=(4, 4),
                             strategy="safest")
    assert not replay.board.is_mine((4, 4))
    assert replay.play().clicks >= 1


def test_recorder_must_see_the_first_click():
    game = Game.started(9, 9, 10, seed=1)
    with pytest.raises(ValueError, match="before the first click"):
        ReplayRecorder(game)


def test_more_flags_than_mines_play_back():
    board = Board.from_text("*..\n...\n...")
    # Flags placed before the first click, as Viennasweeper allows; the cascade leaves them.
    replay = Replay(board, [Action("flag", (0, 1)), Action("flag", (1, 0)),
                            Action("flag", (0, 0)), Action("reveal", (2, 2))])
    game = replay.play()
    assert game.flags_placed == 3 and game.status == "playing"
    assert game.is_revealed((1, 1)) and not game.is_revealed((0, 1))


def test_action_checks():
    with pytest.raises(ValueError, match="unknown action"):
        Action("dig", (0, 0))
    with pytest.raises(ValueError, match="off the"):
        Replay(Board.from_text("*."), [Action("reveal", (0, 2))])
    with pytest.raises(ValueError, match="unknown rules"):
        Replay(Board.from_text("*."), [], rules="lucky")


# -- bad files -----------------------------------------------------------------------------------

def _ours(tmp_path, seed=2, **changes) -> tuple[Path, list[str]]:
    replay = record_autoplay(9, 9, 10, seed=seed, strategy="safest", flag_mines=True)
    path = tmp_path / "game.msreplay.jsonl"
    save_replay(replay, path)
    lines = path.read_text().splitlines()
    if changes:
        header = json.loads(lines[0])
        header.update(changes)
        lines[0] = json.dumps(header)
    return path, lines


def _error(path: Path) -> ReplayError:
    start = time.perf_counter()
    with pytest.raises(ReplayError) as caught:
        load_replay(path)
    assert time.perf_counter() - start < 30
    assert str(path) in str(caught.value)
    return caught.value


def test_our_format_truncated(tmp_path):
    path, lines = _ours(tmp_path)
    text = "\n".join(lines)
    path.write_text(text[:len(text) - 7])
    assert "truncated" in _error(path).reason


def test_our_format_unknown_version(tmp_path):
    path, lines = _ours(tmp_path, version=7)
    path.write_text("\n".join(lines) + "\n")
    error = _error(path)
    assert "unknown version 7" in error.reason and error.line == 1
    for version, shown in ((True, "True"), (1.0, "1.0"), ("1", "'1'")):  # equal to 1 in Python
        path, lines = _ours(tmp_path, version=version)
        path.write_text("\n".join(lines) + "\n")
        assert f"unknown version {shown}" in _error(path).reason


def test_our_format_refuses_fields_it_does_not_name(tmp_path):
    # A misspelt field was dropped unseen, and with "Result" the check of the result it asks for.
    path, lines = _ours(tmp_path)
    header = json.loads(lines[0])
    header["Result"] = header.pop("result")
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    error = _error(path)
    assert error.line == 1 and error.reason.startswith(
        "unknown header field 'Result' (version 1 has format, version, width, height, mines, ")
    action = json.loads(lines[1])
    action["Cell"] = action["cell"]
    path.write_text("\n".join([lines[0], json.dumps(action), *lines[2:]]) + "\n")
    error = _error(path)
    assert (error.line, error.reason) == (
        2, "unknown field 'Cell' in an action (an action has time, action, cell)")


@pytest.mark.parametrize("row", ["# a comment", " ..*.....", "..*......\n.........", ""])
def test_our_format_layout_rows_are_stars_and_dots(tmp_path, row):
    # The text reader takes comments, spaces and line breaks; a replay's rows are plain rows.
    path, lines = _ours(tmp_path)
    header = json.loads(lines[0])
    header["layout"] = [*header["layout"][:-1], row]
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert _error(path).reason == "header field 'layout' must be a list of rows of '*' and '.'"


def test_our_format_not_a_replay(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": "world"}\n')
    assert "not a replay" in _error(path).reason
    path.write_text("hello\n")
    assert "not a replay" in _error(path).reason


def test_our_format_layout_contradicting_the_clicks(tmp_path):
    path, lines = _ours(tmp_path)
    replay = load_replay(path)
    # Move a mine under a cell the player revealed later: the game ends there, and the clicks
    # recorded after it cannot be played.
    reveals = [a.cell for a in replay.actions if a.kind is ActionKind.REVEAL]
    target = reveals[len(reveals) // 2]
    mine = next(iter(replay.board.mines))
    mask = replay.board.mask.copy()
    mask[mine], mask[target] = False, True
    header = json.loads(lines[0])
    header["layout"] = Board(mask).to_text().splitlines()
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines) + "\n")
    error = _error(path)
    assert "contradicts the recorded clicks" in error.reason and error.line is not None


def test_our_format_result_contradicting_the_clicks(tmp_path):
    path, lines = _ours(tmp_path, seed=4)
    status = load_replay(path).play().status
    header = json.loads(lines[0])
    header["result"] = "lost" if status == "won" else "won"
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines) + "\n")
    assert "contradicts the recorded clicks" in _error(path).reason


@pytest.mark.parametrize("line, expected", [
    ('{"time": 0.5, "action": "dig", "cell": [0, 0]}', "unknown action"),
    ('{"time": 0.5, "action": "reveal", "cell": [99, 0]}', "off the"),
    ('{"time": "soon", "action": "reveal", "cell": [0, 0]}', "time"),
    ('[1, 2]', "not a JSON object"),
    ('{"time": 1' + "0" * 400 + ', "action": "reveal", "cell": [0, 0]}', "time"),
    ('{"time": NaN, "action": "reveal", "cell": [0, 0]}', "time"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_our_format_bad_action_lines(tmp_path, line, expected):
    path, lines = _ours(tmp_path)
    lines.insert(3, line)
    path.write_text("\n".join(lines) + "\n")
    error = _error(path)
    assert expected in error.reason and error.line == 4


def _timed(lines: list[str], times: list[float]) -> list[str]:
    """The replay's lines with its actions' times replaced by ``times``, in order."""
    timed = lines[:1]
    for line, moment in zip(lines[1:], times, strict=True):
        record = json.loads(line)
        record["time"] = moment
        timed.append(json.dumps(record))
    return timed


@pytest.mark.parametrize("change, expected", [
    ({0: -5}, "an action's time is -5.0 s: times count from 0"),
    ({3: 1.5}, "an action's time 1.5 s is before the previous action's 2.0 s: times may not "
               "decrease"),
    ({2: float("inf")}, 'an action needs "time": seconds'),
])
def test_our_format_times_count_from_0_in_order(tmp_path, change, expected):
    path, lines = _ours(tmp_path)
    times = [float(index) for index in range(len(lines) - 1)]
    path.write_text("\n".join(_timed(lines, times)) + "\n")
    assert [a.time for a in load_replay(path).actions] == times
    for index, moment in change.items():
        times[index] = moment
    path.write_text("\n".join(_timed(lines, times)) + "\n")
    error = _error(path)
    assert error.reason == expected and error.line == 2 + next(iter(change))
    times = [0.0] * (len(lines) - 1)  # equal times are in order: clicks within one tick
    path.write_text("\n".join(_timed(lines, times)) + "\n")
    assert load_replay(path).duration >= 0


@pytest.mark.parametrize("number", ["9" * 5000, "-" + "1" * 4301])
def test_our_format_numbers_too_long_to_read(tmp_path, number):
    path, lines = _ours(tmp_path)
    lines.insert(2, '{"time": ' + number + ', "action": "reveal", "cell": [0, 0]}')
    path.write_text("\n".join(lines) + "\n")
    error = _error(path)
    assert error.line == 3 and error.reason.startswith("a number too large (more than ")
    assert "set_int_max_str_digits" not in str(error)


def test_our_format_bad_header(tmp_path):
    path, lines = _ours(tmp_path, mines=11)
    path.write_text("\n".join(lines) + "\n")
    assert "the header says 11" in _error(path).reason
    path, lines = _ours(tmp_path, rules="lucky")
    path.write_text("\n".join(lines) + "\n")
    assert "unknown rules" in _error(path).reason


@pytest.mark.parametrize("field, value, expected", [
    ("first_click", 5, "'first_click' is not [row, col]"),
    ("first_click", [0, True], "'first_click' is not [row, col]"),
    ("seconds", 10 ** 400, "'seconds' is not a number of seconds"),
    ("seconds", -1, "'seconds' is not a number of seconds"),
    ("seconds", float("nan"), "'seconds' is not a number of seconds"),
    ("player", 5, "header field 'player' is missing or not a string"),
    ("program", [1], "header field 'program' is missing or not a string"),
])
def test_our_format_header_values_of_the_wrong_kind(tmp_path, field, value, expected):
    path, lines = _ours(tmp_path)
    header = json.loads(lines[0])
    header[field] = value
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines) + "\n")
    error = _error(path)
    assert expected in error.reason and error.line == 1
    assert str(error).count(str(path)) == 1


def test_names_in_the_header_are_made_printable(tmp_path):
    # json.dumps writes a lone surrogate as the escape \\ud800, which json.loads reads back.
    path, lines = _ours(tmp_path, player="\ud800 Ann\nLee", program="X\x1b[2J\u2028Y")
    path.write_text("\n".join(lines) + "\n")
    replay = load_replay(path)
    assert replay.player == "\\ud800 Ann\\nLee" and replay.program == "X\\x1b[2J\\u2028Y"
    assert replay.player.isprintable() and replay.program.isprintable()
    path, lines = _ours(tmp_path, player="王嘉宁\u3000(China)")
    path.write_text("\n".join(lines) + "\n")
    assert load_replay(path).player == "王嘉宁\u3000(China)"  # spaces of any script are kept


def test_empty_unknown_and_binary_files(tmp_path):
    empty = tmp_path / "empty.evf"
    empty.write_bytes(b"")
    assert "empty" in _error(empty).reason
    other = tmp_path / "board.txt"
    other.write_text("*..\n...\n")
    assert "unknown replay format" in _error(other).reason
    noise = tmp_path / "noise.jsonl"
    noise.write_bytes(bytes(range(256)))
    assert "not a replay" in _error(noise).reason


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_endless_devices_are_read_with_a_bound():
    # Their size says 0: emptiness is told from the bytes read, which stop past 64 MiB.
    for device in ("/dev/zero", "/dev/urandom"):
        assert "more than 64 MiB" in _error(Path(device)).reason


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_read_like_a_file(tmp_path):
    import threading

    path, _ = _ours(tmp_path)
    for suffix, data in ((".msreplay.jsonl", path.read_bytes()), (".avf", b"")):
        fifo = tmp_path / f"pipe{suffix}"
        os.mkfifo(fifo)
        writer = threading.Thread(target=fifo.write_bytes, args=(data,), daemon=True)
        writer.start()
        if data:
            assert load_replay(fifo) == load_replay(path)
        else:
            assert _error(fifo).reason == "empty file: not a replay"
        writer.join()


def test_standard_input_is_read_as_our_format(tmp_path, monkeypatch):
    import io
    import sys

    path, _ = _ours(tmp_path)

    def stdin_holding(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    stdin_holding(path.read_bytes())
    replay = load_replay("-")
    assert replay == load_replay(path) and replay.source == "-"
    for data, expected in ((b"", "stdin: empty file: not a replay"),
                           (b"*rmv\x00\x02", "stdin: not a replay in our format (.msreplay.jsonl), "
                            "which standard input is read as: name the format of an .avf, .rmv, "
                            ".evf or .mvf replay with --format (format= in load_replay)")):
        stdin_holding(data)
        with pytest.raises(ReplayError) as caught:
            load_replay("-")
        assert str(caught.value) == expected


EXPERT = Path(__file__).resolve().parent.parent / "puzzles/replays/zhang-shen-jia-expert-3bv122.mvf"


def test_a_format_named_reads_standard_input_and_files_whatever_their_names(tmp_path,
                                                                             monkeypatch):
    import io
    import sys

    expected = load_replay(EXPERT)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EXPERT.read_bytes())))
    assert load_replay("-", format="mvf") == expected
    renamed = tmp_path / "downloaded.bin"
    renamed.write_bytes(EXPERT.read_bytes())
    assert "--format" in _error(renamed).reason  # the name says nothing: the error says how
    for name in ("mvf", "MVF", ".mvf"):
        assert load_replay(renamed, format=name) == expected
    # The format named wins over the name's ending, and a wrong one is a clear error.
    with pytest.raises(ReplayError, match=r"not a readable \.avf replay"):
        load_replay(renamed, format="avf")
    ours, _ = _ours(tmp_path)
    assert load_replay(ours, format="JSONL") == load_replay(ours)
    with pytest.raises(ReplayError, match=r"not a readable \.evf replay"):
        load_replay(ours, format="evf")  # named, it is read so, though its bytes say ours
    for bad in ("xyz", "", 3, None.__class__):
        with pytest.raises(InvalidInput, match=r"unknown replay format .*: expected one of "
                                               r"avf, rmv, evf, mvf, jsonl$"):
            load_replay(renamed, format=bad)


def test_random_bytes_under_each_binary_extension(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(5)
    for suffix in (".avf", ".rmv", ".evf", ".mvf"):
        for size in (1, 40, 3000):
            path = tmp_path / f"noise{size}{suffix}"
            path.write_bytes(bytes(rng.randrange(256) for _ in range(size)))
            assert "not a readable" in _error(path).reason
    # ms-toollib's panics leave a crash.log behind in the working directory: not in ours.
    assert not (tmp_path / "crash.log").exists()


@needs_shared
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name[:24])
def test_truncated_copies_of_real_replays(tmp_path, path):
    data = path.read_bytes()
    cut = tmp_path / f"cut{path.suffix}"
    for fraction in (0.05, 0.5):
        cut.write_bytes(data[:int(len(data) * fraction)])
        assert "not a readable" in _error(cut).reason
    cut.write_bytes(data[:-len(data) // 100])
    try:
        replay = load_replay(cut)
    except ReplayError as error:
        assert str(cut) in str(error)
    else:
        # .avf files end with data that is not the game's: the game itself is all there.
        assert replay == load_replay(path)


def _toollib_answer(kind: str, path: Path) -> dict:
    """What the child process that runs ms-toollib answers for ``path``, as the reader runs it."""
    import subprocess
    import sys

    from msanalysis import replay as module

    script = Path(module.__file__).with_name("_toollib.py")
    return json.loads(subprocess.run([sys.executable, "-P", str(script), kind, str(path)],
                                     capture_output=True, check=True).stdout)


@needs_shared
def test_a_toollib_layout_that_contradicts_the_clicks():
    from msanalysis.replay import _from_toollib

    path = SHARED / "test_rmv2_24px.rmv"
    data = _toollib_answer("rmv", path)
    replay = _from_toollib(data, "rmv", str(path))
    # Swap a mine with a cell the first click uncovered: numbers then differ from the file's.
    first = replay.first_click
    mine = sorted(replay.board.mines)[0]
    layout = [row[:] for row in data["layout"]]
    layout[mine[0]][mine[1]], layout[first[0]][first[1]] = 0, -1
    data["layout"] = layout
    with pytest.raises(ReplayError, match="contradicts the recorded clicks"):
        _from_toollib(data, "rmv", str(path))


def test_a_won_game_cut_short_is_refused(tmp_path):
    from msanalysis.replay import _from_toollib

    path = EXPERT
    data = _toollib_answer("mvf", path)
    assert data["completed"] and _from_toollib(data, "mvf", str(path)).play().status == "won"
    # A byte that reads as the end of the events: ms-toollib drops the rest and says nothing.
    data["events"] = data["events"][:-3]
    with pytest.raises(ReplayError, match=r"the file says the game was won, but it is playing "
                                          r"after its 145 actions: the file is truncated or "
                                          r"damaged"):
        _from_toollib(data, "mvf", str(path))


def test_a_replay_too_large_to_read_is_a_limit(tmp_path, monkeypatch):
    import subprocess

    from msanalysis import _toollib
    from msanalysis import replay as module
    from msanalysis.errors import AnalysisTooHard

    # Found by fuzzing: a 64 KB .evf of 3,500 flag toggles on a 255x255 board took 14 s and
    # 1.9 GB, every button event's board compared cell by cell; now counted before the work.
    path = EXPERT
    monkeypatch.setattr(_toollib, "MOST_CELL_EVENTS", 528 * 480 - 1)  # its buttons times cells
    assert _toollib.read("mvf", str(path)) == {
        "too_large": "528 button events on a 30x16 board, more than 253,439 cells to compare"}
    monkeypatch.setattr(_toollib, "MOST_CELL_EVENTS", 528 * 480)
    assert "events" in _toollib.read("mvf", str(path))
    answer = '{"too_large": "528 button events on a 30x16 board, more than 1 cells to compare"}'
    monkeypatch.setattr(module.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(
        a, 0, stdout=answer.encode(), stderr=b""))
    with pytest.raises(AnalysisTooHard, match=rf"^{re.escape(str(path))}: too large to read: "
                                              r"528 button events on a 30x16 board"):
        load_replay(path)


@needs_shared
def test_a_won_evf_whose_events_end_early_is_refused(tmp_path):
    # Found by fuzzing: one byte set to 0xff ended the events, and the won game of 4 clicks was
    # judged as a game of 2 still being played.
    path = SHARED / "b_5_3.796_3BV=3_3BVs=0.790_\u738b\u5609\u5b81(\u51433.1.9_v3).evf"
    cut = tmp_path / "cut.evf"
    cut.write_bytes(path.read_bytes()[:1006] + b"\xff")
    assert "the file says the game was won, but it is playing after its 2 actions" in \
        str(_error(cut))


def test_missing_ms_toollib_names_the_extra(tmp_path, monkeypatch):
    import importlib.util

    path = tmp_path / "game.avf"
    path.write_bytes(b"\x01" * 100)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ms_toollib" else real(name, *a))
    with pytest.raises(ModuleNotFoundError, match=r"msanalysis\[replays\]"):
        load_replay(path)


def test_a_directory_is_not_a_replay(tmp_path):
    with pytest.raises(IsADirectoryError):
        load_replay(tmp_path)


def test_position_without_flags_keeps_the_rest():
    from msanalysis.replay import position_without_flags

    replay = record_autoplay(9, 9, 10, seed=5, strategy="safest", flag_mines=True)
    position = replay.play().position()
    stripped = position_without_flags(position)
    assert not (stripped.states == FLAG).any()
    changed = position.states != stripped.states
    assert (position.states[changed] == FLAG).all() and (stripped.states[changed] == HIDDEN).all()


# -- the replays kept in the repository ----------------------------------------------------------

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "replays"


def test_the_expert_replay_in_the_repository():
    replay = load_replay(PUZZLES / "zhang-shen-jia-expert-3bv122.mvf")
    assert (replay.width, replay.height, replay.mines, replay.board.bbbv) == (30, 16, 99, 122)
    assert replay.player == "Zhang Shen Jia(China)" and replay.play().status == "won"
    shared = SHARED / "Zhang Shen Jia_Exp_38.82(3bv122).mvf"
    if shared.exists():
        assert shared.read_bytes() == (PUZZLES / "zhang-shen-jia-expert-3bv122.mvf").read_bytes()


def test_the_large_replay_in_the_repository():
    replay = load_replay(PUZZLES / "safest-60x36-540-seed23.msreplay.jsonl")
    assert (replay.width, replay.height, replay.mines) == (60, 36, 540)
    assert replay.board.bbbv == 1018 and replay.play().status == "won"
    assert replay.player == "safest" and replay.rules == "safe-opening"


@pytest.mark.parametrize("change, message", [
    ({"seconds": -3}, "seconds are a finite number from 0 up, got -3"),
    ({"seconds": float("nan")}, "seconds are a finite number from 0 up"),
    ({"player": 5}, "a replay's player is a string, got 5"),
    ({"date": "2020-01-01"}, "a replay's date is a datetime"),
    ({"actions": (Action("reveal", (1, 2), 1.0), Action("flag", (0, 0), 0.5))},
     "action 1 has time 0.5: times are finite seconds from 0 up, in the order of the actions"),
    ({"actions": (Action("reveal", (1, 2), -1.0),)}, "action 0 has time -1.0"),
    ({"actions": (Action("reveal", (0, 0), 0.0),)},
     r"the first click \(0, 0\) is on a mine, which the rules \(safe-cell\) do not allow"),
    ({"board": "*..\n..."}, "a replay takes a Board, got a str"),
])
def test_a_replay_made_in_a_program_is_checked_as_one_read_from_a_file(change, message):
    # Whatever load_replay refuses in a file, Replay refuses when made: what is made can be
    # saved and read back.
    fields = {"board": Board.from_text("*..\n..."), "rules": "safe-cell",
              "actions": (Action("reveal", (1, 2), 0.0),)}
    with pytest.raises(InvalidInput, match=message):
        Replay(**(fields | change))


def test_a_replay_made_in_a_program_is_read_back_the_same(tmp_path):
    replay = Replay(Board.from_text("*..\n..."), (Action("reveal", (1, 2), 0.0),
                                                  Action("flag", (np.int64(0), 0), 0.5)),
                    rules="safe-cell", player="Ann", seconds=1.0)
    save_replay(replay, tmp_path / "a.msreplay.jsonl")
    assert load_replay(tmp_path / "a.msreplay.jsonl") == replay
    with pytest.raises(InvalidInput, match="a cell is a pair of whole numbers"):
        Action("reveal", (1.7, 0.2))


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_replay_that_cannot_be_written_names_its_file(tmp_path):
    # A full disk raised an OSError naming no file, which the command line took for its output.
    path, _ = _ours(tmp_path)
    with pytest.raises(OSError) as caught:
        save_replay(load_replay(path), "/dev/full")
    assert caught.value.filename == "/dev/full"


def test_a_replay_refuses_what_it_could_not_save_and_the_recorder_its_clock_at_once(tmp_path):
    from fractions import Fraction

    from msanalysis.errors import WrongType

    board = Board.from_text("..\n.*")
    replay = Replay(board, [("reveal", (0, 0), 0.0)], seconds=Fraction(1, 2))
    save_replay(replay, tmp_path / "a.msreplay.jsonl")  # a Fraction was no JSON
    assert load_replay(tmp_path / "a.msreplay.jsonl").seconds == 0.5
    for name in ["\ud800", "a\tb", "a\nb", "a\x00b", "a\u2028b"]:
        # A lone surrogate cannot be written; the others were read back escaped (a\\tb).
        with pytest.raises(InvalidInput, match="player is printable text"):
            Replay(board, [("reveal", (0, 0), 0.0)], player=name)
    named = Replay(board, [("reveal", (0, 0), 0.0)], player="王嘉宁 (China)", program="x y")
    save_replay(named, tmp_path / "b.msreplay.jsonl")
    assert load_replay(tmp_path / "b.msreplay.jsonl") == named
    with pytest.raises(WrongType, match="a \\(kind, cell, time\\) tuple"):
        Replay(board, [("reveal",)])
    with pytest.raises(InvalidInput, match="time inf"):
        Replay(board, [("reveal", (0, 0), 10**400)])
    # The clock's faults were found only when the replay was made, the game over.
    recorder = ReplayRecorder(Game(board), clock=lambda: "x")
    with pytest.raises(InvalidInput, match="clock gave 'x'"):
        recorder.reveal((0, 0))
    readings = iter([5.0, 3.0])
    recorder = ReplayRecorder(Game(board), clock=readings.__next__)
    recorder.reveal((0, 0))
    with pytest.raises(InvalidInput, match="clock went back"):
        recorder.record("flag", (1, 1))
    with pytest.raises(InvalidInput, match="off the 2x2 board"):
        recorder.record("reveal", (5, 0))


def test_a_binary_file_read_as_ours_is_named_as_not_ours(tmp_path):
    # Said "neither an .avf, .rmv, .evf or .mvf file", of an .avf read with format="jsonl".
    path = tmp_path / "game.avf"
    path.write_bytes(b"\x00\x01\xff binary")
    with pytest.raises(ReplayError, match=r"not a replay in our format \(\.msreplay\.jsonl\), "
                                          r"which is UTF-8 text: an \.avf"):
        load_replay(path, format="jsonl")
