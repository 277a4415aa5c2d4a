"""Simulation: play many matches from one seed and accumulate the statistics a designer needs.

Match ``k`` of a run always gets the same sub-seed (:func:`match_seed`), so results depend only on the seed.
Statistics are accumulated as matches stream by; records are kept only when asked for.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from piglia.record import write_events
from piglia.state import Game
from piglia.variant import Variant

__all__ = ["Summary", "match_seed", "play_random_match", "simulate", "wilson"]


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


@dataclass
class Summary:
    """Statistics of a simulation, accumulated match by match."""

    variant: str
    players: int
    teams: list[list[int]]
    seed: int
    matches: int = 0
    deals: int = 0
    plays: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    points: list[int] = field(default_factory=list)  # per team, over all deals
    # per award or bonus name: [total points, deals in which it scored]
    by_name: dict[str, list[int]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # name -> "award" or "bonus"

    def add_match(self, events: list[dict[str, Any]]) -> None:
        """Fold one match's events into the statistics."""
        self.matches += 1
        scored_in_deal: set[str] = set()
        for e in events:
            kind = e["event"]
            if kind == "play":
                self.plays += 1
                for b in e["bonuses"]:
                    self._add(b["name"], "bonus", b["points"], scored_in_deal)
            elif kind == "opening":
                self._add(e["name"], "bonus", e["points"], scored_in_deal)
            elif kind == "deal_end":
                self.deals += 1
                for a in e["awards"]:
                    self._add(a["name"], "award", a["points"], scored_in_deal)
                for t, p in enumerate(e["points"]):
                    self.points[t] += p
                for name in scored_in_deal:
                    self.by_name[name][1] += 1
                scored_in_deal.clear()
            elif kind == "match_end":
                if e["winner"] is None:
                    self.draws += 1
                else:
                    self.wins[e["winner"]] += 1

    def _add(self, name: str, kind: str, points: int, scored: set[str]) -> None:
        entry = self.by_name.setdefault(name, [0, 0])
        self.kinds.setdefault(name, kind)
        entry[0] += points
        if points:
            scored.add(name)

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain data (what ``--json`` prints)."""
        n = max(self.matches, 1)
        deals = max(self.deals, 1)
        return {
            "variant": self.variant,
            "seed": self.seed,
            "players": self.players,
            "matches": self.matches,
            "deals": self.deals,
            "plays_per_deal": self.plays / deals,
            "teams": [
                {
                    "team": t,
                    "seats": seats,
                    "wins": self.wins[t],
                    "win_rate": self.wins[t] / n,
                    "ci95": list(wilson(self.wins[t], self.matches)),
                    "points_per_deal": self.points[t] / deals,
                }
                for t, seats in enumerate(self.teams)
            ],
            "draws": self.draws,
            "scoring": [
                {
                    "name": name,
                    "kind": self.kinds[name],
                    "points_per_deal": total / deals,
                    "scored_in": won / deals,
                }
                for name, (total, won) in self.by_name.items()
            ],
        }


def play_random_match(game: Game, seed: int, *, log: bool = True) -> list[dict[str, Any]]:
    """One match with every seat playing uniformly random legal moves; its record events."""
    state = game.new_match(seed, log=True)
    rng = random.Random(f"piglia/random-play/{seed}")
    while not state.over:
        moves = state.raw_moves()
        state.push_raw(moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0])
    assert state.events is not None
    return state.events


def simulate(
    variant: Variant,
    *,
    deals: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    players: int | None = None,
    record: IO[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play whole matches of random play until ``matches`` are played or at least ``deals`` deals are.

    ``progress(deals_done, matches_done)`` is called after each match. Records are written to ``record``
    one match after another, each starting with its header.
    """
    if deals is None and matches is None:
        matches = 1
    game = Game(variant, players)
    summary = Summary(
        variant=variant.name,
        players=game.num_players,
        teams=[list(t) for t in game.players.teams],
        seed=seed,
        wins=[0] * game.num_teams,
        points=[0] * game.num_teams,
    )
    k = 0
    while (matches is None or summary.matches < matches) and (deals is None or summary.deals < deals):
        events = play_random_match(game, match_seed(seed, k))
        k += 1
        summary.add_match(events)
        if record is not None:
            write_events(events, record)
        if progress is not None:
            progress(summary.deals, summary.matches)
    return summary
