"""How often ismcts playing for the match chooses another move than the default one (issue 14, seventh pass).

    .venv/bin/python benchmarks/match_goal.py [--matches 12] [--seed 7000] [--late 8] \
        [--other ismcts:goal=match:margin=0.01]

Plays greedy against itself in Scopa (match seeds SEED, SEED+1, ...) and, at every third turn with more than one
legal move, asks the default ismcts and OTHER (the same seed: their random draws are the same, only the
objective differs) for their move on the seat's view. Prints how many of those decisions differ, split by
whether a total had reached LATE points before the deal (the end of the match, where the objectives part).
"""

from __future__ import annotations

import argparse

import piglia
from piglia.players import make_player


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--late", type=int, default=8)
    parser.add_argument("--other", default="ismcts:goal=match:margin=0.01")
    args = parser.parse_args()
    game = piglia.Game(piglia.load_variant("scopa"))
    seen = {"early": [0, 0], "late": [0, 0]}  # decisions, of which differ
    for k in range(args.matches):
        state = game.new_match(args.seed + k, log=False)
        greedy = make_player("greedy", k)
        turn = 0
        while not state.over:
            moves = state.legal_moves()
            if len(moves) > 1 and turn % 3 == 0:
                view = state.view(state.to_move)
                a = make_player("ismcts", turn).choose(view, moves)
                b = make_player(args.other, turn).choose(view, moves)
                stage = seen["late" if max(state.totals) >= args.late else "early"]
                stage[0] += 1
                stage[1] += a != b
            turn += 1
            state.push(moves[0] if len(moves) == 1 else greedy.choose(state.view(state.to_move), moves))
    for name, (total, differ) in seen.items():
        print(f"{name}: {differ} of {total} decisions differ ({100 * differ / max(total, 1):.1f}%)")


if __name__ == "__main__":
    main()
