"""Shared set-up: the benchmarks' baselines (seed 003's backtracking) import like test helpers."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
