"""How well ismcts's reader (players/inference.py) reads the other hands: the true hand's likelihood gain.

``python benchmarks/reading.py scopa --matches 30 --seed 1000`` plays greedy against greedy and, at each decision
of seat 0 while the next seat holds cards it played from (a hand not just dealt), asks the reader what seat 0's
view says about the next seat's hand. The figure is the mean, over those decisions, of the log-likelihood gain
of the next seat's true hand over a uniform deal: the sum over its cards of ``log(p / (1 / n))``, where ``p`` is a
card's share of the unseen cards' weights and ``n`` the number of unseen cards. 0 is a reader that knows nothing;
a higher figure puts more of the weight on the cards that are really there. The true hand is read here only to
score the reader: this script is a measuring instrument, not a player.

``--blind`` adds the reader's first model for comparison: a play's value without the reply it leaves to the next
player (its bonuses and the weights of the cards taken only; benchmarks/players.md, issue 14's fifth pass).

``--floors F ...`` scores, from the same regrets, the reader with every ``--beta`` and each floor ``F`` in place of
``MIN_FACTOR`` (the least likelihood factor a card gets): how far the reading could go by calibrating the two
(benchmarks/players.md, issue 14's sixteenth pass).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from typing import Any

import piglia
from piglia.players.greedy import DISCARD_CAUTION, GreedyPlayer
from piglia.players.inference import MIN_FACTOR, Reader
from piglia.players.knowledge import Determinizer, card_weights, points_sign
from piglia.state import Game, RawMove, State


class BlindReader(Reader):
    """The reader of issue 14's fourth pass: a play valued by what it scores and takes at once, blind to the
    reply it leaves to the next player."""

    @staticmethod
    def value(past: State, raw: RawMove, hidden: Sequence[int], weights: Sequence[float]) -> float:
        card, captured = raw
        if captured:
            v = past.bonus_points(raw) + weights[card] + sum(weights[c] for c in captured)
        else:
            v = past.bonus_points(raw) - DISCARD_CAUTION * weights[card]
        return points_sign(past.game) * v

    @staticmethod
    def best(past: State, raws: Sequence[RawMove], hidden: Sequence[int], weights: Sequence[float]) -> float:
        return max(BlindReader.value(past, raw, hidden, weights) for raw in raws)


def gain(factors: dict[int, float], unseen: Sequence[int], hand: Sequence[int]) -> float:
    """The log-likelihood gain of ``hand`` over a uniform deal of ``unseen`` (see the module text)."""
    weight = {c: factors.get(c, 1.0) for c in unseen}
    total = sum(weight.values())
    n = len(unseen)
    return sum(math.log(weight[c] / total * n) for c in hand)


def measure(
    variant: str, matches: int, seed: int, readers: dict[str, Reader], grid: Sequence[tuple[float, float]] = ()
) -> dict[str, Any]:
    """The readers' mean gains (and CPU time), and the gain of each (beta, floor) of ``grid`` from the regrets."""
    game = Game(piglia.load_variant(variant))
    weights = card_weights(game)
    size = game.deal_rules.hand
    sums = dict.fromkeys(readers, 0.0)
    cpu = dict.fromkeys(readers, 0.0)
    calibrated = dict.fromkeys(grid, 0.0)
    # how often a card gets a regret (above 0.01) when the seat holds it, and when it does not
    flagged = {"held": [0, 0], "other": [0, 0]}
    raw = Reader(1.0)  # its regrets only: the same for every beta
    told = 0.0  # what a reader told the hand would score: all the weight on its cards
    decisions = 0
    for m in range(matches):
        state = game.new_match(seed + m, log=False)
        players = [GreedyPlayer(seed + m + k) for k in range(game.num_players)]
        while not state.over:
            seat = state.to_move
            view = state.view(seat)
            moves = state.legal_moves()
            nxt = (seat + 1) % game.num_players
            hand = state.hands[nxt]
            if seat == 0 and 0 < len(hand) < size:
                position = Determinizer(view)(random.Random(0))
                unseen = [c.index for c in view.unseen]
                for name, reader in readers.items():
                    start = time.process_time()
                    factors = reader.factors(view, game, position, weights).get(nxt, {})
                    cpu[name] += time.process_time() - start
                    sums[name] += gain(factors, unseen, hand)
                if grid:
                    regret = raw.regrets(view, game, position, weights).get(nxt, {})
                    for c in unseen:
                        tally = flagged["held" if c in hand else "other"]
                        tally[0] += regret.get(c, 0.0) > 0.01
                        tally[1] += 1
                    for beta, floor in grid:
                        scaled = {c: max(math.exp(-beta * r), floor) for c, r in regret.items() if r > 0}
                        calibrated[beta, floor] += gain(scaled, unseen, hand)
                told += len(hand) * math.log(len(unseen) / len(hand))
                decisions += 1
            state.push(players[seat].choose(view, moves))
    return {
        "variant": variant,
        "matches": matches,
        "seed": seed,
        "decisions": decisions,
        "told": told / max(decisions, 1),
        "readers": {
            name: {"gain": sums[name] / max(decisions, 1), "ms": 1000 * cpu[name] / max(decisions, 1)}
            for name in readers
        },
        "grid": [{"beta": b, "floor": f, "gain": g / max(decisions, 1)} for (b, f), g in calibrated.items()],
        "regret_above_0.01": {k: n / max(total, 1) for k, (n, total) in flagged.items()} if grid else {},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--beta", type=float, nargs="+", default=[10.0, 30.0], help="the readers' infer values")
    parser.add_argument("--blind", action="store_true", help="also the reader blind to the reply a play leaves")
    parser.add_argument(
        "--floors",
        type=float,
        nargs="+",
        default=[],
        help=f"least likelihood factors to score (the reader's: {MIN_FACTOR:g})",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    readers: dict[str, Reader] = {f"infer={b:g}": Reader(b) for b in args.beta}
    if args.blind:
        readers.update({f"blind infer={b:g}": BlindReader(b) for b in args.beta})
    grid = [(b, f) for b in args.beta for f in args.floors]
    out = measure(args.variant, args.matches, args.seed, readers, grid)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['variant']}: {out['decisions']} decisions of seat 0 in {out['matches']} matches (seed {out['seed']})")
    for name, r in out["readers"].items():
        print(f"  {name:24} log-likelihood gain of the true hand {r['gain']:+.3f}, {r['ms']:.2f} ms a decision")
    for row in out["grid"]:
        name = f"infer={row['beta']:g} floor={row['floor']:g}"
        print(f"  {name:24} log-likelihood gain of the true hand {row['gain']:+.3f}")
    if out["regret_above_0.01"]:
        share = out["regret_above_0.01"]
        print(
            f"  regret above 0.01: {share['held']:.1%} of the cards the seat holds, {share['other']:.1%} of the others"
        )
    print(f"  {'told the hand':24} log-likelihood gain of the true hand {out['told']:+.3f} (the most there is)")


if __name__ == "__main__":
    main()
