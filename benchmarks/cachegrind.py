"""Instructions executed by a Python run, counted by valgrind's cachegrind: the figure a loaded machine does not
move (CPU time on a shared machine moves by 10-30% from run to run; this by 1-2%). Shared by
``benchmarks/startup.py`` and ``benchmarks/instructions.py``."""

from __future__ import annotations

import re
import subprocess
import sys

VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def count_instructions(args: list[str], env: dict[str, str], cwd: str | None = None) -> tuple[int, str]:
    """Run ``python ARGS`` under cachegrind: (instructions executed, what the run printed on stdout)."""
    run = subprocess.run(
        [*VALGRIND, sys.executable, *args], env=env, capture_output=True, text=True, check=True, cwd=cwd
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), run.stdout
