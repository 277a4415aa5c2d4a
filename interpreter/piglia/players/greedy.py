"""The greedy player: one ply, valued by the variant's own rules.

A move is worth what the rules give for it now (the bonuses the engine scores for it, and the cards it takes
weighted by :func:`~piglia.players.knowledge.card_weights`, i.e. by how they count towards the awards) minus
what it leaves to the next player: the expected best reply an opponent could make on the resulting table,
over the hands it may hold drawn from the cards this seat has not seen. On the last play of a deal the move
is valued exactly: the deal's points, awards included.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Sequence
from math import comb, inf

from piglia.errors import LimitError
from piglia.mechanics.capture import Capture
from piglia.moves import BuildRaw, Move
from piglia.players.knowledge import (
    card_weights,
    check_options,
    deal_over,
    determinize,
    game_of,
    points_sign,
    refill_hands,
    team_score,
)
from piglia.state import RawMove, SeatView, State

__all__ = ["GreedyPlayer", "best_of_hand", "best_values", "chance_any", "expected_max", "move_estimate", "move_value"]

DISCARD_CAUTION = 0.1  # a card left on the table may be taken later too: a small share of its weight
DEFAULT_SECONDS = 5.0  # a safety net only, as ismcts's: built-in games' decisions take milliseconds
KEEP_AFTER = 256  # best_values keeps the position after each move up to this many moves


def best_of_hand(n: int, hand: int) -> tuple[list[int], int]:
    """Of the hands of ``hand`` cards drawn from ``n`` (1 <= ``hand`` <= ``n``): for each ``k`` that can be, how
    many have the ``k``-th best of the ``n`` (0: the best) as their best card, and how many there are in all. The
    ``k``-th best is a hand's best when it is drawn and the hand's other cards come after it."""
    return [comb(n - 1 - k, hand - 1) for k in range(n - hand + 1)], comb(n, hand)


def expected_max(values: Sequence[float], hand: int) -> float:
    """The expected largest of ``hand`` values drawn without replacement from ``values`` (0 if none)."""
    n = len(values)
    if hand <= 0 or n == 0:
        return 0.0
    counts, total = best_of_hand(n, min(hand, n))
    ordered = sorted(values, reverse=True)
    # the hand - 1 smallest values are never a hand's best: counts stops before them
    return sum(v * c for v, c in zip(ordered, counts, strict=False)) / total


def immediate(state: State, raw: RawMove, weights: Sequence[float]) -> tuple[float, State]:
    """What playing ``raw`` is worth now to the mover's team (see the module text), and the position after."""
    game = state.game
    team = game.players.team_of[state.to_move]
    before = list(state.deal_points)
    after = state.clone()
    after.push_raw(raw)  # not play(): the caller deals the next hands, if it needs them (see move_estimate)
    sign = points_sign(game)  # misere: every point is bad
    if deal_over(after):  # the deal ended: its points are known exactly
        return sign * (team_score(after.deal_points, team) - team_score(before, team)), after
    gained = [after.deal_points[t] - before[t] for t in range(game.num_teams)]
    value = team_score(gained, team)
    card, captured = raw
    if captured:
        value += weights[card] + sum(weights[c] for c in captured)
    elif isinstance(raw, BuildRaw):  # a build is worth what it will capture (the replies count the risk)
        value += weights[card] + sum(weights[c] for c in raw.onto)
    else:
        value -= DISCARD_CAUTION * weights[card]
    return sign * value, after


def replies(
    after: State, unseen: Sequence[int], weights: Sequence[float], deadline: float = inf
) -> tuple[list[float], int, int]:
    """For the next player on ``after``'s table: the value of the best capture each unseen card would make
    (bonuses plus weights, 0 if none), how many of those captures score a bonus, and its hand's size. Past the
    ``deadline`` (a caller's safety net) the cards not valued yet count as taking nothing."""
    if deal_over(after):
        return [], 0, 0
    seat = after.to_move
    hand = len(after.hands[seat])  # the caller has refilled the hands if they were empty
    if hand == 0:
        return [], 0, 0
    values: list[float] = []
    bonuses = 0
    try:
        options = _captures(after, unseen)
    except LimitError:
        # a card imagined in the next hand would have more captures than the engine lists: its reply is left out
        # (the real game stops with the limit's message if it meets the position), the others' are valued
        options = []
        for card in unseen:
            try:
                options += _captures(after, [card])
            except LimitError:
                options.append([])
    held = after.hands[seat]
    game = after.game
    # A capture that neither ends the deal nor can change the points otherwise (a declaration at the next turn,
    # an instant win) is worth its bonuses plus the weights of the cards taken: what immediate() would find by
    # playing it on a copy of the position, to the same float, without the copy.
    plain = not (game.declares or game.has_instant_win) and (bool(after.stock) or sum(map(len, after.hands)) > 1)
    sign = points_sign(game)
    for card, caps in zip(unseen, options, strict=True):
        best = 0.0
        scores = False
        if caps:
            # it holds this card, its hand the same size: the hand is swapped in and back (immediate() plays on a
            # copy of the position, and bonus_points() plays nothing), instead of a copy of the position per card
            after.hands[seat] = [card, *held[1:]]
            try:
                for k, cap in enumerate(caps):
                    if deadline < inf and (values or k) and time.perf_counter() > deadline:
                        # a reply that ends the deal scores every award: rules whose awards take a second a deal
                        # made one greedy move take twenty minutes; past the deadline what is left counts as nothing
                        break
                    bonus = after.bonus_points((card, cap))
                    scores = scores or bonus > 0
                    if plain:
                        value = float(bonus)
                        value += weights[card] + sum(weights[c] for c in cap)
                        value *= sign
                    else:
                        value, _ = immediate(after, (card, cap), weights)
                    best = max(best, value)
            finally:
                after.hands[seat] = held
        values.append(best)
        bonuses += scores
    return values, bonuses, hand


def _captures(after: State, cards: Sequence[int]) -> list[list[Capture]]:
    """Each of ``cards``'s captures if it were played next on ``after``'s table."""
    if after.game.has_builds:  # builds change what a card can take: ask the position
        return [[cap for cap, _kind in after.capture_options(card)] for card in cards]
    # every card's captures at once, through the capture table's memo when the variant has one
    return after.game.variant.capture.hand_captures(cards, after.table)


def best_reply(after: State, unseen: Sequence[int], weights: Sequence[float], team: int) -> float:
    """The expected value to ``team`` of the next player's best immediate capture (negative for an opponent)."""
    values, _, hand = replies(after, unseen, weights)
    reply = expected_max(values, hand)
    return reply if after.game.players.team_of[after.to_move] == team else -reply


def chance_any(hits: int, pool: int, hand: int) -> float:
    """The chance that a hand of ``hand`` cards drawn from ``pool`` holds at least one of ``hits`` of them."""
    if hits <= 0 or hand <= 0 or pool <= 0:
        return 0.0
    hand = min(hand, pool)
    return 1.0 - comb(pool - hits, hand) / comb(pool, hand)


def move_value(
    state: State, raw: RawMove, unseen: Sequence[int], weights: Sequence[float], deadline: float = inf
) -> float:
    """The greedy value of ``raw`` for the seat to move in ``state`` (a determinization of its view)."""
    return move_estimate(state, raw, unseen, weights, deadline)[0]


def move_estimate(
    state: State, raw: RawMove, unseen: Sequence[int], weights: Sequence[float], deadline: float = inf
) -> tuple[float, float]:
    """The greedy value of ``raw`` and the risk it leaves: the chance that the next player, if an opponent,
    holds a card that scores a bonus on the table this move leaves (from the cards the seat has not seen)."""
    team = state.game.players.team_of[state.to_move]
    value, after = immediate(state, raw, weights)
    return _with_reply(team, value, after, unseen, weights, deadline)


def _with_reply(
    team: int, value: float, after: State, unseen: Sequence[int], weights: Sequence[float], deadline: float = inf
) -> tuple[float, float]:
    """:func:`move_estimate` of a move worth ``value`` now that leaves ``after`` (the mover's ``team``)."""
    refill_hands(after)
    values, bonuses, hand = replies(after, unseen, weights, deadline)
    reply = expected_max(values, hand)
    if hand == 0:
        return value, 0.0
    if after.game.players.team_of[after.to_move] == team:
        return value + reply, 0.0
    return value - reply, chance_any(bonuses, len(unseen), hand)


def best_values(
    state: State,
    raws: Sequence[RawMove],
    unseen: Sequence[int],
    weights: Sequence[float],
    count: int,
    deadline: float = inf,
) -> dict[int, float]:
    """The greedy values (:func:`move_value`) of the moves ``raws`` that may be among the ``count`` best, by
    position in ``raws``: the ``count`` best by value, ties to the first, are the same as over every move's value.

    Valuing a move's replies lists every capture of every unseen card on the table it leaves, which on a big table
    of small cards (thousands of moves) takes seconds. A move is worth at most what it is worth now when the next
    player is an opponent (each card's best reply is worth at least nothing, and it is subtracted), so the moves
    are valued in the order of their worth now, and once ``count`` of them rank above the next one's worth now
    (of equal values the first ranks higher), no move left can enter the best. Where a move leaves a partner to
    play, whose reply adds to its worth, every move is valued.

    With a ``deadline`` (on :func:`time.perf_counter`'s clock: a caller's safety net), no move is valued after it
    has passed but the first: the values are those of the moves valued by then."""
    team_of = state.game.players.team_of
    team = team_of[state.to_move]
    if count >= len(raws):
        every: dict[int, float] = {}
        for i, raw in enumerate(raws):
            if every and time.perf_counter() > deadline:  # no deadline (inf): never past it
                break
            every[i] = move_value(state, raw, unseen, weights, deadline)
        return every
    now: list[float] = []
    # the positions after each move, kept for its valuation where there are few (thousands of moves would hold
    # thousands of positions: those are played again when valued)
    kept: list[State] | None = [] if len(raws) <= KEEP_AFTER else None
    bounded = True
    for raw in raws:
        if now and deadline < inf and time.perf_counter() > deadline:
            break  # the moves after are not valued (each may end the deal, and its awards may be costly)
        value, after = immediate(state, raw, weights)
        now.append(value)
        if kept is not None:
            kept.append(after)
        # a partner's reply would add to the move's worth; a finished deal has no reply
        bounded = bounded and (deal_over(after) or team_of[after.to_move] != team)
    order = sorted(range(len(now)), key=lambda i: (-now[i], i)) if bounded else range(len(now))
    values: dict[int, float] = {}
    # the ``count`` best so far, each as (value, -position) so that of equal values the first ranks higher: a
    # min-heap. A move not valued yet ranks at most (worth now, -position), and the moves come in that rank's
    # order, so the first that cannot enter ends the loop, ties included (where most moves are worth the same,
    # as when no card counts for an award, this stops after ``count`` of them instead of valuing them all)
    best: list[tuple[float, int]] = []
    for i in order:
        if bounded and len(best) >= count and (now[i], -i) < best[0]:
            break
        if values and time.perf_counter() > deadline:
            break
        after = kept[i] if kept is not None else immediate(state, raws[i], weights)[1]
        value = values[i] = _with_reply(team, now[i], after, unseen, weights, deadline)[0]
        if len(best) < count:
            heapq.heappush(best, (value, -i))
        elif (value, -i) > best[0]:
            heapq.heapreplace(best, (value, -i))
    return values


class GreedyPlayer:
    """One-ply player: the move with the highest :func:`move_value`; ties go to the first in move order."""

    name = "greedy"

    def __init__(self, seed: int = 0, *, seconds: float = DEFAULT_SECONDS) -> None:
        check_options("greedy", seconds=(seconds, 0, inf, False))
        self.rng = random.Random(f"piglia/greedy-player/{seed}")
        self.seconds = seconds

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        """The move of highest value (:func:`move_value`: points now, less what the next seat may take back), on one
        position dealt from what the seat sees."""
        if len(moves) == 1:
            return moves[0]
        game = game_of(view)
        weights = card_weights(game)
        state = determinize(view, self.rng)
        unseen = sorted(c.index for c in view.unseen)
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else inf
        values = best_values(state, [m.raw for m in moves], unseen, weights, 1, deadline)
        return moves[max(values, key=lambda i: (values[i], -i))]
