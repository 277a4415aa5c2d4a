"""Deals per second of CPU time of several source trees of Piglia, side by side: the companion of
``instructions.py`` in seconds. Each round runs every tree once, in turn, in a fresh process (warm-up matches,
then the measured ones, timed with ``time.process_time``); the machine's load moves under all of them alike, and
the figures are the medians of the rounds, with each tree's ratio to the first one's (of the medians, and the
median of the rounds' ratios). Trees are folders holding ``interpreter/``, as ``git archive`` gives them, and
run in this virtual environment::

    git archive ea1944b | tar -x -C /tmp/base-ea1944b
    python benchmarks/trees.py /tmp/base-ea1944b . --variant cicera --rounds 7 --matches 200 --warm 120

``--same-deals`` also checks that every tree played the very same deals (their summaries, less the timings, are
equal): the trees must draw the same random numbers, which trees from before a change of the generator do not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

# One round of one tree: warm-up matches (imports, the capture table's memo), then the measured ones, in CPU time.
CHILD = """
import json, sys, time
import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher
name, count, warm, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = Game(piglia.load_variant(name), players or None)
for seed, n in ((2, warm), (1, count)):
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    start = time.process_time()
    for k in range(n):
        _play_watched(game, match_seed(seed, k), watcher, None)
    spent = time.process_time() - start
print(json.dumps({"deals_per_s": summary.deals / spent, "summary": summary.as_dict()}))
"""


def one_round(tree: Path, variant: str, matches: int, warm: int, players: int = 0) -> tuple[float, object]:
    """(deals per second of CPU time, the summary less its timings) of one fresh process running ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "interpreter"), "PYTHONHASHSEED": "0", "PIGLIA_NO_CACHE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(matches), str(warm), str(players)],
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
    p.add_argument("trees", type=Path, nargs="+", help="source trees (folders holding interpreter/)")
    p.add_argument("--variant", default="scopa")
    p.add_argument("--players", type=int, default=0, help="player count (default: the variant's first)")
    p.add_argument("--matches", type=int, default=300)
    p.add_argument("--warm", type=int, default=60)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--same-deals", action="store_true", help="check that every tree played the same deals")
    args = p.parse_args()
    rates: list[list[float]] = [[] for _ in args.trees]
    for _ in range(args.rounds):
        played = [one_round(tree, args.variant, args.matches, args.warm, args.players) for tree in args.trees]
        if args.same_deals and any(summary != played[0][1] for _, summary in played):
            raise SystemExit("the trees played different deals")
        for row, (rate, _) in zip(rates, played, strict=True):
            row.append(rate)
        print("   ".join(f"{rate:,.0f}" for rate, _ in played), "deals/s", flush=True)
    first = statistics.median(rates[0])
    for tree, row in zip(args.trees, rates, strict=True):
        median = statistics.median(row)
        # the ratio round by round too: a noisy moment slows the trees of one round alike
        ratio = statistics.median(r / f for r, f in zip(row, rates[0], strict=True))
        print(
            f"{args.variant} {tree}: median {median:,.0f} deals/s ({median / first:.2f}x the first tree's median;"
            f" median of the rounds' ratios {ratio:.2f}x)"
        )


if __name__ == "__main__":
    main()
