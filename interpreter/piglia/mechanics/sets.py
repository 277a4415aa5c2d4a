"""Several capture sets in one play (capture kind ``type: sets``) and alternative card values.

A played card of value *v* takes any number of disjoint **sets** from the table in one play; a set is one table
card of value *v* (or of the played card's rank, with ``by: rank``) or a group of table cards adding up to *v*
(unless ``sums: false``). The ``rule`` says which unions of sets are captures:

* ``choice``: any non-empty union of disjoint sets (whether to capture at all is ``capture.mandatory``);
* ``maximal``: only unions after which no set can be made from what stays on the table. Maximal is not "most
  cards": a 6 on A, 2, 3, 3 may take 3+3 or A+2+3 (each leaves no group of 6).
* ``all_singles``: every single card of the value (or rank) is always taken, and any union of disjoint groups
  of two or more cards (maybe none) with them; which groups is the player's choice. :meth:`SetsKind.forced`
  names the single cards (what every capture takes).

Cards with alternative values (a rank's ``values: [1, 11]``, :attr:`piglia.cards.Deck.values_of`) count as any
one of them, each table card independently; the played card takes with one of its values per play (all its sets
reach that one value).

The move list never lists the powerset of the table. First the valid **groups** (sets) are found by a search
over the table cards pruned by the remaining total (as the ``sum`` kind does); then the distinct unions of
disjoint groups are found by a search from the empty union, adding one disjoint group at a time and memoising
every union reached (a bit mask over the table), so each capture is reached once however many ways it splits
into sets. The unions are counted while they are found: more than ``limit`` (default
:data:`DEFAULT_LIMIT`) stops the search with a :class:`~piglia.errors.PigliaError` naming the kind and the
key, before any move is built. :meth:`SetsKind.count` exposes the number.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from piglia.errors import PigliaError
from piglia.mechanics.base import Page, register_mechanic
from piglia.mechanics.capture import Capture, KindInputs, KindMechanic

__all__ = ["DEFAULT_LIMIT", "SetsKind", "group_masks", "sum_groups"]

DEFAULT_LIMIT = 20_000  # most captures one played card may have on one table (``limit``)


def sum_groups(alts: Sequence[Sequence[int]], need: int, min_cards: int = 1, max_cards: int = 10_000) -> set[int]:
    """Every group of positions (a bit mask over ``alts``) whose cards can add up to ``need``, each card
    counting as one of its alternative values ``alts[i]``; each group once. Zero values never join a sum.

    The search visits positions in order and stops a branch when the rest, at their largest, cannot reach
    what remains: it lists groups, never subsets that fail.
    """
    return _sum_groups([_positive(vs) for vs in alts], need, min_cards, max_cards)


def _positive(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted({a for a in values if a > 0}))


def _reach(positive: Sequence[tuple[int, ...]]) -> int:
    """Which totals some group of these cards reaches (each counting one of its values), as the bits of one
    integer: most tables have no group of the need at all, and this says so in a few shifts, before any search."""
    reach = 1
    for vs in positive:
        grown = reach
        for a in vs:
            grown |= reach << a
        reach = grown
    return reach


def _suffix(positive: Sequence[tuple[int, ...]]) -> list[int]:
    """Per position, the most the cards from there on can add up to (the search's bound)."""
    n = len(positive)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + (positive[i][-1] if positive[i] else 0)
    return suffix


def _sum_groups(
    positive: Sequence[tuple[int, ...]],
    need: int,
    min_cards: int,
    max_cards: int,
    prepared: tuple[int, list[int]] | None = None,
) -> set[int]:
    found: set[int] = set()
    if need <= 0:
        return found
    reach, suffix = prepared if prepared is not None else (_reach(positive), _suffix(positive))
    if not (reach >> need) & 1:
        return found
    n = len(positive)

    def search(start: int, remaining: int, mask: int, size: int) -> None:
        if remaining == 0:
            if size >= min_cards:
                found.add(mask)
            return
        if size >= max_cards:
            return
        for j in range(start, n):
            if suffix[j] < remaining:
                break
            for a in positive[j]:
                if a <= remaining:
                    search(j + 1, remaining - a, mask | (1 << j), size + 1)

    search(0, need, 0, 0)
    return found


def group_masks(
    played: int,
    cards: Sequence[int],
    value: int,
    *,
    values_of: Sequence[Sequence[int]],
    rank_of: Sequence[int] | None,
    sums: bool,
    positive_of: Sequence[tuple[int, ...]] | None = None,
    prepared: tuple[int, list[int]] | None = None,
) -> list[int]:
    """The sets ``played`` (counting ``value``) may take from ``cards``, as bit masks over positions.

    A set is one card of that value (of the played card's rank when ``rank_of`` is given) or, with ``sums``, a
    group of two or more cards adding up to ``value``. ``positive_of``: per card, its values above 0, ascending
    (precomputed by the kind; computed here when not given). ``prepared``: the reach and suffix bounds of
    ``cards`` (:func:`_reach`, :func:`_suffix`), when the caller has them.
    """
    masks: set[int] = set()
    for i, c in enumerate(cards):
        same = rank_of[c] == rank_of[played] if rank_of is not None else value in values_of[c]
        if same:
            masks.add(1 << i)
    if sums and value > 0:
        alts = [positive_of[c] for c in cards] if positive_of is not None else [_positive(values_of[c]) for c in cards]
        masks |= _sum_groups(alts, value, 2, 10_000, prepared)
    return sorted(masks)


def unions(groups: Sequence[int], limit: int) -> set[int] | None:
    """Every non-empty union of disjoint ``groups`` (bit masks), each once; None when there are more than
    ``limit``. A search from the empty union adds one disjoint group at a time; the set of unions reached is the
    memo, so a union that splits into sets in several ways is expanded once."""
    seen: set[int] = {0}
    stack = [0]
    while stack:
        mask = stack.pop()
        for g in groups:
            if not g & mask:
                union = mask | g
                if union not in seen:
                    seen.add(union)
                    if len(seen) > limit + 1:
                        return None
                    stack.append(union)
    seen.discard(0)
    return seen


@register_mechanic
class SetsKind(KindMechanic):
    """Take any number of disjoint sets in one play (see the module docstring)."""

    key = "sets"
    one_set = False
    summary = (
        "Take any number of disjoint sets in one play, each one table card of the played card's value (or rank) "
        "or a group adding up to it; rule maximal (nothing more could be taken) or choice (any of them)."
    )
    properties: ClassVar[Mapping[str, Any]] = {
        "rule": {
            "enum": ["choice", "maximal", "all_singles"],
            "description": "choice (the default): any union of disjoint sets; maximal: only unions that leave no "
            "set on the table (not the most cards: every capture after which nothing more could be taken); "
            "all_singles: every single card of the value (or rank) always, with any union of groups.",
        },
        "by": {
            "enum": ["value", "rank"],
            "description": "A single card is a set when it has the played card's value (the default) or rank.",
        },
        "sums": {
            "type": "boolean",
            "description": "Groups of table cards adding up to the played card's value are sets too (default "
            "true; false: single cards only).",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "description": f"Most captures one played card may have on one table (default {DEFAULT_LIMIT}); "
            "more is an error, raised before the moves are listed.",
        },
    }
    defaults: ClassVar[Mapping[str, Any]] = {"rule": "choice", "by": "value", "sums": True, "limit": DEFAULT_LIMIT}
    messages = (
        "kind.sets_choice",
        "kind.sets_maximal",
        "kind.sets_all_singles",
        "kind.sets_all_only",
        "kind.sets_all_value",
        "kind.sets_all_rank",
        "kind.sets_value",
        "kind.sets_rank",
        "kind.sets_sums",
    )

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        opts = inp.options
        deck = inp.deck
        self.rule = str(opts["rule"])
        self.by = str(opts["by"])
        self.sums = bool(opts["sums"])
        self.limit = int(opts["limit"])
        self._values_of = deck.values_of
        self._positive_of = tuple(_positive(v) for v in deck.values_of)
        self._rank_of = deck.rank_of if self.by == "rank" else None
        self._played_ok = inp.played_ok
        self._takes_ok = inp.takes_ok
        # Played cards with the same filter row see a table alike: its cards, their values and the totals they
        # reach are worked out once per table for all of them (the last table is remembered).
        rows: dict[tuple[bool, ...], int] = {}
        self._row = tuple(rows.setdefault(row, len(rows)) for row in inp.takes_ok)
        self._last: tuple[tuple[int, tuple[int, ...]], tuple[list[int], int, list[int]]] | None = None

    def _view(self, played: int, table: Sequence[int]) -> tuple[list[int], int, list[int]]:
        """The table as ``played``'s filter sees it: its cards ascending, the totals their groups reach (as bits;
        without sums, the values of single cards), the search's suffix bounds."""
        key = (self._row[played], tuple(table))
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        ok = self._takes_ok[played]
        cards = sorted([c for c in table if ok[c]])  # ascending: a mask's bits, low to high, list its cards in order
        positive = [self._positive_of[c] for c in cards]
        if self.sums:
            reach = _reach(positive)
        else:
            reach = 1
            for vs in positive:
                for a in vs:
                    reach |= 1 << a
        view = (cards, reach, _suffix(positive))
        self._last = (key, view)
        return view

    def signatures(self) -> tuple[Sequence[Hashable], Sequence[Hashable]]:
        # The search reads of a played card: whether it may use the kind, its filter row, its values (and rank,
        # by rank); of a table card: its filter column, its values, its rank (by rank). Nothing else.
        n = len(self._values_of)
        rank = self._rank_of
        played = [
            (self._played_ok[p], self._takes_ok[p], self._values_of[p], rank[p] if rank is not None else None)
            for p in range(n)
        ]
        table = [
            (tuple(row[c] for row in self._takes_ok), self._values_of[c], rank[c] if rank is not None else None)
            for c in range(n)
        ]
        return played, table

    def _masks(self, played: int, table: Sequence[int]) -> tuple[list[int], set[int]]:
        """The table cards this kind may take (their order is the masks' bit order) and every capture as a mask."""
        if not self._played_ok[played]:
            return [], set()
        cards, reach, suffix = self._view(played, table)
        if not cards:
            return cards, set()
        # One value per play: with alternatives, the captures of each value, merged (a capture reachable
        # with two values is listed once). By rank, the value does not matter for single cards.
        targets = self._values_of[played] if (self.sums or self._rank_of is None) else (0,)
        # Most tables hold no set of the played card's value: which totals the table's cards reach (one card or
        # several) is one integer's bits, worked out once per table (_view).
        if self._rank_of is None and not any((reach >> t) & 1 for t in targets if t > 0):
            return cards, set()
        prepared = (reach, suffix) if self.sums else None
        found: set[int] = set()
        for value in targets:
            groups = group_masks(
                played,
                cards,
                value,
                values_of=self._values_of,
                rank_of=self._rank_of,
                sums=self.sums,
                positive_of=self._positive_of,
                prepared=prepared,
            )
            if not groups:
                continue
            if self.rule == "all_singles":
                singles = 0
                for g in groups:
                    if not g & (g - 1):  # one bit: a single card
                        singles |= g
                groups = [g for g in groups if g & (g - 1) and not g & singles]
            reached = unions(groups, self.limit)
            if reached is None:
                raise self._too_many(played, table)
            if self.rule == "all_singles":
                reached = {u | singles for u in reached}
                if singles:
                    reached.add(singles)
            elif self.rule == "maximal":
                # maximal: nothing more can be taken from what stays, i.e. every set meets the capture
                reached = {u for u in reached if all(g & u for g in groups)}
            found |= reached
            if len(found) > self.limit:
                raise self._too_many(played, table)
        return cards, found

    def _too_many(self, played: int, table: Sequence[int]) -> PigliaError:
        deck = self.inputs.deck
        return PigliaError(
            f"capture.kinds.{self.name}: the {deck.cards[played].name} has more than {self.limit} captures on a "
            f"table of {len(table)} cards ({' '.join(deck.ids(table))}); raise the kind's limit to allow them"
        )

    def forced(self, played: int, table: Sequence[int]) -> tuple[int, ...]:
        """The table cards every capture of ``played`` by this kind takes: with ``rule: all_singles``, the
        cards of its value (or rank); else none."""
        if self.rule != "all_singles" or not self._played_ok[played]:
            return ()
        ok = self._takes_ok[played]
        if self._rank_of is not None:
            rank = self._rank_of[played]
            return tuple(sorted(c for c in table if ok[c] and self._rank_of[c] == rank))
        mine = set(self._values_of[played])
        return tuple(sorted(c for c in table if ok[c] and mine & set(self._values_of[c])))

    def count(self, played: int, table: Sequence[int]) -> int:
        """How many captures this kind allows ``played`` on ``table`` (what :meth:`captures` would list),
        counted without building them; raises :class:`PigliaError` beyond ``limit``."""
        return len(self._masks(played, table)[1])

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        cards, found = self._masks(played, table)
        out: list[Capture] = []
        for mask in found:
            taken = []
            while mask:
                low = mask & -mask
                taken.append(cards[low.bit_length() - 1])
                mask ^= low
            out.append(tuple(taken))  # ascending: the cards are
        out.sort()
        return out

    def phrase(self, page: Page) -> str:
        if self.rule == "all_singles":
            single = page.msg("kind.sets_all_rank" if self.by == "rank" else "kind.sets_all_value")
            return page.msg("kind.sets_all_singles" if self.sums else "kind.sets_all_only", single=single)
        one = page.msg("kind.sets_rank" if self.by == "rank" else "kind.sets_value")
        if self.sums:
            one += " " + page.msg("kind.sets_sums")
        return page.msg(f"kind.sets_{self.rule}", set=one)
