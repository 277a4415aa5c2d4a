"""Award forms: the registered ways points are given at the end of a deal (family ``award``).

An award says who wins it by exactly one form key: ``most`` (a majority, with tie-breaks and a tie rule),
``holder`` (whoever holds a card) or ``score`` (every team scores an expression), or the key of a form a plugin
registers. Every form shares ``points`` (unless it scores by itself) and ``eligible``; :func:`build_award`
checks and compiles those, the form class its own keys. At the end of a deal an award looks at the teams'
piles and says who scores what (:meth:`AwardForm.entries`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from piglia.contexts import AWARD_SCOPE, AwardEnv
from piglia.dsl import Compiled, T
from piglia.mechanics import guard as plugins
from piglia.mechanics.base import BuildContext, Mechanic, Page, Quantity, mechanics, quantity_fn, register_mechanic

if TYPE_CHECKING:
    from piglia.yamlpos import Path

__all__ = [
    "SHARED_PROPERTIES",
    "Award",
    "AwardForm",
    "Entry",
    "award_text",
    "build_award",
    "register_award_form",
]

Entry = tuple[int | None, int]  # (team, points); (None, 0) when nobody scores
Expr = Callable[[Any], Any]

POINTS_SCHEMA: Mapping[str, Any] = {
    "description": "Points: a whole number, or an expression (a string) computed when it scores.",
    "oneOf": [{"type": "integer"}, {"type": "string", "minLength": 1}],
}
# Keys every award form takes.
SHARED_PROPERTIES: Mapping[str, Any] = {
    "points": POINTS_SCHEMA,
    "eligible": {
        "type": "string",
        "minLength": 1,
        "description": "Only teams for which this holds can win (sees pile and team).",
    },
}


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


NOBODY: list[Entry] = [(None, 0)]


class AwardForm(Mechanic):
    """Base of an award form. A subclass compiles its own keys in ``__init__`` (through the build context)."""

    family = "award"
    takes_points: ClassVar[bool] = True  # False: the form's own value is what each team scores
    carries: bool = False  # True: the deal's end calls carry_entries (points carried over from tied deals)

    def __init__(
        self, b: BuildContext, name: str, spec: Mapping[str, Any], points: Quantity, eligible: Compiled | None
    ) -> None:
        self.name = name
        self.points = points
        self.points_fn = quantity_fn(points)
        self.eligible = eligible
        self.eligible_fn = eligible.fn if eligible is not None else None

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        """Who scores what (see :class:`Award`)."""
        raise NotImplementedError

    def carry_entries(self, piles: Sequence[tuple[int, ...]], deal: int, carried: int) -> tuple[list[Entry], int]:
        """Entries with points carried over from tied deals, and the points to carry on (forms that carry)."""
        return self.entries(piles, deal), 0

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """The numbers behind the award per team (see :class:`Award`); a form that compares none has None."""
        return None

    def phrase(self, page: Page) -> str:
        """The award in words, without its eligibility (:func:`award_text` adds it)."""
        return page.msg("award.other", name=page.name(self.name), spec=f"`{self.key}`")


def register_award_form(cls: type[AwardForm]) -> type[AwardForm]:
    """Register an award form (compatible name of :func:`~piglia.mechanics.register_mechanic`)."""
    return register_mechanic(cls)


def build_award(b: BuildContext, name: str, spec: Mapping[str, Any]) -> AwardForm:
    """Check and compile one award of ``awards``: which form, the shared keys, then the form's own."""
    path: Path = ("awards", name)
    registered = mechanics("award")
    forms = [k for k in registered if k in spec]
    if len(forms) != 1:
        if not forms:
            raise b.fail(path, f"an award needs one of {', '.join(registered)} to say who wins it")
        # at an inherited form if there is one (the file being checked did not write it: it needs null there)
        inherited = [(*path, f) for f in forms if b.newest((*path, f), path) == path]
        raise b.fail(inherited[-1] if inherited else path, f"an award takes only one of {', '.join(forms)}")
    cls = registered[forms[0]]
    assert issubclass(cls, AwardForm)
    if not cls.takes_points:
        if "points" in spec:
            raise b.fail((*path, "points"), f"a {cls.key} award's points are its {cls.key} expression; remove points")
    elif "points" not in spec:
        raise b.fail(path, "missing required key 'points' (how many points the award is worth)")
    for other, other_cls in registered.items():
        for key in other_cls.properties:
            if key in spec and key not in cls.properties and key not in SHARED_PROPERTIES:
                raise b.fail((*path, key), f"{key} applies only to a {other} award")
    points = b.quantity((*path, "points"), spec.get("points", 0), AWARD_SCOPE)
    eligible = b.compiled((*path, "eligible"), spec["eligible"], AWARD_SCOPE, T.BOOL) if "eligible" in spec else None
    spec = cls.with_defaults(spec)
    if not plugins.is_plugin(cls):  # Piglia's own forms run their own code, unwrapped
        return cls(b, name, spec, points, eligible)
    award = plugins.constructed("award", cls.key, cls, lambda: cls(b, name, spec, points, eligible))
    return plugins.check_award(award, AwardForm)  # a plugin's: its answers checked (mechanics/guard.py)


def award_text(award: Award, page: Page) -> str:
    """The rules-page line of one award: its form's phrasing, then who may win it."""
    if not isinstance(award, AwardForm):
        return page.msg("award.other", name=page.name(award.name), spec=f"`{award.name}`")
    text = award.phrase(page)
    if award.eligible is not None:
        text += " " + page.side_msg("award.eligible", cond=page.words.condition(award.eligible))
    return text


@register_mechanic
class MostAward(AwardForm):
    """The team with the strictly highest value wins; later values break ties; a full tie follows ``tie``."""

    key = "most"
    summary = "Majority: the team with the strictly highest value wins."
    properties: ClassVar[Mapping[str, Any]] = {
        "most": {
            "description": "Majority: the team with the strictly highest value wins; a list breaks ties in order. "
            "Sees pile and team.",
            "oneOf": [
                {"type": "string", "minLength": 1},
                {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
            ],
        },
        "tie": {
            "enum": ["none", "each", "carry"],
            "description": "On a tie for most: nobody scores (none, the default), every tied team scores (each), "
            "or nobody scores and the points carry over to the next deal's winner of this award (carry; and so "
            "on while ties repeat).",
        },
        "tie_points": {
            "type": "integer",
            "description": "Points each tied team scores when tie is each (default: points).",
        },
    }
    defaults: ClassVar[Mapping[str, Any]] = {"tie": "none"}
    messages = ("award.most.*", "award.tiebreak", "award.tie_each.*", "award.tie_none", "award.tie_carry")

    def __init__(
        self, b: BuildContext, name: str, spec: Mapping[str, Any], points: Quantity, eligible: Compiled | None
    ) -> None:
        super().__init__(b, name, spec, points, eligible)
        path: Path = ("awards", name, "most")
        listed = isinstance(spec["most"], list)
        items = spec["most"] if listed else [spec["most"]]
        paths = [(*path, i) for i in range(len(items))] if listed else [path]
        self.most = tuple(b.compiled(p, text, AWARD_SCOPE, T.INT) for p, text in zip(paths, items, strict=True))
        self.most_fns = tuple(c.fn for c in self.most)
        self.tie = str(spec["tie"])
        # Tied teams score tie_points, by default the award's points.
        self.tie_points: Quantity = int(spec["tie_points"]) if "tie_points" in spec else points
        self.tie_points_fn = quantity_fn(self.tie_points)
        self.carries = self.tie == "carry"
        if self.carries and not isinstance(points, int):
            raise b.fail(("awards", name, "points"), "an award with tie: carry needs a whole number of points")

    def carry_entries(self, piles: Sequence[tuple[int, ...]], deal: int, carried: int) -> tuple[list[Entry], int]:
        """``tie: carry``: the entries with ``carried`` points (from earlier tied deals) added to the winner's,
        and the points carried on to the next deal (``carried`` plus this award's points on a tie, else 0)."""
        entries = self.entries(piles, deal)
        if entries[0][0] is not None:
            return [(team, points + carried) for team, points in entries], 0
        envs = [AwardEnv(pile, team, deal) for team, pile in enumerate(piles)]
        if self.eligible_fn is not None:
            envs = [env for env in envs if self.eligible_fn(env)]
        # nobody won: a tie carries the points on; no eligible team at all keeps what was carried
        return entries, carried + (int(self.points_fn(None)) if len(envs) > 1 else 0)

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        envs = [AwardEnv(pile, team, deal) for team, pile in enumerate(piles)]
        if self.eligible_fn is not None:
            eligible = self.eligible_fn
            envs = [env for env in envs if eligible(env)]
        if not envs:
            return list(NOBODY)
        most = self.most_fns
        if len(most) == 1:  # one value compared (most awards): no key tuples to build
            (key,) = most
            values: list[Any] = [key(env) for env in envs]
        else:
            values = [tuple(f(env) for f in most) for env in envs]
        top = max(values)
        if values.count(top) == 1:
            leader = envs[values.index(top)]
            return [(leader.team, int(self.points_fn(leader)))]
        if self.tie == "each":
            tied = [env for env, v in zip(envs, values, strict=True) if v == top]
            return [(env.team, int(self.tie_points_fn(env))) for env in tied]
        return list(NOBODY)

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """The first value compared (the tie-breaks are not shown), per team; None where not eligible."""
        first = self.most_fns[0]
        out: list[int | None] = []
        for team, pile in enumerate(piles):
            env = AwardEnv(pile, team, deal)
            out.append(None if self.eligible_fn is not None and not self.eligible_fn(env) else int(first(env)))
        return out

    def phrase(self, page: Page) -> str:
        values = [page.words.number(c) for c in self.most]
        name, points = page.name(self.name), page.points(self.points)
        text = page.side_msg("award.most", name=name, points=points, value=values[0])
        for value in values[1:]:
            text += " " + page.msg("award.tiebreak", value=value)
        if self.tie == "each":
            text += " " + page.side_msg("award.tie_each", points=page.points(self.tie_points))
        elif self.carries:
            text += " " + page.msg("award.tie_carry")
        else:
            text += " " + page.msg("award.tie_none")
        return text


@register_mechanic
class HolderAward(AwardForm):
    """The team whose pile holds the card wins."""

    key = "holder"
    summary = "The team holding a card wins."
    properties: ClassVar[Mapping[str, Any]] = {
        "holder": {
            "type": "string",
            "minLength": 1,
            "description": "The team holding this card wins (a card: 7 of coins, or its id).",
        },
    }
    messages = ("award.holder.*",)

    def __init__(
        self, b: BuildContext, name: str, spec: Mapping[str, Any], points: Quantity, eligible: Compiled | None
    ) -> None:
        super().__init__(b, name, spec, points, eligible)
        self.card = b.compiled(("awards", name, "holder"), spec["holder"], {}, T.CARD)
        self.holder = int(self.card.fn(None))

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        for team, pile in enumerate(piles):
            if self.holder in pile:
                env = AwardEnv(pile, team, deal)
                if self.eligible_fn is None or self.eligible_fn(env):
                    return [(team, int(self.points_fn(env)))]
        return list(NOBODY)

    def phrase(self, page: Page) -> str:
        return page.side_msg(
            "award.holder",
            name=page.name(self.name),
            points=page.points(self.points),
            card=page.words.number(self.card),
        )


@register_mechanic
class ScoreAward(AwardForm):
    """Every (eligible) team scores the expression's value; nobody when all are zero."""

    key = "score"
    summary = "Every team scores an expression."
    takes_points = False
    properties: ClassVar[Mapping[str, Any]] = {
        "score": {
            "type": "string",
            "minLength": 1,
            "description": "Every team scores this expression's value (sees pile and team).",
        },
    }
    messages = ("award.score.*",)

    def __init__(
        self, b: BuildContext, name: str, spec: Mapping[str, Any], points: Quantity, eligible: Compiled | None
    ) -> None:
        super().__init__(b, name, spec, points, eligible)
        self.score = b.compiled(("awards", name, "score"), spec["score"], AWARD_SCOPE, T.INT)

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        score = self.score.fn
        out: list[Entry] = []
        for team, pile in enumerate(piles):
            env = AwardEnv(pile, team, deal)
            if self.eligible_fn is not None and not self.eligible_fn(env):
                continue
            points = int(score(env))
            if points:
                out.append((team, points))
        return out or list(NOBODY)

    def values(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[int | None] | None:
        """The expression's value per team; None where not eligible."""
        score = self.score.fn
        out: list[int | None] = []
        for team, pile in enumerate(piles):
            env = AwardEnv(pile, team, deal)
            out.append(None if self.eligible_fn is not None and not self.eligible_fn(env) else int(score(env)))
        return out

    def phrase(self, page: Page) -> str:
        return page.side_msg("award.score", name=page.name(self.name), value=page.words.number(self.score))
