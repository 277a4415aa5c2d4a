"""How well ismcts's playout policy plays on its own: the policy every playout's moves come from, as a player.

``python benchmarks/policy.py cicera --matches 200 --seed 23`` plays a duplicate tournament of the playout policy
(:meth:`IsmctsPlayer._playout_move <piglia.players.ismcts.IsmctsPlayer._playout_move>`, without its random
moves: ``noise=0``) against greedy. At each decision the policy player deals the cards its seat has not seen at
random, consistently with its view, as one playout of a search would, and plays the policy's move there, with
the risk of what a move leaves to the next player weighed as in a playout's first plies. ``--options`` gives
ismcts options for the policy (``--options expect=0``: the next player's reply weighed over one drawn hand).

The default ismcts is one step of improvement over this policy (each root move followed by the policy's
playouts), so a policy much weaker than greedy leaves the search far below what the same search over a policy as
good as greedy could reach (benchmarks/players.md, issue 14's seventeenth pass). This script is a measuring
instrument, not a player of Piglia. It plays in one process: the options reach the players through this module.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import piglia
from piglia.moves import Move
from piglia.players import make_player
from piglia.players.ismcts import IsmctsPlayer
from piglia.players.knowledge import Determinizer, card_weights, game_of
from piglia.state import SeatView

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other scripts, also when loaded from elsewhere
from oracle import against_greedy  # a script of benchmarks/, found by the line above

OPTIONS = ["noise=0"]  # the ismcts options of the policy (main adds --options; every PolicyPlayer reads them)


class PolicyPlayer:
    """ismcts's playout policy as a player (see the module text)."""

    name = "policy"

    def __init__(self, seed: int = 0) -> None:
        search = make_player("ismcts:" + ":".join(OPTIONS), seed)
        assert isinstance(search, IsmctsPlayer)
        self.search = search
        self.rng = random.Random(f"piglia/policy-player/{seed}")

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        game = game_of(view)
        weights = card_weights(game)
        search = self.search
        search._prepare(game, weights)
        search.prng = self.rng  # the drawn hand of ``expect=0`` comes from this player's generator
        state = Determinizer(view)(self.rng)
        raw = [m.raw for m in moves]
        return moves[raw.index(search._playout_move(state, raw, weights, True))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--options", default="", help="ismcts options of the policy, as in ismcts:A=1:B=2 (A=1:B=2)")
    p.add_argument("--out", type=Path, help="write the JSON (with the per-pair differences) here")
    args = p.parse_args()
    if args.options:
        OPTIONS.append(args.options)
        try:
            make_player("ismcts:" + ":".join(OPTIONS))  # a bad option fails here, with the player's own message
        except piglia.PigliaError as exc:
            sys.exit(f"policy.py: {exc}")
    sys.modules.setdefault("policy", sys.modules[__name__])  # the tournament names the player policy:PolicyPlayer
    label = f"the playout policy ({args.options or 'default options'})"
    against_greedy(args.variant, "policy:PolicyPlayer", args.matches, args.seed, label, args.out, options=args.options)


if __name__ == "__main__":
    main()
