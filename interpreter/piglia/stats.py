"""Statistics of a simulation, folded deal by deal: wins, points per award and bonus, the shape of the game.

Every counter is an integer, so summaries of batches merge in any order into the very same summary; a run of a
million deals keeps only these counters in memory. :class:`Summary` is what ``piglia simulate`` prints and what
``--json`` writes; :class:`Watcher` folds a state's deals into it as they end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from piglia.events import DealEnd, Declare, MatchEnd, Opening, Play, RecordEvent, event_from_json
from piglia.outcome import Reason
from piglia.state import Game, State

__all__ = ["ScoreStats", "Summary", "Watcher", "wilson"]

Counter = dict[int, int]  # value -> how many times; JSON keys become strings


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
    stopped: int = 0  # of the draws: matches stopped undecided at the deal limit (match.max_deals)
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
        for d in variant.declarations.hands if variant.declarations is not None else ():
            by_name.setdefault(d.name, ScoreStats("bonus"))
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
            "stopped",
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

    def add_match(self, events: Sequence[RecordEvent | dict[str, Any]]) -> None:
        """Fold one match's record events into the statistics (for records read back; simulation is faster).

        The events are typed (:mod:`piglia.events`) or, as read from a record file, their JSON objects.
        """
        self.matches += 1
        scored_in_deal: dict[str, int] = {}
        nonzero: set[str] = set()
        plays = 0
        for item in events:
            e = item if isinstance(item, RecordEvent) else event_from_json(item)
            if isinstance(e, Play):
                self.plays += 1
                plays += 1
                for b in e.bonuses:
                    self._score(b["name"], "bonus", b["points"], scored_in_deal, nonzero)
            elif isinstance(e, (Opening, Declare)):  # a bonus on the opening table, a declared hand
                self._score(e.name, "bonus", e.points, scored_in_deal, nonzero)
            elif isinstance(e, DealEnd):
                self.deals += 1
                _count(self.deal_length, plays)
                plays = 0
                for a in e.awards:
                    self._score(a["name"], "award", a["points"], scored_in_deal, nonzero)
                for t, p in enumerate(e.points):
                    self.points[t] += p
                    self.points_squares[t] += p * p
                    _count(self.deal_points[t], p)
                self._close_deal(scored_in_deal, nonzero)
            elif isinstance(e, MatchEnd):
                if e.winner is None:
                    self.draws += 1
                    self.stopped += e.reason == "deal limit"
                else:
                    self.wins[e.winner] += 1

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
            "stopped_at_deal_limit": self.stopped,
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


class Watcher:
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
        """Start watching a new match (its deals are folded as they end)."""
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
        """Fold a finished match: its winner, length, and who dealt and led first."""
        s = self.summary
        s.matches += 1
        _count(s.match_length, self.deals_in_match)
        _count(s.lead_changes, self.changes)
        winner = state.winner
        if winner is None:
            s.draws += 1
            s.stopped += state.end_reason is not None and state.end_reason[0] is Reason.DEAL_LIMIT
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
