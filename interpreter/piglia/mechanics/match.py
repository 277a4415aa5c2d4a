"""Match ends: the registered ways a match can end (family ``match``, one key of the ``match`` block each).

``target`` (a team reaches a score, checked after a deal), ``deals`` (a number of deals is played) and
``instant_win`` (a team's pile meets a condition, checked whenever a pile grows). :class:`MatchRules` holds the
ends of a variant; after a deal the first end that decides says whether the match is over and who won
(:meth:`MatchRules.winner`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from piglia.contexts import AWARD_SCOPE
from piglia.dsl import Compiled, T
from piglia.mechanics.base import BuildContext, Mechanic, Page, mechanics, register_mechanic

__all__ = ["MatchEnd", "MatchRules", "build_match", "match_lines", "match_objective", "match_short"]

Expr = Callable[[Any], Any]
Decision = tuple[bool, int | None]  # (is the match over, winning team or None for a draw)


class MatchEnd(Mechanic):
    """Base of a match end, built from the value of its key in the ``match`` block."""

    family = "match"
    sufficient: ClassVar[bool] = True  # ends every match by itself (a variant needs at least one such end)
    lower_is_better: ClassVar[bool] = False  # the winner is the side with the fewest points (misere)
    conflicts: ClassVar[tuple[str, ...]] = ()  # match keys that cannot be written with this one

    def __init__(self, b: BuildContext, value: Any) -> None:
        self.value = value

    def after_deal(self, totals: Sequence[int], deals_played: int) -> Decision | None:
        """Whether this end decides the match after a deal (None: it does not, another end may)."""
        return None

    def lines(self, page: Page, match: MatchRules) -> list[str]:
        """Its rules-page bullets under "End of the match"."""
        return []

    def short(self, page: Page) -> str | None:
        """The match in a few words for the page's subtitle, if this end says it (else the target's or deals')."""
        return None

    def objective(self, page: Page) -> str | None:
        """The objective's line on how the match is won, if this end says it."""
        return None


def _leaders(totals: Sequence[int]) -> tuple[int, list[int]]:
    best = max(totals)
    return best, [t for t, v in enumerate(totals) if v == best]


@register_mechanic
class TargetEnd(MatchEnd):
    """A team with at least the target and more than every other team wins, checked after a deal (S0.2)."""

    key = "target"
    summary = "Play to a target score."
    properties: ClassVar[Mapping[str, Any]] = {
        "target": {
            "type": "integer",
            "minimum": 1,
            "description": "Play deals until a team has at least this many points and more than every other team "
            "(checked only after a deal; ties play on).",
        }
    }
    messages = ("match.target.*", "match.short_target", "objective.target.*")

    def after_deal(self, totals: Sequence[int], deals_played: int) -> Decision | None:
        best, leaders = _leaders(totals)
        return (True, leaders[0]) if best >= self.value and len(leaders) == 1 else None

    def lines(self, page: Page, match: MatchRules) -> list[str]:
        return [page.side_msg("match.target", target=self.value)]


@register_mechanic
class DealsEnd(MatchEnd):
    """After this many deals the highest total wins; equal totals draw."""

    key = "deals"
    summary = "Play a number of deals."
    properties: ClassVar[Mapping[str, Any]] = {
        "deals": {
            "type": "integer",
            "minimum": 1,
            "description": "Play this many deals; the highest total wins, equal totals draw.",
        }
    }
    messages = ("match.deals.one", "match.deals.other", "match.or_deals.one", "match.or_deals.other")

    def after_deal(self, totals: Sequence[int], deals_played: int) -> Decision | None:
        if deals_played < self.value:
            return None
        _, leaders = _leaders(totals)
        return True, leaders[0] if len(leaders) == 1 else None

    def lines(self, page: Page, match: MatchRules) -> list[str]:
        return [page.plural("match.or_deals" if match.target is not None else "match.deals", self.value)]


@register_mechanic
class InstantWin(MatchEnd):
    """A team whose pile meets the condition wins at once (checked whenever a pile grows)."""

    key = "instant_win"
    summary = "A team wins at once when its pile meets a condition."
    sufficient = False
    properties: ClassVar[Mapping[str, Any]] = {
        "instant_win": {
            "type": "object",
            "description": "A team wins the match at once when its pile meets this condition; checked whenever a "
            "pile grows (a capture, the leftover, an opening take).",
            "properties": {
                "when": {
                    "type": "string",
                    "minLength": 1,
                    "description": "A condition on one team's pile; sees pile, team and deal.",
                },
                "reason": {
                    "type": "string",
                    "description": "Words for the record (match_end reason) and the rules page.",
                },
            },
            "additionalProperties": False,
            "required": ["when"],
        }
    }
    defaults: ClassVar[Mapping[str, Any]] = {"reason": "instant win"}
    messages = ("match.instant_win.*", "deal.reason")

    def __init__(self, b: BuildContext, value: Any) -> None:
        super().__init__(b, value)
        spec = self.with_defaults(value)
        self.when: Compiled = b.compiled(("match", "instant_win", "when"), spec["when"], AWARD_SCOPE, T.BOOL)
        self.reason = str(spec["reason"])
        self.reason_written = "reason" in value  # the rules page quotes a reason only when the author wrote one

    def lines(self, page: Page, match: MatchRules) -> list[str]:
        text = page.side_msg("match.instant_win", cond=page.words.condition(self.when))
        if self.reason_written:
            text += " " + page.msg("deal.reason", reason=page.reason("instant_win", self.reason))
        return [text]


@dataclass(frozen=True)
class MatchRules:
    """When a match ends: the variant's match ends, in the order they are checked after a deal.

    ``target``, ``deals``, ``instant_win`` and ``instant_reason`` are what the engine reads of the built-in ends.
    """

    target: int | None
    deals: int | None
    instant_win: Expr | None = None  # AwardEnv -> bool: the team wins at once
    instant_reason: str = ""
    ends: tuple[MatchEnd, ...] = field(default=(), compare=False)

    @property
    def lower_is_better(self) -> bool:
        """Whether the side with fewer points wins (a misere end): players then play to lose points."""
        return any(end.lower_is_better for end in self.ends)

    def reached(self, totals: Sequence[int]) -> bool:
        """Whether the match ended because a side reached a score limit (not a number of deals)."""
        best = max(totals)
        limits = [end.value for end in self.ends if end.key in ("target", "misere")]
        return any(best >= limit for limit in limits)

    def winner(self, totals: Sequence[int], deals_played: int) -> Decision:
        """(is the match over, winning team or None for a draw), checked after a deal (S0.2)."""
        for end in self.ends:
            decided = end.after_deal(totals, deals_played)
            if decided is not None:
                return decided
        return False, None


def build_match(b: BuildContext, spec: Mapping[str, Any]) -> MatchRules:
    """The ``match`` block: one end per key written, in registration order (a target before a number of deals)."""
    ends = tuple(
        cls(b, spec[key]) for key, cls in mechanics("match").items() if key in spec and issubclass(cls, MatchEnd)
    )
    by_key = {end.key: end for end in ends}
    for end in ends:
        for other in end.conflicts:
            if other in spec:
                path = b.newest(("match", end.key), ("match", other))
                raise b.fail(
                    path, f"match.{end.key} and match.{other} say opposite things: write one of them", key=True
                )
    instant = by_key.get("instant_win")
    return MatchRules(
        target=spec.get("target"),
        deals=spec.get("deals"),
        instant_win=instant.when.fn if isinstance(instant, InstantWin) else None,
        instant_reason=instant.reason if isinstance(instant, InstantWin) else "instant win",
        ends=ends,
    )


def match_short(match: MatchRules, page: Page) -> str:
    """The match in a few words, for the page's subtitle: "match to 11"."""
    for end in match.ends:
        said = end.short(page)
        if said is not None:
            return said
    if match.target is not None and match.deals is not None:
        return page.msg("match.short_both", target=match.target, deals=match.deals)
    if match.target is not None:
        return page.msg("match.short_target", target=match.target)
    return page.plural("match.short_deals", match.deals or 1)


def match_objective(match: MatchRules, page: Page) -> str:
    """The objective's line on how the match is won."""
    for end in match.ends:
        said = end.objective(page)
        if said is not None:
            return said
    if match.target is not None:
        return page.side_msg("objective.target", target=match.target)
    return page.side_msg("objective.deals")


def match_lines(match: MatchRules, page: Page) -> list[str]:
    """Every end's bullets, in order."""
    return [line for end in match.ends for line in end.lines(page, match)]
