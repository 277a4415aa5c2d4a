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

from piglia.events import Deal, DealEnd, Declare, MatchEnd, Opening, Play, RecordEvent, event_from_json
from piglia.outcome import Reason
from piglia.state import Game, State

__all__ = ["ScoreStats", "Summary", "Watcher", "merge_counter", "wilson"]

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


def merge_counter(into: Counter, other: Counter) -> None:
    """Add ``other``'s counts to ``into``."""
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


def _mean_ci(n: int, total: int, squares: int) -> tuple[float, float | None, float | None]:
    """Mean and its normal 95% interval from a count, a sum and a sum of squares; no interval (None, None)
    from fewer than two values: one value tells nothing of the spread (it read as an interval of width 0)."""
    if n == 0:
        return 0.0, None, None
    mean = total / n
    if n < 2:
        return mean, None, None
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _strict_leader(points: Iterable[int], lower_is_better: bool = False) -> int | None:
    """The side alone in the lead (the most points, or the fewest where fewest wins), or None on a tie."""
    values = list(points)
    best = min(values) if lower_is_better else max(values)
    return values.index(best) if values.count(best) == 1 else None


def _margin(totals: Sequence[int], winner: int, lower_is_better: bool) -> int:
    """How far the winner finished ahead of the best of the others, in the variant's sense (negative when an
    instant win came from behind); with one side, its total."""
    others = [t for i, t in enumerate(totals) if i != winner]
    if not others:
        return totals[winner]
    return min(others) - totals[winner] if lower_is_better else totals[winner] - max(others)


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
            merge_counter(self.deal_points[t], other.deal_points[t])
        for name, s in other.by_name.items():
            mine = self.by_name.setdefault(name, ScoreStats(s.kind))
            mine.points += s.points
            mine.scored_in += s.scored_in
            mine.squares += s.squares
        for counter in ("deal_length", "match_length", "branching", "lead_changes", "margins"):
            merge_counter(getattr(self, counter), getattr(other, counter))
        self.interrupted = self.interrupted or other.interrupted

    def add_match(self, events: Sequence[RecordEvent | dict[str, Any]]) -> None:
        """Fold one match's record events into the statistics (for records read back; simulation is faster).

        The events are typed (:mod:`piglia.events`) or, as read from a record file, their JSON objects.
        """
        self.matches += 1
        team_of = {seat: t for t, seats in enumerate(self.teams) for seat in seats}
        scored_in_deal: dict[str, int] = {}
        nonzero: set[str] = set()
        plays = 0
        open_deal = False  # a deal dealt and not closed: an instant win cuts it short, with no deal_end
        so_far = [0] * len(self.teams)  # its points so far (a cut deal's points are its bonuses')
        for item in events:
            e = item if isinstance(item, RecordEvent) else event_from_json(item)
            if isinstance(e, Play):
                self.plays += 1
                plays += 1
                for b in e.bonuses:
                    self._score(b["name"], "bonus", b["points"], scored_in_deal, nonzero)
                    so_far[team_of[e.player]] += b["points"]
            elif isinstance(e, (Opening, Declare)):  # a bonus on the opening table, a declared hand
                self._score(e.name, "bonus", e.points, scored_in_deal, nonzero)
                so_far[team_of[e.player]] += e.points
            elif isinstance(e, Deal):
                open_deal = True
                so_far = [0] * len(self.teams)
            elif isinstance(e, DealEnd):
                open_deal = False
                for a in e.awards:
                    self._score(a["name"], "award", a["points"], scored_in_deal, nonzero)
                self._add_deal(plays, e.points, scored_in_deal, nonzero)
                plays = 0
            elif isinstance(e, MatchEnd):
                if open_deal:  # cut short by an instant win: a deal all the same, as the simulation counts it
                    self._add_deal(plays, so_far, scored_in_deal, nonzero)
                if e.winner is None:
                    self.draws += 1
                    self.stopped += e.reason == "deal limit"
                else:
                    self.wins[e.winner] += 1

    def _add_deal(self, plays: int, points: Sequence[int], in_deal: dict[str, int], nonzero: set[str]) -> None:
        self.deals += 1
        _count(self.deal_length, plays)
        for t, p in enumerate(points):
            self.points[t] += p
            self.points_squares[t] += p * p
            _count(self.deal_points[t], p)
        self._close_deal(in_deal, nonzero)

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


# What the statistics read of a deal as it ends, kept until its match ends (see Watcher): the deal's plays, its
# scores (state.deal_scores), its points per team, its dealer, the match's totals after it, its number, and why the
# match ended with it (None when it went on). A plain tuple, made in C: one is made every deal.
_DealSeen = tuple[list[Any], list[tuple[str, int | None, int]], list[int], int, tuple[int, ...], int, Any]


class Watcher:
    """Folds each deal into a summary (the state's ``observer``), and each match when it ends.

    A deal is noted as it ends and folded when its match ends: a run stopped (Ctrl-C, a signal, a record that
    cannot be written) in the midst of a match gives the summary of the whole matches before it, which the
    deals of the cut match would otherwise have skewed (its deals counted, its plays and its end not).
    """

    def __init__(self, summary: Summary, game: Game) -> None:
        self.summary = summary
        self.game = game
        self.team_of = game.players.team_of
        self.lead_offset = game.players.lead_offset
        self.lower_is_better = game.variant.match.lower_is_better
        self.seen: list[_DealSeen] = []  # the deals of the match under way

    def new_match(self) -> None:
        """Start watching a new match (a match left unfinished is dropped)."""
        self.seen = []

    def __call__(self, state: State) -> None:
        # The deal's own lists are kept as they are, not copied: the next deal starts new ones (dealflow.start_deal)
        self.seen.append(
            (
                state.plays,
                state.deal_scores,
                state.deal_points,
                state.dealer,
                tuple(state.totals),
                state.deal_no,
                state.end_reason[0] if state.over and state.end_reason is not None else None,
            )
        )

    def _fold_deal(self, deal: _DealSeen, winner: int | None) -> int | None:
        """Fold one deal of a finished match; the side alone in the lead of the match after it."""
        s = self.summary
        team_of = self.team_of
        lower = self.lower_is_better
        plays, scores, deal_points, dealer, totals, deal_no, reason = deal
        # Per-name points of this deal; which names scored (a name scores when one of its entries is not 0).
        in_deal: dict[str, int] = {}
        nonzero: set[str] = set()
        last_award: tuple[int, int] | None = None  # (team, points) of the last award that scored
        for name, team, points in scores:
            if name not in s.by_name:
                s.by_name[name] = ScoreStats("award" if team is None or points == 0 else "bonus")
            in_deal[name] = in_deal.get(name, 0) + points
            if points:
                nonzero.add(name)
                if s.by_name[name].kind == "award" and team is not None:
                    last_award = (team, points)
        s._add_deal(len(plays), deal_points, in_deal, nonzero)
        top = _strict_leader(deal_points, lower)
        if top is None:
            s.tied_deals += 1
        else:
            leader_seat = plays[0][0] if plays else (dealer + self.lead_offset) % len(team_of)
            if top == team_of[leader_seat]:
                s.leader_deal_wins += 1
            if top == team_of[dealer]:
                s.dealer_deal_wins += 1
        if last_award is not None:
            without = list(deal_points)
            without[last_award[0]] -= last_award[1]
            if _strict_leader(without, lower) != top:
                s.decided_by_last_award += 1
        # The match ended by its totals with this deal (an instant win ends it whatever the totals say)
        if last_award is not None and reason is not None and reason is not Reason.INSTANT_WIN:
            match = self.game.variant.match
            if match.winner(totals, deal_no) == (True, winner):
                without = list(totals)
                without[last_award[0]] -= last_award[1]
                if match.winner(without, deal_no) != (True, winner):
                    s.matches_decided_by_last_award += 1
        return _strict_leader(totals, lower)

    def end_match(self, state: State, first_dealer: int, first_leader: int) -> None:
        """Fold a finished match: its deals, its winner, length, and who dealt and led first."""
        s = self.summary
        winner = state.winner
        leader: int | None = None
        changes = 0
        first_deal_leader: int | None = None
        for i, deal in enumerate(self.seen):
            now = self._fold_deal(deal, winner)
            if i == 0:
                first_deal_leader = now
            if now is not None:
                if leader is not None and now != leader:
                    changes += 1
                leader = now
        s.matches += 1
        _count(s.match_length, len(self.seen))
        _count(s.lead_changes, changes)
        self.seen = []
        if winner is None:
            s.draws += 1
            s.stopped += state.end_reason is not None and state.end_reason[0] is Reason.DEAL_LIMIT
        else:
            s.wins[winner] += 1
            _count(s.margins, _margin(state.totals, winner, self.lower_is_better))
            if winner == self.team_of[first_dealer]:
                s.first_dealer_match_wins += 1
            if winner == self.team_of[first_leader]:
                s.first_leader_match_wins += 1
        if first_deal_leader is not None:
            s.first_deal_had_leader += 1
            if winner == first_deal_leader:
                s.first_deal_leader_won += 1
