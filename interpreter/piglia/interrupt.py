"""Stopping a long run cleanly: Ctrl-C, SIGTERM and SIGHUP ask it to stop, and it stops within a move.

A run (simulate, tournament, compare) installs :class:`StopOnSignals` around its loop. The first signal only sets
a flag; the loops call :func:`check` between moves (not only between matches: one match may be long) and raise
:class:`Interrupted`, which the run turns into the statistics of what finished. A second Ctrl-C raises
``KeyboardInterrupt`` at once, wherever the run is. Statistics count whole matches only; a
record only ever holds whole matches (see :mod:`piglia.recordio`).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType
from typing import Any

__all__ = ["STOP", "Interrupted", "StopOnSignals", "check", "exit_status", "requested", "set_flag"]

# The signals that ask a run to stop. SIGHUP: the terminal was closed.
SIGNALS = [signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]


class Interrupted(Exception):
    """A stop was asked for (Ctrl-C, SIGTERM): the run ends with what finished."""


class _Flag:
    """The one stop request of this process (signals are per process, so is the flag)."""

    def __init__(self) -> None:
        self.signum: int | None = None


_FLAG = _Flag()
# The flag itself, for the tightest loops (random simulation plays a move in a few microseconds): they read
# ``STOP.signum`` between moves, which is :func:`check` without the cost of a call.
STOP = _FLAG


def set_flag(signum: int, frame: FrameType | None = None) -> None:
    """A signal handler that only asks for a stop (a worker process's SIGINT)."""
    _FLAG.signum = signum


def requested() -> bool:
    """Whether a stop was asked for since the run began."""
    return _FLAG.signum is not None


def check() -> None:
    """Raise :class:`Interrupted` if a stop was asked for (called between moves: it costs one attribute read)."""
    if _FLAG.signum is not None:
        raise Interrupted


def exit_status() -> int:
    """The conventional exit status of a run stopped by the signal received: 128 + its number (130 for Ctrl-C)."""
    return 128 + (_FLAG.signum or signal.SIGINT)


# A stop is noticed between moves. A move that does not end (a plugin's endless loop, a search on a table far
# bigger than a game's) would keep the run alive for ever after SIGTERM, which nobody sends twice: this long after
# the first signal, the run is cut where it stands, as a second Ctrl-C cuts it (the summary of what finished).
CUT_AFTER_SECONDS = 10.0


class StopOnSignals:
    """While active (in the main thread), SIGINT, SIGTERM and SIGHUP set the stop flag; a second signal, or
    :data:`CUT_AFTER_SECONDS` without the run stopping, raises ``KeyboardInterrupt`` wherever the run is. Elsewhere
    than in the main thread it does nothing (signals go to it)."""

    def __init__(self) -> None:
        self._old: dict[int, Any] = {}

    @property
    def pressed(self) -> bool:
        """Whether a stop was asked for."""
        return requested()

    def __enter__(self) -> StopOnSignals:
        _FLAG.signum = None
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                self._old[sig] = signal.signal(sig, self._press)
        return self

    def _press(self, signum: int, frame: FrameType | None) -> None:
        if _FLAG.signum is not None:
            raise KeyboardInterrupt
        _FLAG.signum = signum
        if hasattr(signal, "setitimer"):  # POSIX: the cut, should the run not stop by itself
            self._old.setdefault(signal.SIGALRM, signal.signal(signal.SIGALRM, self._cut))
            signal.setitimer(signal.ITIMER_REAL, CUT_AFTER_SECONDS)

    @staticmethod
    def _cut(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if getattr(signal, "SIGALRM", None) in self._old:
            signal.setitimer(signal.ITIMER_REAL, 0)  # the run ended in time: no cut
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()
