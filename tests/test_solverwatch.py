"""Tests for msanalysis.solverwatch: solvers stopped at a deadline and at Ctrl-C."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from msanalysis.solverwatch import Watch, propagate


def _pigeonhole(solver, holes: int) -> None:
    """``holes + 1`` pigeons in ``holes`` holes: unsatisfiable, and a long search for CDCL."""
    pigeons = [[p * holes + h + 1 for h in range(holes)] for p in range(holes + 1)]
    for pigeon in pigeons:
        solver.add_clause(pigeon)
    for hole in zip(*pigeons):
        solver.add_atmost(list(hole), 1)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_ctrl_c_interrupts_one_long_solve():
    from pysat.solvers import Solver

    # Python's own handler, even when the tests run in the background, where SIGINT is ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with Solver(name="mc") as solver:
            _pigeonhole(solver, 11)
            interrupt = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
            started = time.perf_counter()
            try:
                with Watch(started + 60) as watch, pytest.raises(KeyboardInterrupt):
                    interrupt.start()
                    watch.solve(solver)
            finally:
                interrupt.cancel()  # never a stray Ctrl-C for pytest when the solve ends first
            assert time.perf_counter() - started < 10  # stopped by the signal, not the deadline
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_a_sigint_handler_that_does_not_raise_lets_the_search_go_on():
    from pysat.solvers import Solver

    calls = []
    previous = signal.signal(signal.SIGINT, lambda *_: calls.append(1))
    try:
        with Solver(name="mc") as solver:
            _pigeonhole(solver, 11)
            interrupt = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
            with Watch(time.perf_counter() + 1) as watch:
                interrupt.start()
                status = watch.solve(solver)
            interrupt.cancel()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == [1] and status is None and watch.expired  # ran on to the deadline


def test_propagate_reports_pysats_interrupt_as_keyboard_interrupt():
    # python-sat's own error for SIGINT during propagate, as its C module raises it.
    error = type("error", (Exception,), {"__module__": "pysolvers"})

    class Interrupted:
        def propagate(self, assumptions):
            raise error("Caught keyboard interrupt")

    class Broken:
        def propagate(self, assumptions):
            raise error("something else")

    with pytest.raises(KeyboardInterrupt):
        propagate(Interrupted(), [1])
    with pytest.raises(error):
        propagate(Broken(), [1])


def test_a_deadline_already_past_stops_the_search_without_waiting_for_the_thread():
    # On a busy machine the watch's thread may see a passed deadline only after a short search
    # has ended; the search is stopped before it starts instead. A watch not entered has no
    # thread at all, so only that check can stop it.
    from pysat.solvers import Solver

    with Solver(name="mc", bootstrap_with=[[1, 2], [-1]]) as solver:
        watch = Watch(time.perf_counter() - 1)
        assert watch.solve(solver) is None and watch.expired
        assert Watch(time.perf_counter() + 60).solve(solver) is True


def test_a_deadline_years_away_is_waited_for_a_day_at_a_time(monkeypatch):
    # select refuses a timeout past what time_t holds: a time limit of 1e10 s killed the
    # watch's thread (its traceback printed, the caller none the wiser). The watch waits a day
    # at most, then again; shortened here so that the test sees the waits go round.
    import msanalysis.solverwatch as solverwatch

    failures = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    with Watch(time.perf_counter() + 1e10) as watch:
        time.sleep(0.1)  # the thread waits, and has not died
    assert failures == [] and not watch.expired
    monkeypatch.setattr(solverwatch, "_LONGEST_WAIT", 0.05)
    with Watch(time.perf_counter() + 1e10) as watch:
        time.sleep(0.3)  # several waits, none of them the deadline
        assert not watch.expired
    with Watch(time.perf_counter() + 0.1) as watch:
        time.sleep(0.4)
        assert watch.expired  # a deadline within a wait still fires
    assert failures == []
