"""How much the hidden hands are worth to ismcts: an upper bound for reading them from the plays.

``python benchmarks/oracle.py scopa --matches 40 --seed 7`` plays a duplicate tournament of an ismcts that is
*told* the other hands (the stock's order stays unknown: it is shuffled in each sample) against greedy. No
player of Piglia ever sees this: the script replaces the deals of the hidden cards (``Determinizer``) for the
ismcts seats only, in this process, and is a measuring instrument, not a player. Compare its points a deal
edge with the plain ismcts's on the same seed (``benchmarks/players.py ... --pairs ismcts:seconds=0,greedy``):
the gap is what perfect reading of the other hands could give (benchmarks/players.md, issue 14's fourth pass).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import piglia
from piglia.players import ismcts, knowledge
from piglia.state import RawMove, SeatView, State
from piglia.tournament import tournament

_real: list[State | None] = [None]  # the position being decided (set by the patched State.view)
_searching: list[bool] = [False]  # inside an ismcts decision: only its deals are told the hands


def install() -> None:
    """Patch, in this process only, the view (to remember the real position) and the ismcts deals."""
    view = State.view
    deal = knowledge.Determinizer.__call__
    evaluate = ismcts.IsmctsPlayer.evaluate

    def seen_view(self: State, seat: int) -> SeatView:
        _real[0] = self
        return view(self, seat)

    def told_deal(self: knowledge.Determinizer, rng: random.Random) -> State:
        state = deal(self, rng)
        real = _real[0]
        if not _searching[0] or real is None or real.to_move != self.view.seat:
            return state
        if [len(h) for h in real.hands] != [len(h) for h in state.hands]:
            return state
        state.hands = [list(h) if s != self.view.seat else state.hands[s] for s, h in enumerate(real.hands)]
        stock = list(real.stock)
        random.Random(rng.getrandbits(32)).shuffle(stock)
        state.stock = stock
        return state

    def told_evaluate(self: ismcts.IsmctsPlayer, v: SeatView, raw: Sequence[RawMove]) -> dict[RawMove, float]:
        _searching[0] = True
        try:
            return evaluate(self, v, raw)
        finally:
            _searching[0] = False

    State.view = seen_view  # type: ignore[method-assign]
    knowledge.Determinizer.__call__ = told_deal  # type: ignore[method-assign]
    ismcts.IsmctsPlayer.evaluate = told_evaluate  # type: ignore[method-assign,assignment]


def against_greedy(
    variant: str, player: str, matches: int, seed: int, label: str, out: Path | None, **extra: Any
) -> dict[str, Any]:
    """A duplicate tournament of ``player`` against greedy in this process (patches do not reach worker
    processes): one line printed (``label`` says who played), the JSON written to ``out`` if given (with the
    per-pair differences, for ``benchmarks/players.py --paired``, and ``extra``), and returned."""
    start = time.perf_counter()
    result = tournament(piglia.load_variant(variant), (player, "greedy"), matches=matches, seed=seed, keep_pairs=True)
    data: dict[str, Any] = result.as_dict()
    data["pairs"] = result.pairs
    data.update(extra)
    data["seconds"] = round(time.perf_counter() - start, 1)
    a = data["players"][0]
    diff = data["points_per_deal_difference"]
    low, high = diff["ci95"]
    spread = f"{low:+.2f} - {high:+.2f}" if low is not None else "one pair: no interval"
    print(
        f"{variant}: {label}, against greedy: {a['win_rate']:.1%} of {data['matches']}"
        f" ({a['ci95'][0]:.1%} - {a['ci95'][1]:.1%}), {diff['value']:+.2f} points a deal ({spread})"
    )
    if out:
        out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return data


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--matches", type=int, default=40)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--player", default="ismcts:seconds=0", help="the ismcts told the hands (its options)")
    p.add_argument("--out", type=Path, help="write the JSON (with the per-pair differences) here")
    args = p.parse_args()
    install()
    against_greedy(args.variant, args.player, args.matches, args.seed, f"{args.player} told the hands", args.out)


if __name__ == "__main__":
    main()
