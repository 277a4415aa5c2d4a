"""Random deals per second of two (or more) source trees of Piglia, side by side: ``before`` and ``after`` a change.

Each measurement is a fresh process running one tree (``PYTHONPATH=<tree>/interpreter``); the trees take turns
(A, B, B, A, ...) round after round, every tree plays the very same matches (same seeds), and the figure is the
median of the rounds' deals per second of CPU time (and, last column, the median of the rounds' own ratios of the
last tree to the first). A process first plays ``--warm`` matches unmeasured, so that what it learns as it goes
(the capture table's memo) is measured warm, as in a long simulation.

    git worktree add /tmp/before main            # or: git archive main | tar -x -C /tmp/before
    python benchmarks/ab_trees.py /tmp/before . --rounds 3 --matches 150 --warm 300

Without ``--variant`` every built-in variant is measured, with each of its player counts. With ``--tuned``, classic
Scopa is also played by ``tuned_scopa.py`` (Scopa tuned by hand, the same matches) in a process of its own each
round, taking its turn with the trees, and compared with each tree.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import gc, sys, time
import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher
name, players, first, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
game = Game(piglia.load_variant(name), players)
def play(first, count):
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    for k in range(first, first + count):
        _play_watched(game, match_seed(1, k), watcher, None)
    return summary.deals
play(10**6, warm)
gc.disable()
start = time.process_time()
deals = play(first, count)
print(deals, time.process_time() - start)
"""

# tuned_scopa.py on the same matches as CHILD plays, its capture memo warmed the same way
TUNED_CHILD = """
import gc, sys, time
sys.path.insert(0, sys.argv[1])
import tuned_scopa
from piglia.simulate import match_seed
first, count, warm = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
memo = {}
def play(first, count):
    return sum(tuned_scopa.play_match(match_seed(1, k), memo)[2] for k in range(first, first + count))
play(10**6, warm)
gc.disable()
start = time.process_time()
deals = play(first, count)
print(deals, time.process_time() - start)
"""
TUNED = Path(__file__).resolve().parent  # where tuned_scopa.py is


def configs(names: list[str]) -> list[tuple[str, int]]:
    """(variant, players) pairs: those named (``name`` or ``name:players``), else every built-in one."""
    import piglia
    from piglia.spec import builtin_names

    out = []
    for name in names or builtin_names():
        base, _, players = name.partition(":")
        counts = [int(players)] if players else list(piglia.load_variant(base).player_counts)
        out += [(base, p) for p in counts]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trees", nargs="+", type=Path, help="source trees (each with interpreter/ and variants/)")
    p.add_argument("--variant", action="append", default=[], help="NAME or NAME:PLAYERS (repeatable)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--matches", type=int, default=150, help="matches measured per round")
    p.add_argument("--warm", type=int, default=300, help="matches played first, unmeasured")
    p.add_argument("--tuned", action="store_true", help="classic Scopa by tuned_scopa.py too (see above)")
    args = p.parse_args(argv)
    rates: dict[tuple[str, int, Path], list[float]] = {}
    tuned: list[float] = []
    for r in range(args.rounds):
        for name, players in configs(args.variant):
            for tree in args.trees if r % 2 == 0 else args.trees[::-1]:
                env = dict(os.environ, PYTHONPATH=str(tree.resolve() / "interpreter"))
                command = [sys.executable, "-c", CHILD, name, str(players), str(r * args.matches)]
                out = subprocess.run(
                    [*command, str(args.matches), str(args.warm)], env=env, capture_output=True, text=True, check=True
                )
                deals, seconds = out.stdout.split()
                rates.setdefault((name, players, tree), []).append(int(deals) / float(seconds))
        if args.tuned:  # the matches' seeds come from piglia (any tree's: they never change)
            env = dict(os.environ, PYTHONPATH=str(args.trees[0].resolve() / "interpreter"))
            command = [sys.executable, "-c", TUNED_CHILD, str(TUNED), str(r * args.matches)]
            out = subprocess.run(
                [*command, str(args.matches), str(args.warm)], env=env, capture_output=True, text=True, check=True
            )
            deals, seconds = out.stdout.split()
            tuned.append(int(deals) / float(seconds))
    print("| variant | players | " + " | ".join(f"{t} deals/s" for t in args.trees) + " | last / first | by round |")
    print("|---|---|" + "---|" * len(args.trees) + "---|---|")
    for name, players in configs(args.variant):
        medians = [statistics.median(rates[(name, players, t)]) for t in args.trees]
        cells = " | ".join(f"{m:,.0f}" for m in medians)
        # the ratio round by round too (its median): a noisy moment slows both trees of a round alike
        first, last = rates[(name, players, args.trees[0])], rates[(name, players, args.trees[-1])]
        by_round = statistics.median(b / a for a, b in zip(first, last, strict=True))
        print(f"| {name} | {players} | {cells} | {medians[-1] / medians[0]:.2f}x | {by_round:.2f}x |")
    if tuned:
        print("\n| classic Scopa | deals/s | tuned_scopa.py / this, by round |\n|---|---|---|")
        print(f"| tuned_scopa.py | {statistics.median(tuned):,.0f} | |")
        for t in args.trees:
            mine = rates.get(("scopa", 2, t))
            if mine:  # the tuned engine's rounds alongside this tree's (classic Scopa measured)
                ratio = statistics.median(a / b for a, b in zip(tuned, mine, strict=True))
                print(f"| {t} | {statistics.median(mine):,.0f} | {ratio:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
