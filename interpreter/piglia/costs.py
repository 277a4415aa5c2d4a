"""What a deal's expressions cost, estimated from the compiled rules before any card is dealt.

Every expression of the DSL carries its estimated steps (:attr:`piglia.dsl.Compiled.cost`, at most
:data:`~piglia.dsl.compiler.MAX_COST` each). That bounds one evaluation, not how many a deal makes: four hundred
bonuses, each within the limit and checked on every play, made a deal take minutes. :func:`check_deal_cost`
adds them up the way a deal runs them and refuses rules past :data:`DEAL_STEPS`, at the part that costs most.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from piglia.dsl import Compiled
from piglia.mechanics.awards import Award
from piglia.mechanics.capture import CaptureKind, KindMechanic
from piglia.variant import Variant

if TYPE_CHECKING:  # the YAML reader is not imported by a run whose rules were remembered
    from piglia.yamlpos import Path

    Fail = Callable[[Path, str], Exception]

__all__ = ["DEAL_STEPS", "award_steps", "check_deal_cost", "deal_costs", "kind_when", "kind_when_steps"]

# Most estimated steps a deal's expressions may take (a step is roughly 0.05 microseconds, and the estimates are
# pessimistic: about a second a deal at most). The built-in games' deals take under 25,000 (tests/test_costs.py).
DEAL_STEPS = 20_000_000


def award_steps(award: Award) -> int:
    """The estimated steps of scoring ``award`` for one team: its compiled expressions' estimates (whatever
    attributes its form keeps them in), and some for the form's own work."""
    steps = 10
    for kept in getattr(award, "__dict__", {}).values():
        for c in kept if isinstance(kept, tuple | list) else (kept,):  # a form may keep several (most: a, b)
            if isinstance(c, Compiled):
                steps += c.cost
    return steps


def kind_when(kind: CaptureKind) -> Compiled | None:
    """A capture kind's ``when`` (mechanics/conditions.py), if it has one."""
    when = kind.inputs.exprs.get("when") if isinstance(kind, KindMechanic) else None
    return when if isinstance(when, Compiled) else None


def kind_when_steps(variant: Variant) -> Iterator[tuple[str, int]]:
    """(kind name, estimated steps) of each capture kind's ``when``, asked once per hand card and turn."""
    for tier in variant.capture.tiers:
        for kind in tier:
            when = kind_when(kind)
            if when is not None:
                yield kind.name, when.cost


@dataclass(frozen=True)
class Cost:
    """One part of a deal's estimated steps: where the file wrote it, and its steps over a whole deal."""

    path: Path
    steps: int
    how: str  # how often a deal computes it, for the message


def deal_costs(variant: Variant, players: int) -> list[Cost]:
    """Each expression's estimated steps over one deal with ``players`` players, as the engine runs them: a
    bonus's condition and points on every play (at most one per card of the deck), a kind's ``when`` for every
    card of the hand to move on every play, an award for every team once."""
    rules = variant.deal_rules(players)
    plays = len(variant.deck)
    teams = len(variant.players(players).teams)
    out: list[Cost] = []
    for bonus in variant.bonuses:
        trigger = bonus.trigger
        if trigger is None:
            continue
        parts = (trigger.when, trigger.points)
        steps = sum(p.cost for p in parts if isinstance(p, Compiled)) + 1
        out.append(Cost(("bonuses", bonus.name), steps * plays, f"on each of up to {plays} plays"))
    for name, steps in kind_when_steps(variant):
        each = f"for each of the {rules.hand} cards of a hand on each of up to {plays} plays"
        out.append(Cost(("capture", "kinds", name, "when"), steps * rules.hand * plays, each))
    for award in variant.awards:
        out.append(Cost(("awards", award.name), award_steps(award) * teams, f"for each of the {teams} teams"))
    return out


def check_deal_cost(variant: Variant, fail: Fail) -> None:
    """Refuse rules whose expressions add up to more than :data:`DEAL_STEPS` estimated steps a deal, for any of
    their player counts; the error is placed at the costliest part, and names the others' share."""
    for players in variant.player_counts:
        costs = deal_costs(variant, players)
        total = sum(c.steps for c in costs)
        if total <= DEAL_STEPS:
            continue
        worst = max(costs, key=lambda c: c.steps)
        sections = {"bonuses": 0, "capture": 0, "awards": 0}
        for c in costs:
            sections[str(c.path[0])] += c.steps
        shares = ", ".join(f"{name} {steps:,}" for name, steps in sections.items() if steps)
        raise fail(
            worst.path,
            f"the rules' expressions would take about {total:,} steps a deal with {players} players, more than the "
            f"limit of {DEAL_STEPS:,} ({shares}); this one alone {worst.steps:,}, computed {worst.how}: "
            "make the conditions cheaper (fewer loops over the deck) or have fewer of them",
        )
