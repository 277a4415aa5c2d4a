"""The ordered table: the table as a pile with a top card, and the capture kind that takes the whole pile.

The table is always kept in the order its cards arrived (the opening cards as dealt, then each card left on
it), so its last card is the pile's *top*. Expressions read that card as ``top`` (``-1``, "no card", when the
table is empty): a bonus condition sees the top card before the play, and a kind of ``type: pile`` decides with
``on_top`` whether the played card takes the pile. A ``pile`` capture takes every card on the table at once,
the face-down ones under it included (:mod:`piglia.mechanics.facedown`); an empty table is never taken.

```yaml
capture:
  kinds:
    pair: {type: pile, on_top: top.rank == played.rank}   # the same rank as the top card takes the pile
    jack: {type: pile, played: rank == J}                 # a jack takes any pile that is not empty
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from piglia.contexts import PileEnv
from piglia.dsl import Compiled, T
from piglia.errors import PigliaError
from piglia.mechanics.base import Page, register_mechanic
from piglia.mechanics.capture import Capture, KindInputs, KindMechanic, KindOptionError

__all__ = ["TOP_SCOPE", "PileKind", "top_of"]

# What ``on_top`` sees: the played card and the pile's top card.
TOP_SCOPE: Mapping[str, T] = {"played": T.CARD, "top": T.CARD}


def top_of(table: Sequence[int]) -> int:
    """The top card of an ordered table (the last card that arrived), or -1 when it is empty."""
    return table[-1] if table else -1


@register_mechanic
class PileKind(KindMechanic):
    """Take the whole pile (every table card) when the played card may (``played``) and the top card allows it
    (``on_top``); the table must not be empty."""

    key = "pile"
    summary = "Take the whole table (a pile with a top card) when the top card allows it; never an empty table."
    properties: ClassVar[Mapping[str, Any]] = {
        "on_top": {
            "type": "string",
            "minLength": 1,
            "description": "A condition on the pile's top card: sees played and top (default: any top card).",
        },
    }
    conditions: ClassVar[Mapping[str, Mapping[str, T]]] = {"on_top": TOP_SCOPE}
    reads_top: ClassVar[bool] = True  # the order of the table matters (an observation encodes its top card)
    messages = ("kind.pile", "kind.pile_on_top")

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        n = len(inp.deck)
        compiled = inp.exprs.get("on_top")
        self.on_top: Compiled | None = compiled if isinstance(compiled, Compiled) else None
        # [played][top]: may the played card take a pile with this top card? (None: not with this kind)
        on_top = self.on_top
        try:
            self._ok: tuple[tuple[bool, ...] | None, ...] = tuple(
                tuple(on_top is None or bool(on_top.fn(PileEnv(p, t))) for t in range(n)) if inp.played_ok[p] else None
                for p in range(n)
            )
        except PigliaError as exc:  # a limit met on some pair of cards: the file's mistake, at on_top
            raise KindOptionError("on_top", f"cannot be evaluated on every played and top card: {exc}") from None
        self._takes_ok = inp.takes_ok
        # per played card: may it take any card (no ``cards`` filter stops it)? Then the pile is not read card
        # by card (a pile grows large, and this is asked for every card of every hand)
        self._takes_any = tuple(all(row) for row in inp.takes_ok)

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        ok = self._ok[played]
        if ok is None or not table or not ok[table[-1]]:
            return []
        if not self._takes_any[played]:
            takes = self._takes_ok[played]
            if not all(takes[c] for c in table):
                return []  # a ``cards`` filter: the pile is taken whole or not at all
        return [tuple(sorted(table))]

    def singles(self, played: int) -> tuple[int | None, int]:
        # a card the kind may not play takes nothing with it; the others take the whole pile, never one card of
        # it on every table
        return (None, 0) if self._ok[played] is not None else (0, 0)

    def phrase(self, page: Page) -> str:
        if self.on_top is None:
            return page.msg("kind.pile")
        return page.msg("kind.pile_on_top", cond=page.words.condition(self.on_top))
