"""Worker processes that never outlive the run: bounded by the cores, ended with the run, dead with their parent.

``--workers`` is at most the number of cores this process may use, or :data:`SMALL_MACHINE_WORKERS` on a machine
with fewer (:func:`max_workers`): more processes than cores only slow a run down, and an unbounded number
(``--workers 100000``) would exhaust the machine; a few are always allowed, so that a command written on one machine
still runs on a smaller one. Every
worker asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG`` on Linux) and also watches the main
process from a thread, so killing the main process (even with SIGKILL) ends every worker. (The thread is needed:
a worker's parent is the fork server, which itself waits for its workers to end before it does.) Ctrl-C, SIGTERM and
SIGHUP, which reach the whole process group, and the main process's own request, SIGUSR1, only set a worker's stop
flag: its work stops at the next move and hands back the whole matches it finished, and the pool is then closed
without killing a worker that may be writing a result.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from piglia.errors import PigliaError

if TYPE_CHECKING:
    from concurrent.futures import Future

# ctypes, multiprocessing and concurrent.futures are imported where a pool is made or a worker starts: a run that
# stays in one process (most small ones) needs none of them, and they are a noticeable part of the command's start.

__all__ = ["SMALL_MACHINE_WORKERS", "WorkerPool", "check_workers", "cores", "max_workers"]

_PR_SET_PDEATHSIG = 1
STOP_SIGNAL = signal.SIGUSR1  # the main process's request to its workers to stop (see WorkerPool.close)
CLOSE_GRACE_SECONDS = 3.0  # how long workers get to stop at their next move before they are killed
SMALL_MACHINE_WORKERS = 4  # allowed even on a machine with fewer cores (a little oversubscription is harmless)
# How often a worker looks whether the main process is still there (the kernel's death signal is immediate).
_WATCH_SECONDS = 0.5
# Signals sent to a whole process group that must stop a run, not kill its helper processes (see _die_with).
_GROUP_SIGNALS = [sig for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if sig is not None]


def cores() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most worker processes a run may ask for: the cores, or :data:`SMALL_MACHINE_WORKERS` if more."""
    return max(cores(), SMALL_MACHINE_WORKERS)


def check_workers(workers: int, option: str = "--workers") -> int:
    """``workers`` if it is from 1 to :func:`max_workers`, else a clear error."""
    top = max_workers()
    if not 1 <= workers <= top:
        raise PigliaError(
            f"{option} must be from 1 to {top}: piglia may use {cores()} cores here, and more worker processes than "
            f"cores only slow a run down (up to {SMALL_MACHINE_WORKERS} are always allowed)"
        )
    return workers


def _die_with(parent: int) -> None:
    """In a worker: end this process when the main process ``parent`` ends."""
    # Ctrl-C reaches the whole group, and the main process passes a stop on as SIGUSR1: either sets this process's
    # stop flag, and a loop that checks it (piglia.interrupt) hands back what finished. So do SIGTERM and SIGHUP,
    # which also reach the whole group (`timeout`, `kill -- -PGID`, a service manager stopping its group, a closed
    # terminal): a worker that died of them broke the pool, and the run ended in an internal error with none of its
    # statistics. A worker still ends with the run: the main process, stopped by the same signal, closes the pool,
    # killing any worker that does not end (WorkerPool.close), and a dead main process takes them with it (below).
    from piglia import interrupt

    for sig in (signal.SIGINT, STOP_SIGNAL, *_GROUP_SIGNALS):
        signal.signal(sig, interrupt.set_flag)
    if hasattr(signal, "pthread_sigmask"):  # blocked in the fork server this worker was forked from: see below
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_SIGNALS)
    if sys.platform.startswith("linux"):
        import ctypes.util

        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the thread below still watches
            pass

    def watch() -> None:
        while _alive(parent):
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="piglia-parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs. A killed process stays a zombie until its parent reaps it, and a zombie
    still answers ``kill(pid, 0)``: on Linux its state is read instead."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - the pid now belongs to another user: the parent is gone
        return False
    return True


def _start_fork_server() -> None:
    """Start multiprocessing's fork server, and the resource tracker it starts, with SIGTERM and SIGHUP blocked.

    A signal sent to the whole group reaches them too, and either would die of it; the fork server's death kills
    every worker (their parent: PR_SET_PDEATHSIG, above), breaking the pool before the run can stop cleanly. A
    blocked signal stays blocked across their exec, so they never act on it; they still end with the main process
    (their pipe to it closes). Each worker, forked from the server, unblocks them for itself (_die_with). A server
    already running (started before, by another pool of this process) is left as it is."""
    from multiprocessing import forkserver, resource_tracker

    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - no POSIX signal masks: nothing to block
        forkserver.ensure_running()
        return
    # this thread's mask, which the processes it starts inherit; a signal arriving meanwhile waits, and is then
    # delivered to this process as usual
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
    try:
        # The tracker first: starting it unblocks SIGTERM again (it ignores SIGTERM itself), so block it once more
        # before the server starts.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _start_worker(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    _die_with(parent)
    if initializer is not None:
        initializer(*initargs)


class WorkerPool:
    """A process pool whose workers end with the run (see the module docstring)."""

    def __init__(
        self,
        workers: int,
        *,
        method: str | None = None,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if method is None:
            method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        if method == "forkserver":
            _start_fork_server()
        self.executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_start_worker,
            initargs=(os.getpid(), initializer, initargs),
        )

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``fn(*args)`` in a worker."""
        return self.executor.submit(fn, *args)

    def wait_any(self, pending: set[Any], timeout: float = 0.2) -> set[Any]:
        """The futures of ``pending`` done within ``timeout`` seconds (often none: the caller checks for a stop)."""
        from concurrent.futures import FIRST_COMPLETED, wait

        done, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return set(done)

    def _processes(self) -> list[Any]:
        processes: Any = getattr(self.executor, "_processes", None) or {}
        return list(processes.values())

    def stop_soon(self, pending: set[Any], grace: float) -> set[Any]:
        """Pass a stop on to the workers; the futures of ``pending`` done within ``grace`` seconds."""
        self._ask_to_stop()
        if not pending:
            return set()
        from concurrent.futures import wait

        done, _ = wait(pending, timeout=grace)
        return set(done)

    def _ask_to_stop(self) -> None:
        # SIGUSR1 sets a worker's stop flag; its batch hands back what finished at the next move. A worker still
        # starting (no handler yet) just ends: SIGUSR1's default action, quiet, unlike SIGINT's traceback.
        for process in self._processes():
            if process.is_alive() and process.pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(process.pid, STOP_SIGNAL)

    def close(self, *, stop: bool, grace: float = CLOSE_GRACE_SECONDS) -> None:
        """End the pool: work not started is cancelled; with ``stop``, work under way is stopped at its next move.

        Workers are never killed while they may be writing a result (that would leave the pool's result pipe
        half-written and its manager thread waiting forever): they are asked to stop; only one that has not ended
        ``grace`` seconds later (stuck inside a single move) is killed, and the pool's own end of the result pipe is
        closed so that its manager thread sees the pool broken and ends.
        """
        processes = self._processes()
        manager: threading.Thread | None = getattr(self.executor, "_executor_manager_thread", None)
        result_queue: Any = getattr(self.executor, "_result_queue", None)
        if stop:
            self._ask_to_stop()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if manager is None:
            return
        manager.join(grace)
        if manager.is_alive():
            for process in processes:
                with contextlib.suppress(OSError, ValueError):
                    process.kill()
            writer = getattr(result_queue, "_writer", None)
            if writer is not None:
                with contextlib.suppress(OSError):
                    writer.close()
            manager.join(grace)
