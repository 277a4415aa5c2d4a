"""What a compiled build of the hot modules would buy (issue 12's optional step), measured rather than guessed.

Copies a source tree (a folder holding ``interpreter/``, as ``git archive`` gives it) to DEST, compiles the
modules a random deal runs through with Cython in pure-Python mode (the ``.py`` files as they are: no type
declarations added, no source changed), then plays the same random matches with the source tree and the
compiled copy in turn, in fresh processes, and prints the deals per second of CPU time of each round and their
medians::

    pip install cython==3.3.1                  # not a dependency of Piglia: only this experiment needs it
    git archive HEAD | tar -x -C /tmp/src
    python benchmarks/cythonized.py /tmp/src /tmp/cy --variant scopa --rounds 5
    python benchmarks/instructions.py /tmp/src /tmp/cy --variant scopa --matches 20 --warm 30   # in instructions

Both trees run in this virtual environment (their ``interpreter/`` first on ``PYTHONPATH``). The compiled copy
must play the very same deals: the summaries of the two trees, less their timings, are compared and must be
equal. Compiling takes a few minutes (``--jobs``: C compilers at once).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from importlib import metadata
from pathlib import Path

# The modules a random deal runs through (docs/performance.md, "Issue 12, sixth pass"; the last five since the
# fourteenth).
HOT = [
    "piglia/state.py",
    "piglia/variant.py",
    "piglia/capture_rules.py",
    "piglia/capture_table.py",
    "piglia/capture_search.py",
    "piglia/dealflow.py",
    "piglia/scoring.py",
    "piglia/moves.py",
    "piglia/cards.py",
    "piglia/chance.py",
    "piglia/simulate.py",
    "piglia/stats.py",
    "piglia/mechanics/base.py",
    "piglia/mechanics/capture.py",
    "piglia/mechanics/sets.py",
    "piglia/mechanics/awards.py",
    "piglia/dsl/compiler.py",
    "piglia/contexts.py",
    "piglia/mechanics/match.py",
    "piglia/mechanics/bonuses.py",
    "piglia/mechanics/declarations.py",
    "piglia/mechanics/facedown.py",
]

# Hot modules that Cython before 3.3 cannot compile as they are, left as Python there (the figures in
# docs/performance.md, "Issue 12, twelfth pass", are without them); Cython 3.3.1 compiles both (fourteenth pass).
SKIP_BEFORE_3_3 = {
    "piglia/dsl/compiler.py": "Cython 3.1.4 crashes on the class patterns of _expr's match statement",
    "piglia/mechanics/base.py": "compiled, TypeVar('M', bound=type[Mechanic]) fails at import ('type' object is "
    "not subscriptable)",
}

# Python's semantics, not C's (fourteenth pass): with Cython's defaults an annotation ``-> tuple`` refuses a tuple
# subclass (a build move: TypeError in Cassino), and a float local inferred as a C double changes ismcts's sums in
# the last bits, so that its seeded moves differ (tests/test_ismcts_identical.py). The random-play summaries this
# script compares did not show either.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "infer_types": False}

BUILD = """
import json, sys
from Cython.Build import cythonize
from setuptools import setup
jobs, directives, modules = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
extensions = cythonize(modules, compiler_directives=directives, nthreads=jobs, quiet=True)
for extension in extensions:
    extension.extra_compile_args.append("-g0")  # no debugging symbols: about a fifth of the size
setup(ext_modules=extensions, script_args=["build_ext", "--inplace", "--parallel", str(jobs)])
"""

# One round: warm-up matches (imports, the capture table's memo), then the measured matches, in CPU time.
CHILD = """
import json, sys, time
import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher
name, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = Game(piglia.load_variant(name))
for seed, n in ((2, warm), (1, count)):
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    start = time.process_time()
    for k in range(n):
        _play_watched(game, match_seed(seed, k), watcher, None)
    spent = time.process_time() - start
print(json.dumps({"deals_per_s": summary.deals / spent, "summary": summary.as_dict()}))
"""


def cython_version() -> tuple[int, ...]:
    """The installed Cython's version as numbers ((0,) when it is not installed: compiling will say so)."""
    try:
        version = metadata.version("cython")
    except metadata.PackageNotFoundError:
        return (0,)
    return tuple(int(part) for part in version.split(".")[:2] if part.isdigit())


def compile_tree(source: Path, dest: Path, jobs: int) -> None:
    """Copy ``source`` to ``dest`` and compile its hot modules in place (``.so`` files beside the ``.py``)."""
    if dest.exists():
        raise SystemExit(f"{dest}: already exists (give a new folder: nothing is overwritten)")
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", ".venv", ".git"))
    skip = {} if cython_version() >= (3, 3) else SKIP_BEFORE_3_3
    for module, why in skip.items():
        print(f"left as Python: {module}: {why}", flush=True)
    modules = [m for m in HOT if m not in skip]
    run = subprocess.run(
        [sys.executable, "-c", BUILD, str(jobs), json.dumps(DIRECTIVES), *modules],
        cwd=dest / "interpreter",
        capture_output=True,
        text=True,
    )
    if run.returncode:
        raise SystemExit(f"compiling failed (is Cython installed? pip install cython):\n{run.stderr[-3000:]}")


def one_round(tree: Path, variant: str, matches: int, warm: int) -> tuple[float, object]:
    """(deals per second of CPU time, the summary) of one fresh process running ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "interpreter"), "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(matches), str(warm)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    figures = json.loads(out)
    summary = figures["summary"]
    summary.pop("seconds", None)
    return float(figures["deals_per_s"]), summary


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", type=Path, help="a source tree (holding interpreter/)")
    p.add_argument("dest", type=Path, help="a new folder for the compiled copy (with --reuse: one built before)")
    p.add_argument("--variant", default="scopa")
    p.add_argument("--matches", type=int, default=300)
    p.add_argument("--warm", type=int, default=60)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--reuse", action="store_true", help="DEST is a compiled copy built before: measure only")
    args = p.parse_args()
    if not args.reuse:
        compile_tree(args.source, args.dest, args.jobs)
    rates: dict[str, list[float]] = {"source": [], "compiled": []}
    for _ in range(args.rounds):  # interleaved: the machine's load moves under both alike
        (src, seen), (cy, other) = (
            one_round(t, args.variant, args.matches, args.warm) for t in (args.source, args.dest)
        )
        if seen != other:
            raise SystemExit("the compiled copy played other deals than the source tree")
        rates["source"].append(src)
        rates["compiled"].append(cy)
        print(f"source {src:,.0f} deals/s   compiled {cy:,.0f} deals/s", flush=True)
    src_median, cy_median = (statistics.median(rates[k]) for k in ("source", "compiled"))
    print(f"{args.variant}: medians {src_median:,.0f} and {cy_median:,.0f} deals/s ({cy_median / src_median:.2f}x)")


if __name__ == "__main__":
    main()
