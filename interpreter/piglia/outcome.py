"""How a match ended: who won and why (python-chess's ``Outcome``, for capture games).

>>> Outcome(winner=None, reason=Reason.DRAW, totals=(11, 11)).result()
'draw'
>>> Outcome(winner=1, reason=Reason.TARGET, totals=(7, 12)).result()
'team 1 wins (target)'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Outcome", "Reason"]


class Reason(enum.Enum):
    """Why a match ended."""

    TARGET = "target"  # a team reached the target score, alone on top (match.target)
    INSTANT_WIN = "instant_win"  # a team's pile met match.instant_win, at once
    DEALS = "deals"  # the number of deals was played (match.deals) and one team was ahead
    DRAW = "draw"  # the deals were played and the leaders were level
    DEAL_LIMIT = "deal limit"  # still undecided after match.max_deals deals: stopped, no winner


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: the winning team (``None`` for a draw), the reason, the final totals per team.

    ``detail`` is the variant's words for an instant win (``match.instant_win.reason``), else empty.
    """

    winner: int | None
    reason: Reason
    totals: tuple[int, ...]
    detail: str = ""

    def result(self) -> str:
        """The outcome in a few words."""
        if self.winner is None:
            return "stopped at the deal limit, no winner" if self.reason is Reason.DEAL_LIMIT else "draw"
        return f"team {self.winner} wins ({self.detail or self.reason.value})"

    def returns(self, team_of: Sequence[int]) -> list[float]:
        """Per seat (its team given by ``team_of``): 1 for a win, -1 for a loss, 0 for a draw."""
        if self.winner is None:
            return [0.0] * len(team_of)
        return [1.0 if t == self.winner else -1.0 for t in team_of]
