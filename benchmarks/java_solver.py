"""The Java solver (github.com/DavidNHill/Minesweeper, JSMinesweeper's twin) asked for its
guess in our positions: a peer for ``changed_guesses.py --java``, never a dependency.

Its source is not part of this project; build it once (git and a JDK 17 or later, for example
Debian's ``openjdk-17-jdk-headless``), at the commit the studies used:

    python benchmarks/java_solver.py --build build/java

which clones it into ``build/java/src``, checks out 0806bb8 and compiles it, with our driver
``benchmarks/java/Ask.java``, into ``build/java/classes``; then asks it one position to show
that it answers. ``--classes DIR`` checks an existing build the same way. The driver gives
each position to a fresh solver with the settings of its bulk runs (``SMALL_ANALYSIS``, one
thread, no flags): a fresh solver forgets the endgame tree its own games would carry from one
move to the next, so at a few positions it answers otherwise than in its own games. Not part of
``make bench``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from arguments import Parser

from msanalysis.board import Cell
from msanalysis.play.autoplay import REVEAL, Move
from msanalysis.position import Position

REPOSITORY = "https://github.com/DavidNHill/Minesweeper"
COMMIT = "0806bb8"
SOURCES = ("MineSweeperSolver/src", "MinesweeperGameState/src", "Asynchronous/src")
DRIVER = Path(__file__).with_name("java") / "Ask.java"
# Our text of a position as the driver reads it: every covered cell H (the solver finds the
# mines itself), a 0 as 0.
_DRIVER_CELLS = str.maketrans("?F*.", "HHH0")


class JavaSolver:
    """A running Java solver, asked like a strategy: :meth:`choose` answers its first reveal.

    Parameters
    ----------
    classes : Path
        The directory of the compiled solver and driver (see ``--build``).

    Examples
    --------
    Needs the build, so not run here::

        solver = JavaSolver(Path("build/java/classes"))
        position = Position.from_text("mines: 1\\n1????\\n1????")
        solver.choose(position, None)  # [Move(kind='reveal', cell=(0, 2), ...)]
        solver.method  # 'PROBABILITY_ENGINE': how it found it
    """

    def __init__(self, classes: Path) -> None:
        if not (classes / "Ask.class").exists():
            raise FileNotFoundError(f"{classes}: no Ask.class there (build the Java solver "
                                    f"with: python benchmarks/java_solver.py --build DIR)")
        self.classes = classes
        self.method = ""
        self._process: subprocess.Popen[str] | None = None

    def choose(self, position: Position, analysis: Any = None) -> list[Move]:
        """The solver's first reveal in ``position`` (``analysis`` is not used), as a guess;
        none if it would reveal nothing. Its reason is left in :attr:`method`.

        Raises
        ------
        RuntimeError
            When the solver fails on the position or stops answering.
        """
        if self._process is None:  # started in the process that asks (workers fork)
            self._process = subprocess.Popen(
                ["java", "-Xss64m", "-cp", str(self.classes), "Ask"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        assert self._process.stdin is not None and self._process.stdout is not None
        height, width = position.shape
        text = "/".join(position.to_text().splitlines()[1:])  # its rows, on one line
        rows = text.translate(_DRIVER_CELLS)
        self._process.stdin.write(f"{width} {height} {position.total_mines} {rows}\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline().split()
        if not answer or answer[0] == "error":
            why = " ".join(answer[1:]) if answer else "it stopped answering"
            raise RuntimeError(f"the Java solver failed on the position {text} "
                               f"({position.total_mines} mines): {why}")
        if answer[0] == "none":
            self.method = "none"
            return []
        self.method = answer[2]
        cell: Cell = (int(answer[1]), int(answer[0]))  # it answers column, row
        return [Move(REVEAL, cell, guess=True)]


def build(directory: Path) -> Path:
    """Clone the solver into ``directory/src`` at :data:`COMMIT` and compile it with the
    driver into ``directory/classes``; the classes' directory."""
    source, classes = directory / "src", directory / "classes"
    if not source.exists():
        subprocess.run(["git", "clone", "--quiet", REPOSITORY, str(source)], check=True)
    subprocess.run(["git", "-C", str(source), "checkout", "--quiet", COMMIT], check=True)
    files = sorted(str(f) for part in SOURCES for f in (source / part).rglob("*.java"))
    classes.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-nowarn", "-d", str(classes), *files, str(DRIVER)], check=True)
    return classes


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--build", type=Path, metavar="DIR",
                       help="clone and compile the solver under DIR")
    where.add_argument("--classes", type=Path, metavar="DIR",
                       help="check the solver compiled in DIR")
    args = parser.parse_args(argv)
    try:
        classes = build(args.build) if args.build else args.classes
        solver = JavaSolver(classes)
        position = Position.from_text("mines: 1\n1????\n1????")
        move = solver.choose(position)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    print(f"{classes}: in the position 1???? / 1???? with 1 mine the Java solver reveals "
          f"{move[0].cell if move else 'nothing'} ({solver.method})")


if __name__ == "__main__":
    main()
