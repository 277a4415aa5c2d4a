"""Running ``piglia`` as a hostile user would: a real subprocess under a time and a memory limit.

Every hostile case must end with exit 0 or 1 (130/143 after a stop signal) and a clear message, never a
traceback, within seconds and under :data:`MEMORY_LIMIT` of address space per process.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile"
MEMORY_LIMIT = 512 * 1024 * 1024  # bytes of address space, for each process (workers too)
TIME_LIMIT = 60  # seconds: a case that takes longer is a hang (each takes a few seconds)


def limits(extra: Callable[[], None] | None = None) -> Callable[[], None]:
    """A preexec_fn setting the memory limit (and whatever ``extra`` sets) in the child."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        if extra is not None:
            extra()

    return apply


def env() -> dict[str, str]:
    out = {**os.environ, "PYTHONPATH": str(ROOT / "interpreter"), "COLUMNS": "120"}
    out.pop("PIGLIA_DEBUG", None)
    return out


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "piglia", *args]


def run(
    *args: str,
    cwd: Path,
    stdin: str | None = None,
    stdout: str | None = None,
    extra: Callable[[], None] | None = None,
    timeout: float = TIME_LIMIT,
) -> subprocess.CompletedProcess[str]:
    """Run ``piglia ARGS``; ``stdin``/``stdout`` may be ``"closed"``; ``stdout`` may be a file path to write to."""
    kwargs: dict[str, Any] = {}
    out_file: IO[str] | None = None
    if stdin == "closed":
        kwargs["stdin"] = subprocess.DEVNULL
        extra = _chain(extra, lambda: os.close(0))
    elif stdin is not None:
        kwargs["input"] = stdin
    else:
        kwargs["stdin"] = subprocess.DEVNULL
    if stdout == "closed":
        extra = _chain(extra, lambda: os.close(1))
        kwargs["stdout"] = subprocess.DEVNULL
        kwargs["stderr"] = subprocess.PIPE
    elif stdout is not None:
        out_file = open(stdout, "w")  # noqa: SIM115 - closed below
        kwargs["stdout"] = out_file
        kwargs["stderr"] = subprocess.PIPE
    else:
        kwargs["capture_output"] = True
    try:
        return subprocess.run(
            command(*args), text=True, cwd=cwd, env=env(), timeout=timeout, preexec_fn=limits(extra), **kwargs
        )
    finally:
        if out_file is not None:
            out_file.close()


def _chain(first: Callable[[], None] | None, then: Callable[[], None]) -> Callable[[], None]:
    def both() -> None:
        if first is not None:
            first()
        then()

    return both


def start(*args: str, cwd: Path, extra: Callable[[], None] | None = None) -> subprocess.Popen[str]:
    """Start ``piglia ARGS`` in the background (output piped), in its own session so signals reach it alone."""
    return subprocess.Popen(
        command(*args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env(),
        preexec_fn=limits(extra),
        start_new_session=True,
    )


def no_traceback(text: str) -> None:
    assert "Traceback" not in text, text
    assert "internal error" not in text, text


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, grandchildren...), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, dead but not yet reaped, is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def ignore_file_size_signal() -> None:
    """In the child: a write past RLIMIT_FSIZE fails with EFBIG (as a full disk fails) instead of killing."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
