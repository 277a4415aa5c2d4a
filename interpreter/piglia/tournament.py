"""Tournaments between two players in the duplicate format.

Every shuffle is played twice: once with player A on the first team's seats and B on the other's, once with
the seats swapped. Both games of a pair get the same match seed, hence the same deals to the same seats, so
the luck of the cards largely cancels out. A tournament needs two teams (sides of one or more seats).

Ctrl-C (or SIGTERM) stops a tournament within a move: the result holds the matches finished, marked
``interrupted``; worker processes are ended with the run (:mod:`piglia.workers`).

Win rates count a draw as half a win; the 95% interval is Wilson's over all matches played (the paired
games are positively dependent through their shared deals, so the interval is, if anything, wide).

The points per deal difference (A's minus B's) is the finer measure: each duplicate pair is one sample (the
two games of a pair share their shuffles, so their luck cancels), and its 95% interval is the normal one of a
ratio estimate over the pairs, :func:`pair_interval`. A small strength difference that the win rate cannot
show (one point a match rarely turns a result) is visible there. It is computed from running sums
(:class:`PairSums`), so a tournament's memory does not grow with its matches; each pair's own figures are kept
only when asked for (``keep_pairs``: the benchmarks compare runs pair by pair).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from piglia import interrupt
from piglia.errors import PigliaError
from piglia.players import make_player
from piglia.simulate import match_seed
from piglia.state import Game, State
from piglia.stats import wilson
from piglia.variant import Variant
from piglia.workers import WorkerPool

__all__ = ["MatchResult", "PairSums", "Standing", "TournamentResult", "pair_interval", "play_match", "tournament"]


@dataclass
class MatchResult:
    """One match's outcome, seen per player slot (0 = A, 1 = B)."""

    winner: int | None  # the winning slot, None for a draw
    deals: int
    points: list[int]  # per slot, over all deals
    by_name: list[dict[str, int]]  # per slot: award or bonus name -> points
    pair: int = 0  # the duplicate pair the match belongs to (its shuffles are the pair's)


def play_match(game: Game, names: tuple[str, str], seed: int, swapped: bool, player_seed: int) -> MatchResult:
    """Play one match: slot A on team 0's seats (team 1's when ``swapped``), slot B on the other's."""
    team_of = game.players.team_of
    a_team = 1 if swapped else 0
    slot_of_team = [0 if t == a_team else 1 for t in range(game.num_teams)]
    players = [make_player(names[slot_of_team[team_of[s]]], player_seed * 16 + s) for s in range(game.num_players)]
    points = [0, 0]
    by_name: list[dict[str, int]] = [{}, {}]
    deals = 0

    def tally(state: State) -> None:
        """Fold a deal in as it ends: a match keeps no log of its events (a long one held gigabytes of them)."""
        nonlocal deals
        deals += 1
        for name, team, pts in state.deal_scores:
            if team is not None:
                slot = slot_of_team[team]
                by_name[slot][name] = by_name[slot].get(name, 0) + pts
        for t, p in enumerate(state.deal_points):
            points[slot_of_team[t]] += p

    state = game.new_match(seed, log=False)
    state.observer = tally  # called at the end of every deal, as simulate's statistics are
    while not state.over:
        interrupt.check()  # a stop is noticed between moves: one match may be long
        seat = state.to_move
        moves = state.legal_moves()
        state.play(moves[0] if len(moves) == 1 else players[seat].choose(state.view(seat), moves))
    winner = None if state.winner is None else slot_of_team[state.winner]
    return MatchResult(winner, deals, points, by_name)


@dataclass
class Standing:
    """One player's results in a tournament."""

    name: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points: int = 0
    by_name: dict[str, int] = field(default_factory=dict)

    def as_dict(self, deals: int) -> dict[str, Any]:
        """As ``--json`` prints it."""
        score = self.wins + self.draws / 2
        low, high = wilson(score, self.matches)
        return {
            "name": self.name,
            "matches": self.matches,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "win_rate": score / self.matches if self.matches else 0.0,
            "ci95": [low, high],
            "points_per_deal": self.points / max(deals, 1),
            "awards_per_deal": {k: v / max(deals, 1) for k, v in sorted(self.by_name.items())},
        }


@dataclass
class PairSums:
    """Running sums over duplicate pairs of ``x`` (A's points minus B's) and ``d`` (deals): all that
    :meth:`interval` needs, in constant memory. Integers, so exact however many pairs."""

    n: int = 0
    x: int = 0
    d: int = 0
    xx: int = 0
    xd: int = 0
    dd: int = 0

    def add(self, x: int, d: int) -> None:
        """Fold in one complete pair."""
        self.n += 1
        self.x += x
        self.d += d
        self.xx += x * x
        self.xd += x * d
        self.dd += d * d

    def interval(self, z: float = 1.96) -> tuple[float, float, float]:
        """The points per deal difference and its 95% interval (see :func:`pair_interval`)."""
        n, deals = self.n, self.d
        if n == 0 or deals == 0:
            return 0.0, -math.inf, math.inf
        ratio = self.x / deals
        if n < 2:
            return ratio, -math.inf, math.inf
        # sum((x - r d)^2) with r = X / D is (D^2 sum x^2 - 2 X D sum x d + X^2 sum d^2) / D^2: the numerator in
        # exact integers (expanded in floats, it cancelled to a spurious spread where every pair is alike)
        exact = deals * deals * self.xx - 2 * self.x * deals * self.xd + self.x * self.x * self.dd
        residual = exact / (deals * deals) / (n - 1)
        se = math.sqrt(residual / n) / (deals / n)
        return ratio, ratio - z * se, ratio + z * se


def pair_interval(pairs: list[tuple[int, int]], z: float = 1.96) -> tuple[float, float, float]:
    """From per pair (A's points minus B's, deals), the points per deal difference and its 95% interval.

    The estimate is the ratio of the sums; its standard error is the delta method's,
    ``sqrt(sum((x - r * d)^2) / (n - 1) / n) / mean(d)``. With fewer than two pairs the interval is unbounded.
    """
    sums = PairSums()
    for x, d in pairs:
        sums.add(x, d)
    return sums.interval(z)


@dataclass
class TournamentResult:
    """The standings of both players, and the totals of the run."""

    variant: str
    players: int
    seed: int
    standings: list[Standing]
    matches: int = 0
    deals: int = 0
    interrupted: bool = False  # stopped (Ctrl-C, SIGTERM) before the end: these are the matches finished
    keep_pairs: bool = False  # keep each complete pair's figures (pairs), not only their sums
    sums: PairSums = field(default_factory=PairSums)  # over the complete pairs
    # per pair index with one match folded in so far: (A's points - B's, deals). Bounded by the matches under way
    # (a pair's two matches are handed out one after the other), and by one pair where no worker plays them.
    open_pairs: dict[int, tuple[int, int]] = field(default_factory=dict)
    kept: dict[int, tuple[int, int]] = field(default_factory=dict)  # with keep_pairs: per complete pair index

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """Per complete duplicate pair, in pair order: A's points minus B's, deals (a pair cut short by a stop
        is left out). Only with ``keep_pairs``: a long tournament keeps their sums alone."""
        if not self.keep_pairs:
            raise PigliaError("the pairs' own figures are kept only with keep_pairs=True")
        return [self.kept[k] for k in sorted(self.kept)]

    def add(self, result: MatchResult) -> None:
        """Fold in one match (the matches may come in any order; ``result.pair`` says which pair it is of)."""
        diff, deals = result.points[0] - result.points[1], result.deals
        other = self.open_pairs.pop(result.pair, None)
        if other is None:
            self.open_pairs[result.pair] = (diff, deals)
        else:
            diff, deals = diff + other[0], deals + other[1]
            self.sums.add(diff, deals)
            if self.keep_pairs:
                self.kept[result.pair] = (diff, deals)
        self.matches += 1
        self.deals += result.deals
        for slot, st in enumerate(self.standings):
            st.matches += 1
            st.points += result.points[slot]
            for k, v in result.by_name[slot].items():
                st.by_name[k] = st.by_name.get(k, 0) + v
            if result.winner is None:
                st.draws += 1
            elif result.winner == slot:
                st.wins += 1
            else:
                st.losses += 1

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data: ``players`` holds one entry per player."""
        return {
            "variant": self.variant,
            "seats": self.players,
            "seed": self.seed,
            "format": "duplicate",
            "matches": self.matches,
            "deals": self.deals,
            "interrupted": self.interrupted,
            "players": [s.as_dict(self.deals) for s in self.standings],
            "points_per_deal_difference": self.difference(),
        }

    def difference(self) -> dict[str, Any]:
        """A's points per deal minus B's, with the 95% interval over the duplicate pairs (JSON: null ends
        when there are too few pairs to tell)."""
        value, low, high = self.sums.interval()
        bounds = [low if math.isfinite(low) else None, high if math.isfinite(high) else None]
        return {"value": value, "ci95": bounds, "pairs": self.sums.n}


_WORKER_GAME: list[Game] = []  # the game a worker process plays (compiled rules do not pickle: set by fork)


def _init_worker(game: Game) -> None:
    _WORKER_GAME[:] = [game]


def _job(names: tuple[str, str], seed: int, pair: int, swapped: bool, game: Game | None = None) -> MatchResult:
    game = game or _WORKER_GAME[0]
    result = play_match(game, names, match_seed(seed, pair), swapped, pair * 2 + int(swapped))
    result.pair = pair
    return result


def tournament(
    variant: Variant,
    names: tuple[str, str],
    *,
    matches: int = 100,
    seed: int = 0,
    players: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    keep_pairs: bool = False,
) -> TournamentResult:
    """Play ``matches`` matches (rounded up to whole pairs) between ``names[0]`` and ``names[1]``; with
    ``keep_pairs``, the result keeps each pair's figures too (:attr:`TournamentResult.pairs`).

    Results depend only on the arguments, not on ``workers``: each match has its own seeds. Ctrl-C or SIGTERM
    stops it within a move; the result then holds the matches finished, marked ``interrupted``.
    """
    game = Game(variant, players)
    if game.num_teams != 2:
        # A against "all the others" is no duplicate comparison: with three teams B held two of them in every
        # game, and random against random read as a significant difference.
        raise PigliaError(
            f"a tournament compares two players on two sides; {variant.name} with {game.num_players} players has "
            f"{game.num_teams} teams"
        )
    for name in names:
        make_player(name)  # a bad name fails here, not in a worker
    standings = [Standing(names[0]), Standing(names[1])]
    result = TournamentResult(variant.name, game.num_players, seed, standings, keep_pairs=keep_pairs)
    pairs = (matches + 1) // 2
    # made as they are played: a list made first held every match of `--matches 100000000` before the first was
    # played (out of memory at once)
    jobs = ((names, seed, k, swapped) for k in range(pairs) for swapped in (False, True))
    with interrupt.StopOnSignals():
        try:
            results = _here(jobs, game) if workers <= 1 else _in_workers(jobs, game, workers)
            for r in results:
                result.add(r)
                if progress is not None:
                    progress(result.matches)
        except (KeyboardInterrupt, interrupt.Interrupted):
            result.interrupted = True
    return result


def _here(jobs: Iterable[tuple[tuple[str, str], int, int, bool]], game: Game) -> Iterator[MatchResult]:
    for job in jobs:
        interrupt.check()
        yield _job(*job, game=game)


def _in_workers(
    jobs: Iterable[tuple[tuple[str, str], int, int, bool]], game: Game, workers: int
) -> Iterator[MatchResult]:
    """The matches' results as workers finish them (the totals do not depend on the order)."""
    # fork: the compiled rules do not pickle; the workers inherit the game.
    pool = WorkerPool(workers, method="fork", initializer=_init_worker, initargs=(game,))
    pending: set[Any] = set()
    todo = iter(jobs)
    window = workers * 2
    stopped = True
    try:
        while True:
            interrupt.check()
            while len(pending) < window:
                job = next(todo, None)
                if job is None:
                    break
                pending.add(pool.submit(_job, *job))
            if not pending:
                break
            for future in pool.wait_any(pending):
                pending.discard(future)
                yield future.result()
        stopped = False
    finally:
        pool.close(stop=stopped)  # a stop: the matches under way are dropped (a match is not cut into pieces)
