"""Table cards returned to the stock at the deal: the "replace" answer to an unwanted opening card.

A misdeal (``deal.redeal``) shuffles and deals the whole deal again. ``deal.replace`` is the other answer a rule
file may choose: each face-up opening table card that meets its condition goes under the stock (it becomes the
stock's last card) and the stock's next card is turned up in its place, again and again while the new card meets
the condition too. The ``deal`` event of the record lists the returned cards in order (``returned``).

```yaml
deal:
  replace:
    when: rank == J              # a card condition: sees card (bare: its attributes)
    reason: a jack cannot be the opening top card
```
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["replace_table"]


def replace_table(
    table: Sequence[int], stock: Sequence[int], unwanted: Sequence[bool]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(table, stock, returned) after sending every ``unwanted`` face-up card under the stock, in table order.

    A card is replaced by the stock's first card; the search stops for a place once the whole stock has gone
    round (every card left is unwanted: the last one stays).
    """
    out = list(table)
    pile = list(stock)
    returned: list[int] = []
    for i in range(len(out)):
        tries = 0
        while unwanted[out[i]] and pile and tries < len(pile):
            pile.append(out[i])
            returned.append(out[i])
            out[i] = pile.pop(0)
            tries += 1
    return tuple(out), tuple(pile), tuple(returned)
