"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse 2012).

Each iteration deals the cards the seat has not seen at random, consistently with its view (its hand, the
table, the piles, every card played, the other hands' sizes and the stock's), then walks one shared tree of
moves from the seat's information set: UCB1 with availability counts picks among the moves legal in that
deal, an untried move is added, and a short playout follows. The tree is ``tree`` plies deep (by default
one: the root's moves only, every reply coming from the playout policy in that iteration's deal; ``0``: no
limit). The playout policy takes the capture worth most in bonuses (:meth:`~piglia.state.State.bonus_points`)
plus card weights, or a random move. A playout ends with the deal or after ``depth`` plies; it is scored by
the deal's points so far plus the cards in the piles weighted by the awards
(:func:`~piglia.players.knowledge.card_weights`), from each mover's team's side. The move chosen is the
root's most visited. With more than ``width`` legal moves (twelve-card hands), the root keeps only the
``width`` moves the greedy valuation ranks best, so that the budget is not spread too thin.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from piglia.chance import Phase
from piglia.errors import PigliaError
from piglia.moves import Move
from piglia.players.greedy import move_value
from piglia.players.knowledge import card_weights, determinize, game_of, team_score
from piglia.state import RawMove, SeatView, State

__all__ = ["IsmctsPlayer"]

DEFAULT_ITERATIONS = 400
DEFAULT_SECONDS = 0.45  # no iteration starts after this: with the last one, a move stays under half a second
DEFAULT_DEPTH = 8
GREEDY_PLAYOUT = 0.8  # share of playout moves that take the most valuable capture; the rest are random
DEFAULT_WIDTH = 6  # with more legal moves than this, the search looks only at greedy's best this many
_DEAL_OR_END = (Phase.DEAL, Phase.END)  # the deal is over: the search stops there
DEFAULT_TREE = 1  # plies of tree: below the root, replies come from the playout policy (see docs/players.md)


class Node:
    """A move in the tree: its statistics from the side of the team that made it."""

    __slots__ = ("available", "children", "reward", "team", "visits")

    def __init__(self, team: int) -> None:
        self.team = team
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[RawMove, Node] = {}


def _check_options(**options: tuple[Any, float, float, bool]) -> None:
    """Refuse an option that is not a number in its range (``ismcts:iterations=abc``, ``iterations=-5``)."""
    for name, (value, low, high, whole) in options.items():
        kind = "a whole number" if whole else "a number"
        ok = isinstance(value, int) if whole else isinstance(value, int | float)
        if isinstance(value, bool) or not ok or not (low <= value <= high):  # NaN fails the range test too
            span = f"from {low:g} to {high:g}" if high != math.inf else f"of at least {low:g}"
            raise PigliaError(f"ismcts option {name}={value!r}: expected {kind} {span}")


class IsmctsPlayer:
    """ISMCTS with determinization. ``iterations`` and ``seconds`` bound the search (whichever ends first;
    ``seconds=0`` means no time limit, for reproducible runs); ``seed`` fixes its random choices."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float = DEFAULT_SECONDS,
        depth: int = DEFAULT_DEPTH,
        exploration: float = 0.7,
        width: int = DEFAULT_WIDTH,
        bonuses: int = 1,
        tree: int = DEFAULT_TREE,
    ) -> None:
        _check_options(
            iterations=(iterations, 1, math.inf, True),
            seconds=(seconds, 0, math.inf, False),
            depth=(depth, 0, math.inf, True),
            exploration=(exploration, 0, math.inf, False),
            width=(width, 0, math.inf, True),
            bonuses=(bonuses, 0, 1, True),
            tree=(tree, 0, math.inf, True),
        )
        self.rng = random.Random(f"piglia/ismcts-player/{seed}")
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.width = width
        self.bonuses = bool(bonuses)
        self.tree = tree
        self.last_iterations = 0
        self.last_root: Node | None = None  # the last search's tree, for inspection

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        game = game_of(view)
        weights = card_weights(game)  # computed once per process and variant (about 0.3 s), then cached
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else math.inf
        # the reward's scale: a deal's points are about the sum of the weights; explore on that scale
        scale = max(sum(abs(w) for w in weights) / 2, 1.0)
        c = self.exploration * scale
        raw = [(m.card.index, tuple(x.index for x in m.captured)) for m in moves]
        candidates: set[RawMove] | None = None
        if 0 < self.width < len(moves):
            # progressive pruning at the root: many-card hands give too many moves for the budget, so the search
            # spends it on the moves the one-ply valuation ranks best
            guess = determinize(view, self.rng)
            unseen = sorted(c.index for c in view.unseen)
            ranked = sorted(raw, key=lambda m: -move_value(guess, m, unseen, weights))
            candidates = set(ranked[: self.width])
        root = Node(-1)
        done = 0
        while done < self.iterations and time.perf_counter() < deadline:
            self._iterate(determinize(view, self.rng), root, weights, c, candidates)
            done += 1
        self.last_iterations = done
        self.last_root = root
        best = max(range(len(moves)), key=lambda i: root.children[raw[i]].visits if raw[i] in root.children else -1)
        return moves[best]

    def _iterate(
        self, state: State, root: Node, weights: Sequence[float], c: float, candidates: set[RawMove] | None
    ) -> None:
        team_of = state.game.players.team_of
        path = [root]
        node = root
        # selection and expansion (down to ``tree`` plies, when limited)
        while state.phase not in _DEAL_OR_END and (self.tree <= 0 or len(path) <= self.tree):
            if state.phase is Phase.REFILL:
                state.push_chance(state.chance_outcome())
            legal = state.raw_moves()
            if node is root and candidates is not None:
                legal = [m for m in legal if m in candidates]
            untried = [m for m in legal if m not in node.children]
            for m in legal:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            if untried:
                move = untried[self.rng.randrange(len(untried))]
                child = Node(team_of[state.to_move])
                child.available = 1
                node.children[move] = child
                state.push_raw(move)
                path.append(child)
                break
            log_avail = {m: math.log(node.children[m].available) for m in legal}
            move = max(
                legal,
                key=lambda m: (
                    node.children[m].reward / node.children[m].visits
                    + c * math.sqrt(log_avail[m] / node.children[m].visits)
                ),
            )
            node = node.children[move]
            state.push_raw(move)
            path.append(node)
        # playout
        plies = 0
        while plies < self.depth and state.phase not in _DEAL_OR_END:
            if state.phase is Phase.REFILL:
                state.push_chance(state.chance_outcome())
            state.push_raw(self._playout_move(state, state.raw_moves(), weights))
            plies += 1
        points = self._evaluate(state, weights)
        for n in path[1:]:
            n.visits += 1
            n.reward += team_score(points, n.team)

    def _playout_move(self, state: State, legal: list[RawMove], weights: Sequence[float]) -> RawMove:
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < GREEDY_PLAYOUT:
            if self.bonuses:
                # the bonuses the rules give for the play (sweeps, and whatever else the variant scores during
                # play) plus the weights of the cards it takes; a placement costs its card's weight
                bonus = state.bonus_points
                return max(
                    legal,
                    key=lambda m: (
                        (bonus(m) + weights[m[0]] + sum(weights[x] for x in m[1])) if m[1] else -weights[m[0]]
                    ),
                )
            return max(legal, key=lambda m: (weights[m[0]] + sum(weights[x] for x in m[1])) if m[1] else -weights[m[0]])
        return legal[self.rng.randrange(len(legal))]

    @staticmethod
    def _evaluate(state: State, weights: Sequence[float]) -> list[float]:
        """Each team's deal points, plus its pile's weighted cards while the deal is still going."""
        points = [float(p) for p in state.deal_points]
        if state.phase not in _DEAL_OR_END:
            for t, pile in enumerate(state.piles):
                points[t] += sum(weights[c] for c in pile)
        return points
