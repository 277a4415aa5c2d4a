"""Face-down table cards: dealt under the pile, hidden from every player, taken with the whole table.

``deal.face_down: N`` deals the first ``N`` of the ``deal.table`` opening cards face down. They lie under the
face-up cards (they are not part of ``state.table``: moves, views and the table expressions never see them) and
go, unseen, to whoever takes every face-up card of the table in one capture (a ``pile`` capture, or any capture
that clears the table); left at the end of the deal, they go with the leftover. A player's view shows only how
many there are (``SeatView.face_down``), and they stay among its ``unseen`` cards. The record holds complete
information: the ``deal`` event lists them (``face_down``), and the ``play`` that takes them lists them again.

```yaml
deal: {hand: 4, table: 4, face_down: 3, refill: true}   # three face down, the top one face up
```
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["split", "taken_with"]


def split(table: Sequence[int], face_down: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The opening table as dealt, split into (face-up cards, face-down cards): the first ``face_down`` dealt
    are face down."""
    return tuple(table[face_down:]), tuple(table[:face_down])


def taken_with(table: Sequence[int], captured: Sequence[int], face_down: Sequence[int]) -> tuple[int, ...]:
    """The face-down cards a capture of ``captured`` from the face-up ``table`` takes too: all of them when it
    takes every face-up card (the whole pile), else none."""
    if face_down and captured and len(captured) == len(table):
        return tuple(face_down)
    return ()
