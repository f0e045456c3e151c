"""Child processes for the tests that press Ctrl-C: started so that it reaches them, and never
left running after a test."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


def ctrl_c_as_default() -> None:
    """Give a child Ctrl-C's default action before it starts (a ``preexec_fn``).

    A test run started in the background (``make test &``, nohup) ignores SIGINT, and so would
    its children, whose Python then installs no handler of its own: Ctrl-C would reach nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def killed_at_the_end(process: subprocess.Popen, *, group: bool = False) -> Iterator[None]:
    """Kill ``process`` (and its group) if it still runs when the block ends: a child that failed
    the test must not go on searching beside the tests after it."""
    try:
        yield
    finally:
        if process.poll() is None:
            if group:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
            process.communicate()
