"""Capture searches built from a variant's priority tiers of kinds: one function per tier that lists the
captures of a played card on a table (merging a tier's kinds), per played card where one kind of a tier says it
alone gives the tier's captures, and per tier as bit masks, which random play counts without building them.

:class:`~piglia.capture_rules.CaptureRules` builds these once per variant; the capture table
(:mod:`piglia.capture_table`) falls back to them where its memo has no answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TypeVar

from piglia.mechanics.capture import Capture, CaptureKind, KindMechanic

__all__ = ["Masks", "finder_by_card", "first_per_class", "own_hook", "plain_search", "tier_counter", "tier_finder"]

# (played, table) -> its captures as bit masks over the deck, each once, in any collection (KindMechanic.masks)
Masks = Callable[[int, Sequence[int]], Collection[int]]
_Found = TypeVar("_Found", list[Capture], Collection[int])  # what a search answers per card


def own_hook(kind: KindMechanic, hook: str) -> bool:
    """Whether a kind's optional speed hook (``signatures``, ``masks``) is given by the class that also defines
    its ``captures`` (a subclass that searches otherwise and says nothing gets the plain search)."""
    mro = type(kind).__mro__
    searcher = next(c for c in mro if "captures" in c.__dict__)
    return next((c for c in mro if hook in c.__dict__), None) is searcher


def first_per_class(
    hand: Sequence[int],
    table: Sequence[int],
    searches: Sequence[Callable[[int, Sequence[int]], _Found]],
    played_class: Sequence[int] | None,
) -> list[_Found]:
    """For each card of ``hand``, the first non-empty answer of ``searches`` (one per priority tier) on ``table``,
    else the last tier's empty one. Cards of one played class (``played_class``; None: every card its own) are
    searched once and share the answer. The innermost loop of a simulation: the searches are called here, not
    through another call."""
    seen: dict[int, _Found] = {}
    get = seen.get
    out: list[_Found] = []
    if played_class is not None and len(searches) == 1:  # one tier, cards in classes: the commonest case, lean
        (search,) = searches
        for card in hand:
            pc = played_class[card]
            found = get(pc)
            if found is None:
                found = seen[pc] = search(card, table)
            out.append(found)
        return out
    for card in hand:
        pc = card if played_class is None else played_class[card]
        found = get(pc)
        if found is None:
            for search in searches:
                found = search(card, table)
                if found:
                    break
            assert found is not None  # a variant has one tier at least
            seen[pc] = found
        out.append(found)
    return out


def plain_search(tiers: tuple[tuple[CaptureKind, ...], ...]) -> Callable[[int, Sequence[int]], list[Capture]]:
    """The plain search over ``tiers`` as a function of (played, table)."""
    finders = tuple(tier_finder(tier) for tier in tiers)

    def search(played: int, table: Sequence[int]) -> list[Capture]:
        for find in finders:
            caps = find(played, table)
            if caps:
                return caps
        return []

    return search


def _masks_of(kind: CaptureKind) -> Masks | None:
    """A kind's ``masks``, when they speak for its captures (:func:`own_hook`) and no ``when`` wraps them (the
    masks would skip the condition)."""
    if not isinstance(kind, KindMechanic) or "captures" in vars(kind):
        return None
    return kind.masks if own_hook(kind, "masks") else None


def _says_singles(kind: CaptureKind) -> bool:
    """Whether a kind's ``singles`` speak for its captures: given by the class that defines its ``captures``
    (:func:`own_hook`), and no ``when`` wraps them (they would skip the condition)."""
    return isinstance(kind, KindMechanic) and "captures" not in vars(kind) and own_hook(kind, "singles")


def _alone(tier: tuple[CaptureKind, ...]) -> list[int] | None:
    """For a tier of two kinds, per played card: 2 when the first kind's captures are all among the second's on
    every table (the second alone gives the tier's captures), 1 the other way round, 0 when both must be asked;
    None when a kind does not say (:meth:`~piglia.mechanics.capture.KindMechanic.singles`)."""
    first, second = tier
    if not (_says_singles(first) and _says_singles(second)):
        return None
    assert isinstance(first, KindMechanic) and isinstance(second, KindMechanic)
    out = []
    for played in range(len(first.inputs.deck)):
        exact_a, within_a = first.singles(played)
        exact_b, within_b = second.singles(played)
        if exact_a is not None and not exact_a & ~within_b:
            out.append(2)
        elif exact_b is not None and not exact_b & ~within_a:
            out.append(1)
        else:
            out.append(0)
    return out if any(out) else None


def tier_counter(tier: tuple[CaptureKind, ...]) -> Masks | None:
    """A tier's captures as bit masks (a capture of two kinds is one mask: counted once), or None when some kind
    does not give them."""
    found = [_masks_of(kind) for kind in tier]
    if any(f is None for f in found):
        return None
    masks = [f for f in found if f is not None]
    if len(masks) == 1:
        return masks[0]
    if len(masks) == 2:  # the common free tier (a match kind and a sum kind): no loop over the kinds
        first, second = masks
        return _merged2(tier, first, second, lambda a, b: {*a, *b})  # a capture of both kinds is one mask

    def merged(played: int, table: Sequence[int]) -> Collection[int]:
        out: Collection[int] = ()
        for f in masks:
            m = f(played, table)
            if m:
                out = {*out, *m} if out else m
        return out

    return merged


def _merged2(
    tier: tuple[CaptureKind, ...],
    first: Callable[[int, Sequence[int]], _Found],
    second: Callable[[int, Sequence[int]], _Found],
    union: Callable[[_Found, _Found], _Found],
) -> Callable[[int, Sequence[int]], _Found]:
    """The search of a tier of two kinds from each kind's (``first``, ``second``: their listings or their masks):
    for each played card, the one kind that gives the tier's answer alone (:func:`_alone`), else both, joined by
    ``union`` when both answer."""
    alone = _alone(tier)

    def merged2(played: int, table: Sequence[int]) -> _Found:
        who = alone[played] if alone is not None else 0
        if who == 2:  # the first kind's captures are all among the second's
            return second(played, table)
        if who == 1:
            return first(played, table)
        a = first(played, table)
        b = second(played, table)
        if not a:
            return b
        if not b:
            return a
        return union(a, b)

    return merged2


def finder_by_card(
    tier: tuple[CaptureKind, ...], finder: Callable[[int, Sequence[int]], list[Capture]], size: int
) -> tuple[Callable[[int, Sequence[int]], list[Capture]], ...]:
    """A tier's search per played card of a deck of ``size``: ``finder`` (the tier's :func:`tier_finder`), or the one
    kind's own method where that kind alone gives the tier's captures of the card (:func:`_alone`)."""
    alone = _alone(tier) if len(tier) == 2 else None
    if alone is None:
        return (finder,) * size
    first, second = tier[0].captures, tier[1].captures
    return tuple(second if who == 2 else first if who == 1 else finder for who in alone)


def tier_finder(tier: tuple[CaptureKind, ...]) -> Callable[[int, Sequence[int]], list[Capture]]:
    """A tier's search, ``(played, table) -> captures`` ascending and each once: its one kind's own method, or a
    merge of its kinds' lists."""
    if len(tier) == 1:
        return tier[0].captures
    if len(tier) == 2:  # the common free tier (a match kind and a sum kind): no lists of lists
        # each list is ascending and unique; together they may share captures
        return _merged2(tier, tier[0].captures, tier[1].captures, lambda a, b: sorted({*a, *b}))

    def merged(played: int, table: Sequence[int]) -> list[Capture]:
        lists = [caps for caps in [kind.captures(played, table) for kind in tier] if caps]
        if len(lists) <= 1:
            return lists[0] if lists else []  # one kind's list is ascending and unique already: no merge
        found: set[Capture] = set()
        for caps in lists:
            found.update(caps)
        return sorted(found)

    return merged
