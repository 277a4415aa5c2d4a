"""How many positions ismcts's deal-end solver visits in one decision, in every built-in variant.

The solver stops at ``nodes`` positions a decision (``DEFAULT_NODES``, 100,000) and leaves the move to the
playouts; this measures how far the built-in games are from that bound. ismcts (the default player, without the
time safety net) plays the even seats against greedy for the first ``--moves`` moves of ``--matches`` matches
(seeds 0, 1, ...); every decision that solves the deal's end is counted::

    python benchmarks/endgame_nodes.py                       # every built-in variant, 6 matches each
    python benchmarks/endgame_nodes.py cassino cicera --matches 20
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import piglia
from piglia.players import ismcts, make_player
from piglia.spec import builtin_names
from piglia.state import Game


def measure(name: str, matches: int, moves: int) -> list[tuple[int, float]]:
    """(positions visited, CPU seconds) of every deal-end solve in ``name``'s matches."""
    solves: list[tuple[int, float]] = []
    original = ismcts.IsmctsPlayer._endgame

    def counted(self: ismcts.IsmctsPlayer, view: Any, raw: Any, weights: Any, budget: ismcts.Budget) -> Any:
        before, start = budget.left, time.process_time()
        out = original(self, view, raw, weights, budget)
        solves.append((int(before - budget.left), time.process_time() - start))
        return out

    ismcts.IsmctsPlayer._endgame = counted  # type: ignore[method-assign]
    try:
        game = Game(piglia.load_variant(name))
        for seed in range(matches):
            state = game.new_match(seed, log=False)
            seats = [make_player("ismcts:seconds=0" if s % 2 == 0 else "greedy", seed) for s in range(game.num_players)]
            for _ in range(moves):
                if state.over:
                    break
                legal = state.legal_moves()
                seat = state.current_seat
                state.push(legal[0] if len(legal) == 1 else seats[seat].choose(state.view(seat), legal))
    finally:
        ismcts.IsmctsPlayer._endgame = original  # type: ignore[method-assign]
    return solves


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variants", nargs="*", help="built-in variants (default: all)")
    p.add_argument("--matches", type=int, default=6)
    p.add_argument("--moves", type=int, default=150, help="moves played in each match at most")
    args = p.parse_args(argv)
    print("| variant | solves | positions: median | 99th percentile | most | CPU seconds of the biggest |")
    print("|---|---|---|---|---|---|")
    for name in args.variants or builtin_names():
        solves = sorted(measure(name, args.matches, args.moves))
        if not solves:
            print(f"| {name} | 0 | | | | |")
            continue
        n = len(solves)
        most, seconds = solves[-1]
        median, high = solves[n // 2][0], solves[min(n - 1, n * 99 // 100)][0]
        print(f"| {name} | {n} | {median:,} | {high:,} | {most:,} | {seconds:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
