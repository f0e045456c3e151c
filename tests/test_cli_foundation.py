"""The foundation commands: show, generate, metrics, and their errors."""

import json

import pytest
from typer.testing import CliRunner

from msanalysis.board import Board
from msanalysis.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_generate_is_reproducible_and_loads_back(tmp_path):
    out = tmp_path / "e.txt"
    result = run("generate", "--difficulty", "expert", "--seed", "5", "-o", out)
    assert result.exit_code == 0
    board = Board.load(out)
    assert (board.width, board.height, board.mine_count) == (30, 16, 99)
    again = run("generate", "--difficulty", "expert", "--seed", "5")
    assert Board.from_text(again.stdout) == board


def test_generate_custom_size_rules_and_mbf(tmp_path):
    out = tmp_path / "b.mbf"
    result = run("generate", "--width", "20", "--height", "10", "--mines", "30",
                 "--rules", "safe-opening", "--first-click", "4,5", "--seed", "1",
                 "--format", "mbf", "-o", out)
    assert result.exit_code == 0
    board = Board.from_mbf(out.read_bytes())
    assert board.mine_count == 30 and board.numbers[4, 5] == 0 and not board.is_mine((4, 5))


def test_metrics_json_has_exactly_the_documented_keys(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text(".*.....*.\n")
    result = run("metrics", path, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"width": 9, "height": 1, "mines": 2, "openings": 1,
                                         "islands": 2, "bbbv": 3}


def test_show_a_position_and_a_board(tmp_path):
    position = tmp_path / "p.txt"
    position.write_text("mines: 1\n?1.\n11.\n")
    result = run("show", position)
    assert result.exit_code == 0 and "?1." in result.stdout and "mines: 1" in result.stdout
    board = tmp_path / "b.mbf"
    board.write_bytes(Board.from_text("*..\n...").to_mbf())
    result = run("show", board)
    assert result.exit_code == 0 and "*1." in result.stdout and "3BV 2" in result.stdout


def test_columns_past_100_are_numbered_above_their_cells(tmp_path):
    # Each column's number is written downwards above it: past column 99 the labels ran on.
    path = tmp_path / "wide.txt"
    path.write_text("mines: 3\n" + "?" * 105 + "\n")
    shown = run("show", path).stdout.splitlines()
    header = [line[2:] for line in shown if line.startswith("  ")][:3]
    assert [len(line) for line in header] == [105, 105, 105]
    assert all(int("".join(line[c] for line in header).strip()) == c for c in range(105))
    analysed = run("analyze", path).stdout.splitlines()
    rows = analysed[analysed.index("mine probability, % (S safe, M mine):") + 1:]
    assert rows[0].endswith("  1  1  1  1  1") and rows[1].endswith(" 99 00 01 02 03 04")


@pytest.mark.parametrize("args, fragment", [
    (["show", "missing.txt"], "no such file: missing.txt"),
    (["metrics", "ragged.txt"], "ragged.txt, line 2, column 3: row has 2 cells"),
    (["generate", "--width", "3", "--height", "3", "--mines", "20"], "do not fit"),
    (["generate", "--difficulty", "huge"], "'huge' is not one of 'beginner', 'intermediate'"),
    (["generate", "--rules", "safe-opening", "--width", "4", "--height", "4", "--mines", "13"],
     "which safe-opening and no-guess boards keep free"),
    (["generate", "--rules", "no-guess", "--width", "5", "--height", "5", "--mines", "20"],
     "which safe-opening and no-guess boards keep free"),  # it said safe-opening only
    (["generate", "--difficulty", "beginner", "--first-click", "9,0"], "off the 9x9 board"),
])
def test_bad_input_is_one_error_line_and_exit_2(tmp_path, monkeypatch, args, fragment):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ragged.txt").write_text("..*\n.*\n")
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {result.stderr.strip()[7:]}"
    assert fragment in result.stderr and "Traceback" not in result.output
    assert "Value error" not in result.stderr  # typer's validation's words, not ours
    assert result.stderr.count("\n") == 1


def test_bad_first_click_syntax_is_a_usage_error():
    result = run("generate", "--first-click", "three")
    assert result.exit_code == 2
    assert result.stderr == ("error: --first-click takes ROW,COL with rows and columns counted "
                             "from 0, such as 3,4; got 'three'\n")


@pytest.mark.parametrize("args, fragment", [
    (["play", "--games", "abc"], "'--games'"),
    (["play"], "Missing option '--games'"),
    (["generate", "--format", "png"], "'--format'"),
    (["nosuch"], "No such command 'nosuch'"),
    (["analyze"], "Missing argument"),
])
def test_usage_errors_are_one_error_line(args, fragment):
    # Parsing errors of the command line itself, not only the commands' own, are one line.
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert fragment in result.stderr and result.stdout == ""


def test_a_bug_is_not_dressed_up_as_a_user_error(monkeypatch, tmp_path):
    # Only the toolkit's own errors and OSError become an "error:" line; anything else is a bug
    # and must show as one (here: an exception escaping the command).
    import msanalysis.cli as cli

    def broken(path):
        raise KeyError("a bug")

    monkeypatch.setattr(cli, "read_any", broken)
    path = tmp_path / "p.txt"
    path.write_text("?1\n")
    result = CliRunner().invoke(cli.app, ["show", str(path)])
    assert isinstance(result.exception, KeyError)


def test_python_dash_m_runs_the_command_line(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "board.txt"
    path.write_text("*..\n...\n")
    done = subprocess.run([sys.executable, "-m", "msanalysis", "metrics", str(path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and '"bbbv": 2' in done.stdout, done.stderr
    done = subprocess.run([sys.executable, "-m", "msanalysis", "show", str(tmp_path / "no")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr == f"error: no such file: {tmp_path / 'no'}\n"


def test_solvable_plays_a_generated_board_under_its_rules_and_first_click(tmp_path):
    # generate writes its rules and first click above the board: solvable takes them unless
    # told otherwise (it played every such board under safe-cell from 0,0).
    path = tmp_path / "b.txt"
    run("generate", "--difficulty", "beginner", "--rules", "safe-opening", "--first-click",
        "4,4", "--seed", "7", "-o", path)
    assert json.loads(run("solvable", path, "--json").stdout)["first_click"] == [4, 4]
    told = run("solvable", path, "--json", "--first-click", "0,0", "--rules", "safe-cell")
    assert json.loads(told.stdout)["first_click"] == [0, 0]
    path.write_text("\n".join(path.read_text().splitlines()[1:]))  # without the line
    assert json.loads(run("solvable", path, "--json").stdout)["first_click"] == [0, 0]
    made = run("generate", "--difficulty", "expert", "--rules", "no-guess", "--seed", "1")
    assert runner.invoke(app, ["solvable", "-"], input=made.stdout).exit_code == 0


def test_an_mbf_board_has_its_seed_said_on_stderr(tmp_path):
    # MBF has no header: the drawn seed was lost, and the board could not be made again.
    out = tmp_path / "z.mbf"
    result = run("generate", "--format", "mbf", "-o", out)
    seed = result.stderr.strip().rsplit(" ", 1)[1]
    again = run("generate", "--format", "mbf", "-o", tmp_path / "again.mbf", "--seed", seed)
    assert result.exit_code == again.exit_code == 0
    assert out.read_bytes() == (tmp_path / "again.mbf").read_bytes()
    result = run("generate", "--format", "mbf", "--count", "3", "--seed", "5", "--output-dir",
                 tmp_path / "many")
    assert result.stderr.splitlines()[0].endswith("seed 5 + N for board-N.mbf")
    assert (tmp_path / "many" / "board-0002.mbf").read_bytes() == \
        run("generate", "--format", "mbf", "--seed", "7").stdout_bytes


def test_solvable_reads_the_board_once_and_names_where_a_bad_click_came_from(tmp_path):
    # A pipe can be read once: the line above the board and the board come from one read.
    import os
    import threading

    board = run("generate", "--difficulty", "beginner", "--rules", "safe-opening",
                "--first-click", "4,4", "--seed", "7").stdout
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=(board,))
    writer.start()
    result = run("solvable", fifo, "--json")
    writer.join()
    assert json.loads(result.stdout)["first_click"] == [4, 4]
    bom = tmp_path / "bom.txt"  # a byte-order mark before the line hid it
    bom.write_bytes(b"\xef\xbb\xbf" + board.encode())
    assert json.loads(run("solvable", bom, "--json").stdout)["first_click"] == [4, 4]
    # A click off the board from the line: named, whatever the file's name holds ({} too).
    odd = tmp_path / "b_{x}{}.txt"
    odd.write_text("# 3x2, 1 mine, rules safe-opening, first click 40,4, seed 7\n..*\n...\n")
    result = run("solvable", odd)
    assert result.exit_code == 2
    assert result.stderr == f"error: the first click 40,4 of {odd}'s first line is off the 3x2 " \
                            "board\n"


@pytest.mark.parametrize("command, said", [
    ("metrics", "unknown character 'm' in a layout (expected '*' or '.')"),
    ("reconstruct", "unknown character 'm' in a number grid (expected a digit or '?')"),
])
def test_a_file_of_another_kind_through_a_pipe_is_read_once(tmp_path, command, said):
    # Whether the file is a position is asked by reading it again: a pipe's second open waited
    # for a writer that never came (the command hung).
    import os
    import subprocess
    import sys
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("mines: 1\n1?\n11\n",))
    writer.start()
    result = subprocess.run([sys.executable, "-m", "msanalysis", command, str(fifo)],
                            capture_output=True, text=True, timeout=60)
    writer.join()
    assert result.returncode == 2
    assert result.stderr == f"error: {fifo}, line 1, column 1: {said}\n"


@pytest.mark.parametrize("line, fragment", [
    ("# 3x2, 1 mine, rules bogus, first click 1,1, seed 1", "R one of unsafe, safe-cell"),
    ("# 3x2, 1 mine, rules safe-cell, first click -1,9, seed 1", "not the line generate"),
    ("# 3x2, 7 mines, rules safe-cell, first click 1,1, seed 1",
     "says 3x2 with 7 mines, the board is 3x2 with 1 mine"),
    ("# 9x9, 1 mine, rules safe-cell, first click 1,1, seed 1", "the board is 3x2 with 1 mine"),
])
def test_solvable_names_a_line_above_the_board_it_cannot_follow(tmp_path, line, fragment):
    # It was passed over, and the board played under safe-cell from 0,0 without a word.
    path = tmp_path / "b.txt"
    path.write_text(f"{line}\n..*\n...\n")
    result = run("solvable", path)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith(f"error: {path}, line 1: ") and fragment in result.stderr


def test_solvable_passes_over_a_comment_of_its_own_above_the_board(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("# 3x2, my hardest board\n..*\n...\n")
    result = run("solvable", path, "--json")
    assert result.stderr == "" and json.loads(result.stdout)["first_click"] == [0, 0]
