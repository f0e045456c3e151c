"""The real replays of human games that sit beside the repository, for the tests that read them.

A fresh clone elsewhere has no ``../shared``: the tests marked ``needs_shared`` then skip, saying
why, and the project's own replays (written from seeded games) still test everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "replays"
SHARED_FILES = sorted(p for p in SHARED.glob("*") if p.suffix in (".avf", ".rmv", ".evf", ".mvf")) \
    if SHARED.is_dir() else []
needs_shared = pytest.mark.skipif(not SHARED_FILES, reason=f"no real replays: {SHARED} is absent "
                                  "(it sits beside the repository in the project's workplace)")
