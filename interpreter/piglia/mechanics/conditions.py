"""A condition on the table for any capture kind: ``when``, checked before the kind looks for captures.

Any kind of ``capture.kinds`` may say when it is open, from the played card and the table as it lies before
the play (``played``, ``table``). A kind whose condition fails finds nothing, so the priority tiers go on to the
next tier; put the kind in a tier of its own, first, to make it the card's only capture when it is open:

.. code-block:: yaml

    capture:
      kinds:
        sweep: {type: all, played: rank == A, when: not any(c.rank == A for c in table)}
        match: {type: match}
      priority: [sweep, match]

Kinds without ``when`` are untouched: the engine's hot path calls their own ``captures`` as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from piglia.dsl import Compiled, T

if TYPE_CHECKING:
    from piglia.mechanics.capture import Capture, KindMechanic

__all__ = ["TABLE_SCOPE", "WHEN_PROPERTY", "TableEnv", "guard"]

TABLE_SCOPE: Mapping[str, T] = {"played": T.CARD, "table": T.CARDS}

WHEN_PROPERTY: Mapping[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "When this kind is open: a condition that sees played and table (the table before the play).",
}


@dataclass(slots=True)
class TableEnv:
    """The scope of a kind's ``when``: the played card and the table before the play."""

    played: int
    table: tuple[int, ...]


def guard(kind: KindMechanic, when: Compiled) -> None:
    """Make ``kind`` find captures only when ``when`` holds (its ``captures`` wrapped, in place)."""
    inner = kind.captures
    test = when.fn
    played_ok = kind.inputs.played_ok  # the cheap filter first: most played cards never reach the condition

    def captures(played: int, table: Sequence[int]) -> list[Capture]:
        if not played_ok[played] or not test(TableEnv(played, tuple(table))):
            return []
        return inner(played, table)

    kind.captures = captures  # type: ignore[method-assign]
