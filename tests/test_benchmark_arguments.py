"""The benchmark scripts refuse a bad option as they read it: one error line, exit 2, no
traceback and no run (an audit found tracebacks, and files that could not be written only once
the games were played)."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script, args, message", [
    ("paired.py", ["--seed", "-1"], "argument --seed: a whole number from 0 up, got -1"),
    ("paired.py", ["--jobs", "65"], "argument --jobs: a whole number from 1 to 64, got 65"),
    ("paired.py", ["--games", "x"], "argument --games: a whole number from 1 up, got 'x'"),
    ("paired.py", ["--save", "/no/such/folder/f.jsonl"], "argument --save: no such folder"),
    ("paired.py", ["--same-as", "/no/such/file"], "argument --same-as: no such file"),
    ("winrate.py", ["--output", "."], "argument --output: '.' is a folder, not a file"),
    ("longrun.py", ["--chunk", "0"], "argument --chunk: a whole number from 1 up, got 0"),
    ("longrun.py", ["--time-limit", "nan"], "argument --time-limit: a positive number"),
    ("cascade.py", ["--size", "0"], "argument --size: a whole number from 1 to 10000"),
    ("cascade.py", ["--size", "3", "--mines", "9"], "--mines: at most 8 on a 3x3 board"),
    ("replays.py", ["--repeat", "0"], "argument --repeat: a whole number from 1 up, got 0"),
    ("opening_book.py", ["--state", "."], "argument --state: '.' is a folder, not a file"),
    ("opening_book.py", ["--alpha", "1"], "argument --alpha: a number between 0 and 1"),
    ("rollout_gain.py", ["--top", "1"], "argument --top: a whole number from 2 up, got 1"),
    ("losses.py", ["--seed", "-1"], "argument --seed: a whole number from 0 up, got -1"),
    ("changed_guesses.py", ["--output", ""], "argument --output: an empty file name"),
    ("changed_guesses.py", ["--report", "/no/such/file"], "argument --report: no such file"),
    ("changed_guesses.py", ["--report", str(BENCHMARKS / "tables.py"), "--b", "living=True"],
     "--report plays nothing: it takes no --a, --b or --java"),
])
def test_a_bad_option_is_refused_as_it_is_read(script, args, message):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
