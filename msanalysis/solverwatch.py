"""Stopping a solver that searches in C, at a deadline or at Ctrl-C.

Python runs no signal handler while a C call is under way, so Ctrl-C alone would wait for the
end of a search. :class:`Watch` stops python-sat's and CP-SAT's searches from a helper thread;
:func:`propagate` makes python-sat's unit propagation raise ``KeyboardInterrupt`` as Python
would. Used by :mod:`msanalysis.sat` (the analysis's searches), :mod:`msanalysis.reconstruction`
and :mod:`msanalysis.puzzle`.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress

from msanalysis.errors import time_is_up

__all__ = ["Watch", "propagate"]

_LONGEST_WAIT = 86_400.0
"""The longest the watch waits at once, in seconds (then it looks at the deadline again)."""


class Watch:
    """Stops the solver at work when the deadline comes or Ctrl-C is pressed.

    Both engines search in C, where Python runs no signal handler until the call returns, so
    Ctrl-C alone would wait for the end of the search. A helper thread stops the solver instead
    (python-sat's ``interrupt``, with ``solve_limited(expect_interrupt=True)``; CP-SAT's
    ``stop_search``): at the deadline, and when Python's own SIGINT handler writes the signal's
    number to the wakeup fd (:func:`signal.set_wakeup_fd`), which the thread reads. The solver
    returns at once, and that handler raises KeyboardInterrupt as usual. Signals are watched
    from the main thread only, the one Python runs their handlers in.

    A context manager: the thread lives from ``with`` to the end of the block, and stops only
    what runs inside :meth:`stopping` (or :meth:`solve`). A watch not entered has no thread:
    it stops only a search begun after its deadline.

    Parameters
    ----------
    deadline : float or None
        A :func:`time.perf_counter` time, or None for no deadline.

    Attributes
    ----------
    expired : bool
        True once the deadline has come.
    signalled : bool
        True when SIGINT came during the last :meth:`stopping` block.

    Examples
    --------
    >>> import time
    >>> from pysat.solvers import Solver
    >>> with Solver(name="mc", bootstrap_with=[[1, 2], [-1]]) as solver:
    ...     with Watch(time.perf_counter() + 5) as watch:
    ...         watch.solve(solver), watch.expired
    (True, False)
    """

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.expired = False
        self.signalled = False
        self._lock = threading.Lock()
        self._stop: Callable[[], object] | None = None
        self._write: socket.socket | None = None  # the end the signal handler writes to
        self._previous_fd = -1  # the wakeup fd set before ours, put back at the end
        self._watching_signals = False

    def __enter__(self) -> Watch:
        main = threading.current_thread() is threading.main_thread()
        if self.deadline is None and not main:
            return self  # no deadline, and no signal reaches this thread's code: nothing to do
        try:
            read, self._write = socket.socketpair()
            self._write.setblocking(False)  # a signal handler must never wait to write
            if main:
                try:
                    self._previous_fd = signal.set_wakeup_fd(self._write.fileno(),
                                                             warn_on_full_buffer=False)
                    self._watching_signals = True
                except ValueError:  # not the main interpreter: its signals are not ours
                    pass
            threading.Thread(target=self._run, args=(read,), name="msanalysis-watch",
                             daemon=True).start()
        except BaseException:
            # Ctrl-C can come while the thread starts: the wakeup fd must not outlive the watch.
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._watching_signals:
            self._watching_signals = False
            signal.set_wakeup_fd(self._previous_fd)  # before the socket it names is closed
        if self._write is not None:
            self._write.close()  # the thread reads the end of the stream and leaves
            self._write = None

    def _run(self, read: socket.socket) -> None:
        with read:
            while True:
                timeout = None
                if self.deadline is not None and not self.expired:
                    left = self.deadline - time.perf_counter()
                    # A day at most per wait: select refuses a time past what time_t holds
                    # (a time limit of 1e10 s), and a wait that ends before the deadline
                    # only waits again.
                    timeout = min(max(0.0, left), _LONGEST_WAIT)
                ready, _, _ = select.select([read], [], [], timeout)
                if not ready:
                    if not time_is_up(self.deadline):
                        continue
                    self._fire(expired=True)
                    continue
                try:
                    data = read.recv(512)
                except OSError:
                    return
                if not data:
                    return
                if self._previous_fd != -1:
                    # Whoever set the wakeup fd before us (an asyncio loop, say) still hears of
                    # the signal.
                    with suppress(OSError):
                        os.write(self._previous_fd, data)
                if int(signal.SIGINT) in data:
                    self._fire(expired=False)

    def _fire(self, *, expired: bool) -> None:
        with self._lock:
            if expired:
                self.expired = True
            else:
                self.signalled = True
            if self._stop is not None:
                self._stop()

    @contextmanager
    def stopping(self, stop: Callable[[], object],
                 clear: Callable[[], object] | None = None) -> Iterator[None]:
        """Let the watch call ``stop`` while the block runs; ``clear`` runs after the block.

        ``stop`` is called at once when the deadline has already come. ``clear`` undoes a stop
        once no other can follow (python-sat's ``clear_interrupt``), under the same lock.
        """
        with self._lock:
            self._stop = stop
            self.signalled = False
            # The clock is read here too: on a busy machine the thread may not yet have seen a
            # deadline that has passed, and a short search would then run to its end.
            if time_is_up(self.deadline):
                self.expired = True
            if self.expired:
                stop()
        try:
            yield
        finally:
            with self._lock:
                self._stop = None
                if clear is not None:
                    clear()

    def solve(self, solver, assumptions: Sequence[int] = ()) -> bool | None:
        """``solver.solve(assumptions)`` with python-sat, or None when the deadline came first.

        Ctrl-C raises KeyboardInterrupt as soon as the solver has stopped.
        """
        while True:
            with self.stopping(solver.interrupt, solver.clear_interrupt):
                status = solver.solve_limited(assumptions=list(assumptions),
                                              expect_interrupt=True)
            if status is not None or self.expired or not self.signalled:
                return status
            # Stopped by a SIGINT whose handler raised nothing (Python's default one raises
            # KeyboardInterrupt as the solver returns): the search goes on.


def propagate(solver, assumptions: list[int]) -> tuple[bool, list[int]]:
    """``solver.propagate(assumptions)``, with Ctrl-C raised as KeyboardInterrupt.

    In the main thread python-sat catches SIGINT during ``propagate`` with a handler of its
    own, raises its own error instead of KeyboardInterrupt, and leaves that handler in place,
    so the next Ctrl-C would be lost: Python's handler is put back first.

    Examples
    --------
    >>> from pysat.solvers import Solver
    >>> with Solver(name="mc", bootstrap_with=[[-1, 2], [-2, 3]]) as solver:
    ...     propagate(solver, [1])
    (True, [1, 2, 3])
    """
    try:
        return solver.propagate(assumptions=assumptions)
    except Exception as error:
        if type(error).__module__ != "pysolvers" or "keyboard interrupt" not in str(error):
            raise
    if threading.current_thread() is threading.main_thread():
        handler = signal.getsignal(signal.SIGINT)
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
    raise KeyboardInterrupt
