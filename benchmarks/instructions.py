"""Instructions executed per random deal, for one or more source trees of Piglia: a measure that does not depend on
how loaded the machine is (CPU time on a shared machine moves by 10-15% from run to run; this moves by 1-2%).

Each figure is valgrind's ``cachegrind`` count (``--cache-sim=no``, ``PYTHONHASHSEED=0``) of a process that plays
``--warm`` matches (seed 2, unmeasured: imports, loading and the capture table's warm-up) and then ``--matches``
matches (seed 1, as a simulation plays them), less the count of the same process with no measured match, divided
by the deals of the measured matches. Trees are given as folders holding ``interpreter/``.

    git archive main | tar -x -C /tmp/before
    python benchmarks/instructions.py /tmp/before . --variant scopa --matches 30 --warm 60
    python benchmarks/instructions.py /tmp/before . --variant cicera --matches 6 --warm 20
    python benchmarks/instructions.py /tmp/before . --variant cicera --matches 3 --warm 3 --api   # per move

``--api`` plays random moves through the public API instead (``legal_moves``, then ``push``, as ``piglia
tournament``, the web table and the RL environments do) and gives the instructions a move.

Each figure also says how the capture table's memo ended the run (``memo on``, ``won its duel``, ``off``, ``none``,
and how many windows of its lookups it had judged: a memo ``on`` at an early window is still filling):
its duel against counting is timed by the clock, which valgrind can tip another way than a plain run does, and a
count of the other path is not comparable with one of the memo's; a figure whose two runs (with and without the
measured matches) left the warm-up with the memo in different states is marked NOT COMPARABLE.

Needs valgrind (Debian: ``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import tempfile
from pathlib import Path

from cachegrind import count_instructions

CHILD = """
import sys
import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher
name, players, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = Game(piglia.load_variant(name), players or None)
for seed, n in ((2, warm), (1, count)):
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    for k in range(n):
        _play_watched(game, match_seed(seed, k), watcher, None)
    print("memo", seed, memo_state(game))
print("deals", summary.deals)
"""

# How the capture table's memo ended the warm-up (seed 2) and the run (seed 1). Its duel against counting is
# timed by the process's clock, and under valgrind (some 50 times slower, and slowest where code runs for the
# first time) the clock can decide it another way than in a plain run, or than in the other run of the pair: a
# classic Scopa count once came out at 4.5 M instructions a deal instead of 1.5 M (with the memo switched off
# before the measured matches, a count is 2.9 M). A figure says which path it counted, and a pair whose two
# warm-ups ended differently (their difference is then not the measured matches') is flagged.
MEMO_STATE = """
def memo_state(game):
    table = getattr(getattr(game.variant, "capture", None), "table", None)
    if table is None or not hasattr(table, "on"):
        return "none"
    if not table.on:
        return "off"
    state = "won its duel" if getattr(table, "settled", False) else "on"
    return f"{state}, window {getattr(table, 'windows', '?')}"  # windows of the memo's WINDOW lookups so far
"""

# --api: random moves through the public API (legal_moves, then push), as piglia tournament, the web table and the
# RL environments play them; the figure is per move.
API_CHILD = """
import random
import sys
import piglia
from piglia.simulate import match_seed
from piglia.state import Game
name, players, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = Game(piglia.load_variant(name), players or None)
rng = random.Random(1)
moves = 0
for seed, n in ((2, warm), (1, count)):
    moves = 0
    for k in range(n):
        state = game.new_match(match_seed(seed, k), log=False)
        while not state.over:
            legal = state.legal_moves()
            state.push(legal[rng.randrange(len(legal))])
            moves += 1
    print("memo", seed, memo_state(game))
print("deals", moves)
"""


def count(
    tree: Path, variant: str, players: int, matches: int, warm: int, api: bool = False
) -> tuple[int, int, str, str]:
    """(instructions, deals, how the memo ended the warm-up, how it ended the run) of one cachegrind run of
    ``tree`` (with ``api``: moves, not deals)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(MEMO_STATE + (API_CHILD if api else CHILD))
    try:
        # No disk cache (a tree that has one would load faster in whichever run comes second, and the loading
        # would not cancel out): both runs load the rule file the same way.
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree / "interpreter"), "PIGLIA_NO_CACHE": "1"}
        refs, printed = count_instructions([f.name, variant, str(players), str(matches), str(warm)], env)
    finally:
        os.unlink(f.name)
    deals = re.search(r"deals (\d+)", printed)
    if deals is None:
        raise SystemExit(f"no deals counted by the run of {tree}:\n{printed[-2000:]}")
    memo = dict(re.findall(r"memo (\d) (.+)", printed))
    return refs, int(deals.group(1)), memo.get("2", "?").strip(), memo.get("1", "?").strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+", type=Path, help="source trees (folders holding interpreter/)")
    parser.add_argument("--variant", default="scopa")
    parser.add_argument("--players", type=int, default=0, help="player count (default: the variant's)")
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--warm", type=int, default=60)
    parser.add_argument("--api", action="store_true", help="per move through legal_moves and push, not per deal")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    first: float | None = None
    for tree in args.trees:
        refs, deals, warmed, memo = count(tree, args.variant, args.players, args.matches, args.warm, args.api)
        base, _, base_warmed, _ = count(tree, args.variant, args.players, 0, args.warm, args.api)
        if warmed != base_warmed:
            memo += f" (NOT COMPARABLE: after the warm-up, {warmed} in this run and {base_warmed} in the run without)"
        per_deal = (refs - base) / deals
        ratio = "" if first is None else f"  ({first / per_deal:.2f}x fewer than the first tree)"
        first = per_deal if first is None else first
        unit = "move" if args.api else "deal"
        print(f"{args.variant} {tree}: {per_deal:,.0f} instructions a {unit} over {deals} {unit}s{ratio}; memo {memo}")


if __name__ == "__main__":
    main()
