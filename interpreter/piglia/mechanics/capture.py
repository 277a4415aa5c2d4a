"""Capture kinds: the registered ways a played card can take table cards.

A variant names its kinds and gives each a ``type`` from this registry (``match``, ``sum``, ``all``). Adding a
mechanic means registering one more builder here and one schema entry; no other kind changes.

Every kind is built once per variant. Its filters (``played``, ``cards``) are expressions, evaluated at build
time for every card of the deck into boolean tables, so finding captures during play is table lookups and,
for sums, a search pruned by the remaining total.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from piglia.cards import Deck

__all__ = ["CAPTURE_KINDS", "CaptureKind", "KindInputs", "register_capture_kind"]

Capture = tuple[int, ...]  # table card indexes taken, ascending


@dataclass(frozen=True)
class KindInputs:
    """What a kind builder gets from the spec: its options, the deck and its compiled filters."""

    name: str
    options: Mapping[str, Any]
    deck: Deck
    played_ok: tuple[bool, ...]  # per card: may this card be played with this kind?
    takes_ok: tuple[tuple[bool, ...], ...]  # [played][card]: may the played card take this table card?
    target: tuple[int, ...] | None  # per played card, for kinds with a target expression


class CaptureKind(Protocol):
    """One capture kind of a variant, ready to play."""

    name: str

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """Every capture this kind allows for ``played`` on ``table``, each once, in ascending order.

        The order is part of the contract: the engine lists legal moves in it without sorting again.
        """
        ...


CAPTURE_KINDS: dict[str, Callable[[KindInputs], CaptureKind]] = {}


def register_capture_kind(type_name: str) -> Callable[[Callable[[KindInputs], CaptureKind]], Any]:
    """Register a builder under a ``type`` name usable in rule files."""

    def decorate(builder: Callable[[KindInputs], CaptureKind]) -> Any:
        CAPTURE_KINDS[type_name] = builder
        return builder

    return decorate


@register_capture_kind("match")
class MatchKind:
    """Take one table card of the same value (``by: value``) or the same rank (``by: rank``)."""

    def __init__(self, inp: KindInputs) -> None:
        self.name = inp.name
        key = inp.deck.rank_of if inp.options.get("by", "value") == "rank" else inp.deck.value_of
        n = len(key)
        # Per played card, which table cards it can take (None: it cannot be played with this kind): the
        # key comparison and both filters folded into one lookup per table card.
        self._hits: tuple[tuple[bool, ...] | None, ...] = tuple(
            tuple(key[c] == key[p] and inp.takes_ok[p][c] for c in range(n)) if inp.played_ok[p] else None
            for p in range(n)
        )

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        hits = self._hits[played]
        if hits is None:
            return []
        found = [c for c in table if hits[c]]
        if len(found) > 1:
            found.sort()
        return [(c,) for c in found]


@register_capture_kind("sum")
class SumKind:
    """Take a group of table cards whose values add up to the target (the played card's value by default).

    With ``include_played`` the played card's own value counts towards the target (sum-to-15 games). The search
    visits cards by decreasing value and stops a branch as soon as the rest cannot reach the target, so it
    never lists the subsets of the table.
    """

    def __init__(self, inp: KindInputs) -> None:
        self.name = inp.name
        values = inp.deck.value_of
        self._values = values
        self._takes_ok = inp.takes_ok
        self._all_ok = tuple(all(row) for row in inp.takes_ok)  # no filter to apply for this played card
        self._bitset = all(v >= 0 for v in values)  # totals as bits of an int: values must not be negative
        include_played = bool(inp.options.get("include_played", False))
        self._min = int(inp.options.get("min_cards", 1))
        self._max = int(inp.options.get("max_cards", 10_000))
        target = inp.target if inp.target is not None else values
        # Per played card, the total the taken cards must reach (None: no capture of this kind).
        needs = (target[p] - (values[p] if include_played else 0) for p in range(len(values)))
        self._need: tuple[int | None, ...] = tuple(
            need if ok and need >= 0 else None for need, ok in zip(needs, inp.played_ok, strict=True)
        )
        # The search order (decreasing value, then index) as one integer key per card.
        order = sorted(range(len(values)), key=lambda c: (-values[c], c))
        position = [0] * len(values)
        for i, c in enumerate(order):
            position[c] = i
        self._order = tuple(position)

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        need = self._need[played]
        if need is None:
            return []
        ok = self._takes_ok[played]
        values = self._values
        if self._bitset:
            # Most tables have no group adding up to the need. Which totals some group of the table reaches is
            # one integer's bits, built in a few shifts: when the need is not among them, there is no search.
            reach = 1
            for c in table:
                if ok[c]:
                    reach |= reach << values[c]
            if not (reach >> need) & 1:
                return []
        cards = sorted(table if self._all_ok[played] else [c for c in table if ok[c]], key=self._order.__getitem__)
        if not cards:
            return [()] if need == 0 and self._min <= 0 else []
        vals = [values[c] for c in cards]
        if need > 0 and (vals[-1] > need or sum(vals) < need):
            return []  # no card is small enough, or all of them together are too few: what the search would find
        count = len(cards)
        suffix = [0] * (count + 1)
        for i in range(count - 1, -1, -1):
            suffix[i] = suffix[i + 1] + vals[i]
        found: list[Capture] = []
        chosen: list[int] = []
        lo, hi = self._min, self._max

        def search(start: int, remaining: int) -> None:
            if remaining == 0 and lo <= len(chosen):
                found.append(tuple(sorted(chosen)))
            if len(chosen) >= hi:
                return
            for j in range(start, count):
                v = vals[j]
                if v > remaining:
                    continue
                if suffix[j] < remaining:
                    break
                chosen.append(cards[j])
                search(j + 1, remaining - v)
                chosen.pop()

        search(0, need)
        found.sort()
        return found


@register_capture_kind("all")
class AllKind:
    """Take every table card (that the ``cards`` filter allows) at once."""

    def __init__(self, inp: KindInputs) -> None:
        self.name = inp.name
        self._played_ok = inp.played_ok
        self._takes_ok = inp.takes_ok

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        if not self._played_ok[played]:
            return []
        ok = self._takes_ok[played]
        taken = tuple(sorted(c for c in table if ok[c]))
        return [taken] if taken else []
