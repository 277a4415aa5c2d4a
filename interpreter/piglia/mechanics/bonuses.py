"""Bonus triggers: when a bonus is checked during play (family ``bonus``, chosen by ``on:``).

``on: capture`` (the default) checks a bonus on captures only; ``on: play`` on every play, placements included.
A trigger is built once per bonus with the bonus's compiled condition and points; the engine reads its
``on_play`` (which plays it is checked on) and the rules page its :meth:`BonusTrigger.phrase`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from piglia.contexts import BONUS_SCOPE
from piglia.dsl import Compiled, T
from piglia.mechanics import guard as plugins
from piglia.mechanics.base import BuildContext, Mechanic, Page, Quantity, mechanics, register_mechanic

if TYPE_CHECKING:
    from piglia.yamlpos import Path

__all__ = ["DEFAULT_TRIGGER", "BonusTrigger", "build_trigger"]

DEFAULT_TRIGGER = "capture"  # what a bonus without ``on:`` is checked on


class BonusTrigger(Mechanic):
    """Base of a bonus trigger: the bonus's compiled parts, which plays it is checked on, its words."""

    family = "bonus"
    on_play: ClassVar[bool] = False  # checked on placements too

    def __init__(self, name: str, when: Compiled, points: Quantity) -> None:
        self.name = name
        self.when = when
        self.points = points

    def phrase(self, page: Page) -> str:
        """The bonus in words."""
        return page.msg(
            f"bonus.{self.key}",
            name=page.name(self.name),
            points=page.points(self.points),
            cond=page.words.condition(self.when),
        )


def build_trigger(b: BuildContext, name: str, spec: Mapping[str, Any]) -> BonusTrigger:
    """Check and compile one bonus of ``bonuses``: its condition, its points, and its trigger."""
    path: Path = ("bonuses", name)
    when = b.compiled((*path, "when"), spec["when"], BONUS_SCOPE, T.BOOL)
    points = b.quantity((*path, "points"), spec["points"], BONUS_SCOPE)
    cls = mechanics("bonus")[spec.get("on", DEFAULT_TRIGGER)]
    assert issubclass(cls, BonusTrigger)
    if not plugins.is_plugin(cls):  # Piglia's own triggers, unwrapped
        return cls(name, when, points)
    trigger = plugins.constructed("bonus", cls.key, cls, lambda: cls(name, when, points))
    return plugins.check_trigger(trigger)  # a plugin's: checked (mechanics/guard.py)


@register_mechanic
class OnCapture(BonusTrigger):
    """Checked when a play captures."""

    key = "capture"
    summary = "Checked on captures only (the default)."
    messages = ("bonus.capture",)


@register_mechanic
class OnPlay(BonusTrigger):
    """Checked on every play, a card left on the table included."""

    key = "play"
    summary = "Checked on every play, placements included."
    on_play = True
    messages = ("bonus.play",)
