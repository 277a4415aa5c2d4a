"""Misere: the match end where every point is bad (family ``match``, key ``misere``).

``match: {misere: 11}`` plays deals until, after a deal, some side has 11 points or more; then the side with the
FEWEST points wins. When several sides share the lowest total, nobody has won yet: another deal is played (and
checked again after it). Players maximising their returns play to lose points (``returns`` say who won).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from piglia.mechanics.base import Page, register_mechanic
from piglia.mechanics.match import Decision, MatchEnd, MatchRules

__all__ = ["FewestWins"]


@register_mechanic
class FewestWins(MatchEnd):
    """Once a side reaches the limit, the side with the fewest points wins; a tie for the fewest plays on."""

    key = "misere"
    summary = "Misere: once a side reaches a number of points, the side with the fewest points wins."
    properties: ClassVar[Mapping[str, Any]] = {
        "misere": {
            "type": "integer",
            "minimum": 1,
            "description": "Play deals until a side has at least this many points (checked only after a deal); "
            "then the side with the fewest points wins; a tie for the fewest plays on.",
        }
    }
    messages = ("match.misere.*", "match.short_misere", "objective.misere.*")
    lower_is_better = True  # for players: every point is bad
    conflicts = ("target",)  # the highest total cannot win too: a file extending a target game writes target: null

    def after_deal(self, totals: Sequence[int], deals_played: int) -> Decision | None:
        if max(totals) < self.value:
            return None
        low = min(totals)
        lowest = [t for t, v in enumerate(totals) if v == low]
        return (True, lowest[0]) if len(lowest) == 1 else None

    def lines(self, page: Page, match: MatchRules) -> list[str]:
        return [page.side_msg("match.misere", target=self.value)]

    def short(self, page: Page) -> str:
        return page.msg("match.short_misere", target=self.value)

    def objective(self, page: Page) -> str:
        return page.side_msg("objective.misere", target=self.value)
