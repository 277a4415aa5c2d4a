"""Award forms: the registered ways points are given at the end of a deal.

``most`` (a majority, with tie-breaks and a tie rule), ``holder`` (whoever holds a card) and ``score`` (every
team scores an expression). An award is built once per variant from its spec; at the end of a deal it looks at
the teams' piles and says who scores what.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from piglia.contexts import AwardEnv

__all__ = ["AWARD_FORMS", "Award", "AwardInputs", "Entry", "register_award_form"]

Entry = tuple[int | None, int]  # (team, points); (None, 0) when nobody scores
Expr = Callable[[Any], Any]


@dataclass(frozen=True)
class AwardInputs:
    """What an award builder gets from the spec: the award's name and its compiled parts."""

    name: str
    points: Expr  # points for a winning team (AwardEnv -> int)
    eligible: Expr | None  # AwardEnv -> bool
    most: tuple[Expr, ...]  # for most: the values compared, in tie-break order
    tie: str  # for most: "none" or "each"
    tie_points: Expr | None
    holder: int  # for holder: the card index
    score: Expr | None  # for score: AwardEnv -> int


class Award(Protocol):
    """One end-of-deal award of a variant."""

    name: str

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        """Who scores what for this award, given every team's pile; ``[(None, 0)]`` when nobody does."""
        ...

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """Per team, the number the award compares or scores (a majority's count, a scored value), None for a
        team that cannot win it; None for an award that compares no numbers (whoever holds a card). Shown on
        score sheets: "cards 23-17"."""
        ...


AWARD_FORMS: dict[str, Callable[[AwardInputs], Award]] = {}


def register_award_form(key: str) -> Callable[[Callable[[AwardInputs], Award]], Any]:
    """Register a builder for awards written with this key (``most``, ``holder``, ``score``)."""

    def decorate(builder: Callable[[AwardInputs], Award]) -> Any:
        AWARD_FORMS[key] = builder
        return builder

    return decorate


NOBODY: list[Entry] = [(None, 0)]


@register_award_form("most")
class MostAward:
    """The team with the strictly highest value wins; later values break ties; a full tie follows ``tie``."""

    def __init__(self, inp: AwardInputs) -> None:
        self.name = inp.name
        self._inp = inp

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        inp = self._inp
        envs = [AwardEnv(pile, team, deal) for team, pile in enumerate(piles)]
        if inp.eligible is not None:
            envs = [env for env in envs if inp.eligible(env)]
        if not envs:
            return list(NOBODY)
        most = inp.most
        if len(most) == 1:
            (key,) = most
            scored = [((key(env),), env) for env in envs]
        else:
            scored = [(tuple(f(env) for f in most), env) for env in envs]
        best = max(key for key, _ in scored)
        leaders = [env for key, env in scored if key == best]
        if len(leaders) == 1:
            return [(leaders[0].team, int(inp.points(leaders[0])))]
        if inp.tie == "each":
            tie_points = inp.tie_points or inp.points
            return [(env.team, int(tie_points(env))) for env in leaders]
        return list(NOBODY)

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """The first value compared (the tie-breaks are not shown), per team; None where not eligible."""
        inp = self._inp
        out: list[int | None] = []
        for team, pile in enumerate(piles):
            env = AwardEnv(pile, team, deal)
            out.append(None if inp.eligible is not None and not inp.eligible(env) else int(inp.most[0](env)))
        return out


@register_award_form("holder")
class HolderAward:
    """The team whose pile holds the card wins."""

    def __init__(self, inp: AwardInputs) -> None:
        self.name = inp.name
        self._inp = inp

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        inp = self._inp
        for team, pile in enumerate(piles):
            if inp.holder in pile:
                env = AwardEnv(pile, team, deal)
                if inp.eligible is None or inp.eligible(env):
                    return [(team, int(inp.points(env)))]
        return list(NOBODY)

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """A card is held or not: no numbers to show."""
        return None


@register_award_form("score")
class ScoreAward:
    """Every (eligible) team scores the expression's value; nobody when all are zero."""

    def __init__(self, inp: AwardInputs) -> None:
        self.name = inp.name
        self._inp = inp

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        inp = self._inp
        assert inp.score is not None
        out: list[Entry] = []
        for team, pile in enumerate(piles):
            env = AwardEnv(pile, team, deal)
            if inp.eligible is not None and not inp.eligible(env):
                continue
            points = int(inp.score(env))
            if points:
                out.append((team, points))
        return out or list(NOBODY)

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """The expression's value per team; None where not eligible."""
        inp = self._inp
        assert inp.score is not None
        out: list[int | None] = []
        for team, pile in enumerate(piles):
            env = AwardEnv(pile, team, deal)
            out.append(None if inp.eligible is not None and not inp.eligible(env) else int(inp.score(env)))
        return out
