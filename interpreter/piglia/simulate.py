"""Simulation: play many matches from one seed and accumulate the statistics a designer needs.

Match ``k`` of a run always gets the same sub-seed (:func:`match_seed`), so results depend only on the seed: not
on the number of worker processes, not on whether the run went to a Dask cluster. Matches are played in batches;
each batch folds its matches into a :class:`Summary` whose counters are all integers, so merging batches in any
order gives the very same summary. Statistics are accumulated as deals stream by (constant memory, whatever the
number of deals); events are built and records written only when a record is asked for.

A run for ``deals=N`` plays matches 0, 1, 2, ... until at least N deals are done, exactly as one process would: a
batch that overshoots is cut at the match that reaches N and that prefix is played again (cheap: one batch).
"""

from __future__ import annotations

import io
import json
import math
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from types import FrameType, TracebackType
from typing import IO, Any, Protocol

from piglia.record import write_events
from piglia.state import Game, State
from piglia.variant import Variant

__all__ = ["Summary", "match_seed", "play_random_match", "simulate", "wilson"]

Counter = dict[int, int]  # value -> how many times; JSON keys become strings


def match_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th match of a run started from ``seed``."""
    return random.Random(f"piglia/match/{seed}/{k}").getrandbits(48)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _count(counter: Counter, value: int, times: int = 1) -> None:
    counter[value] = counter.get(value, 0) + times


def _merge_counter(into: Counter, other: Counter) -> None:
    for value, times in other.items():
        into[value] = into.get(value, 0) + times


def _moments(counter: Counter) -> tuple[int, float, float]:
    """(n, mean, standard deviation) of the values a counter holds."""
    n = sum(counter.values())
    if n == 0:
        return 0, 0.0, 0.0
    total = sum(v * k for v, k in counter.items())
    mean = total / n
    var = max(sum(v * v * k for v, k in counter.items()) / n - mean * mean, 0.0)
    return n, mean, math.sqrt(var)


def _mean_ci(n: int, total: int, squares: int) -> tuple[float, float, float]:
    """Mean and its normal 95% interval from a count, a sum and a sum of squares."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _strict_leader(points: Iterable[int]) -> int | None:
    values = list(points)
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


@dataclass
class ScoreStats:
    """One award or bonus over all deals: total points, deals it scored in, and the sum of squared points per deal."""

    kind: str  # "award" or "bonus"
    points: int = 0
    scored_in: int = 0
    squares: int = 0


@dataclass
class Summary:
    """Statistics of a simulation, accumulated deal by deal. Every counter is an integer, so merging is exact."""

    variant: str
    players: int
    teams: list[list[int]]
    seed: int
    matches: int = 0
    deals: int = 0
    plays: int = 0
    wins: list[int] = field(default_factory=list)  # per team
    draws: int = 0
    points: list[int] = field(default_factory=list)  # per team, over all deals
    points_squares: list[int] = field(default_factory=list)  # per team: sum of squared deal points
    deal_points: list[Counter] = field(default_factory=list)  # per team: deal points -> deals
    by_name: dict[str, ScoreStats] = field(default_factory=dict)  # per award or bonus, in the variant's order
    # First-player advantage. Per deal: won (most deal points, alone) by the team of the seat that led it, by the
    # dealer's team. Per match: won by the team that led the first deal, by the first dealer's team.
    leader_deal_wins: int = 0
    dealer_deal_wins: int = 0
    tied_deals: int = 0  # no team alone on top
    first_leader_match_wins: int = 0
    first_dealer_match_wins: int = 0
    deal_length: Counter = field(default_factory=dict)  # plays per deal -> deals
    match_length: Counter = field(default_factory=dict)  # deals per match -> matches
    branching: Counter = field(default_factory=dict)  # legal moves at a turn -> turns
    decided_by_last_award: int = 0  # deals whose winner (or tie) the last award scored changed
    matches_decided_by_last_award: int = 0  # matches the last award of their last deal ended or turned
    lead_changes: Counter = field(default_factory=dict)  # per match: times the leader after a deal changed
    margins: Counter = field(default_factory=dict)  # per decided match: winner's total minus the runner-up's
    first_deal_leader_won: int = 0  # matches won by the team alone on top after the first deal
    first_deal_had_leader: int = 0  # matches with a team alone on top after the first deal
    interrupted: bool = False  # the run was stopped (Ctrl-C) before its end: these are the deals finished

    @classmethod
    def empty(cls, game: Game, seed: int) -> Summary:
        """A summary with no deal yet, its awards and bonuses listed in the variant's order."""
        variant = game.variant
        n = game.num_teams
        by_name = {b.name: ScoreStats("bonus") for b in variant.bonuses}
        for b in game.deal_rules.opening:
            by_name.setdefault(b.name, ScoreStats("bonus"))
        for a in variant.awards:
            by_name.setdefault(a.name, ScoreStats("award"))
        return cls(
            variant=variant.name,
            players=game.num_players,
            teams=[list(t) for t in game.players.teams],
            seed=seed,
            wins=[0] * n,
            points=[0] * n,
            points_squares=[0] * n,
            deal_points=[{} for _ in range(n)],
            by_name=by_name,
        )

    # -- accumulating --------------------------------------------------------------------------------------

    def merge(self, other: Summary) -> None:
        """Add another summary of the same game (another batch of matches) to this one."""
        for name in (
            "matches",
            "deals",
            "plays",
            "draws",
            "leader_deal_wins",
            "dealer_deal_wins",
            "tied_deals",
            "first_leader_match_wins",
            "first_dealer_match_wins",
            "decided_by_last_award",
            "matches_decided_by_last_award",
            "first_deal_leader_won",
            "first_deal_had_leader",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for t in range(len(self.wins)):
            self.wins[t] += other.wins[t]
            self.points[t] += other.points[t]
            self.points_squares[t] += other.points_squares[t]
            _merge_counter(self.deal_points[t], other.deal_points[t])
        for name, s in other.by_name.items():
            mine = self.by_name.setdefault(name, ScoreStats(s.kind))
            mine.points += s.points
            mine.scored_in += s.scored_in
            mine.squares += s.squares
        for counter in ("deal_length", "match_length", "branching", "lead_changes", "margins"):
            _merge_counter(getattr(self, counter), getattr(other, counter))
        self.interrupted = self.interrupted or other.interrupted

    def add_match(self, events: list[dict[str, Any]]) -> None:
        """Fold one match's record events into the statistics (for records read back; simulation is faster)."""
        self.matches += 1
        scored_in_deal: dict[str, int] = {}
        nonzero: set[str] = set()
        plays = 0
        for e in events:
            kind = e["event"]
            if kind == "play":
                self.plays += 1
                plays += 1
                for b in e["bonuses"]:
                    self._score(b["name"], "bonus", b["points"], scored_in_deal, nonzero)
            elif kind == "opening":
                self._score(e["name"], "bonus", e["points"], scored_in_deal, nonzero)
            elif kind == "deal_end":
                self.deals += 1
                _count(self.deal_length, plays)
                plays = 0
                for a in e["awards"]:
                    self._score(a["name"], "award", a["points"], scored_in_deal, nonzero)
                for t, p in enumerate(e["points"]):
                    self.points[t] += p
                    self.points_squares[t] += p * p
                    _count(self.deal_points[t], p)
                self._close_deal(scored_in_deal, nonzero)
            elif kind == "match_end":
                if e["winner"] is None:
                    self.draws += 1
                else:
                    self.wins[e["winner"]] += 1

    def _score(self, name: str, kind: str, points: int, in_deal: dict[str, int], nonzero: set[str]) -> None:
        if name not in self.by_name:
            self.by_name[name] = ScoreStats(kind)
        in_deal[name] = in_deal.get(name, 0) + points
        if points:
            nonzero.add(name)

    def _close_deal(self, in_deal: dict[str, int], nonzero: set[str]) -> None:
        by_name = self.by_name
        for name, p in in_deal.items():
            s = by_name[name]
            s.points += p
            s.squares += p * p
        for name in nonzero:
            by_name[name].scored_in += 1
        in_deal.clear()
        nonzero.clear()

    # -- reading ---------------------------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain data (what ``--json`` prints)."""
        n = max(self.matches, 1)
        deals = max(self.deals, 1)
        decided = self.matches - self.draws
        length_n, length_mean, length_sd = _moments(self.deal_length)
        _, match_mean, match_sd = _moments(self.match_length)
        _, branch_mean, branch_sd = _moments(self.branching)
        _, changes_mean, _ = _moments(self.lead_changes)
        _, margin_mean, margin_sd = _moments(self.margins)
        turns = sum(self.branching.values())
        seat_team = {seat: t for t, seats in enumerate(self.teams) for seat in seats}
        return {
            "variant": self.variant,
            "seed": self.seed,
            "players": self.players,
            "matches": self.matches,
            "deals": self.deals,
            "interrupted": self.interrupted,
            "plays_per_deal": self.plays / deals,
            "teams": [
                {
                    "team": t,
                    "seats": seats,
                    "wins": self.wins[t],
                    "win_rate": self.wins[t] / n,
                    "ci95": list(wilson(self.wins[t], self.matches)),
                    "points_per_deal": self.points[t] / deals,
                    "points_per_deal_ci95": list(_mean_ci(self.deals, self.points[t], self.points_squares[t])[1:]),
                    "deal_points": _keyed(self.deal_points[t]),
                }
                for t, seats in enumerate(self.teams)
            ],
            "seats": [
                {
                    "seat": seat,
                    "team": seat_team[seat],
                    "wins": self.wins[seat_team[seat]],
                    "win_rate": self.wins[seat_team[seat]] / n,
                    "ci95": list(wilson(self.wins[seat_team[seat]], self.matches)),
                }
                for seat in range(self.players)
            ],
            "draws": self.draws,
            "first_player": {
                "deals_won_by_leading_team": self.leader_deal_wins / deals,
                "deals_won_by_leading_team_ci95": list(wilson(self.leader_deal_wins, self.deals)),
                "deals_won_by_dealer_team": self.dealer_deal_wins / deals,
                "deals_won_by_dealer_team_ci95": list(wilson(self.dealer_deal_wins, self.deals)),
                "tied_deals": self.tied_deals / deals,
                "matches_won_by_first_leading_team": self.first_leader_match_wins / n,
                "matches_won_by_first_leading_team_ci95": list(wilson(self.first_leader_match_wins, self.matches)),
                "matches_won_by_first_dealer_team": self.first_dealer_match_wins / n,
                "matches_won_by_first_dealer_team_ci95": list(wilson(self.first_dealer_match_wins, self.matches)),
            },
            "scoring": [
                {
                    "name": name,
                    "kind": s.kind,
                    "points_per_deal": s.points / deals,
                    "points_per_deal_ci95": list(_mean_ci(self.deals, s.points, s.squares)[1:]),
                    "scored_in": s.scored_in / deals,
                    "scored_in_ci95": list(wilson(s.scored_in, self.deals)),
                }
                for name, s in self.by_name.items()
            ],
            "deal_length": {"mean": length_mean, "sd": length_sd, "counts": _keyed(self.deal_length)},
            "match_length": {"mean": match_mean, "sd": match_sd, "counts": _keyed(self.match_length)},
            "branching": {
                "mean": branch_mean,
                "sd": branch_sd,
                "forced": self.branching.get(1, 0) / max(turns, 1),
                "max": max(self.branching, default=0),
                "counts": _keyed(self.branching),
            },
            "decided_by_last_award": {
                "deals": self.decided_by_last_award / max(length_n, 1),
                "matches": self.matches_decided_by_last_award / n,
            },
            "match_flow": {
                "lead_changes_per_match": changes_mean,
                "lead_changes": _keyed(self.lead_changes),
                "final_margin_mean": margin_mean,
                "final_margin_sd": margin_sd,
                "final_margins": _keyed(self.margins),
                "first_deal_leader_wins": self.first_deal_leader_won / max(self.first_deal_had_leader, 1),
                "first_deal_leader_wins_ci95": list(wilson(self.first_deal_leader_won, self.first_deal_had_leader)),
                "decided_matches": decided,
            },
        }


def _keyed(counter: Counter) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter)}


class _Watcher:
    """Folds each deal into a summary as it ends (the state's ``observer``), and each match when it ends."""

    def __init__(self, summary: Summary, game: Game) -> None:
        self.summary = summary
        self.game = game
        self.team_of = game.players.team_of
        self.lead_offset = game.players.lead_offset
        self.leader: int | None = None
        self.changes = 0
        self.deals_in_match = 0
        self.first_deal_leader: int | None = None

    def new_match(self) -> None:
        self.leader = None
        self.changes = 0
        self.deals_in_match = 0
        self.first_deal_leader = None

    def __call__(self, state: State) -> None:
        s = self.summary
        team_of = self.team_of
        s.deals += 1
        self.deals_in_match += 1
        plays = len(state.plays)
        _count(s.deal_length, plays)
        # Per-name points of this deal; which names scored (a name scores when one of its entries is not 0).
        in_deal: dict[str, int] = {}
        nonzero: set[str] = set()
        last_award: tuple[int, int] | None = None  # (team, points) of the last award that scored
        for name, team, points in state.deal_scores:
            if name not in s.by_name:
                s.by_name[name] = ScoreStats("award" if team is None or points == 0 else "bonus")
            in_deal[name] = in_deal.get(name, 0) + points
            if points:
                nonzero.add(name)
                if s.by_name[name].kind == "award" and team is not None:
                    last_award = (team, points)
        s._close_deal(in_deal, nonzero)
        deal_points = state.deal_points
        for t, p in enumerate(deal_points):
            s.points[t] += p
            s.points_squares[t] += p * p
            _count(s.deal_points[t], p)
        top = _strict_leader(deal_points)
        if top is None:
            s.tied_deals += 1
        else:
            leader_seat = state.plays[0][0] if state.plays else (state.dealer + self.lead_offset) % len(team_of)
            if top == team_of[leader_seat]:
                s.leader_deal_wins += 1
            if top == team_of[state.dealer]:
                s.dealer_deal_wins += 1
        if last_award is not None:
            without = list(deal_points)
            without[last_award[0]] -= last_award[1]
            if _strict_leader(without) != top:
                s.decided_by_last_award += 1
        totals = state.totals
        leader = _strict_leader(totals)
        if self.deals_in_match == 1:
            self.first_deal_leader = leader
        if leader is not None:
            if self.leader is not None and leader != self.leader:
                self.changes += 1
            self.leader = leader
        ended_by_score = state.over and self.game.variant.match.winner(totals, state.deal_no) == (True, state.winner)
        if ended_by_score and last_award is not None:
            without = list(totals)
            without[last_award[0]] -= last_award[1]
            if self.game.variant.match.winner(without, state.deal_no) != (True, state.winner):
                s.matches_decided_by_last_award += 1

    def end_match(self, state: State, first_dealer: int, first_leader: int) -> None:
        s = self.summary
        s.matches += 1
        _count(s.match_length, self.deals_in_match)
        _count(s.lead_changes, self.changes)
        winner = state.winner
        if winner is None:
            s.draws += 1
        else:
            s.wins[winner] += 1
            totals = sorted(state.totals, reverse=True)
            _count(s.margins, totals[0] - totals[1] if len(totals) > 1 else totals[0])
            if winner == self.team_of[first_dealer]:
                s.first_dealer_match_wins += 1
            if winner == self.team_of[first_leader]:
                s.first_leader_match_wins += 1
        if self.first_deal_leader is not None:
            s.first_deal_had_leader += 1
            if winner == self.first_deal_leader:
                s.first_deal_leader_won += 1


def play_random_match(game: Game, seed: int, *, log: bool = True) -> list[dict[str, Any]]:
    """One match with every seat playing uniformly random legal moves; its record events."""
    state = game.new_match(seed, log=True)
    rng = random.Random(f"piglia/random-play/{seed}")
    while not state.over:
        moves = state.raw_moves()
        state.push_raw(moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0])
    assert state.events is not None
    return state.events


def _play_watched(game: Game, seed: int, watcher: _Watcher, record: IO[str] | None) -> None:
    """One random match folded into the watcher's summary; its record written if asked for."""
    state = game.new_match(seed, log=record is not None)
    state.observer = watcher
    watcher.new_match()
    first_dealer = state.dealer
    first_leader = state.to_move
    rng = random.Random(f"piglia/random-play/{seed}")
    randrange = rng.randrange
    branching = watcher.summary.branching
    raw_moves = state.raw_moves
    push_raw = state.push_raw
    plays = 0
    while not state.over:
        moves = raw_moves()
        n = len(moves)
        branching[n] = branching.get(n, 0) + 1
        push_raw(moves[randrange(n)] if n > 1 else moves[0])
        plays += 1
    watcher.summary.plays += plays
    watcher.end_match(state, first_dealer, first_leader)
    if record is not None:
        assert state.events is not None
        write_events(state.events, record)


# ---------------------------------------------------------------------------------------------------------------
# Batches: the unit of work of a worker process or a cluster task
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Matches ``start`` .. ``start + count - 1`` of a run: everything a worker needs, as plain picklable data."""

    rules: str  # the variant's resolved rules, as JSON (a worker rebuilds the variant from them)
    sha256: str
    players: int
    seed: int
    start: int
    count: int
    record: bool


@dataclass
class BatchResult:
    """What a batch gives back: its summary, the deals of each of its matches, its records if asked for."""

    start: int
    summary: Summary
    deals_per_match: list[int]
    record: str | None


_VARIANTS: dict[str, Variant] = {}


def _variant_of(batch: Batch) -> Variant:
    """The batch's variant, built once per worker process from its rules."""
    variant = _VARIANTS.get(batch.sha256)
    if variant is None:
        from piglia.build import VariantBuilder

        builder = VariantBuilder(json.loads(batch.rules), _NoReporter())
        built = builder.build(sha256=batch.sha256, source="<batch>")
        assert built is not None, builder.errors
        variant = _VARIANTS[batch.sha256] = built
    return variant


class _NoReporter:
    """Rules sent to a worker were checked when first loaded; a problem now is a bug, said as plainly as can be."""

    def at(self, path: Any, message: str, *, key: bool = False) -> Any:
        from piglia.errors import SpecError

        return SpecError(message, file="<batch>")

    def at_offset(self, path: Any, offset: int, message: str) -> Any:
        from piglia.errors import SpecError

        return SpecError(message, file="<batch>")

    def newest(self, *paths: Any) -> Any:
        return paths[0]


def run_batch(batch: Batch) -> BatchResult:
    """Play one batch of matches (in a worker process, a cluster task, or here)."""
    game = Game(_variant_of(batch), batch.players)
    summary = Summary.empty(game, batch.seed)
    watcher = _Watcher(summary, game)
    out = io.StringIO() if batch.record else None
    deals: list[int] = []
    for k in range(batch.start, batch.start + batch.count):
        before = summary.deals
        _play_watched(game, match_seed(batch.seed, k), watcher, out)
        deals.append(summary.deals - before)
    return BatchResult(batch.start, summary, deals, out.getvalue() if out is not None else None)


def _quiet_worker() -> None:
    # Ctrl-C goes to the whole process group: the parent stops the run; workers just finish their batch.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Pool(Protocol):
    def submit(self, batch: Batch) -> Any: ...

    def wait_any(self, pending: set[Any]) -> set[Any]: ...

    def close(self, *, cancel: bool) -> None: ...


class _ProcessPool:
    def __init__(self, workers: int) -> None:
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context(method), initializer=_quiet_worker
        )

    def submit(self, batch: Batch) -> Future[BatchResult]:
        return self.executor.submit(run_batch, batch)

    def wait_any(self, pending: set[Any]) -> set[Any]:
        done, _ = wait_futures(pending, return_when=FIRST_COMPLETED)
        return set(done)

    def close(self, *, cancel: bool) -> None:
        # Batches not started are dropped; those under way are short: wait for them, so no process outlives the run.
        self.executor.shutdown(wait=True, cancel_futures=cancel)


class _DaskPool:
    def __init__(self, address: str) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            from piglia.errors import PigliaError

            raise PigliaError("--cluster needs dask.distributed: pip install 'piglia[cluster]'") from None
        client: Any = Client  # untyped library
        try:
            self.client = client(address, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            from piglia.errors import PigliaError

            raise PigliaError(f"cannot reach a Dask scheduler at {address}: {exc}") from None

    def submit(self, batch: Batch) -> Any:
        return self.client.submit(run_batch, batch, pure=False)

    def wait_any(self, pending: set[Any]) -> set[Any]:
        from dask.distributed import wait

        waiter: Any = wait  # untyped library
        done, _ = waiter(list(pending), return_when="FIRST_COMPLETED")
        return set(done)

    def close(self, *, cancel: bool) -> None:
        closer: Any = self.client.close
        closer()


class _CtrlC:
    """While active (in the main thread), Ctrl-C asks the run to stop after the matches under way; twice, at once.

    Stopping between matches, not in the middle of one, keeps every counter of the summary consistent.
    """

    def __init__(self) -> None:
        self.pressed = False
        self._old: Any = None

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._press)
        return self

    def _press(self, signum: int, frame: FrameType | None) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def simulate(
    variant: Variant,
    *,
    deals: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    players: int | None = None,
    record: IO[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    cluster: str | None = None,
    batch_size: int | None = None,
) -> Summary:
    """Play whole matches of random play until ``matches`` are played or at least ``deals`` deals are.

    ``progress(deals_done, matches_done)`` is called as matches finish. Records are written to ``record`` one
    match after another, each starting with its header. ``workers`` processes share the work (``cluster``, a
    Dask scheduler address, sends it to a cluster instead); the result is the same for any number of them.
    ``batch_size`` is the number of matches a worker plays at a time (chosen from the run's size when not given; it
    changes nothing in the result). Ctrl-C stops the run after the matches under way: the summary of what finished
    comes back, marked ``interrupted``.
    """
    if deals is None and matches is None:
        matches = 1
    game = Game(variant, players)
    with _CtrlC() as ctrl_c:
        if workers <= 1 and cluster is None:
            return _simulate_here(game, deals, matches, seed, record, progress, ctrl_c)
        return _simulate_batches(game, deals, matches, seed, record, progress, workers, cluster, batch_size, ctrl_c)


def _simulate_batches(
    game: Game,
    deals: int | None,
    matches: int | None,
    seed: int,
    record: IO[str] | None,
    progress: Callable[[int, int], None] | None,
    workers: int,
    cluster: str | None,
    batch_size: int | None,
    ctrl_c: _CtrlC,
) -> Summary:
    variant = game.variant
    rules = json.dumps(dict(variant.rules))  # key order kept: it is the order of awards and bonuses
    estimate = matches if matches is not None else max((deals or 1) // 4, 1)
    size = batch_size or max(8, min(200, estimate // (max(workers, 2) * 4)))
    pool: _Pool = _DaskPool(cluster) if cluster is not None else _ProcessPool(workers)
    window = max(workers, 2) * 3 if cluster is None else 64

    def batch(start: int, count: int) -> Batch:
        return Batch(rules, variant.sha256, game.num_players, seed, start, count, record is not None)

    summary = Summary.empty(game, seed)
    pending: set[Any] = set()
    ready: dict[int, BatchResult] = {}  # finished batches not yet folded in, by first match
    next_start = 0  # the first match not yet handed out
    folded = 0  # matches 0 .. folded-1 are in the summary
    finished = False
    try:
        while not finished:
            if ctrl_c.pressed:
                raise KeyboardInterrupt
            while len(pending) + len(ready) < window and (matches is None or next_start < matches):
                count = size if matches is None else min(size, matches - next_start)
                pending.add(pool.submit(batch(next_start, count)))
                next_start += count
            for future in pool.wait_any(pending):
                pending.discard(future)
                result: BatchResult = future.result()
                ready[result.start] = result
            while folded in ready and not finished:
                result = ready.pop(folded)
                cut = _cut(result, summary.deals, deals)
                if cut < len(result.deals_per_match):
                    # The run ends inside this batch: play just its first matches again, here.
                    result = run_batch(batch(folded, cut))
                    finished = True
                summary.merge(result.summary)
                if record is not None and result.record:
                    record.write(result.record)
                folded += len(result.deals_per_match)
                if matches is not None and folded >= matches:
                    finished = True
                if deals is not None and summary.deals >= deals:
                    finished = True
                if progress is not None:
                    progress(summary.deals, summary.matches)
    except KeyboardInterrupt:
        # The statistics of what finished: folded batches and those done out of order (all whole matches).
        for result in ready.values():
            summary.merge(result.summary)
        summary.interrupted = True
        pool.close(cancel=True)
        return summary
    pool.close(cancel=True)
    return summary


def _cut(result: BatchResult, done: int, target: int | None) -> int:
    """How many of the batch's matches the run keeps: all, or up to the one that reaches ``target`` deals."""
    if target is None:
        return len(result.deals_per_match)
    for i, d in enumerate(result.deals_per_match):
        done += d
        if done >= target:
            return i + 1
    return len(result.deals_per_match)


def _simulate_here(
    game: Game,
    deals: int | None,
    matches: int | None,
    seed: int,
    record: IO[str] | None,
    progress: Callable[[int, int], None] | None,
    ctrl_c: _CtrlC,
) -> Summary:
    summary = Summary.empty(game, seed)
    watcher = _Watcher(summary, game)
    k = 0
    try:
        while (matches is None or summary.matches < matches) and (deals is None or summary.deals < deals):
            if ctrl_c.pressed:
                raise KeyboardInterrupt
            _play_watched(game, match_seed(seed, k), watcher, record)
            k += 1
            if progress is not None:
                progress(summary.deals, summary.matches)
    except KeyboardInterrupt:
        summary.interrupted = True
    return summary
