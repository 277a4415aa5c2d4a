"""Where the bonuses a player concedes come from: the risk of each move chosen against the least risk on offer.

``python benchmarks/risk.py scopa --matches 60 --seed 77`` plays duplicate matches of two players (by default
``ismcts:seconds=0`` against ``greedy``; match ``k`` has the seed ``SEED * 1000 + k`` and is played twice, the
seats swapped) and, at every decision with more than one legal move, records for the player who made it:

- the **risk** of the move chosen, as the coach and greedy measure it (``greedy.move_estimate``: the chance that
  the next player, an opponent, holds a card that scores a bonus on the table the move leaves, the hidden cards
  drawn uniformly from those the seat has not seen), and the least risk of any legal move;
- greedy's one-ply value of the move chosen and the best such value among the least-risk moves (what taking
  the risk was worth by greedy's count);
- whether the next play, by an opponent, scored a bonus (a sweep in Scopa): a bonus **conceded**.

It prints, per player, the bonuses conceded, how many followed a move riskier than the least risk on offer
(by more than 0.05), and, by how much riskier, how often such a move was punished against its risk: a player
whose risky moves are punished less often than their uniform risk says reads the hidden hands well; one whose
risky moves are punished more often, or that gains little by them, concedes bonuses it could have avoided. The
risks taken are reported apart where ismcts searches and where its endgame solver plays the rest of the deal
(the stock empty, at most ``DEFAULT_ENDGAME`` cards in the hands): a risk the solver takes is priced over the
whole deal, not greedy's one ply. ``--pair`` names the two players (``A,B``, as ``piglia tournament`` does).
``--out FILE`` writes every decision as JSON. A measuring instrument (it looks at the whole position to judge
each decision afterwards); no player of Piglia sees more than its seat's view.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import piglia
from piglia.players import make_player
from piglia.players.greedy import move_estimate
from piglia.players.ismcts import DEFAULT_ENDGAME
from piglia.players.knowledge import card_weights, determinize
from piglia.state import Game

SAFER_BY = 0.05  # a move this much riskier than the least risk on offer counts as a risk taken
BANDS = ((0.05, 0.2), (0.2, 0.4), (0.4, 0.7), (0.7, 1.01))  # excess risk bands of the report


@dataclass
class Decision:
    """One decision with more than one legal move, judged after the reply."""

    player: str
    risk: float  # of the move chosen
    least: float  # the least risk of any legal move
    value: float  # greedy's one-ply value of the move chosen
    safe_value: float  # greedy's best one-ply value among the least-risk moves
    capture: bool  # the move chosen captures
    solved: bool  # ismcts's endgame solver decides here (the stock empty, few cards left in the hands)
    conceded: bool = False  # the next play, by an opponent, scored a bonus


def play(variant: piglia.Variant, pair: list[str], matches: int, seed: int) -> list[Decision]:
    """Every judged decision of ``matches`` duplicate matches of ``pair[0]`` against ``pair[1]``."""
    game = Game(variant)
    weights = card_weights(game)
    team_of = game.players.team_of
    out: list[Decision] = []
    for k in range(matches):
        for swap in (0, 1):
            state = game.new_match(seed * 1000 + k, log=False)
            names = [pair[(team_of[s] + swap) % 2] for s in range(game.num_players)]
            players = [make_player(names[s], k * 16 + s) for s in range(game.num_players)]
            # the decision the next play answers: it, its seat, and how many scores its deal had after it
            waiting: tuple[Decision, int, int] | None = None
            while not state.over:
                seat = state.to_move
                deal = state.deal_no
                moves = state.legal_moves()
                judged: Decision | None = None
                if len(moves) > 1:
                    view = state.view(seat)
                    solved = view.stock_size == 0 and sum(view.hand_sizes) <= DEFAULT_ENDGAME
                    move = players[seat].choose(view, moves)
                    # the estimates depend only on the view (the position's public part and the unseen cards)
                    guess = determinize(view, random.Random(0))
                    unseen = sorted(c.index for c in view.unseen)
                    estimates = {m.raw: move_estimate(guess, m.raw, unseen, weights) for m in moves}
                    value, risk = estimates[move.raw]
                    least = min(r for _v, r in estimates.values())
                    safe = max(v for v, r in estimates.values() if r <= least + 1e-9)
                    judged = Decision(names[seat], risk, least, value, safe, bool(move.raw[1]), solved)
                else:
                    move = moves[0]
                state.push(move)
                same_deal = state.deal_no == deal and not state.over
                if waiting is not None:
                    decision, mover, scored = waiting
                    if same_deal and team_of[seat] != team_of[mover]:
                        # this play's bonuses: the deal's scores added since the decision (a refill adds none)
                        decision.conceded = any(team == team_of[seat] for _n, team, _p in state.deal_scores[scored:])
                    out.append(decision)
                    waiting = None
                if judged is not None:
                    if same_deal:
                        waiting = (judged, seat, len(state.deal_scores))
                    else:  # the deal's last play: no reply
                        out.append(judged)
    return out


def report(decisions: list[Decision], pair: list[str]) -> None:
    """Per player: the bonuses conceded and the risks taken, by how much riskier than the least on offer, where
    ismcts searches and where its endgame solver plays (the whole rest of the deal, not greedy's one ply)."""
    for name in dict.fromkeys(pair):
        mine = [d for d in decisions if d.player == name]
        if not mine:
            continue
        conceded = [d for d in mine if d.conceded]
        risky = [d for d in mine if d.risk > d.least + SAFER_BY]
        print(
            f"{name}: {len(mine)} decisions, {len(conceded)} bonuses conceded ({100 * len(conceded) / len(mine):.2f} "
            f"a hundred decisions), {sum(d.conceded for d in risky)} of them after a riskier move than the least "
            f"on offer; mean risk chosen {sum(d.risk for d in mine) / len(mine):.3f}, least on offer "
            f"{sum(d.least for d in mine) / len(mine):.3f}"
        )
        print("| phase | excess risk | moves | mean excess | mean risk | punished | greedy value over the safe best |")
        print("|---|---|---|---|---|---|---|")
        for phase, solved in (("search", False), ("endgame", True)):
            for lo, hi in BANDS:
                band = [d for d in risky if d.solved == solved and lo <= d.risk - d.least < hi]
                if not band:
                    continue
                n = len(band)
                gained = sum(d.value - d.safe_value for d in band) / n
                print(
                    f"| {phase} | {lo:.2f} - {min(hi, 1):.2f} | {n} | {sum(d.risk - d.least for d in band) / n:.2f} | "
                    f"{sum(d.risk for d in band) / n:.2f} | {sum(d.conceded for d in band)} "
                    f"({sum(d.conceded for d in band) / n:.2f}) | {gained:+.2f} |"
                )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("--matches", type=int, default=60, help="duplicate matches (each played twice)")
    p.add_argument("--seed", type=int, default=77)
    p.add_argument("--pair", default="ismcts:seconds=0,greedy", help="the two players, A,B")
    p.add_argument("--out", type=Path, help="write every decision as JSON here")
    args = p.parse_args(argv)
    pair = args.pair.split(",")
    if len(pair) != 2:
        p.error("--pair takes two players, A,B")
    decisions = play(piglia.load_variant(args.variant), pair, args.matches, args.seed)
    report(decisions, pair)
    if args.out is not None:
        args.out.write_text(json.dumps([asdict(d) for d in decisions]) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
