"""How long the ``piglia`` command takes to start and finish a tiny run, in fresh processes (issue 12).

    python benchmarks/startup.py                                   # this tree
    python benchmarks/startup.py --tree /tmp/before --tree .       # two trees side by side, interleaved
    python benchmarks/startup.py --importtime                      # and the top entries of python -X importtime
    python benchmarks/startup.py --instructions                    # and instructions (valgrind cachegrind)

Each round runs, for every tree, ``python -c pass`` (the interpreter's own floor), ``python -c "import piglia"``
and ``python -m piglia simulate scopa --deals 1`` in a new process, one after the other (A, B, A, B, ...), and
the figures are the medians over the rounds: CPU time (user + system, from the child's resource usage, the
steadier figure on a shared machine) and wall time. A tree is a source checkout; its ``interpreter/`` folder is
put first on ``PYTHONPATH``, so the same virtual environment runs every tree.

Bytecode is written and read as an installed package would (``PYTHONDONTWRITEBYTECODE`` is removed; one warm-up
run per tree writes the ``.pyc`` files first). ``--no-bytecode`` measures a source checkout run with
``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__`` in it, where every piglia module is compiled on every run (the
installed dependencies keep their ``.pyc``): each tree is copied without its ``__pycache__`` folders first. Piglia's
own cache of loaded rule files lives in a fresh ``PIGLIA_CACHE_DIR`` per tree, filled by the warm-up run; with
``--cold-cache`` every run starts from an empty one (a first run after installing or editing a rule file).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cachegrind import count_instructions

HERE = Path(__file__).resolve().parent

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "import piglia": ["-c", "import piglia"],
    "piglia simulate scopa --deals 1": ["-m", "piglia", "simulate", "scopa", "--deals", "1"],
}


def environment(tree: Path, cache: Path, *, bytecode: bool) -> dict[str, str]:
    """The child's environment: ``tree`` first on the path, its own cache folder, bytecode as asked."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "interpreter"), *filter(None, [env.get("PYTHONPATH")])])
    env["PIGLIA_CACHE_DIR"] = str(cache)
    env["PYTHONHASHSEED"] = "0"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh process; fails loudly if the command fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir()
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr is not None else ""
    if proc.stderr is not None:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {err}")
    return usage.ru_utime + usage.ru_stime, wall


def instructions(args: list[str], env: dict[str, str]) -> int:
    """Instructions executed by one run, counted by valgrind's cachegrind (independent of the machine's load)."""
    return count_instructions(args, env, cwd=tempfile.gettempdir())[0]


def importtime(args: list[str], env: dict[str, str], top: int) -> list[tuple[int, int, str]]:
    """The ``top`` modules of ``python -X importtime`` by cumulative time: (self us, cumulative us, name)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    rows = []
    for line in out.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    return sorted(rows, key=lambda r: -r[1])[:top]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tree", action="append", help="a source checkout to measure (repeatable; default: this one)")
    p.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    p.add_argument("--no-bytecode", action="store_true", help="measure without .pyc files (compile every run)")
    p.add_argument("--cold-cache", action="store_true", help="every run starts with an empty piglia cache")
    p.add_argument("--importtime", type=int, nargs="?", const=15, default=0, metavar="N", help="top N imports")
    p.add_argument("--instructions", action="store_true", help="count instructions with valgrind (slow)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = p.parse_args(argv)
    trees = [Path(t).resolve() for t in a.tree or [str(HERE.parent)]]
    figures: dict[str, Any] = {"python": sys.version.split()[0], "rounds": a.rounds, "trees": {}}
    with tempfile.TemporaryDirectory(prefix="piglia-startup-") as scratch:
        envs = {}
        for i, tree in enumerate(trees):
            source = tree
            if a.no_bytecode:  # a copy with no bytecode in it, which none of the runs may write
                source = Path(scratch) / f"tree{i}"
                for part in ("interpreter", "grammar", "variants"):
                    shutil.copytree(tree / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
            envs[tree] = environment(source, Path(scratch) / f"cache{i}", bytecode=not a.no_bytecode)
            for args in COMMANDS.values():
                run_once(args, envs[tree])  # warm-up: bytecode written, caches filled, files in the page cache
        samples: dict[tuple[Path, str], list[tuple[float, float]]] = {(t, c): [] for t in trees for c in COMMANDS}
        for r in range(a.rounds):
            for tree in trees:
                for name, args in COMMANDS.items():
                    env = envs[tree]
                    if a.cold_cache:
                        env = {**env, "PIGLIA_CACHE_DIR": str(Path(scratch) / f"cold{r}-{trees.index(tree)}")}
                    samples[tree, name].append(run_once(args, env))
        for tree in trees:
            entry: dict[str, Any] = {}
            for name, args in COMMANDS.items():
                cpu = statistics.median(s[0] for s in samples[tree, name])
                wall = statistics.median(s[1] for s in samples[tree, name])
                entry[name] = {"cpu_s": round(cpu, 4), "wall_s": round(wall, 4)}
                if a.instructions:
                    env = envs[tree]
                    if a.cold_cache:
                        env = {**env, "PIGLIA_CACHE_DIR": str(Path(scratch) / f"cold-count-{trees.index(tree)}")}
                    entry[name]["instructions"] = instructions(args, env)
            if a.importtime:
                simulate = COMMANDS["piglia simulate scopa --deals 1"]
                entry["importtime"] = importtime(simulate, envs[tree], a.importtime)
            figures["trees"][str(tree)] = entry
    if a.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Python {figures['python']}, medians of {a.rounds} interleaved rounds", end="")
    print(", no bytecode" if a.no_bytecode else "", end="")
    print(", cold piglia cache" if a.cold_cache else "")
    for tree, entry in figures["trees"].items():
        print(f"\n{tree}")
        for name in COMMANDS:
            f = entry[name]
            count = f"  {f['instructions'] / 1e9:6.3f} G instructions" if "instructions" in f else ""
            print(f"  {name:34s} CPU {f['cpu_s']:6.3f} s  wall {f['wall_s']:6.3f} s{count}")
        for own, cumulative, module in entry.get("importtime", []):
            print(f"    importtime {cumulative / 1e3:7.1f} ms cumulative {own / 1e3:6.1f} ms self  {module}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
