"""What checking a bonus only on the plays it can score on saves, in CPU time, side by side in one process.

``Game.live_bonuses`` lists, per count of cards captured, the bonuses whose conditions can hold (docs/performance.md,
"Issue 12, ninth pass"). This plays the same random matches with that list and with every bonus listed for every
capture (as the engine did before), in turn in one process on one warm capture table, and prints the medians of
the rounds' deals per second of CPU time::

    python benchmarks/live_bonuses.py scopa --rounds 10 --matches 100 --warm 300
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

import piglia
from piglia.simulate import Summary, _play_watched, match_seed
from piglia.state import Game
from piglia.stats import Watcher


def deals_per_second(game: Game, first: int, count: int) -> float:
    summary = Summary.empty(game, 1)
    watcher = Watcher(summary, game)
    start = time.process_time()
    for k in range(first, first + count):
        _play_watched(game, match_seed(1, k), watcher, None)
    return summary.deals / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--matches", type=int, default=100, help="matches per round and way")
    p.add_argument("--warm", type=int, default=300, help="matches played first (the capture table's memo)")
    args = p.parse_args(argv)
    game = Game(piglia.load_variant(args.variant))
    deals_per_second(game, 10**6, args.warm)
    every = game.variant.bonuses
    on_play = tuple(b for b in every if b.on_play)
    ways = {
        "live bonuses": game.live_bonuses,
        "every bonus": tuple((on_play, on_play) if n == 0 else (every, every) for n in range(len(game.live_bonuses))),
    }
    rates: dict[str, list[float]] = {name: [] for name in ways}
    gc.disable()
    for r in range(args.rounds):
        for name in ways if r % 2 == 0 else list(ways)[::-1]:
            game.live_bonuses = ways[name]
            rates[name].append(deals_per_second(game, r * args.matches, args.matches))
    live, full = (statistics.median(rates[name]) for name in ways)
    print(f"{args.variant}: every bonus {full:,.0f} deals/s, live bonuses {live:,.0f} deals/s: {live / full:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
