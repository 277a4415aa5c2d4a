"""The greedy player: one ply, valued by the variant's own rules.

A move is worth what the rules give for it now (the bonuses the engine scores for it, and the cards it takes
weighted by :func:`~piglia.players.knowledge.card_weights`, i.e. by how they count towards the awards) minus
what it leaves to the next player: the expected best reply an opponent could make on the resulting table,
over the hands it may hold drawn from the cards this seat has not seen. On the last play of a deal the move
is valued exactly: the deal's points, awards included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from piglia.chance import Phase
from piglia.moves import Move
from piglia.players.knowledge import card_weights, determinize, game_of, points_sign, team_score
from piglia.state import RawMove, SeatView, State

__all__ = ["GreedyPlayer", "expected_max", "move_value"]

DISCARD_CAUTION = 0.1  # a card left on the table may be taken later too: a small share of its weight


def expected_max(values: Sequence[float], hand: int) -> float:
    """The expected largest of ``hand`` values drawn without replacement from ``values`` (0 if none)."""
    n = len(values)
    if hand <= 0 or n == 0:
        return 0.0
    hand = min(hand, n)
    ordered = sorted(values, reverse=True)
    total = comb(n, hand)
    # the i-th largest (0-based) is the maximum when it is drawn and the hand's other cards come after it
    return sum(v * comb(n - 1 - i, hand - 1) for i, v in enumerate(ordered) if n - 1 - i >= hand - 1) / total


def immediate(state: State, raw: RawMove, weights: Sequence[float]) -> tuple[float, State]:
    """What playing ``raw`` is worth now to the mover's team (see the module text), and the position after."""
    game = state.game
    team = game.players.team_of[state.to_move]
    before = list(state.deal_points)
    after = state.clone()
    after.push_raw(raw)
    sign = points_sign(game)  # misere: every point is bad
    if after.phase in (Phase.DEAL, Phase.END):  # the deal ended: its points are known exactly
        return sign * (team_score(after.deal_points, team) - team_score(before, team)), after
    gained = [after.deal_points[t] - before[t] for t in range(game.num_teams)]
    value = team_score(gained, team)
    card, captured = raw
    if captured:
        value += weights[card] + sum(weights[c] for c in captured)
    else:
        value -= DISCARD_CAUTION * weights[card]
    return sign * value, after


def best_reply(after: State, unseen: Sequence[int], weights: Sequence[float], team: int) -> float:
    """The expected value to ``team`` of the next player's best immediate capture (negative for an opponent)."""
    game = after.game
    if after.phase in (Phase.DEAL, Phase.END):
        return 0.0
    seat = after.to_move
    hand = len(after.hands[seat])  # the caller has refilled the hands if they were empty
    if hand == 0:
        return 0.0
    capture = game.variant.capture
    table = after.table
    values: list[float] = []
    for card in unseen:
        options = capture.options(card, table)
        best = 0.0
        for cap, _kind in options:
            probe = after.clone()
            probe.hands[seat] = [card, *probe.hands[seat][1:]]  # it holds this card, its hand the same size
            value, _ = immediate(probe, (card, cap), weights)
            best = max(best, value)
        values.append(best)
    reply = expected_max(values, hand)
    return reply if game.players.team_of[seat] == team else -reply


def move_value(state: State, raw: RawMove, unseen: Sequence[int], weights: Sequence[float]) -> float:
    """The greedy value of ``raw`` for the seat to move in ``state`` (a determinization of its view)."""
    team = state.game.players.team_of[state.to_move]
    value, after = immediate(state, raw, weights)
    if after.phase is Phase.REFILL:
        after.push_chance(after.chance_outcome())
    return value + best_reply(after, unseen, weights, team)


class GreedyPlayer:
    """One-ply player: the move with the highest :func:`move_value`; ties go to the first in move order."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"piglia/greedy-player/{seed}")

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        game = game_of(view)
        weights = card_weights(game)
        state = determinize(view, self.rng)
        unseen = sorted(c.index for c in view.unseen)
        best = max(
            range(len(moves)),
            key=lambda i: (
                move_value(state, (moves[i].card.index, tuple(c.index for c in moves[i].captured)), unseen, weights),
                -i,
            ),
        )
        return moves[best]
