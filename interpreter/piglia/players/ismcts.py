"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse 2012).

Each iteration deals the cards the seat has not seen at random, consistently with its view (its hand, the
table, the piles, every card played, the other hands' sizes and the stock's), then walks one shared tree of
moves from the seat's information set: UCB1 with availability counts picks among the moves legal in that
deal, an untried move is added, and a short playout follows. The tree is ``tree`` plies deep (by default
one: the root's moves only, every reply coming from the playout policy in that iteration's deal; ``0``: no
limit). The root's moves start with ``prior`` virtual visits worth greedy's value of the move
(:func:`~piglia.players.greedy.move_value`), so that a few hundred iterations refine a sound one-ply
judgement instead of starting from nothing.

The hidden cards are dealt with the likelihoods the other seats' plays give them (``infer``,
:mod:`piglia.players.inference`): a card that would have made a much better play than one a seat made since its
hand was dealt is seldom dealt to that seat.

The playout policy (:meth:`IsmctsPlayer._playout_move`) plays a random move with probability ``noise`` and
otherwise values a capture by the bonuses the rules give for
it (:meth:`~piglia.state.State.bonus_points`) plus the weights of the cards it takes, a placement by minus
its card's weight, and every move minus the best capture it leaves to the next player, who is imagined
holding a hand drawn from the cards the mover cannot see (an independent draw: the policy must not know
the hand the deal gave that player, or it would place a valuable card exactly when it is safe and make
keeping it look better than it is); with ``expect`` that best capture is averaged over every hand the next
player may hold, as greedy's valuation does (:meth:`IsmctsPlayer._expected_reply`). A playout ends with the
deal or after ``depth`` plies; it is scored by the deal's points so far plus the cards in the piles weighted by
the awards (:func:`~piglia.players.knowledge.card_weights`) plus a share (``held``) of the weights of the cards
each team still holds, as a gain over the same score of the position searched, from each mover's team's side.

Once the stock is empty and at most ``endgame`` cards are left in the hands, the rest of the deal is solved
by alpha-beta on the exact deal points (awards included): once, when every hidden card is known (the last
hand of a two-player game, the stock being empty: the other hand is what this seat has not seen), else on
``samples`` deals of the hidden cards, averaging each move's value (determinized search). A decision's solves
visit at most ``nodes`` positions (:class:`Budget`); past that, the playouts decide.

With ``goal=match`` the search plays for the match instead of the deal's points: a finished deal (in the
playouts and in the endgame solver) and a playout's estimate of the deal's points are worth the team's chance
of winning the match from the totals they leave (:mod:`piglia.players.equity`: exact where the match end rules
decide on those totals, else estimated over sampled future deals), and greedy's prior the chance its points add;
``margin`` adds that much per point of the deal's margin (a tie-break where the chance does not move).

The move chosen is the root's most visited. With more than ``width`` legal moves (twelve-card hands), the
root keeps only the ``width`` moves greedy ranks best, so that the budget is not spread too thin.

A search keeps what its playouts ask again and again: the legal moves by (hand to move, table) where no builds
change them, the policy's threats by the table a move leaves; every deal of the hidden cards is copied from the
first (:class:`~piglia.players.knowledge.Determinizer`). None of it changes a move or a random draw: for a seed
and a position the search plays out exactly what it did before (``tests/test_ismcts_identical.py``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from functools import partial

from piglia import interrupt
from piglia.errors import LimitError, PigliaError
from piglia.moves import BuildRaw, Move
from piglia.players.equity import MatchEquity, match_equity
from piglia.players.greedy import best_of_hand, best_values
from piglia.players.inference import MIN_FACTOR, Reader
from piglia.players.knowledge import (
    Determinizer,
    card_weights,
    check_options,
    deal_over,
    game_of,
    ordered_table,
    play,
    points_sign,
    team_score,
)
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
# Most positions the endgame solver visits in one decision (all samples and moves together): beyond it, the
# playouts decide. The built-in games' solves visit at most about 12,000 (builds the most; four hands of two cards
# about 9,000, two hands of three a few hundred: benchmarks/endgame_nodes.py), but a rule file whose tables grow to
# thirty cards with optional capture (where fewer points win, nobody wants to capture) gives each position hundreds
# of captures to search, and the solve would run for minutes or hours.
DEFAULT_NODES = 100_000
DEFAULT_CONFIDENCE = 0.0  # standard errors by which the playouts must prefer a move to greedy's choice
DEFAULT_INFER = 30.0  # how far the hidden hands are read from the plays (players/inference.py): 0 reads nothing
HELD_SHARE = 0.3  # at a playout's horizon, a card still in a hand counts this share of its weight for its team
DEFAULT_RISK = 4  # the first this many playout plies weigh what a move leaves to the next player (slower)
THREAT_HAND = 4  # at most this many cards are imagined in the next player's hand by the playout policy (``threat``)
# from this many moves, the playout policy weighs threats in the order of the moves' worth, and stops at the first
# that cannot be best (below it, in move order: a sort costs more than the threats it saves)
RANKED_FROM = 64
# the playout policy weighs the next player's best reply over every hand it may hold (1), or over one hand drawn
# from those cards (0, ``threat`` cards at most). One drawn hand makes the move the draw happens to leave safe look
# best: that policy loses up to 4 points a deal to greedy where the averaged one comes within a point, yet the search
# plays as well over either, faster over the drawn hand (benchmarks/players.md, issue 14's seventeenth pass)
DEFAULT_EXPECT = 0
POINTS_GOAL, MATCH_GOAL = "points", "match"  # what the search maximises: the deal's points, or the chance of
GOALS = (POINTS_GOAL, MATCH_GOAL)  # winning the match (players/equity.py)
DEFAULT_GOAL = POINTS_GOAL
# goal=match: each point of the deal's margin adds this to the chance of winning, so that where the chance no
# longer moves (a match as good as won or lost, by the model) the points still decide
DEFAULT_MARGIN = 0.0


class Node:
    """A move in the tree: its statistics from the side of the team that made it."""

    __slots__ = ("available", "children", "reward", "team", "visits")

    def __init__(self, team: int) -> None:
        self.team = team
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[RawMove, Node] = {}


Leaf = Callable[[State, int], float]  # the value to a team of a position whose deal is over


class Unsolved(Exception):
    """The endgame solver reached its :class:`Budget` before the end of its search."""


class Budget:
    """How many more positions an endgame solve may visit, and the time by which it must stop (``math.inf``:
    none). Counting positions makes the limit the same on every machine; the deadline is only a safety net."""

    __slots__ = ("deadline", "left")

    def __init__(self, positions: float, deadline: float = math.inf) -> None:
        self.left = positions
        self.deadline = deadline

    def spend(self) -> None:
        """Count one position; raise :class:`Unsolved` once none is left or the deadline has passed."""
        self.left -= 1
        if self.left < 0 or time.perf_counter() > self.deadline:  # no deadline (inf): never past it
            raise Unsolved


def solve_endgame(
    state: State,
    team: int,
    alpha: float = -math.inf,
    beta: float = math.inf,
    leaf: Leaf | None = None,
    budget: Budget | None = None,
) -> float:
    """The exact value to ``team`` of the rest of the deal of ``state``, every hand known: alpha-beta,
    ``team``'s seats maximising, the others minimising. A finished deal is worth ``leaf(state, team)``; by
    default its points as :func:`team_score` (negated when fewer points are better: a misere match); with
    ``goal=match`` the team's chance of winning the match from the totals it leaves (:meth:`_match_leaf`).
    With a ``budget``, each position visited spends one, and :class:`Unsolved` is raised when it runs out."""
    if budget is not None:
        budget.spend()
    if deal_over(state):
        if leaf is not None:
            return leaf(state, team)
        return points_sign(state.game) * team_score(state.deal_points, team)
    maximising = state.game.players.team_of[state.to_move] == team
    moves = state.raw_moves()
    # captures first (more cards first): they decide most deals, so the window closes sooner
    moves.sort(key=lambda m: -len(m[1]))
    best = -math.inf if maximising else math.inf
    for m in moves:
        child = state.clone()
        play(child, m)
        value = solve_endgame(child, team, alpha, beta, leaf, budget)
        if maximising:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


class IsmctsPlayer:
    """ISMCTS with determinization. ``iterations`` is the budget (play is reproducible for a seed);
    ``seconds`` is only a safety net (past it no iteration starts, and the reading of the plays, greedy's prior
    and the deal-end solve stop; ``0``: none); ``seed`` fixes its random
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
        infer: float = DEFAULT_INFER,
        floor: float = MIN_FACTOR,
        goal: str = DEFAULT_GOAL,
        margin: float = DEFAULT_MARGIN,
        threat: int = THREAT_HAND,
        expect: int = DEFAULT_EXPECT,
        nodes: int = DEFAULT_NODES,
    ) -> None:
        check_options(
            "ismcts",
            iterations=(iterations, 1, math.inf, True),
            seconds=(seconds, 0, math.inf, False),
            depth=(depth, 0, math.inf, True),
            exploration=(exploration, 0, math.inf, False),
            width=(width, 0, math.inf, True),
            bonuses=(bonuses, 0, 1, True),
            tree=(tree, 0, math.inf, True),
            prior=(prior, 0, math.inf, True),
            endgame=(endgame, 0, math.inf, True),
            samples=(samples, 1, math.inf, True),
            risk=(risk, 0, math.inf, True),
            paired=(paired, 0, 1, True),
            confidence=(confidence, 0, math.inf, False),
            noise=(noise, 0, 1, False),
            held=(held, 0, 1, False),
            infer=(infer, 0, math.inf, False),
            floor=(floor, 0, 1, False),
            margin=(margin, 0, math.inf, False),
            threat=(threat, 0, math.inf, True),
            expect=(expect, 0, 1, True),
            nodes=(nodes, 0, math.inf, True),
        )
        if goal not in GOALS:
            raise PigliaError(f"ismcts option goal={goal!r}: expected one of {', '.join(GOALS)}")
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
        self.nodes = nodes
        self.risk = risk
        self.paired = bool(paired)
        self.confidence = confidence
        self.noise = noise
        self.held = held
        self.goal = goal
        self.margin = margin
        self.threat = threat
        self.expect = bool(expect)
        self.reader = Reader(infer, floor)  # what the other seats' plays say about their hands (players/inference.py)
        self.last_iterations = 0
        self.last_root: Node | None = None  # the last search's tree, for inspection
        self.last_values: dict[RawMove, float] = {}  # the last decision's value of each root move (mean reward)
        # the playout policy's threats: per table left (a bit mask of its cards, or the cards in order where the
        # order matters) and card placed (-1: a capture), the best capture of each card of the next hand
        self._threats: dict[tuple[int | tuple[int, ...], int], dict[int, float]] = {}
        # expect: per the same key, the cards valued so far (a bit mask) and those of them with a capture, best first
        self._replies: dict[tuple[int | tuple[int, ...], int], tuple[int, list[tuple[float, int]]]] = {}
        self._sign = 1.0  # points_sign of the game searched (read on every playout move)
        self._bits: list[int] = []  # 1 << card, per card index: a table's cards as one int
        self._piles: list[tuple[int, float]] = []  # the view's piles: their sizes and weights (see _evaluate)
        self._legal: dict[tuple[tuple[int, ...], tuple[int, ...]], list[RawMove]] = {}  # see _playout
        self._ordered = False  # whether the rules read the table's top card (the order of its cards matters)
        self._anchor: RawMove | None = None  # greedy's choice in the last search
        self._samples: dict[RawMove, list[float]] = {}  # the last paired search's playout rewards per move
        # goal=match: the chances of winning the match (players/equity.py), the view's totals before this deal
        # and its deal's number (the totals a leaf's deal points are added to, and when the rules check them)
        self._equity: MatchEquity | None = None
        self._totals: tuple[int, ...] = ()
        self._deal = 0

    # -- deciding ----------------------------------------------------------------------------------------------

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        """The move the search (:meth:`evaluate`) rates best from what the seat sees: the most visited at the root,
        or the best valued when the deal's end was solved or the playouts were paired (greedy's choice then kept
        unless the playouts are ``confidence`` standard errors surer of another)."""
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
        the position now, or with ``goal=match`` in its chance of winning the match; moves the search left out
        are missing). :meth:`choose` plays the most visited (:attr:`last_root`), or, when the deal's end was
        solved (``last_root`` is None), the best valued."""
        game = game_of(view)
        weights = card_weights(game)  # computed once per process and variant (about 0.3 s), then cached
        self._prepare(game, weights)
        if self.goal == MATCH_GOAL:
            self._equity = match_equity(game)  # made once per process and variant, its chances kept with it
            self._totals = view.totals
            self._deal = view.deal
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else math.inf
        if view.stock_size == 0 and 0 < sum(view.hand_sizes) <= self.endgame:
            solved = self._endgame(view, raw, weights, Budget(self.nodes or math.inf, deadline))
            if solved is not None:
                self.last_values = solved
                return solved
            # too big to solve within the budget (huge tables): the playouts decide, as before the deal's end
        # the reward's scale: a deal's points are about the sum of the weights; explore on that scale (a chance
        # of winning the match moves by at most 1)
        scale = max(sum(abs(w) for w in weights) / 2, 1.0) if self._equity is None else 0.5
        c = self.exploration * scale
        candidates: set[RawMove] | None = None
        root = Node(-1)
        self._anchor = None
        self._samples = {}
        deal = self._determinizer(view, weights, deadline)
        # every position searched holds the view's piles with cards added after them: their weights are summed
        # once, then continued per position (the additions of summing the whole pile, in its order: the same
        # float where sum() adds one by one, as CPython 3.11 does; 3.12's compensated sum may differ in the last
        # bits, which tests/test_ismcts_identical.py tolerates)
        self._piles = [(len(p), sum(weights[c.index] for c in p)) for p in view.piles]
        narrowed = 0 < self.width < len(raw)  # the root keeps only the width moves greedy ranks best
        if self.prior > 0 or narrowed:
            guess = deal(self.rng)
            unseen = sorted(x.index for x in view.unseen)
            # only the moves that may be among those need a value when the root keeps no others
            # (the safety net may stop it: the moves it did not value get no prior, and the playouts judge them)
            valued = best_values(guess, raw, unseen, weights, self.width if narrowed else len(raw), deadline)
            greedy = {raw[i]: valued[i] for i in sorted(valued)}  # in raw's order: ties go to the first
            if self._equity is not None and self.prior > 0:
                # greedy's values are points: the prior is the chance of winning they add to the guessed deal's
                # estimate (the rewards' unit), as if the seat's team scored them
                estimate = self._evaluate(guess, weights)
                now = self._chance(guess, estimate, view.team)

                def gained(value: float) -> float:
                    points = list(estimate)
                    points[view.team] += value
                    return self._chance(guess, points, view.team) - now + self.margin * value

                greedy_prior = {m: gained(v) for m, v in greedy.items()}
            else:
                greedy_prior = greedy
            self._anchor = max(greedy, key=lambda m: greedy[m])
            if narrowed:
                # progressive pruning at the root: many-card hands give too many moves for the budget, so the
                # search spends it on the moves the one-ply valuation ranks best
                candidates = set(sorted(greedy, key=lambda m: -greedy[m])[: self.width])
            if self.prior > 0:
                for m in raw:
                    if (candidates is None or m in candidates) and m in greedy_prior:
                        child = Node(view.team)
                        child.visits = child.available = self.prior
                        child.reward = self.prior * greedy_prior[m]
                        root.children[m] = child
        done = 0
        if self.tree == 1 and self.paired:
            self._paired(deal, raw, root, weights, candidates, deadline)
            done = self.last_iterations
        while done < self.iterations and time.perf_counter() < deadline and not interrupt.requested():
            self._iterate(deal(self.rng), root, weights, c, candidates)
            done += 1
        self.last_iterations = done
        self.last_root = root
        values = {m: n.reward / n.visits for m, n in root.children.items() if n.visits}
        self.last_values = values
        return values

    def _prepare(self, game: Game, weights: Sequence[float]) -> None:
        """Set up a search of ``game``: what the playout policy reads of the rules, and its caches emptied."""
        self._sign = points_sign(game)
        self._threats = {}
        self._replies = {}
        self._legal = {}
        self._ordered = ordered_table(game)
        self._bits = [1 << i for i in range(len(weights))]

    def _determinizer(self, view: SeatView, weights: Sequence[float], deadline: float) -> Determinizer:
        """Deals of the hidden cards for this view: uniform, or weighted by what the plays say (``infer``; the
        reading stops at ``deadline``, the safety net)."""
        deal = Determinizer(view)
        if self.reader.beta <= 0:
            return deal
        # a position of the view for the reader's rebuilt past positions: its hidden cards from a generator of
        # its own, so that the search's draws do not depend on it; it also leaves the deals' template built
        position = deal(random.Random(0))
        deal.factors = self.reader.factors(view, game_of(view), position, weights, deadline)
        return deal

    def _endgame(
        self, view: SeatView, raw: Sequence[RawMove], weights: Sequence[float], budget: Budget
    ) -> dict[RawMove, float] | None:
        """Each move's value solved exactly (averaged over sampled deals when the hidden cards are not all
        known); None when the solves would visit more positions than ``budget`` allows."""
        # every hidden card is known when they are all in one other hand (the stock empty): with two or more
        # hands holding them, which hand holds which is still hidden, so deals of them are sampled
        others = [s for i, s in enumerate(view.hand_sizes) if i != view.seat and s]
        shown = sum(len(h) for i, h in enumerate(view.shown or ()) if i != view.seat)
        known = len(view.unseen) == sum(others) - shown and len(others) <= 1
        samples = 1 if known else max(self.samples, 1)
        totals = dict.fromkeys(raw, 0.0)
        deal = self._determinizer(view, weights, budget.deadline) if samples > 1 else Determinizer(view)
        for done in range(samples):
            if done and interrupt.requested():
                samples = done
                break
            state = deal(self.rng)
            if self._equity is not None:  # the chance of winning the match, from the totals with this deal's points
                leaf: Leaf | None = self._match_leaf
                base = self._equity.shares(
                    [t + p for t, p in zip(view.totals, state.deal_points, strict=True)], view.deal
                )[view.team] + self.margin * points_sign(state.game) * team_score(state.deal_points, view.team)
            else:
                leaf = None
                base = points_sign(state.game) * team_score(state.deal_points, view.team)
            for m in raw:
                child = state.clone()
                play(child, m)
                try:
                    totals[m] += solve_endgame(child, view.team, leaf=leaf, budget=budget) - base
                except (Unsolved, LimitError):  # an imagined line too big to list: the playouts decide
                    return None
        self.last_iterations = samples
        self.last_root = None
        return {m: v / samples for m, v in totals.items()}

    def _paired(
        self,
        deal: Determinizer,
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
        team = deal.view.team
        for m in moves:
            root.children.setdefault(m, Node(team))
        done = 0
        prng = random.Random()
        # a stop request (Ctrl-C) ends the search at once: the run stops between moves, within a second
        while done < self.iterations and time.perf_counter() < deadline and not interrupt.requested():
            state = deal(self.rng)
            base = self._evaluate(state, weights)
            start = self._chance(state, base, team) if self._equity is not None else 0.0
            # every root move's playout draws from a generator seeded alike: one generator seeded again per move
            # (the same draws as a new random.Random(seed) each; restoring a saved state costs more, getstate)
            seed = self.rng.getrandbits(32)
            self.prng = prng
            for m in moves[: self.iterations - done]:
                prng.seed(seed)
                after = state.clone()
                self._playout(after, weights, play(after, m))
                points = self._evaluate(after, weights)
                node = root.children[m]
                node.visits += 1
                node.available += 1
                if self._equity is None:
                    reward = team_score([p - b for p, b in zip(points, base, strict=True)], team)
                else:
                    margin = team_score([p - b for p, b in zip(points, base, strict=True)], team)
                    reward = self._chance(after, points, team) - start + self.margin * margin
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
        # goal=match: each team's chance from the position searched (read before the iteration plays on it)
        teams = range(len(base))
        start = [self._chance(state, base, t) for t in teams] if self._equity is not None else []
        path = [root]
        node = root
        # selection and expansion (down to ``tree`` plies, when limited)
        while not deal_over(state) and (self.tree <= 0 or len(path) <= self.tree):
            try:
                legal = state.raw_moves()
            except LimitError:  # an imagined position past a limit: evaluated as it stands (see _playout)
                break
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
        self._playout(state, weights, deal_over(state))
        points = self._evaluate(state, weights)
        gain = [p - b for p, b in zip(points, base, strict=True)]
        if self._equity is not None:  # each team's gain in its chance of winning the match
            chances = [self._chance(state, points, t) - start[t] + self.margin * team_score(gain, t) for t in teams]
            for n in path[1:]:
                n.visits += 1
                n.reward += chances[n.team]
            return
        for n in path[1:]:
            n.visits += 1
            n.reward += team_score(gain, n.team)

    # -- the playout policy ------------------------------------------------------------------------------------

    def _playout(self, state: State, weights: Sequence[float], over: bool) -> None:
        """Play the policy on ``state`` (``over``: its deal has ended) for ``depth`` plies or to the deal's end.

        A position past one of the engine's limits (:class:`~piglia.errors.LimitError`: more moves, captures or
        builds than it lists) ends the playout there, to be evaluated as it stands: the hands it was reached with
        are imagined, and the real game may never meet it (the decision goes on; the real position's moves were
        listed)."""
        plies = 0
        depth = self.depth
        risk = self.risk
        try:
            if state.game.has_builds:  # the moves depend on the builds too: listed each time
                while plies < depth and not over:
                    over = play(state, self._playout_move(state, state.raw_moves(), weights, plies < risk))
                    plies += 1
                return
            # Without builds the legal moves are a function of the hand to move and the table (in its order, which
            # may order the list): playouts from one position meet the same pairs again and again (about half of
            # the lists of a search), so the search keeps them. The lists are read, never changed.
            known = self._legal
            while plies < depth and not over:
                key = (tuple(state.hands[state.to_move]), tuple(state.table))
                legal = known.get(key)
                if legal is None:
                    legal = known[key] = state.raw_moves()
                over = play(state, self._playout_move(state, legal, weights, plies < risk))
                plies += 1
        except LimitError:
            return

    def _playout_move(self, state: State, legal: list[RawMove], weights: Sequence[float], risk: bool) -> RawMove:
        if len(legal) == 1:
            return legal[0]
        if self.noise > 0 and self.prng.random() >= 1 - self.noise:
            return legal[self.prng.randrange(len(legal))]
        bonus = state.bonus_points if self.bonuses else None
        weight = weights.__getitem__
        if self._sign < 0:  # misere: the greedy move of a playout takes the least worth, bonuses too
            return min(legal, key=partial(_worth_now, weights, bonus))
        # the cards the next player's reply is weighed over: every card the mover cannot see (expect), with the
        # chance of each being the best of the hand it holds, or one hand drawn from them
        order: list[float] = []
        if not risk:
            hand: list[int] = []
        elif self.expect:
            hand, order = self._reply_pool(state)
        else:
            hand = self._threat_hand(state)
        # What is read of the position for every move's threat, once: the table (as a bit mask when its order
        # does not matter) and whether the next player is an opponent.
        table = state.table
        bits = self._bits
        ordered = self._ordered
        mask = sum(map(bits.__getitem__, table)) if hand and not ordered else 0
        pool = sum(map(bits.__getitem__, hand)) if order else 0
        team_of = state.game.players.team_of
        opponent = team_of[(state.to_move + 1) % state.game.num_players] != team_of[state.to_move]
        threats = self._threats
        # max(legal, key=value) written out: the first of the best moves. A threat left to an opponent only lowers
        # a move's worth, so on long lists the moves are taken best worth first (of equal worth, in their order),
        # and the first whose worth cannot reach the best found ends the loop: the same move, fewer threats weighed.
        # Not where the rules have builds: a build and the placement of its card share a threat's cache key (the
        # table left and the card placed), so the threat found would depend on which of them was weighed first
        moves = legal
        rank: Sequence[int] = ()  # ranked: each move's position in legal (a tuple when not: nothing allocated)
        worths: Sequence[float] = ()  # ranked: each move's worth before its threat, in the ranked order
        if hand and opponent and len(legal) >= RANKED_FROM and not state.game.has_builds:
            rank, worths = self._by_worth(legal, weights, bonus)
            moves = [legal[i] for i in rank]
        best_move = legal[0]
        best = 0.0
        first = 0  # ranked: the position in legal of best_move
        for j, m in enumerate(moves):
            card, captured = m
            if rank:
                v = worths[j]
                if j and (v < best or (v == best and rank[j] > first)):
                    break
            elif captured:
                v = (bonus(m) if bonus is not None else 0) + weights[card] + sum(map(weight, captured))
            elif isinstance(m, BuildRaw):  # a build: what it will capture
                v = weights[card] + sum(map(weight, m.onto))
            else:
                v = -weights[card]
            if hand:
                # the threat is cached by the table left and the card placed; a table as a set is its bit mask
                left: int | tuple[int, ...]
                if ordered:
                    left = tuple([c for c in table if c not in captured]) if captured else (*table, card)
                else:
                    left = mask - sum(map(bits.__getitem__, captured)) if captured else mask | bits[card]
                if order:  # averaged over the hands the next player may hold
                    threat = self._expected_reply(state, m, hand, pool, order, weights, left)
                else:
                    # the best capture of a card of the hand (max() written out: the same comparisons), each card
                    # valued once per search (_threat values those not valued yet)
                    known = threats.get((left, -1 if captured else card))
                    threat = 0.0
                    if known is not None:
                        for x in hand:
                            t = known.get(x)
                            if t is None:
                                threat = self._threat(state, m, hand, weights, left)
                                break
                            if t > threat:
                                threat = t
                    else:
                        threat = self._threat(state, m, hand, weights, left)
                v = v - (threat if opponent else -threat)
            if j == 0 or v > best:
                best_move, best = m, v
                if rank:
                    first = rank[j]
            elif rank and v == best and rank[j] < first:  # of equal values, the first in legal
                best_move, first = m, rank[j]
        return best_move

    @staticmethod
    def _by_worth(
        legal: list[RawMove], weights: Sequence[float], bonus: Callable[[RawMove], int] | None
    ) -> tuple[list[int], list[float]]:
        """The positions of ``legal``'s moves (no builds among them), best worth first, and their worths in that
        order (:func:`_worth_now`); of equal worth, in their order."""
        worth = list(map(partial(_worth_now, weights, bonus), legal))
        rank = sorted(range(len(legal)), key=worth.__getitem__, reverse=True)  # reverse keeps equal ones in order
        return rank, [worth[i] for i in rank]

    def _threat_hand(self, state: State) -> list[int]:
        """Cards imagined in the next player's hand: drawn from those the mover cannot see, independently of
        where this deal put them."""
        n = state.game.num_players
        mover = state.to_move
        nxt = (mover + 1) % n
        size = len(state.hands[nxt]) or (state.game.deal_rules.hand if state.stock else 0)
        if size == 0:
            return []
        pool: list[int] = []
        for s, h in enumerate(state.hands):
            if s != mover:
                pool += h
        pool += state.stock
        size = min(size, self.threat, len(pool))
        return self.prng.sample(pool, size)

    def _reply_pool(self, state: State) -> tuple[list[int], list[float]]:
        """The cards the mover cannot see (the other hands and the stock), and for each rank ``k`` of them by
        value (0: the best) the chance that it is the best of the next player's hand, a hand of that player's
        size drawn from them; nothing when the next player holds no card and none will be dealt."""
        n = state.game.num_players
        mover = state.to_move
        size = len(state.hands[(mover + 1) % n]) or (state.game.deal_rules.hand if state.stock else 0)
        if size == 0:
            return [], []
        pool: list[int] = []
        for s, h in enumerate(state.hands):
            if s != mover:
                pool += h
        pool += state.stock
        if not pool:
            return [], []
        return pool, _order_chances(len(pool), min(size, len(pool)))

    def _expected_reply(
        self,
        state: State,
        m: RawMove,
        cards: list[int],
        pool: int,
        order: list[float],
        weights: Sequence[float],
        left: int | tuple[int, ...],
    ) -> float:
        """The next player's best capture after ``m``, bonuses included, expected over the hands it may hold:
        ``cards`` (``pool``: as a bit mask) are the cards it draws from, ``order`` the chances of
        :meth:`_reply_pool`. The cards' values are :meth:`_capture_values`'s (cached alike); those with a capture
        are kept best first per key, so that a move's reply walks only them."""
        key = (left, -1 if m[1] else m[0])
        valued, best = self._replies.get(key, (0, []))
        if pool & ~valued:  # cards not valued yet on this key
            known = self._capture_values(state, m, cards, weights, left)
            valued |= pool
            best = sorted(((v, x) for x, v in known.items() if v > 0), reverse=True)
            self._replies[key] = (valued, best)
        bits = self._bits
        reply = 0.0
        k = 0
        last = len(order)
        for v, x in best:
            if pool & bits[x]:
                reply += v * order[k]
                k += 1
                if k == last:
                    break
        return reply

    def _threat(
        self, state: State, m: RawMove, hand: list[int], weights: Sequence[float], left: int | tuple[int, ...]
    ) -> float:
        """The best capture, bonuses included, that a card of ``hand`` would make after ``m`` (``left``: the
        table it leaves, as the cache key), from the side of the next player (:meth:`_capture_values`)."""
        known = self._capture_values(state, m, hand, weights, left)
        best = 0.0
        for x in hand:
            if known[x] > best:  # max(best, known[x])
                best = known[x]
        return best

    def _capture_values(
        self, state: State, m: RawMove, hand: list[int], weights: Sequence[float], left: int | tuple[int, ...]
    ) -> dict[int, float]:
        """Per card, the best capture it would make after ``m``, bonuses included (0: none), every card of
        ``hand`` among them. A card's value is cached by (table left, card placed or -1, card) the first time it
        is asked for in a search, as computed on the position it is first asked on."""
        card, captured = m
        key = (left, -1 if captured else card)
        known = self._threats.get(key)
        if known is None:
            known = self._threats[key] = {}
        missing = [x for x in hand if x not in known]
        if missing:
            after: State | None = None  # the position after m: built when a capture is found (for its bonuses)
            game = state.game
            if game.has_builds:  # builds change the table as they please: ask the position after m
                after = state.clone()
                after.push_raw(m)
                options = [[cap for cap, _kind in after.capture_options(x)] for x in missing]
            else:
                # the table after m as push_raw leaves it (the captured cards gone, or the card on top), and the
                # captures of every missing card on it at once: through the capture table's memo, when the
                # variant has one, which is much cheaper than listing each card's captures with their kinds
                table = state.table
                after_table = [c for c in table if c not in captured] if captured else [*table, card]
                options = game.variant.capture.hand_captures(missing, after_table)
            for x, caps in zip(missing, options, strict=True):
                v = 0.0
                for cap in caps:
                    points = 0
                    if self.bonuses:
                        if after is None:
                            after = state.clone()
                            after.push_raw(m)
                        points = after.bonus_points((x, cap))
                    worth = weights[x] + sum(map(weights.__getitem__, cap)) + points
                    if worth > v:  # max(v, worth)
                        v = worth
                known[x] = v
        return known

    def _chance(self, state: State, points: Sequence[float], team: int) -> float:
        """goal=match: ``team``'s chance of winning the match when the deal of ``state`` (a searched position)
        scores ``points`` (:meth:`_evaluate`'s estimate, exact once the deal is over): from the view's totals
        plus those points, after this deal (players/equity.py); exact when the match ended in the deal."""
        equity = self._equity
        if equity is None:
            raise ValueError("chances are asked only with goal=match")
        if state.over:  # the rules decided the match on the deal's totals, or a team won at once
            return _outcome_share(state, team)
        sign = self._sign  # the estimate is signed (misere): the totals take the points themselves
        totals = [t + sign * p for t, p in zip(self._totals, points, strict=True)]
        if deal_over(state):
            return equity.chance(totals, self._deal, team)
        # before the deal's end its points are an estimate: uncertain as much as the part of the deal still to
        # be played (the cards in the hands and the stock against those played) would make a whole deal's
        left = sum(map(len, state.hands)) + len(state.stock)
        share = left / (left + len(state.plays)) if left else 0.0
        return equity.chance_around(totals, self._deal, team, equity.spread() * math.sqrt(share))

    def _match_leaf(self, state: State, team: int) -> float:
        """goal=match: the endgame solver's value of a finished deal, ``team``'s chance of winning the match
        from the totals it leaves (the imagined position added the deal's points to them, and ended the match
        if the rules decide it)."""
        margin = self.margin * points_sign(state.game) * team_score(state.deal_points, team)
        if state.over:
            return _outcome_share(state, team) + margin
        if self._equity is None:
            raise ValueError("chances are asked only with goal=match")
        return self._equity.shares(state.totals, self._deal)[team] + margin

    def _evaluate(self, state: State, weights: Sequence[float]) -> list[float]:
        """Each team's deal points, plus, while the deal is still going, its pile's weighted cards, a share of the
        weights of the cards its seats hold (a card held is its holder's to play well) and the cards of its builds."""
        points = [float(p) for p in state.deal_points]
        if not deal_over(state):
            for t, pile in enumerate(state.piles):
                # the view's pile summed once (evaluate), then the cards captured since, in pile order
                size, total = self._piles[t]
                for c in pile[size:]:
                    total += weights[c]
                points[t] += total
            team_of = state.game.players.team_of
            weight = weights.__getitem__
            for s, hand in enumerate(state.hands):
                points[team_of[s]] += self.held * sum(map(weight, hand))
            for b in state.builds:  # a build is its owner's to capture (it holds the card): worth what it takes
                points[team_of[b.owner]] += sum(map(weight, b.cards))
        sign = self._sign  # misere: fewer points are better, and rewards say "better"
        return [sign * p for p in points] if sign < 0 else points


def _worth_now(weights: Sequence[float], bonus: Callable[[RawMove], int] | None, m: RawMove) -> float:
    """What a playout move is worth before the threat it leaves, as :meth:`IsmctsPlayer._playout_move` values it
    (the same floats): a capture its bonuses (``bonus``: None where ignored) and the weights of the cards it takes,
    the played card's included; anything else, a build too, minus its card's weight (the playout loop values a
    build by its cards; the ranked order, which uses this, never meets builds)."""
    card, captured = m
    if captured:
        return (bonus(m) if bonus is not None else 0) + weights[card] + sum(map(weights.__getitem__, captured))
    return -weights[card]


_ORDER: dict[tuple[int, int], list[float]] = {}


def _order_chances(n: int, hand: int) -> list[float]:
    """For ``hand`` cards drawn from ``n``: the chance that the ``k``-th best of the ``n`` (0: the best) is the
    best drawn, for each ``k`` that can be (cached per ``n`` and ``hand``)."""
    found = _ORDER.get((n, hand))
    if found is None:
        counts, total = best_of_hand(n, hand)
        found = _ORDER[n, hand] = [c / total for c in counts]
    return found


def _outcome_share(state: State, team: int) -> float:
    """A team's share of a match that has ended: 1 for the winner, 0 for the others, an even share in a draw."""
    if state.winner is None:
        return 1.0 / state.game.num_teams
    return 1.0 if state.winner == team else 0.0
