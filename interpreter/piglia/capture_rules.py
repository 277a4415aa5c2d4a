"""A variant's capture rules: its kinds in priority tiers, and the searches random play and the move listing use.

:meth:`CaptureRules.pick` is random play's step: it counts a hand's moves and builds only the one it draws,
through the capture table's memo (:mod:`piglia.capture_table`), by counting captures as bit masks, or by the
plain search (:mod:`piglia.capture_search`), whichever the variant's kinds allow and pays.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, cast

from piglia.capture_search import Masks, finder_by_card, first_per_class, tier_counter, tier_finder
from piglia.capture_table import CaptureTable
from piglia.errors import PigliaError
from piglia.mechanics.capture import MAX_MOVES, Capture, CaptureKind, KindMechanic, MoveLimitError, as_cards

__all__ = ["CaptureRules", "RawMove"]

RawMove = tuple[int, tuple[int, ...]]  # (card, captured): the engine's move by deck indexes


@dataclass(frozen=True)
class CaptureRules:
    """Capture kinds in priority tiers, and whether capturing is mandatory."""

    tiers: tuple[tuple[CaptureKind, ...], ...]
    mandatory: bool
    # One function per tier, ``(played, table) -> captures``: a single kind's own method (kinds list their
    # captures ascending, each once), or a merge of the tier's kinds. Built once; the engine calls these.
    finders: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] = field(
        init=False, repr=False, compare=False, default=()
    )
    # A one-tier variant's search per played card (``straight[played]``): its finder, or, where one kind of a
    # two-kind tier gives the tier's captures for the card (``_alone``), that kind's own method, without the
    # merge's call around it. None with several tiers, or when some kind is not a KindMechanic (the deck's size
    # unknown).
    straight: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] | None = field(
        init=False, repr=False, compare=False, default=None
    )
    # The capture table (see :class:`CaptureTable`), or None when some kind does not say what it reads.
    table: CaptureTable | None = field(init=False, repr=False, compare=False, default=None)
    # One function per tier, ``(played, table) -> captures as bit masks`` (``KindMechanic.masks``, or their
    # union for a tier of several kinds), when every kind gives its captures so: random play counts them and
    # builds only the capture it draws (see pick).
    counters: tuple[Masks, ...] | None = field(init=False, repr=False, compare=False, default=None)
    _straight_pick: tuple[Callable[[int, Sequence[int]], list[Capture]], ...] | None = field(
        init=False, repr=False, compare=False, default=None
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "finders", tuple(tier_finder(tier) for tier in self.tiers))
        if len(self.tiers) == 1 and all(isinstance(kind, KindMechanic) for kind in self.tiers[0]):
            (tier,) = self.tiers
            size = len(cast(KindMechanic, tier[0]).inputs.deck)
            object.__setattr__(self, "straight", finder_by_card(tier, self.finders[0], size))
        object.__setattr__(self, "table", CaptureTable.build(self.tiers))
        counters = [tier_counter(tier) for tier in self.tiers]
        # Set on the instance either way: left to the class's default, every read of it in pick (each turn of a
        # simulation) missed the interpreter's attribute cache and took the generic lookup, 4% of a Pisti deal.
        ready = bool(counters) and all(c is not None for c in counters)
        object.__setattr__(self, "counters", tuple(c for c in counters if c is not None) if ready else None)
        memo, counted = self.table, self.counters
        if memo is not None and counted is not None:
            memo.rival = partial(first_per_class, searches=counted, played_class=memo.played_class)
        # random play's way when there is neither a memo nor a count: each card searched straight (see pick)
        straight = self.straight if self.table is None and self.counters is None else None
        object.__setattr__(self, "_straight_pick", straight)

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """The captures open to ``played`` on ``table``, ascending: those of the first tier that has any."""
        for find in self.finders:
            caps = find(played, table)
            if caps:
                return caps
        return []

    def hand_captures(self, hand: Sequence[int], table: Sequence[int]) -> list[list[Capture]]:
        """For each card of ``hand``, :meth:`captures` on ``table``: through the capture table when there is one
        (and it pays), else the plain search with a memo for the turn (cards of one class searched once)."""
        if not table:  # a capture takes table cards: an empty table offers none
            return [[] for _ in hand]
        memo = self.table
        if memo is not None:
            return memo.hand_captures(hand, table) if memo.on else memo.turn_captures(hand, table)
        # No class to share answers by: each card searched straight, without the bookkeeping of first_per_class.
        straight = self.straight
        if straight is not None:
            return [straight[card](card, table) for card in hand]
        out: list[list[Capture]] = []
        for card in hand:
            caps: list[Capture] = []
            for search in self.finders:
                caps = search(card, table)
                if caps:
                    break
            out.append(caps)
        return out

    def hand_masks(self, hand: Sequence[int], table: Sequence[int]) -> list[Collection[int]] | None:
        """For each card of ``hand``, its captures on ``table`` as bit masks over the deck (each once, in any
        order; the caller never changes them): :meth:`hand_captures` counted, not listed. None when some kind
        does not give its captures so (``KindMechanic.masks``)."""
        if self.counters is None:
            return None
        memo = self.table
        return first_per_class(hand, table, self.counters, memo.played_class if memo is not None else None)

    def pick(self, hand: Sequence[int], table: Sequence[int], draw: Callable[[int], int]) -> tuple[int, RawMove]:
        """The number ``n`` of legal moves of ``hand`` on ``table`` and the move at index ``draw(n)`` of their
        list (:meth:`State.raw_moves <piglia.state.State.raw_moves>`' order: by card, a placement first when
        capturing is optional or the card captures nothing, then its captures ascending); ``draw`` is not
        called when there is one move. Random play: the moves are counted, and only the one drawn is built
        (through the capture table, the captures of the cards not drawn are never built either)."""
        if not hand:
            raise PigliaError("no move to pick: no player moves now")
        if not table:  # nothing to take (a capture takes table cards): one placement per card
            n = len(hand)
            return n, (hand[draw(n) if n > 1 else 0], ())
        memo = self.table
        # Per card: its captures listed (a list), the memo's positions (a tuple), or (``masks``) its bit masks.
        found: Sequence[Any]
        masks = False
        straight = self._straight_pick
        if straight is not None:
            # hand_captures' straight search, inline: the commonest turn of such a game has no call to spare
            found = []
            for card in hand:
                found.append(straight[card](card, table))
        elif memo is not None and memo.on:
            if memo.counting:  # a duel's counting block (CaptureTable.DUEL_EVERY): counted as without the memo
                found = memo.counted(hand, table)
                masks = True
            else:
                found = memo.lookup(hand, table)
        elif self.counters is not None:
            # counted as masks (hand_masks, inline: a call a turn spared): only the drawn card's become captures
            found = first_per_class(hand, table, self.counters, memo.played_class if memo is not None else None)
            masks = True
        else:
            found = self.hand_captures(hand, table)
        sizes = list(map(len, found))
        captures = sum(sizes)
        if not captures:  # no card captures: one placement per card (the commonest turn)
            n = len(hand)
            return n, (hand[draw(n) if n > 1 else 0], ())
        # Per card: its captures, and a placement too when capturing is optional or it captures nothing.
        mandatory = self.mandatory
        n = captures + (sizes.count(0) if mandatory else len(hand))
        if n > MAX_MOVES:  # where the listing of the moves would stop too
            raise MoveLimitError(len(hand), len(table))
        i = draw(n) if n > 1 else 0
        # the card whose moves hold index i, and the index among them (a loop for each rule: one test less a card)
        if mandatory:
            for j, size in enumerate(sizes):
                if size:
                    if i < size:
                        return n, (hand[j], _listed(found[j], masks, memo, table)[i])
                    i -= size
                elif i:
                    i -= 1
                else:
                    return n, (hand[j], ())
        else:
            for j, size in enumerate(sizes):
                if not i:
                    return n, (hand[j], ())
                if i <= size:
                    return n, (hand[j], _listed(found[j], masks, memo, table)[i - 1])
                i -= size + 1
        raise AssertionError("unreachable: i < n")

    def options(self, played: int, table: Sequence[int]) -> list[tuple[Capture, str]]:
        """The captures open to ``played`` on ``table`` with the kind of each, from the first tier that has any.

        A capture reachable by two kinds of one tier is listed once, under the first kind.
        """
        for tier in self.tiers:
            if len(tier) == 1:  # one kind lists its captures ascending, each once: nothing to merge or sort
                kind = tier[0]
                caps = kind.captures(played, table)
                if caps:
                    name = kind.name
                    return [(cap, name) for cap in caps]
                continue
            seen: dict[Capture, str] = {}
            for kind in tier:
                for cap in kind.captures(played, table):
                    seen.setdefault(cap, kind.name)
            if seen:
                return sorted(seen.items())
        return []

    def kind_of(self, played: int, table: Sequence[int], captured: Capture) -> str:
        """The name of the kind by which ``played`` takes ``captured`` from ``table`` (``""`` if none does)."""
        for cap, name in self.options(played, table):
            if cap == captured:
                return name
        return ""


def _listed(caps: Any, masks: bool, memo: CaptureTable | None, table: Sequence[int]) -> Sequence[Capture]:
    """One card's captures ascending, from what :meth:`CaptureRules.pick` counted them in: bit masks over the deck
    (``masks``), the capture table's answer (a tuple of positions or takers), or the plain search's list."""
    if masks:
        return sorted(map(as_cards, caps))
    if isinstance(caps, tuple):  # the memo's answer, in positions: built now
        assert memo is not None
        return memo.cards_of(caps, table)
    return cast("list[Capture]", caps)
