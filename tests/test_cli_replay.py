"""Tests for ``msanalysis replay``."""

from __future__ import annotations

import csv
import json
import re
import xml.dom.minidom
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from msanalysis import svg
from msanalysis.cli import app
from msanalysis.play.judge import analyze_replay, record_autoplay
from msanalysis.position import Position
from msanalysis.replay import load_replay, save_replay

runner = CliRunner()

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "replays"
EXPERT = PUZZLES / "zhang-shen-jia-expert-3bv122.mvf"


def _games(tmp_path: Path, seeds=(0, 1, 2)) -> list[Path]:
    paths = []
    for seed in seeds:
        path = tmp_path / f"game{seed}.msreplay.jsonl"
        save_replay(record_autoplay(9, 9, 10, seed=seed, strategy="paper"), path)
        paths.append(path)
    return paths


def test_json_is_the_judgement_of_each_file(tmp_path):
    paths = _games(tmp_path)
    result = runner.invoke(app, ["replay", *map(str, paths), "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines):
        data = json.loads(line)
        assert data == json.loads(json.dumps(analyze_replay(load_replay(path)).to_dict()))
        assert data["file"] == str(path)


def test_text_table_lists_the_risky_clicks_and_the_summary():
    result = runner.invoke(app, ["replay", str(EXPERT)])
    assert result.exit_code == 0, result.output
    text = result.stdout
    judged = analyze_replay(load_replay(EXPERT))
    assert text.startswith(EXPERT.name)
    assert "30x16/99, Minesweeper Clone 0.97 beta" in text
    # One line per risky click, starting with its action index, and one explanation per
    # needless guess.
    for guess in judged.guesses:
        assert any(line.split()[:1] == [str(guess.index)] and guess.verdict.value in line
                   for line in text.splitlines())
    assert text.count("is safe: ") == judged.verdicts["needless"]
    assert f"{judged.clicks} clicks: 1 first, {judged.verdicts['safe']} safe" in text
    assert "3BV 122, 3.23 3BV/s" in text


def test_csv_positions_and_svg(tmp_path):
    paths = _games(tmp_path, seeds=(3, 4, 5, 6))
    out, positions, pictures = tmp_path / "all.csv", tmp_path / "positions", tmp_path / "svg"
    result = runner.invoke(app, ["replay", *map(str, paths), "--csv", str(out), "--positions",
                                 str(positions), "--svg", str(pictures), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    assert [row["file"] for row in rows] == [str(p) for p in paths]
    risky = 0
    for path, row in zip(paths, rows):
        judged = analyze_replay(load_replay(path))
        assert row["survival"] == judged.to_dict()["survival"]
        assert int(row["clicks"]) == judged.clicks and row["won"] == str(judged.won)
        stem = path.name.removesuffix(".msreplay.jsonl")
        xml.dom.minidom.parse(str(pictures / f"{stem}.svg"))
        for guess in judged.guesses:
            risky += 1
            written = positions / f"{stem}-{guess.index:04d}.txt"
            assert Position.load(written) == guess.position
            xml.dom.minidom.parse(str(pictures / f"{stem}-{guess.index:04d}.svg"))
            again = runner.invoke(app, ["analyze", str(written), "--json"])
            assert again.exit_code == 0, again.output
    assert risky > 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_replays_of_the_same_name_write_files_of_their_own(tmp_path, jobs):
    paths = []
    for folder, seed in (("a", 3), ("b", 4)):
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "x.msreplay.jsonl")
        save_replay(record_autoplay(9, 9, 10, seed=seed, strategy="paper"), paths[-1])
    positions, pictures = tmp_path / "positions", tmp_path / "svg"
    result = runner.invoke(app, ["replay", *map(str, paths), "--positions", str(positions),
                                 "--svg", str(pictures), "--jobs", jobs])
    assert result.exit_code == 0, result.output
    for path, stem in zip(paths, ("x", "x-2")):
        judged = analyze_replay(load_replay(path))
        assert judged.guesses
        for guess in judged.guesses:
            written = positions / f"{stem}-{guess.index:04d}.txt"
            assert Position.load(written) == guess.position
        assert (pictures / f"{stem}.svg").read_text() == svg.replay(judged)
    assert len(list(pictures.glob("x*.svg"))) == 2 + sum(
        len(analyze_replay(load_replay(path)).guesses) for path in paths)


def test_bad_files_give_one_error_line_each_and_exit_2(tmp_path):
    good = _games(tmp_path, seeds=(7,))[0]
    broken = tmp_path / "broken.avf"
    broken.write_bytes(b"\x00\x01\x02")
    missing = tmp_path / "missing.rmv"
    result = runner.invoke(app, ["replay", str(broken), str(good), str(missing), "--json"])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line]
    assert len(errors) == 2 and all(line.startswith("error: ") for line in errors)
    assert str(broken) in errors[0] and "not a readable .avf replay" in errors[0]
    assert errors[1] == f"error: no such file: {missing}"
    assert "Traceback" not in result.output
    assert json.loads(result.stdout)["file"] == str(good)


def test_names_that_are_not_printable_keep_the_report_whole(tmp_path):
    path = _games(tmp_path, seeds=(7,))[0]
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header.update(player="\ud800", program="two\nlines")
    lines[0] = json.dumps(header)  # the lone surrogate as the escape \\ud800
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "all.csv"
    result = runner.invoke(app, ["replay", str(path), "--csv", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("  9x9/10, two\\nlines, \\ud800, ")
    (row,) = csv.DictReader(out.open(encoding="utf-8"))
    assert (row["player"], row["program"]) == ("\\ud800", "two\\nlines")


def test_standard_input(tmp_path):
    path = _games(tmp_path, seeds=(7,))[0]
    result = runner.invoke(app, ["replay", "-", "--json"], input=path.read_bytes())
    assert result.exit_code == 0, result.output
    expected = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert json.loads(result.stdout) == {**expected, "file": "-"}
    result = runner.invoke(app, ["replay", "-"], input=EXPERT.read_bytes())
    assert result.exit_code == 2 and result.stderr.startswith(
        "error: stdin: not a replay in our format (.msreplay.jsonl)")
    assert "--format" in result.stderr
    named = runner.invoke(app, ["replay", "-", "--format", "mvf", "--json"],
                          input=EXPERT.read_bytes())
    assert named.exit_code == 0, named.output
    by_name = json.loads(runner.invoke(app, ["replay", str(EXPERT), "--json"]).stdout)
    assert json.loads(named.stdout) == {**by_name, "file": "-"}
    result = runner.invoke(app, ["replay", "-", "--format", "xyz"], input=b"")
    assert result.exit_code == 2 and result.stderr.startswith("error: Invalid value for '--format'")
    for options in (["--jobs", "2", str(path)], ["--dask", "tcp://127.0.0.1:1"]):
        result = runner.invoke(app, ["replay", "-", *options], input=path.read_bytes())
        assert result.exit_code == 2 and result.stderr == (
            "error: standard input (-) is read by this process only: judge it without --jobs "
            "and --dask\n")


def test_file_names_with_line_breaks_or_bytes_that_are_not_utf8(tmp_path):
    good = _games(tmp_path, seeds=(7,))[0]
    odd = tmp_path / "two\nlines\udcff.msreplay.jsonl"  # \udcff: the byte 0xff of the name
    odd.write_bytes(good.read_bytes())
    missing = tmp_path / "no\nsuch.jsonl"
    out, positions = tmp_path / "all.csv", tmp_path / "positions"
    result = runner.invoke(app, ["replay", str(odd), str(missing), "--csv", str(out),
                                 "--positions", str(positions)])
    assert result.exit_code == 2
    assert result.stdout.startswith("two\\nlines\\udcff.msreplay.jsonl\n  9x9/10, ")
    assert result.stderr.splitlines()[0] == f"error: no such file: {tmp_path}/no\\nsuch.jsonl"
    (row,) = csv.DictReader(out.open(encoding="utf-8"))
    assert row["file"] == str(odd).replace("\udcff", "\\udcff")
    for written in positions.iterdir():
        assert written.read_text().startswith("# two\\nlines\\udcff.msreplay.jsonl, action ")
        assert runner.invoke(app, ["analyze", str(written)]).exit_code == 0


def test_a_replay_that_runs_out_of_time_exits_3(tmp_path, monkeypatch):
    import msanalysis.errors as errors

    ticks = iter(range(0, 10_000, 4))  # every look of the judge at its clock: 4 s later
    # The clock where the judge's deadline is set and looked at (errors.time_is_up).
    monkeypatch.setattr(errors, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))
    good, slow = _games(tmp_path, seeds=(3, 4))
    result = runner.invoke(app, ["replay", str(slow), "--time-limit", "10", "--json"])
    assert result.exit_code == 3
    assert re.fullmatch(rf"error: {re.escape(str(slow))}: judging stopped at the time limit "
                        rf"\(10 s\) (before|at) action [23] of "
                        rf"{len(load_replay(slow).actions)}\n", result.stderr)
    assert runner.invoke(app, ["replay", str(good), "--time-limit", "0"]).exit_code == 2


def test_a_replay_too_large_for_memory_is_named_and_the_others_judged(tmp_path, monkeypatch):
    import msanalysis.replay as module

    big, good = _games(tmp_path, seeds=(5, 6))
    real = module.load_replay

    def load(path, **options):
        if Path(path) == big:
            raise MemoryError  # as a replay of a 10,000,000-cell board may on a small machine
        return real(path, **options)

    monkeypatch.setattr(module, "load_replay", load)
    result = runner.invoke(app, ["replay", str(big), str(good), "--json"])
    # One line naming the file (the whole run ended with a line naming none), then the next.
    assert result.exit_code == 3
    assert result.stderr == (f"error: {big}: ran out of memory: the input is too large for "
                             "this machine\n")
    assert json.loads(result.stdout)["file"] == str(good)


def test_a_replay_that_cannot_be_read_is_one_plain_error_line(tmp_path, monkeypatch):
    import errno

    import msanalysis.replay as module

    locked, good = _games(tmp_path, seeds=(5, 6))
    real = module.load_replay

    def load(path, **options):
        if Path(path) == locked:  # as a file without read permission is, for a user not root
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, **options)

    monkeypatch.setattr(module, "load_replay", load)
    result = runner.invoke(app, ["replay", str(locked), str(good), "--json"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {locked}: Permission denied\n"  # not "[Errno 13] ..."
    assert json.loads(result.stdout)["file"] == str(good)


def test_a_time_no_game_takes_is_written_short(tmp_path):
    # 1e308 s is a finite time and is read, but its 309 digits would fill the line.
    [path] = _games(tmp_path, seeds=(7,))
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seconds"] = 1e308
    last = json.loads(lines[-1])
    last["time"] = 1e308
    path.write_text("\n".join([json.dumps(header), *lines[1:-1], json.dumps(last)]) + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    status = result.stdout.splitlines()[1]
    assert status.endswith(" in 1e+308 s") and len(status) < 100, status


def test_bad_jobs():
    result = runner.invoke(app, ["replay", str(EXPERT), "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs takes 1 to 64" in result.stderr


def test_dask_cluster_gives_the_same_reports(tmp_path):
    distributed = pytest.importorskip("distributed")
    paths = _games(tmp_path, seeds=(8, 9))
    missing = tmp_path / "missing.evf"
    files = [str(paths[0]), str(missing), str(paths[1])]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        result = runner.invoke(app, ["replay", *files, "--json", "--dask",
                                     cluster.scheduler_address])
    assert result.exit_code == 2 and result.stderr.strip() == f"error: no such file: {missing}"
    local = runner.invoke(app, ["replay", str(paths[0]), str(paths[1]), "--json"])
    assert result.stdout == local.stdout
