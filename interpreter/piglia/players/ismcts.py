"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse 2012).

Each iteration deals the cards the seat has not seen at random, consistently with its view (its hand, the
table, the piles, every card played, the other hands' sizes and the stock's), then walks one shared tree of
moves from the seat's information set: UCB1 with availability counts picks among the moves legal in that
deal, an untried move is added, and a short playout follows. The tree is ``tree`` plies deep (by default
one: the root's moves only, every reply coming from the playout policy in that iteration's deal; ``0``: no
limit). The root's moves start with ``prior`` virtual visits worth greedy's value of the move
(:func:`~piglia.players.greedy.move_value`), so that a few hundred iterations refine a sound one-ply
judgement instead of starting from nothing.

The playout policy (:meth:`IsmctsPlayer._playout_move`) plays a random move with probability ``noise`` and
otherwise values a capture by the bonuses the rules give for
it (:meth:`~piglia.state.State.bonus_points`) plus the weights of the cards it takes, a placement by minus
its card's weight, and every move minus the best capture it leaves to the next player, who is imagined
holding a hand drawn from the cards the mover cannot see (an independent draw: the policy must not know
the hand the deal gave that player, or it would place a valuable card exactly when it is safe and make
keeping it look better than it is). A playout ends with the deal or after ``depth`` plies; it is scored by
the deal's points so far plus the cards in the piles weighted by the awards
(:func:`~piglia.players.knowledge.card_weights`) plus a share (``held``) of the weights of the cards each team
still holds, as a gain over the same score of the position searched, from each mover's team's side.

Once the stock is empty and at most ``endgame`` cards are left in the hands, the rest of the deal is solved
by alpha-beta on the exact deal points (awards included): once, when every hidden card is known (the last
hand of a two-player game, the stock being empty: the other hand is what this seat has not seen), else on
``samples`` deals of the hidden cards, averaging each move's value (determinized search).

The move chosen is the root's most visited. With more than ``width`` legal moves (twelve-card hands), the
root keeps only the ``width`` moves greedy ranks best, so that the budget is not spread too thin.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from piglia import interrupt
from piglia.errors import PigliaError
from piglia.moves import BuildRaw, Move
from piglia.players.greedy import move_value
from piglia.players.knowledge import card_weights, deal_over, determinize, game_of, play, points_sign, team_score
from piglia.state import Game, RawMove, SeatView, State

__all__ = ["IsmctsPlayer", "solve_endgame"]

DEFAULT_ITERATIONS = 400
DEFAULT_SECONDS = 5.0  # a safety net only: the budget is the iterations, so that play is reproducible
DEFAULT_DEPTH = 8
DEFAULT_NOISE = 0.1  # share of playout moves chosen at random; the policy chooses the rest
DEFAULT_WIDTH = 6  # with more legal moves than this, the search looks only at greedy's best this many
DEFAULT_TREE = 1  # plies of tree: below the root, replies come from the playout policy (see docs/players.md)
DEFAULT_PRIOR = 40  # virtual visits given to greedy's value of each root move
DEFAULT_ENDGAME = 8  # solve exactly once the stock is empty and at most this many cards are in the hands
DEFAULT_SAMPLES = 12  # deals of the hidden cards the endgame is solved on when they are not all known
DEFAULT_CONFIDENCE = 0.0  # standard errors by which the playouts must prefer a move to greedy's choice
HELD_SHARE = 0.3  # at a playout's horizon, a card still in a hand counts this share of its weight for its team
DEFAULT_RISK = 4  # the first this many playout plies weigh what a move leaves to the next player (slower)
THREAT_HAND = 4  # at most this many cards are imagined in the next player's hand by the playout policy


def ordered_table(game: Game) -> bool:
    """Whether the order of the table's cards matters to the rules: a capture kind or a bonus reads its top."""
    kinds = [k for tier in game.variant.capture.tiers for k in tier]
    return "top" in game.bonus_reads or any(getattr(k, "reads_top", False) for k in kinds)


class Node:
    """A move in the tree: its statistics from the side of the team that made it."""

    __slots__ = ("available", "children", "reward", "team", "visits")

    def __init__(self, team: int) -> None:
        self.team = team
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[RawMove, Node] = {}


def solve_endgame(state: State, team: int, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """The exact value to ``team`` (its deal points minus the others' mean, as :func:`team_score`, negated when
    fewer points are better: a misere match) of the rest of the deal of ``state``, every hand known: alpha-beta,
    ``team``'s seats maximising, the others minimising."""
    if deal_over(state):
        return points_sign(state.game) * team_score(state.deal_points, team)
    maximising = state.game.players.team_of[state.to_move] == team
    moves = state.raw_moves()
    # captures first (more cards first): they decide most deals, so the window closes sooner
    moves.sort(key=lambda m: -len(m[1]))
    best = -math.inf if maximising else math.inf
    for m in moves:
        child = state.clone()
        play(child, m)
        value = solve_endgame(child, team, alpha, beta)
        if maximising:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def _check_options(**options: tuple[Any, float, float, bool]) -> None:
    """Refuse an option that is not a number in its range (``ismcts:iterations=abc``, ``iterations=-5``)."""
    for name, (value, low, high, whole) in options.items():
        kind = "a whole number" if whole else "a number"
        ok = isinstance(value, int) if whole else isinstance(value, int | float)
        if isinstance(value, bool) or not ok or not (low <= value <= high):  # NaN fails the range test too
            span = f"from {low:g} to {high:g}" if high != math.inf else f"of at least {low:g}"
            raise PigliaError(f"ismcts option {name}={value!r}: expected {kind} {span}")


class IsmctsPlayer:
    """ISMCTS with determinization. ``iterations`` is the budget (play is reproducible for a seed);
    ``seconds`` is only a safety net (no iteration starts after it; ``0``: none); ``seed`` fixes its random
    choices. See the module text for the other options."""

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
        prior: int = DEFAULT_PRIOR,
        endgame: int = DEFAULT_ENDGAME,
        samples: int = DEFAULT_SAMPLES,
        risk: int = DEFAULT_RISK,
        paired: int = 1,
        confidence: float = DEFAULT_CONFIDENCE,
        noise: float = DEFAULT_NOISE,
        held: float = HELD_SHARE,
    ) -> None:
        _check_options(
            iterations=(iterations, 1, math.inf, True),
            seconds=(seconds, 0, math.inf, False),
            depth=(depth, 0, math.inf, True),
            exploration=(exploration, 0, math.inf, False),
            width=(width, 0, math.inf, True),
            bonuses=(bonuses, 0, 1, True),
            tree=(tree, 0, math.inf, True),
            noise=(noise, 0, 1, False),
            held=(held, 0, 1, False),
        )
        self.rng = random.Random(f"piglia/ismcts-player/{seed}")
        self.prng = self.rng  # the playout policy's generator (reseeded per deal when the root moves are paired)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.width = width
        self.bonuses = bool(bonuses)
        self.tree = tree
        self.prior = prior
        self.endgame = endgame
        self.samples = samples
        self.risk = risk
        self.paired = bool(paired)
        self.confidence = confidence
        self.noise = noise
        self.held = held
        self.last_iterations = 0
        self.last_root: Node | None = None  # the last search's tree, for inspection
        self.last_values: dict[RawMove, float] = {}  # the last decision's value of each root move (mean reward)
        self._threats: dict[tuple[int, tuple[int, ...], int], float] = {}
        self._ordered = False  # whether the rules read the table's top card (the order of its cards matters)
        self._anchor: RawMove | None = None  # greedy's choice in the last search
        self._samples: dict[RawMove, list[float]] = {}  # the last paired search's playout rewards per move

    # -- deciding ----------------------------------------------------------------------------------------------

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        raw = [m.raw for m in moves]
        values = self.evaluate(view, raw)
        root = self.last_root
        if root is None or (self.tree == 1 and self.paired):  # solved exactly, or paired samples: the best value
            best = max(range(len(moves)), key=lambda i: (values.get(raw[i], -math.inf), -i))
            anchor = self._anchor
            if self.confidence > 0 and root is not None and anchor is not None and raw[best] != anchor:
                best = best if self._confident(raw[best]) else raw.index(anchor)
        else:  # searched: the most visited, the value breaking ties
            visits = {m: n.visits for m, n in root.children.items()}
            best = max(range(len(moves)), key=lambda i: (visits.get(raw[i], -1), values.get(raw[i], -math.inf), -i))
        return moves[best]

    def _confident(self, move: RawMove) -> bool:
        """Whether the playouts prefer ``move`` to greedy's choice by more than CONFIDENCE standard errors of
        their paired difference (the same sampled deals): the search overrides the one-ply judgement only
        when it has seen enough, which it does more often the larger its budget."""
        anchor = self._anchor
        if anchor is None or move not in self._samples or anchor not in self._samples:
            return True
        diffs = [a - b for a, b in zip(self._samples[move], self._samples[anchor], strict=False)]
        n = len(diffs)
        if n < 2:
            return True
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean > self.confidence * math.sqrt(var / n)

    def evaluate(self, view: SeatView, raw: Sequence[RawMove]) -> dict[RawMove, float]:
        """The search's value of each of the legal moves ``raw`` (as a gain in points for the seat's team over
        the position now; moves the search left out are missing). :meth:`choose` plays the most visited
        (:attr:`last_root`), or, when the deal's end was solved (``last_root`` is None), the best valued."""
        game = game_of(view)
        weights = card_weights(game)  # computed once per process and variant (about 0.3 s), then cached
        if view.stock_size == 0 and 0 < sum(view.hand_sizes) <= self.endgame:
            values = self._endgame(view, raw)
            self.last_values = values
            return values
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else math.inf
        # the reward's scale: a deal's points are about the sum of the weights; explore on that scale
        scale = max(sum(abs(w) for w in weights) / 2, 1.0)
        c = self.exploration * scale
        candidates: set[RawMove] | None = None
        root = Node(-1)
        self._anchor = None
        self._samples = {}
        if self.prior > 0 or 0 < self.width < len(raw):
            guess = determinize(view, self.rng)
            unseen = sorted(x.index for x in view.unseen)
            greedy = {m: move_value(guess, m, unseen, weights) for m in raw}
            self._anchor = max(raw, key=lambda m: greedy[m])
            if 0 < self.width < len(raw):
                # progressive pruning at the root: many-card hands give too many moves for the budget, so the
                # search spends it on the moves the one-ply valuation ranks best
                candidates = set(sorted(raw, key=lambda m: -greedy[m])[: self.width])
            if self.prior > 0:
                for m in raw:
                    if candidates is None or m in candidates:
                        child = Node(view.team)
                        child.visits = child.available = self.prior
                        child.reward = self.prior * greedy[m]
                        root.children[m] = child
        self._threats = {}
        self._ordered = ordered_table(game)
        done = 0
        if self.tree == 1 and self.paired:
            self._paired(view, raw, root, weights, candidates, deadline)
            done = self.last_iterations
        while done < self.iterations and time.perf_counter() < deadline and not interrupt.requested():
            self._iterate(determinize(view, self.rng), root, weights, c, candidates)
            done += 1
        self.last_iterations = done
        self.last_root = root
        values = {m: n.reward / n.visits for m, n in root.children.items() if n.visits}
        self.last_values = values
        return values

    def _endgame(self, view: SeatView, raw: Sequence[RawMove]) -> dict[RawMove, float]:
        # every hidden card is known when they are all in one other hand (the stock empty): with two or more
        # hands holding them, which hand holds which is still hidden, so deals of them are sampled
        others = [s for i, s in enumerate(view.hand_sizes) if i != view.seat and s]
        shown = sum(len(h) for i, h in enumerate(view.shown or ()) if i != view.seat)
        known = len(view.unseen) == sum(others) - shown and len(others) <= 1
        samples = 1 if known else max(self.samples, 1)
        totals = dict.fromkeys(raw, 0.0)
        for done in range(samples):
            if done and interrupt.requested():
                samples = done
                break
            state = determinize(view, self.rng)
            base = points_sign(state.game) * team_score(state.deal_points, view.team)
            for m in raw:
                child = state.clone()
                play(child, m)
                totals[m] += solve_endgame(child, view.team) - base
        self.last_iterations = samples
        self.last_root = None
        return {m: v / samples for m, v in totals.items()}

    def _paired(
        self,
        view: SeatView,
        raw: Sequence[RawMove],
        root: Node,
        weights: Sequence[float],
        candidates: set[RawMove] | None,
        deadline: float,
    ) -> None:
        """Root sampling with common random numbers: each deal of the hidden cards is played out after every
        root move, with the same random choices in the playouts, so that the moves are compared on the same
        luck (the differences between them are much less noisy than their values)."""
        moves = [m for m in raw if candidates is None or m in candidates]
        team = view.team
        for m in moves:
            root.children.setdefault(m, Node(team))
        done = 0
        # a stop request (Ctrl-C) ends the search at once: the run stops between moves, within a second
        while done < self.iterations and time.perf_counter() < deadline and not interrupt.requested():
            state = determinize(view, self.rng)
            base = self._evaluate(state, weights)
            seed = self.rng.getrandbits(32)
            for m in moves[: self.iterations - done]:
                self.prng = random.Random(seed)
                after = state.clone()
                play(after, m)
                plies = 0
                while plies < self.depth and not deal_over(after):
                    play(after, self._playout_move(after, after.raw_moves(), weights, plies < self.risk))
                    plies += 1
                points = self._evaluate(after, weights)
                node = root.children[m]
                node.visits += 1
                node.available += 1
                reward = team_score([p - b for p, b in zip(points, base, strict=True)], team)
                node.reward += reward
                self._samples.setdefault(m, []).append(reward)
                done += 1
        self.prng = self.rng
        self.last_iterations = done

    # -- one iteration -----------------------------------------------------------------------------------------

    def _iterate(
        self, state: State, root: Node, weights: Sequence[float], c: float, candidates: set[RawMove] | None
    ) -> None:
        team_of = state.game.players.team_of
        base = self._evaluate(state, weights)
        path = [root]
        node = root
        # selection and expansion (down to ``tree`` plies, when limited)
        while not deal_over(state) and (self.tree <= 0 or len(path) <= self.tree):
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
                play(state, move)
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
            play(state, move)
            path.append(node)
        # playout
        plies = 0
        while plies < self.depth and not deal_over(state):
            play(state, self._playout_move(state, state.raw_moves(), weights, plies < self.risk))
            plies += 1
        points = self._evaluate(state, weights)
        gain = [p - b for p, b in zip(points, base, strict=True)]
        for n in path[1:]:
            n.visits += 1
            n.reward += team_score(gain, n.team)

    # -- the playout policy ------------------------------------------------------------------------------------

    def _playout_move(self, state: State, legal: list[RawMove], weights: Sequence[float], risk: bool) -> RawMove:
        if len(legal) == 1:
            return legal[0]
        if self.noise > 0 and self.prng.random() >= 1 - self.noise:
            return legal[self.prng.randrange(len(legal))]
        bonus = state.bonus_points if self.bonuses else None
        if points_sign(state.game) < 0:  # misere: the greedy move of a playout takes the least worth, bonuses too

            def worth(m: RawMove) -> float:
                card, captured = m
                if not captured:
                    return -weights[card]
                return (bonus(m) if bonus is not None else 0) + weights[card] + sum(weights[x] for x in captured)

            return min(legal, key=worth)
        hand = self._threat_hand(state) if risk else []

        def value(m: RawMove) -> float:
            card, captured = m
            if captured:
                v = (bonus(m) if bonus is not None else 0) + weights[card] + sum(weights[x] for x in captured)
            elif isinstance(m, BuildRaw):  # a build: what it will capture
                v = weights[card] + sum(weights[x] for x in m.onto)
            else:
                v = -weights[card]
            return v - self._threat(state, m, hand, weights) if hand else v

        return max(legal, key=value)

    def _threat_hand(self, state: State) -> list[int]:
        """Cards imagined in the next player's hand: drawn from those the mover cannot see, independently of
        where this deal put them."""
        n = state.game.num_players
        mover = state.to_move
        nxt = (mover + 1) % n
        size = len(state.hands[nxt]) or (state.game.deal_rules.hand if state.stock else 0)
        if size == 0:
            return []
        pool = [c for s, h in enumerate(state.hands) if s != mover for c in h]
        pool += state.stock
        size = min(size, THREAT_HAND, len(pool))
        return self.prng.sample(pool, size)

    def _threat(self, state: State, m: RawMove, hand: list[int], weights: Sequence[float]) -> float:
        """The best capture, bonuses included, that ``hand`` would make after ``m`` (negative for a partner)."""
        card, captured = m
        if captured:
            left: tuple[int, ...] = tuple(c for c in state.table if c not in captured)
        else:
            left = (*state.table, card)  # a placed card goes on top of an ordered table
        # the cache key is the table left: as a set, unless the rules read its top card (then in its order)
        table = left if self._ordered else tuple(sorted(left))
        placed = -1 if captured else card
        after: State | None = None
        best = 0.0
        for x in hand:
            key = (x, table, placed)
            v = self._threats.get(key)
            if v is None:
                if after is None:
                    after = state.clone()
                    after.push_raw(m)
                v = 0.0
                for cap, _kind in after.capture_options(x):
                    worth = (
                        weights[x]
                        + sum(weights[y] for y in cap)
                        + (after.bonus_points((x, cap)) if self.bonuses else 0)
                    )
                    v = max(v, worth)
                self._threats[key] = v
            best = max(best, v)
        team_of = state.game.players.team_of
        nxt = (state.to_move + 1) % state.game.num_players
        return best if team_of[nxt] != team_of[state.to_move] else -best

    def _evaluate(self, state: State, weights: Sequence[float]) -> list[float]:
        """Each team's deal points, plus, while the deal is still going, its pile's weighted cards, a share of the
        weights of the cards its seats hold (a card held is its holder's to play well) and the cards of its builds."""
        points = [float(p) for p in state.deal_points]
        if not deal_over(state):
            for t, pile in enumerate(state.piles):
                points[t] += sum(weights[c] for c in pile)
            team_of = state.game.players.team_of
            for s, hand in enumerate(state.hands):
                points[team_of[s]] += self.held * sum(weights[c] for c in hand)
            for b in state.builds:  # a build is its owner's to capture (it holds the card): worth what it takes
                points[team_of[b.owner]] += sum(weights[c] for c in b.cards)
        sign = points_sign(state.game)  # misere: fewer points are better, and rewards say "better"
        return [sign * p for p in points] if sign < 0 else points
