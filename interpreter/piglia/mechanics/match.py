"""Match ends: the registered ways a match can end (family ``match``, one key of the ``match`` block each).

``target`` (a team reaches a score, checked after a deal), ``deals`` (a number of deals is played) and
``instant_win`` (a team's pile meets a condition, checked whenever a pile grows). :class:`MatchRules` holds the
ends of a variant; after a deal the first end that decides says whether the match is over and who won
(:meth:`MatchRules.winner`).

Every match also has a deal limit (``max_deals``, default :data:`DEFAULT_MAX_DEALS`): a match still undecided
after that many deals stops with no winner and the reason :data:`DEAL_LIMIT_REASON`, so that rules under which
nobody can win (always tied, no progress) never play forever. :func:`check_progress` refuses at validation the
rules under which it is certain that no team can ever score.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from piglia.contexts import AWARD_SCOPE
from piglia.dsl import Compiled, T
from piglia.mechanics import guard as plugins
from piglia.mechanics.awards import AwardForm, MostAward, ScoreAward
from piglia.mechanics.base import BuildContext, Mechanic, Page, Quantity, mechanics, register_mechanic
from piglia.mechanics.bonuses import BonusTrigger

__all__ = [
    "DEAL_LIMIT_REASON",
    "DEFAULT_MAX_DEALS",
    "MAX_MATCH_NUMBER",
    "MatchEnd",
    "MatchRules",
    "build_match",
    "check_progress",
    "match_lines",
    "match_objective",
    "match_short",
]

Expr = Callable[[Any], Any]
Decision = tuple[bool, int | None]  # (is the match over, winning team or None for a draw)

# A match still undecided after this many deals stops (settable: match.max_deals). A real match of the family
# lasts a handful of deals (Scopa to 11: about 4; Cicera to 51: about 8); 1,000 is far beyond any of them and
# still stops a match that cannot end within a second or two of play.
DEFAULT_MAX_DEALS = 1000
# The largest target, number of deals or deal limit a rule file may give: beyond it a match could not be played
# to its end in any reasonable time (a deal scores at most a few dozen points).
MAX_MATCH_NUMBER = 1_000_000
DEAL_LIMIT_REASON = "deal limit"  # the match_end reason of a match stopped by max_deals


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
            "maximum": MAX_MATCH_NUMBER,
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
            "maximum": MAX_MATCH_NUMBER,
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


@register_mechanic
class DealLimit(MatchEnd):
    """A match still undecided after this many deals stops, with no winner (the safety net of every match)."""

    key = "max_deals"
    summary = "Stop a match that is still undecided after this many deals."
    sufficient = False
    properties: ClassVar[Mapping[str, Any]] = {
        "max_deals": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_MATCH_NUMBER,
            "description": "A match still undecided after this many deals stops with no winner (match_end reason "
            f"'{DEAL_LIMIT_REASON}'), so that rules under which nobody can win never play forever.",
        }
    }
    defaults: ClassVar[Mapping[str, Any]] = {"max_deals": DEFAULT_MAX_DEALS}
    messages = ("match.max_deals",)

    def __init__(self, b: BuildContext, value: Any) -> None:
        super().__init__(b, value)
        self.written = False  # set by build_match: the rules page states a limit the author chose

    def after_deal(self, totals: Sequence[int], deals_played: int) -> Decision | None:
        return (True, None) if deals_played >= self.value else None

    def lines(self, page: Page, match: MatchRules) -> list[str]:
        return [page.msg("match.max_deals", n=self.value)] if self.written else []


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

    max_deals: int = DEFAULT_MAX_DEALS

    @property
    def lower_is_better(self) -> bool:
        """Whether the side with fewer points wins (a misere end): players then play to lose points."""
        return any(end.lower_is_better for end in self.ends)

    def reached(self, totals: Sequence[int]) -> bool:
        """Whether the match ended because a side reached a score limit (not a number of deals)."""
        best = max(totals)
        limits = [end.value for end in self.ends if end.key in ("target", "misere")]
        return any(best >= limit for limit in limits)

    def decided_by(self, totals: Sequence[int], deals_played: int) -> tuple[Decision, MatchEnd | None]:
        """The decision after a deal and the end that made it (None: the match goes on)."""
        for end in self.ends:
            decided = end.after_deal(totals, deals_played)
            if decided is not None:
                return decided, end
        return (False, None), None

    def winner(self, totals: Sequence[int], deals_played: int) -> Decision:
        """(is the match over, winning team or None for a draw), checked after a deal (S0.2)."""
        return self.decided_by(totals, deals_played)[0]

    def stop_reason(self, totals: Sequence[int], deals_played: int) -> str:
        """:data:`DEAL_LIMIT_REASON` when the deal limit ends the match after this deal, else ``""``."""
        return DEAL_LIMIT_REASON if isinstance(self.decided_by(totals, deals_played)[1], DealLimit) else ""


def _end(b: BuildContext, cls: type[MatchEnd], value: Any) -> MatchEnd:
    """One match end built: Piglia's own as is, a plugin's checked (mechanics/guard.py)."""
    if not plugins.is_plugin(cls):
        return cls(b, value)
    return plugins.check_match_end(plugins.constructed("match", cls.key, cls, lambda: cls(b, value)))


def build_match(b: BuildContext, spec: Mapping[str, Any]) -> MatchRules:
    """The ``match`` block: one end per key written, in registration order (a target before a number of deals)."""
    registered = mechanics("match")
    # an end with a default value (the deal limit) is in every match, written or not
    full = {key: cls.defaults[key] for key, cls in registered.items() if key in cls.defaults} | dict(spec)
    ends = tuple(
        _end(b, cls, full[key]) for key, cls in registered.items() if key in full and issubclass(cls, MatchEnd)
    )
    by_key = {end.key: end for end in ends}
    limit = by_key.get("max_deals")
    if isinstance(limit, DealLimit):
        limit.written = "max_deals" in spec
        if spec.get("deals") is not None and spec["deals"] > limit.value:
            raise b.fail(
                b.newest(("match", "deals"), ("match", "max_deals")),
                f"{spec['deals']} deals is more than the deal limit (match.max_deals: {limit.value}): "
                "raise max_deals or play fewer deals",
            )
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
        max_deals=limit.value if isinstance(limit, DealLimit) else DEFAULT_MAX_DEALS,
    )


_UNKNOWN = object()


def _constant(q: Quantity | Compiled | None) -> Any:
    """The value of a quantity or expression that reads nothing (a number, ``"1"``, ``"false"``), else unknown."""
    if isinstance(q, int):
        return q
    if q is None or q.names:
        return _UNKNOWN
    try:
        return q.fn(None)
    except Exception:  # an expression that needs its scope after all: not known in advance
        return _UNKNOWN


def _source(points: Any, when: Any, equal: bool) -> tuple[bool, bool]:
    """(may score positive points, may score unequally): a source of points seen from its constant parts."""
    if when is False or (points is not _UNKNOWN and points <= 0 and not equal):
        return False, False
    positive = points is _UNKNOWN or points > 0
    return positive, not equal and points != 0


def check_progress(
    b: BuildContext,
    spec: Mapping[str, Any],
    awards: Sequence[Any],
    bonuses: Sequence[Any],
    openings: Mapping[str, Any],
    *,
    one_team: bool,
) -> None:
    """Refuse a target that certainly can never be reached, or never by one team alone.

    Only what is certain from the rules as written: an award or bonus whose points are a constant at most 0,
    whose condition or eligibility is the constant ``false``, or (for an ``each team scores`` award or a majority
    of a constant) that gives every team the same, cannot decide a match. A match with ``deals`` or an instant
    win can end anyway; anything less certain is left to the deal limit.
    """
    if spec.get("target") is None or spec.get("deals") is not None or spec.get("instant_win") is not None:
        return
    sources: list[tuple[bool, bool]] = []
    for award in awards:
        if not isinstance(award, AwardForm):
            sources.append((True, True))
            continue
        eligible = _constant(award.eligible)
        if isinstance(award, ScoreAward):
            sources.append(_source(_constant(award.score), eligible, equal=_constant(award.score) is not _UNKNOWN))
        elif isinstance(award, MostAward):
            same = all(_constant(c) is not _UNKNOWN for c in award.most)  # every team always tied
            if same and award.tie != "each":
                continue
            sources.append(_source(_constant(award.tie_points if same else award.points), eligible, equal=same))
        elif award.takes_points:
            sources.append(_source(_constant(award.points), eligible, equal=False))
        else:
            sources.append((True, True))
    for bonus in bonuses:
        trigger = bonus.trigger
        if not isinstance(trigger, BonusTrigger):
            sources.append((True, True))
            continue
        sources.append(_source(_constant(trigger.points), _constant(trigger.when), equal=False))
    for opening in openings.values():
        points = opening.get("points")
        sources.append(_source(points if isinstance(points, int) else _UNKNOWN, _UNKNOWN, equal=False))
    # at the user's own change: the target, else the awards or bonuses the file rewrote
    where = b.newest(("match", "target"), ("awards",), ("bonuses",))
    if not any(positive for positive, _ in sources):
        raise b.fail(
            where,
            f"no team can ever reach {spec['target']} points: no award or bonus can score a positive number of "
            "points (their points are 0 or less, or they can never be won)",
        )
    if not one_team and not any(edge for _, edge in sources):
        raise b.fail(
            where,
            "no team can ever get ahead of the others: every award and bonus that scores gives every team the "
            "same points, so the leaders stay tied forever",
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
