"""Never a traceback, never a hang: the command line on large, hostile and wrong input.

One test per class of failure an adversarial try of the command line found (tracebacks, hangs,
wrong answers, messages), then a fuzz test that feeds random files and option values to every
command and checks the one rule: exit status 0-3 with, on failure, one ``error:`` line.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from children import ctrl_c_as_default, killed_at_the_end
from msanalysis import files
from msanalysis.board import Board
from msanalysis.cli import app
from msanalysis.constraints import build
from msanalysis.errors import ParseError
from msanalysis.game import Game
from msanalysis.position import HIDDEN, Position
from msanalysis.replay import Replay, ReplayRecorder, save_replay

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
runner = CliRunner()
CLI = [sys.executable, "-c", "from msanalysis.cli import app; app()"]
"""The command in a process of its own, for what only a real process shows."""


def run(*args: object, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def one_error_line(result, status: int) -> str:
    """The single error line of a failed command, checked."""
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


# -- tracebacks ------------------------------------------------------------------------------------

def test_counts_of_any_size_are_written(tmp_path):
    # 150x150 all hidden with 4,500 mines: comb(22500, 4500) layouts, some 4,900 digits, more
    # than Python's str() writes.
    path = tmp_path / "huge.txt"
    path.write_text("mines: 4500\n" + "\n".join(["?" * 150] * 150) + "\n")
    data = json.loads(run("analyze", path, "--json").stdout)
    assert len(data["solutions"]) > 4300 and data["solutions"].isdigit()
    text = run("analyze", path)
    assert text.exit_code == 0
    assert "solutions: about " in text.stdout and "digits)" in text.stdout


def test_reconstruct_counts_of_any_size(tmp_path):
    path = tmp_path / "open.txt"
    path.write_text("\n".join(["?" * 150] * 150) + "\n")  # every cell free: 2**22500 layouts
    data = json.loads(run("reconstruct", path, "--all", "--json").stdout)
    assert len(data["solutions"]) == 6774 and data["exhaustive"] is True
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # this test may read back what the command may not write
    try:
        assert int(data["solutions"]) == 2 ** 22500
    finally:
        sys.set_int_max_str_digits(limit)
    assert "about" in run("reconstruct", path, "--all").stdout


@pytest.mark.parametrize("args", [
    ["generate", "--width", "100000000000", "--height", "1", "--mines", "1"],
    ["generate", "--width", "100000", "--height", "100000", "--mines", "5"],
    ["play", "--games", "1", "--width", "100000", "--height", "100000", "--mines", "5"],
])
def test_sizes_that_cannot_be_held_are_refused(args):
    assert "at most 10000000 can be held" in one_error_line(run(*args), 2)


BIG_ROWS = 3200  # 3200 x 3200 cells: more than a board may have


@pytest.mark.parametrize("name, text, command", [
    ("mines.txt", "mines: " + "9" * 5000 + "\n??\n", "show"),
    ("header.mine", "9" * 5000 + "x2x1\nHH\nHH\n", "analyze"),
    ("tatham.txt", "9" * 5000 + "x2:aa\n", "reconstruct"),
    ("position.txt", "mines: 1\n" + "\n".join(["?" * BIG_ROWS] * BIG_ROWS), "show"),
    ("layout.txt", "\n".join(["." * BIG_ROWS] * BIG_ROWS), "metrics"),
    ("grid.txt", "\n".join(["?" * BIG_ROWS] * BIG_ROWS), "reconstruct"),
    ("cells.mine", "4000x4000x1\n", "analyze"),
], ids=["mines-digits", "mine-header-digits", "tatham-digits", "position-cells", "layout-cells",
        "grid-cells", "mine-header-cells"])
def test_numbers_and_sizes_beyond_any_board_are_refused_as_read(tmp_path, name, text, command):
    # Past Python's 4,300 digits, or past the cells a board may have: refused while reading.
    path = tmp_path / name
    path.write_text(text)
    assert "than any board" in one_error_line(run(command, path), 2)


@pytest.mark.parametrize("args, fragment", [
    (["analyze", PUZZLES / "positions" / "fifty-fifty-corner.txt", "--explain",
      "1" + "0" * 5000 + ",0"], "off any board"),
    (["generate", "--first-click", ""], "an empty argument after --first-click"),
    (["play", "--games", "2", "--first-click", ""], "an empty argument after"),  # was 0,0
    (["analyze", ""], "an empty argument after analyze"),  # was "is a directory: ."
    (["generate", "--count", "2", "--output-dir="], "an empty argument to --output-dir"),
    (["reconstruct", "-", "--limit", str(10 ** 30)], "--limit must be at least 1 and at most"),
    (["reconstruct", "-", "--time-limit", "1e10"], "up to 10,000,000"),
    (["play", "--games", "1", "--dask", "garbage"], "cannot use the Dask scheduler"),
    (["replay", "any.msreplay.jsonl", "--dask", "garbage"], "cannot use the Dask scheduler"),
    (["play", "--games", "2", "--jobs", "2", "--dask", "tcp://127.0.0.1:1"], "--jobs and --dask"),
    (["replay", "any.avf", "--jobs", "2", "--dask", "tcp://127.0.0.1:1"], "--jobs and --dask"),
    # A size of 0 is a size given: not a beginner board with no mines.
    (["generate", "--mines", "0"], "give a difficulty, or all of width, height and mines"),
    (["play", "--games", "1", "--mines", "0"], "give a difficulty, or all of width"),
    # Seeds past 64 bits: a seed of 4,300 nines (the most Python writes) was taken, and the
    # last game's or board's seed, one digit longer, ended in a traceback when written.
    (["play", "--games", "2", "--seed", "9" * 4300], "a seed is a whole number from 0 to"),
    (["generate", "--count", "2", "--seed", str(2**64 - 1), "--output-dir", "."],
     "2 boards from seed"),
    (["puzzle", "make", "--width", "5", "--height", "5", "--count", "2", "--seed",
      str(2**64 - 1)], "2 puzzles from seed 18446744073709551615 would pass the largest seed"),
])
def test_option_values_beyond_what_can_be_used(args, fragment):
    if "--dask" in args:
        pytest.importorskip("distributed")
    assert fragment in one_error_line(run(*args, stdin="1?\n"), 2)


def test_a_missing_folder_is_named_as_a_folder(tmp_path):
    missing = tmp_path / "no" / "x.txt"
    expected = f"error: no such folder: {missing.parent} (for {missing})\n"
    assert one_error_line(run("generate", "-o", missing), 2) == expected
    assert one_error_line(run("show", missing), 2) == expected
    assert one_error_line(run("show", tmp_path / "x.txt"), 2) == \
        f"error: no such file: {tmp_path / 'x.txt'}\n"


def test_a_file_named_dash_is_read_by_a_path_to_it(tmp_path, monkeypatch):
    # "-" alone is standard input; "./-" the file, as for cat.
    (tmp_path / "-").write_text("mines: 1\n1?\n")
    monkeypatch.chdir(tmp_path)
    result = run("show", "./-", stdin="")
    assert result.exit_code == 0 and "mines: 1" in result.stdout, result.output
    assert "empty position" in one_error_line(run("show", "-", stdin=""), 2)


def test_a_file_to_write_named_dash_is_standard_output(tmp_path, monkeypatch):
    # It was a file named "-" in the working folder, made without a word.
    monkeypatch.chdir(tmp_path)
    board = run("generate", "--width", 3, "--height", 3, "--mines", 1, "--seed", 1, "-o", "-")
    assert board.exit_code == 0 and board.stdout == run(
        "generate", "--width", 3, "--height", 3, "--mines", 1, "--seed", 1).stdout
    picture = run("show", PUZZLES / "positions" / "fifty-fifty-corner.txt", "--svg", "-")
    assert picture.exit_code == 0 and picture.stdout.rstrip().endswith("</svg>")
    assert picture.stderr == "wrote stdout\n"
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("command, option", [("show", "--svg"), ("analyze", "--svg"),
                                             ("puzzle solve", "--svg"), ("replay", "--csv")])
def test_an_output_that_is_the_file_read_is_refused(tmp_path, command, option):
    # Written after the file was read, it replaced the file without a word.
    source = {"puzzle solve": PUZZLES / "reconstruct" / "beginner-mosaic.txt",
              "replay": tmp_path / "game.msreplay.jsonl"}.get(
                  command, PUZZLES / "positions" / "fifty-fifty-corner.txt")
    path = tmp_path / source.name
    if command == "replay":
        save_replay(Replay(Board.from_text("*.\n.."), [("reveal", (1, 1), 0.0)]), path)
    else:
        path.write_bytes(source.read_bytes())
    before = path.read_bytes()
    line = one_error_line(run(*command.split(), path, option, tmp_path / "." / path.name), 2)
    assert line == (f"error: {option} {tmp_path / '.' / path.name} is the file read ({path}): "
                    "writing it would replace it; give another name\n")
    assert path.read_bytes() == before


def test_stdin_that_is_not_text_and_names_with_line_breaks(tmp_path):
    result = runner.invoke(app, ["reconstruct", "-"], input=b"1\xff\n")
    assert "stdin: not a text file" in one_error_line(result, 2)
    assert "no such file: a\\nb.txt" in one_error_line(run("show", "a\nb.txt"), 2)


# A 30x15 classic grid (a fuzzed copy of an expert puzzle) with too many layouts to list fast.
MANY_LAYOUTS = [
    "??0????????1??1?????0????11?2?",
    "03??1???2?1?1??323?1?????3???1",
    "?3??01?1??2???2?1???2?4?3???1?",
    "0?1???1??2??2??????????4??0???",
    "????33??0?2?2?3???12??453??1?1",
    "???????2????1?21???1?34??1?2?1",
    "?1?2333?32????1???0???????????",
    "1?00??2?2??1???2??01???1??1?3?",
    "?211??????2?1????????024?4??2?",
    "?12??111????2221?0??32??1??42?",
    "?22?????2??2?1?4?123?2?3??232?",
    "???1???2?32?0?????1???3?1???11",
    "?2?1?0??0?1?1??3?????1??3343??",
    "?2???01?2??1??0?0?1?3?????311?",
    "1?1?0????????2????1212??33????",
]


def test_a_search_stopped_by_its_time_limit_says_so(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text("\n".join(MANY_LAYOUTS) + "\n")
    result = run("reconstruct", path, "--all", "--time-limit", "0.2")
    assert "layouts (stopped at the time limit)" in result.stdout
    assert "the search stopped at the time limit (0.2 s)" in one_error_line(result, 3)


def test_standard_input_read_twice_or_closed(monkeypatch):
    # show and analyze look at the input to tell a board from a position, then read it.
    assert "3BV" in run("show", "-", stdin="*.\n..\n").stdout
    assert "forced mines: 1" in run("analyze", "-", stdin="mines: 1\n?1\n11\n").stdout
    import msanalysis.cli as cli
    import msanalysis.files as files

    monkeypatch.setattr(files.sys, "stdin", None)  # <&-
    with pytest.raises(ParseError, match="standard input is closed"):
        files.read_bytes("-")
    monkeypatch.setattr(cli.sys, "stdout", None)  # >&-
    assert cli.stdout_is_terminal() is False


def test_best_plays_boards_whose_counts_pass_a_float():
    # 40x40 with 320 mines: the look ahead's layout counts exceed 1e308.
    result = run("play", "--games", "1", "--width", "40", "--height", "40", "--mines", "320")
    assert result.exit_code == 0 and "games          1" in result.stdout


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("command", ["show", "analyze", "metrics", "reconstruct", "solvable"])
def test_endless_input_is_read_with_a_bound(command):
    assert "more than 64 MiB" in one_error_line(run(command, "/dev/zero"), 2)


# -- hangs -----------------------------------------------------------------------------------------

def lattice(tmp_path: Path, mines: int) -> Path:
    """A 40x40 board with every other row and column revealed: hard for SAT with the count."""
    rng = np.random.default_rng(3)
    board = Board(rng.random((40, 40)) < 0.2)
    states = np.full((40, 40), HIDDEN, dtype=np.int8)
    keep = np.zeros((40, 40), dtype=bool)
    keep[::2, :] = keep[:, ::2] = True
    keep &= ~board.mask
    states[keep] = board.numbers[keep]
    path = tmp_path / f"lattice-{mines}.txt"
    Position(states, mines).save(path)
    return path


@pytest.mark.parametrize("mines", [220, 320])
def test_analyze_keeps_its_time_limit(tmp_path, mines):
    # 220 mines contradict the clues (naming the clues is the hard part), 320 fit them.
    path = lattice(tmp_path, mines)
    start = time.perf_counter()
    result = run("analyze", path, "--time-limit", "1", "--json")
    elapsed = time.perf_counter() - start
    assert elapsed < 20, f"{elapsed:.1f} s for a 1 s limit"  # a bound on a hang, not a speed
    assert result.exit_code in (0, 1, 3), result.output
    if result.exit_code == 3:
        data = json.loads(result.stdout)
        assert data["exact"] is False and "time limit" in data["stopped"]


@pytest.mark.parametrize("args", [
    ["--games", 10**19, "--difficulty", "beginner", "--jobs", 2],  # the seeds dealt out lazily
    ["--games", 2, "--width", 1000, "--height", 1000, "--mines", 200_000],  # one long game
])
# The run's timer fires every quarter second until it stops the run: one that lands in a
# garbage collector's callback (hypothesis installs one in this process) is printed and lost,
# by design (see bench._timer), and pytest reports that as a warning.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_play_stops_at_its_time_limit(args):
    start = time.perf_counter()
    result = run("play", *args, "--time-limit", "0.5")
    assert time.perf_counter() - start < 20  # a bound on a hang, not a speed
    assert result.exit_code == 3, result.output
    assert result.stderr.startswith("error: time limit: ") and "games finished" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "(time limit)" in result.stdout


def test_play_is_bounded_by_default(monkeypatch):
    # Every command bounds its work unless told otherwise: a game of a huge board runs minutes.
    import msanalysis.play.bench

    seen = []
    real = msanalysis.play.bench.bench
    monkeypatch.setattr(msanalysis.play.bench, "bench",
                        lambda *a, **k: seen.append(k["time_limit"]) or real(*a, **k))
    result = run("play", "--games", 1, "--difficulty", "beginner")
    assert result.exit_code == 0, result.output
    assert seen == [600.0]


@pytest.mark.parametrize("args", [
    ["--count", 10**9, "--output-dir", "{tmp}"],  # many boards of the default rules
    ["--width", 500, "--height", 500, "--mines", 50_000, "--rules", "no-guess", "--method",
     "adjust", "-o", "{tmp}/b.txt"],  # moving mines on a large board
])
def test_generate_keeps_its_time_limit(tmp_path, args):
    start = time.perf_counter()
    result = run("generate", *[str(a).format(tmp=tmp_path) for a in args], "--seed", 1,
                 "--time-limit", "0.5")
    assert time.perf_counter() - start < 20  # a bound on a hang, not a speed
    line = one_error_line(result, 3)
    assert "time limit" in line
    if "--count" in args:  # the boards made are there: the line says how many
        written = len(list(tmp_path.glob("board-*.txt")))
        assert line.startswith(f"error: {written:,} of 1,000,000,000 boards written to "), line


def test_a_position_too_large_to_read_in_time_is_refused_at_once(tmp_path):
    # 700x700, a third of the cells revealed: some 200,000 unknown cells beside numbers, which
    # cannot be made into clues in a millisecond (a 3000x3000 position took a minute).
    rng = np.random.default_rng(5)
    board = Board(rng.random((700, 700)) < 0.15)
    states = np.full((700, 700), HIDDEN, dtype=np.int8)
    shown = (rng.random((700, 700)) < 0.3) & ~board.mask
    states[shown] = board.numbers[shown]
    path = tmp_path / "large.txt"
    Position(states, board.mine_count).save(path)
    result = run("analyze", path, "--time-limit", "0.001")
    assert "would run past the time limit" in one_error_line(result, 3)
    # With time enough it is read (the counting of its large components is another matter).
    constraints = build(Position(states, board.mine_count), deadline=time.perf_counter() + 60)
    assert len(constraints.clues) > 100_000


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
@pytest.mark.parametrize("args, waited_for", [
    (["analyze", "{pipe}"], "nothing came through it"),
    (["replay", "{pipe}"], "nothing came through it"),
    (["generate", "--output", "{pipe}"], "its reader did not open it"),
])
def test_a_named_pipe_with_nothing_at_its_other_end_is_waited_on_for_a_time(
        tmp_path, monkeypatch, args, waited_for):
    # Opening one waits for its other end, forever when nothing opens it.
    monkeypatch.setattr(files, "PIPE_WAIT_SECONDS", 0.2)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    results = []
    command = threading.Thread(target=lambda: results.append(
        run(*[arg.format(pipe=pipe) for arg in args])), daemon=True)
    command.start()
    command.join(60)
    assert results, "the command waited at the pipe"
    message = one_error_line(results[0], 2)
    assert message.startswith(f"error: {pipe}: a named pipe, and in 0.2 s {waited_for}: ")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no terminals to open on this system")
def test_a_terminal_is_read_and_written_as_it_always_was():
    # Opened non-blocking to pass a pipe's wait, a terminal with nothing typed yet read as
    # nothing (a TypeError), and a write larger than its buffer failed part way.
    master, follower = os.openpty()
    name = os.ttyname(follower)
    shown = bytearray()

    def typist_then_screen():
        time.sleep(0.3)
        os.write(master, b"mines: 1\n")
        time.sleep(0.1)
        os.write(master, b"\x04")  # Ctrl-D: the end of what is typed
        while shown.count(b"x") < 100_000:  # after the echo of what was typed
            shown.extend(os.read(master, 65536))

    terminal = threading.Thread(target=typist_then_screen, daemon=True)
    terminal.start()
    try:
        assert files.read_bytes(name) == b"mines: 1\n"
        files.write_file(name, "x" * 100_000)
        terminal.join(30)
        assert shown.count(b"x") == 100_000
    finally:
        os.close(master)
        os.close(follower)


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets on this system")
@pytest.mark.parametrize("args", [["analyze", "{sock}"], ["generate", "--output", "{sock}"]])
def test_a_socket_is_not_a_file(tmp_path, args):
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "sock"))
        result = run(*[arg.format(sock=tmp_path / "sock") for arg in args])
    assert one_error_line(result, 2) == f"error: {tmp_path / 'sock'}: a socket, not a file\n"


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="no bash on this system")
def test_a_pipe_with_a_writer_is_read_whole():
    # A shell's <(command) is a pipe whose writer is already there.
    command = " ".join(CLI[:2]) + f" '{CLI[2]}' analyze <(printf 'mines: 1\\n??\\n11\\n')"
    result = subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0 and "solutions: 2" in result.stdout, result.stderr


def test_running_out_of_memory_is_one_error_line(tmp_path, monkeypatch):
    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("msanalysis.cli.read_any", no_memory)
    path = tmp_path / "p.txt"
    path.write_text("mines: 1\n??\n11\n")
    assert "ran out of memory" in one_error_line(run("show", path), 3)


@pytest.mark.parametrize("command", ["show", "analyze"])
def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path, command):
    path = tmp_path / "wide.txt"
    path.write_text("mines: 2000\n" + "\n".join(["?" * 200] * 200) + "\n")
    process = subprocess.Popen([*CLI, command, str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # as `| head -1` does
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [
    ["analyze", "{position}"], ["analyze", "{position}", "--json"], ["show", "{position}"],
    ["metrics", "{board}"], ["solvable", "{board}"], ["generate"], ["play", "--games", "2"],
    ["replay", "{replay}"], ["reconstruct", "{grid}"],
])
def test_an_output_that_cannot_be_written_is_one_error_line(tmp_path, args):
    # A full disk: before, a traceback from the command's first echo (or "[Errno 28] ...").
    files = {"position": PUZZLES / "positions" / "fifty-fifty-corner.txt",
             "board": tmp_path / "board.txt", "grid": tmp_path / "grid.txt",
             "replay": PUZZLES / "replays" / "zhang-shen-jia-expert-3bv122.mvf"}
    files["board"].write_text("...\n..*\n")
    files["grid"].write_text("1?\n??\n")
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*CLI, *(a.format(**files) for a in args)],
                              stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert done.returncode == 2
    assert done.stderr == b"error: cannot write to standard output: No space left on device\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["--help"], [], ["puzzle"]])
def test_help_that_cannot_be_written_is_one_error_line(args):
    # Help is written before any command runs: it gave a traceback (OSError from click's echo).
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*CLI, *args], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 2
    assert done.stderr == b"error: cannot write to standard output: No space left on device\n"


@pytest.mark.parametrize("args", [["show", "{position}"], ["analyze", "{position}", "--json"],
                                  ["generate", "--format", "mbf"]])
def test_a_closed_output_is_one_error_line(args):
    # `>&-`: Python's print drops what it cannot write (exit 0 and nothing written), and the
    # binary MBF board stopped with an AttributeError on its missing buffer.
    position = str(PUZZLES / "positions" / "fifty-fifty-corner.txt")
    done = subprocess.run([*CLI, *(a.format(position=position) for a in args)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == b"error: cannot write to standard output: it is closed\n"


def test_a_long_write_cut_short_by_the_reader_is_a_closed_pipe():
    # One write of 1 MB (a 1000x1000 layout) into a pipe whose reader takes 10 bytes and goes:
    # Python's buffered output dropped the rest without an error, and the command said 0.
    process = subprocess.Popen([*CLI, "generate", "--width", "1000", "--height", "1000",
                                "--mines", "10000", "--seed", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


def test_a_name_the_output_cannot_encode_is_escaped(tmp_path):
    # A player's name in Chinese on a latin-1 terminal: a UnicodeEncodeError traceback before.
    recorder = ReplayRecorder(Game(Board.from_text("*..\n...\n"), rules="safe-cell"),
                              player="\u738b\u5609\u5b81")
    replay_file = tmp_path / "g.msreplay.jsonl"
    recorder.reveal((1, 2))
    save_replay(recorder.replay(), replay_file)
    done = subprocess.run([*CLI, "replay", str(replay_file)], capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 0, done.stderr
    assert b"\\u738b\\u5609\\u5b81" in done.stdout and done.stderr == b""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_ctrl_c_stops_the_workers_of_a_pool_without_their_tracebacks(tmp_path):
    # Ctrl-C reaches every process of the group; the workers of generate --jobs (and replay's)
    # died printing a KeyboardInterrupt traceback each.
    process = subprocess.Popen([*CLI, "generate", "--count", "1000000", "--jobs", "2",
                                "--output-dir", str(tmp_path / "boards")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, preexec_fn=ctrl_c_as_default)
    with killed_at_the_end(process, group=True):
        time.sleep(3)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"Traceback" not in err


@pytest.mark.parametrize("error, message", [
    (OSError(28, "No space left on device"),
     "error: cannot write to standard output: No space left on device\n"),
    # Not every OSError that names no file is standard output's: a pool that cannot start.
    (OSError(24, "Too many open files"), "error: [Errno 24] Too many open files\n"),
])
def test_an_oserror_naming_no_file_is_said_as_it_is(monkeypatch, error, message):
    import msanalysis.cli as cli

    def fails(path):
        raise error

    monkeypatch.setattr(cli, "read_any", fails)
    result = run("analyze", PUZZLES / "positions" / "fifty-fifty-corner.txt")
    assert result.exit_code == 2 and result.stderr == message


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_file_that_cannot_be_written_is_named(tmp_path):
    for args in (["generate", "-o", "/dev/full"],
                 ["replay", str(PUZZLES / "replays" / "zhang-shen-jia-expert-3bv122.mvf"),
                  "--csv", "/dev/full"]):
        assert one_error_line(run(*args), 2).endswith(
            "error: /dev/full: No space left on device\n")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is not sent this way on Windows")
def test_ctrl_c_stops_a_long_search_for_forced_cells(tmp_path):
    # Python runs no signal handler during a C call: Ctrl-C waited for the time limit (56 s
    # of a 60 s limit on a 200x200 position). Every other cell revealed: SAT searches long.
    rng = np.random.default_rng(1)
    board = Board(rng.random((60, 60)) < 0.2)
    states = np.full((60, 60), HIDDEN, dtype=np.int8)
    rows, cols = np.indices((60, 60))
    keep = ((rows + cols) % 2 == 0) & ~board.mask
    states[keep] = board.numbers[keep]
    path = tmp_path / "checker.txt"
    Position(states, board.mine_count).save(path)
    process = subprocess.Popen([*CLI, "analyze", str(path), "--time-limit", "600"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=ctrl_c_as_default)
    with killed_at_the_end(process):
        time.sleep(3)
        assert process.poll() is None, "the search ended before Ctrl-C: the test needs a harder one"
        process.send_signal(signal.SIGINT)
        start = time.perf_counter()
        assert process.wait(timeout=60) == 130
        assert time.perf_counter() - start < 20  # a bound on a hang, not a speed


# -- wrong answers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("command, data, fragment", [
    # Line breaks that str.splitlines knows and a file's reader must not: a form feed, a
    # vertical tab, NEL and U+2028 inside a row made two rows of it, or another grid.
    ("reconstruct", "1?\u00851?\n", "line 1, column 3: unknown character '\\x85'"),
    ("reconstruct", "11\x0c11\n", "line 1, column 3: unknown character '\\x0c'"),
    ("analyze", "mines: 1\n?\x0b?\n11\n", "line 2, column 2: unknown character '\\x0b'"),
    ("metrics", "*\u2028.\n..\n", "line 1, column 2: unknown character '\\u2028'"),
    # A .txt file is text: a control character in it was taken for binary MBF ("MBF header
    # gives an empty board (63x0)"), or made a 46x46 board of "..\0\0".
    ("show", "?\x00\n??\n", "line 1, column 2: unknown character '\\x00'"),
    ("analyze", "\x1b]0;x\x07??\n", "line 1, column 1: unknown character '\\x1b'"),
    ("show", "..\x00\x00", "line 1, column 3: unknown character '\\x00'"),
])
def test_stray_control_characters_in_text_are_named_where_they_are(tmp_path, command, data,
                                                                     fragment):
    path = tmp_path / "stray.txt"
    path.write_bytes(data.encode())
    assert fragment in one_error_line(run(command, path), 2)


def test_a_txt_file_that_is_not_utf8_says_so(tmp_path):
    path = tmp_path / "utf16.txt"
    path.write_bytes("?1\n".encode("utf-16"))
    assert "not UTF-8 text: byte 0xff at offset 0" in one_error_line(run("show", path), 2)
    # Under any other name the same bytes are still taken for MBF, as before.
    path.rename(tmp_path / "board.mbf")
    assert "MBF" in one_error_line(run("show", tmp_path / "board.mbf"), 2)


@pytest.mark.parametrize("command, text", [
    ("show", "mines: 2\n??1\n??1\n111\n"),  # a position
    ("analyze", "mines: 2\n??1\n??1\n111\n"),
    ("metrics", "*..\n...\n"),  # a board
    ("reconstruct", "1?\n??\n"),  # a number grid
])
def test_a_byte_order_mark_before_text_is_not_part_of_it(tmp_path, command, text):
    # As Windows Notepad saves UTF-8: the file was taken for binary MBF before.
    marked, plain = tmp_path / "notepad.txt", tmp_path / "plain.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    plain.write_text(text)
    result = run(command, marked)
    assert result.exit_code == 0, result.output
    assert result.stdout == run(command, plain).stdout


def test_more_flags_than_mines(tmp_path):
    path = tmp_path / "over.txt"
    path.write_text("mines: 1\nFF?\n111\n")
    assert "flags outnumber the mines" in one_error_line(run("analyze", path), 1)
    result = run("analyze", path, "--ignore-flags", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["forced_mines"] == [[0, 1]]


@pytest.mark.parametrize("text, fragment", [
    ("mines: 1\nmines: 2\n??\n", "line 2: a second 'mines:' header"),
    ("?\u0663\n", "line 1, column 2: unknown character"),
    ("mines: \u00b2\n??\n", "line 1: bad header"),
])
def test_headers_and_digits_are_read_strictly(tmp_path, text, fragment):
    path = tmp_path / "p.txt"
    path.write_text(text)
    assert fragment in one_error_line(run("analyze", path), 2)


# -- messages --------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf"])
def test_time_limit_must_be_a_positive_number(value):
    path = PUZZLES / "positions" / "fifty-fifty-corner.txt"
    message = one_error_line(run("analyze", path, "--time-limit", value), 2)
    assert "--time-limit takes a positive number of seconds" in message


def test_analyze_on_a_board_says_it_is_a_board():
    message = one_error_line(run("analyze", PUZZLES / "boards" / "beginner-safe-cell-seed-1.mbf"),
                             2)
    assert "is a board (a mine layout), not a position" in message and "'show'" in message


@pytest.mark.parametrize("command", ["metrics", "solvable"])
def test_a_board_command_on_a_position_says_it_is_a_position(tmp_path, command):
    # Before: "line 1, column 1: unknown character 'm' in a layout", of the mine count header.
    message = one_error_line(run(command, PUZZLES / "positions" / "fifty-fifty-corner.txt"), 2)
    assert "is a position (what a player sees), not a board" in message and "'analyze'" in message
    typo = tmp_path / "typo.txt"
    typo.write_text("*.x\n...\n")  # neither: the layout's own error names the character
    assert "line 1, column 3: unknown character 'x' in a layout" in one_error_line(
        run(command, typo), 2)


def test_explaining_a_cell_that_is_not_forced_answers():
    path = PUZZLES / "positions" / "fifty-fifty-corner.txt"
    result = run("analyze", path, "--explain", "0,0", "--json")
    assert result.exit_code == 0
    explanation = json.loads(result.stdout)["explanation"]
    assert explanation["verdict"] is None and "not forced" in explanation["reason"]
    assert "is not forced" in run("analyze", path, "--explain", "0,0").stdout
    assert "off the 6x5 board" in one_error_line(run("analyze", path, "--explain", "9,9"), 2)


def test_a_partial_analysis_exits_3_and_still_draws(tmp_path):
    path = lattice(tmp_path, 320)
    picture = tmp_path / "partial.svg"
    result = run("analyze", path, "--time-limit", "0.001", "--svg", picture)
    assert result.exit_code == 3, result.output
    assert "time limit" in result.stderr and picture.read_text().startswith("<svg")


def test_an_explanation_stopped_by_the_time_limit_still_prints_the_analysis(tmp_path):
    # Before, nothing was printed: the explanation's error ended the command first.
    path = lattice(tmp_path, 320)
    hidden = Position.load(path).hidden
    cell = min(hidden)
    result = run("analyze", path, "--time-limit", "0.001", "--explain", f"{cell[0]},{cell[1]}")
    stopped = one_error_line(result, 3)
    assert "forced cells (S safe, M mine):" in result.stdout
    assert f"explanation: none, the time limit ran out before {cell} was explained" \
        in result.stdout
    # Said once: the analysis's own reason already says the forced cells found are certain.
    assert stopped.count("certain") == 1 and stopped.endswith("the probabilities are not known\n")
    as_json = run("analyze", path, "--time-limit", "0.001", "--explain", f"{cell[0]},{cell[1]}",
                  "--json")
    assert as_json.exit_code == 3
    assert "ran out before" in json.loads(as_json.stdout)["explanation"]["reason"]


def test_plurals_and_sizes_said_once(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("*..\n...\n")
    assert "3x2, 1 mine, 1 opening, 1 island, 3BV 2" in run("show", path).stdout
    first = run("play", "--games", "2", "--width", "5", "--height", "4", "--mines", "1").stdout
    assert first.splitlines()[0].startswith("5x4/1, rules safe-cell")


def test_safe_opening_on_a_tiny_board_starts_on_the_board():
    result = run("generate", "--width", "2", "--height", "2", "--mines", "0",
                 "--rules", "safe-opening", "--seed", "1")
    assert result.exit_code == 0 and "first click 1,1" in result.stdout


# -- fuzz: any input, one rule ---------------------------------------------------------------------

COMMANDS = ["show", "analyze", "metrics", "reconstruct", "solvable", "replay"]
OPTIONS = {
    "analyze": [["--json"], ["--ignore-flags"], ["--mines", "3"], ["--explain", "0,0"],
                ["--time-limit", "2"]],
    "reconstruct": [["--rule", "mosaic"], ["--all"], ["--limit", "3"], ["--engine", "cpsat"],
                    ["--time-limit", "2"], ["--json"]],
    "solvable": [["--first-click", "0,0"], ["--rules", "safe-opening"], ["--json"]],
    "show": [[]], "metrics": [["--json"]], "replay": [["--json"]],
}
TEXT = st.text(alphabet=st.sampled_from(list("?F*.012345678 \nmines:x#H9\u0663")), max_size=120)


def answered_or_one_error_line(result, what: tuple) -> None:
    """No traceback; a known exit status; on failure exactly one line, starting ``error: ``."""
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{what}: {result.exception!r}"
    assert result.exit_code in (0, 1, 2, 3), result.output
    if result.exit_code:
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, \
            (*what, result.stderr)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(COMMANDS), data=st.one_of(st.binary(max_size=200), TEXT),
       suffix=st.sampled_from([".txt", ".mine", ".mbf", ".avf", ".msreplay.jsonl", ""]),
       options=st.integers(0, 5))
def test_any_file_gets_an_answer_or_one_error_line(tmp_path, command, data, suffix, options):
    path = tmp_path / f"input{suffix}"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    chosen = OPTIONS[command][options % len(OPTIONS[command])]
    start = time.perf_counter()
    result = run(command, path, *chosen)
    assert time.perf_counter() - start < 30  # a bound on a hang, not a speed
    answered_or_one_error_line(result, (command, chosen, data))


VALUES = st.one_of(st.integers(-10**12, 10**12).map(str), st.sampled_from(
    ["nan", "inf", "-0", "", "abc", "3,4", "1e999", "expert", "no-guess", "-1,2", "٣"]))


@settings(max_examples=60, deadline=None)
@given(command=st.sampled_from(["generate", "play"]),
       option=st.sampled_from(["--width", "--height", "--mines", "--seed", "--first-click",
                               "--difficulty", "--rules", "--games", "--strategy", "--jobs"]),
       value=VALUES)
def test_any_option_value_gets_an_answer_or_one_error_line(command, option, value):
    base = {"generate": ["generate", "--difficulty", "beginner"],
            "play": ["play", "--games", "1", "--difficulty", "beginner"]}[command]
    if option == "--games" and command == "play":
        base = ["play", "--difficulty", "beginner"]
        if value.lstrip("-").isdigit():
            value = str(int(value) % 4 - 1)  # -1 to 2 games: many games are slow, not wrong
    if option in ("--width", "--height", "--mines") and value.lstrip("-").isdigit() \
            and int(value) > 40:
        value = str(int(value) % 5000)  # large boards are refused or slow to play, not wrong
    result = run(*base, option, value)
    answered_or_one_error_line(result, (command, option, value))


@pytest.mark.parametrize("args, option", [
    (["generate", "--count", "2", "--output-dir", "{file}"], "--output-dir"),
    (["puzzle", "make", "--width", "5", "--height", "5", "--output-dir", "{file}"],
     "--output-dir"),
    (["play", "--games", "2", "--save-replays", "{file}"], "--save-replays"),
    (["replay", str(PUZZLES / "replays" / "zhang-shen-jia-expert-3bv122.mvf"), "--positions",
      "{file}"], "--positions"),
])
def test_a_folder_option_given_a_file_says_so(tmp_path, args, option):
    # It said "error: FILE: File exists", naming no option.
    path = tmp_path / "a-file.txt"
    path.write_text("")
    result = runner.invoke(app, [a.replace("{file}", str(path)) for a in args])
    assert result.exit_code == 2
    assert result.stderr == f"error: {option} {path} is a file, not a folder (a folder is made " \
                            "when missing)\n"


def test_a_folder_option_with_a_file_in_its_way_says_so(tmp_path):
    (tmp_path / "a-file").write_text("")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for folder in (tmp_path / "a-file" / "sub", tmp_path / "dangling"):
        result = runner.invoke(app, ["generate", "--count", "2", "--output-dir", str(folder)])
        assert result.exit_code == 2 and result.stderr == (
            f"error: --output-dir {folder}: a file (or a broken link) is in the way of making "
            "this folder\n")


def test_replay_csv_naming_a_folder_fails_before_judging(tmp_path):
    # It judged every file first, then could not write the table.
    result = runner.invoke(app, ["replay", "missing.evf", "--csv", str(tmp_path)])
    assert result.exit_code == 2 and result.stderr == f"error: --csv {tmp_path} is a folder: " \
                                                      "it takes a file\n"
    missing = tmp_path / "no" / "t.csv"
    result = runner.invoke(app, ["replay", "missing.evf", "--csv", str(missing)])
    assert result.exit_code == 2 and result.stderr == f"error: --csv {missing}: there is no " \
                                                      f"folder {missing.parent} to write it in\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["bogus"], ["analyze", "no-such-file.txt"],
                                  ["generate", "--seed", "1", "--count", "2", "--output-dir"]])
def test_a_standard_error_that_cannot_be_written_exits_2_without_a_traceback(tmp_path, args):
    # The error line could not be written either: its traceback ended the run with status 1
    # (no layout fits), even after the boards were written.
    if args[-1] == "--output-dir":
        args = [*args, str(tmp_path / "boards")]
    with open("/dev/full", "w") as full:
        done = subprocess.run([*CLI, *args], stderr=full, stdout=subprocess.DEVNULL,
                              cwd=tmp_path, timeout=120)
    assert done.returncode == 2


def test_solvable_refuses_a_board_its_rule_would_not_deal(tmp_path):
    # A mine beside the first click under safe-opening: the rule never places one there.
    path = tmp_path / "b.txt"
    path.write_text("*...\n....\n....\n....\n")
    result = run("solvable", path, "--rules", "safe-opening", "--first-click", "1,1")
    assert result.exit_code == 2
    assert result.stderr == ("error: the first click 1,1 has a mine beside it at 0,0, which "
                             "rules safe-opening never place there: is it the right board, "
                             "first click and rule?\n")
    assert run("solvable", path, "--rules", "safe-opening", "--first-click", "2,2").exit_code \
        in (0, 1)


def test_a_first_click_read_from_a_file_is_named_as_the_file_s(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("# 4x4, 1 mine, rules safe-cell, first click 999999999,0, seed 7\n"
                    "*...\n....\n....\n....\n")
    result = run("solvable", path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: the first click of {path}'s first line "
                                    "'999999999,0': off any board")


def test_playing_guess_free_boards_checks_the_size_without_making_one(monkeypatch):
    # The check before a run made a whole guess-free board of seed 0, with no time limit: a
    # 300x300 board ran for minutes past --time-limit 5.
    import msanalysis.play.noguess as noguess
    from msanalysis.play.bench import PlaySpec

    def refused(*args, **kwargs):
        raise AssertionError("a guess-free board was made to check a size")

    monkeypatch.setattr(noguess, "generate_no_guess", refused)
    PlaySpec(300, 300, 18000, rules="no-guess", first_click=(3, 3)).check()
    with pytest.raises(ValueError, match="board too full: 10 mines for 7 cells"):
        PlaySpec(4, 4, 10, rules="no-guess", first_click=(1, 1)).check()


@pytest.mark.parametrize("command", ["show", "metrics", "analyze"])
def test_a_replay_given_to_a_board_command_is_named_a_replay(tmp_path, command):
    # Its bytes were read as an MBF: "truncated MBF: the header promises 7705 mines".
    path = tmp_path / "game.avf"
    path.write_bytes(bytes(range(256)) * 20)
    result = run(command, path)
    assert result.exit_code == 2
    assert result.stderr == (f"error: {path}: a replay, not a board or a position: "
                             "'msanalysis replay' reads it\n")


@pytest.mark.parametrize("command", ["show", "metrics"])
def test_a_layout_s_text_named_mbf_says_it_is_text(tmp_path, command):
    path = tmp_path / "board.mbf"
    path.write_text("*...\n....\n..*.\n")
    result = run(command, path)
    assert result.exit_code == 2
    assert result.stderr.endswith("; the file is text, which is read as a layout from a name "
                                  "ending .txt\n")
