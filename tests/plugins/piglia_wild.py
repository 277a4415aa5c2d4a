"""An example mechanics plugin, outside the piglia package: a capture kind and an award form.

``wild``: the played card takes any one table card (``max_cards`` of them at most, one by default), whatever
its value. ``fewest``: the team for which an expression is strictly the lowest wins the points.

Piglia finds this module through the entry point group ``piglia.mechanics`` (see the ``.dist-info`` folder next
to it, which is what ``pip install`` of a package declaring the entry point would write). docs/extending.md
walks through it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from piglia.contexts import AWARD_SCOPE, AwardEnv
from piglia.dsl import Compiled, T
from piglia.mechanics import AwardForm, BuildContext, KindInputs, KindMechanic, Page, register_mechanic
from piglia.mechanics.awards import Entry
from piglia.mechanics.base import Quantity


@register_mechanic
class WildKind(KindMechanic):
    """Take any table cards, up to ``max_cards`` of them, whatever their values."""

    key = "wild"
    summary = "Take any table cards (one by default), whatever their values."
    properties: ClassVar[Mapping[str, Any]] = {
        "max_cards": {"type": "integer", "minimum": 1, "description": "Most table cards taken at once."},
    }
    defaults: ClassVar[Mapping[str, Any]] = {"max_cards": 1}
    messages = ("kind.wild",)
    texts: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "en": {"kind.wild": "any {n} table card(s), whatever their values."},
        "it": {"kind.wild": "{n} carte qualsiasi del tavolo, di qualunque valore."},
    }

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        self.max_cards = int(inp.options["max_cards"])

    def captures(self, played: int, table: Sequence[int]) -> list[tuple[int, ...]]:
        if not self.inputs.played_ok[played]:
            return []
        ok = self.inputs.takes_ok[played]
        cards = sorted(c for c in table if ok[c])
        found = [combo for k in range(1, self.max_cards + 1) for combo in itertools.combinations(cards, k)]
        return sorted(found)

    def phrase(self, page: Page) -> str:
        return page.msg("kind.wild", n=self.max_cards)


@register_mechanic
class FewestAward(AwardForm):
    """The team for which the expression is strictly the lowest wins; a tie gives nothing."""

    key = "fewest"
    summary = "The team with the strictly lowest value wins."
    properties: ClassVar[Mapping[str, Any]] = {
        "fewest": {"type": "string", "minLength": 1, "description": "The value compared (sees pile and team)."},
    }
    messages = ("award.fewest",)
    texts: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "en": {
            "award.fewest": "**{name}**: {points} to the {side} for whom {value} is the lowest; a tie gives nothing."
        },
        "it": {
            "award.fewest": "**{name}**: {points} al {side} per cui {value} è il più basso; un pareggio non dà nulla."
        },
    }

    def __init__(
        self, b: BuildContext, name: str, spec: Mapping[str, Any], points: Quantity, eligible: Compiled | None
    ) -> None:
        super().__init__(b, name, spec, points, eligible)
        self.fewest = b.compiled(("awards", name, "fewest"), spec["fewest"], AWARD_SCOPE, T.INT)

    def entries(self, piles: Sequence[tuple[int, ...]], deal: int) -> list[Entry]:
        envs = [AwardEnv(pile, team, deal) for team, pile in enumerate(piles)]
        scored = [(self.fewest.fn(env), env) for env in envs if self.eligible_fn is None or self.eligible_fn(env)]
        if not scored:
            return [(None, 0)]
        low = min(value for value, _ in scored)
        leaders = [env for value, env in scored if value == low]
        if len(leaders) != 1:
            return [(None, 0)]
        return [(leaders[0].team, int(self.points_fn(leaders[0])))]

    def phrase(self, page: Page) -> str:
        value = page.words.number(self.fewest)
        return page.msg(
            "award.fewest", name=self.name, points=page.points(self.points), side=page.side_word(), value=value
        )
