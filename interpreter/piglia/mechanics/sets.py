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
:data:`DEFAULT_LIMIT`) stops the search with a :class:`~piglia.errors.LimitError` naming the kind and the
key, before any move is built. :meth:`SetsKind.count` exposes the number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar

from piglia.errors import LimitError
from piglia.mechanics.base import Page, register_mechanic
from piglia.mechanics.capture import _COUNT_FROM, MAX_CAPTURES, Capture, KindInputs, KindMechanic, remember_cards

__all__ = [
    "DEFAULT_LIMIT",
    "UNION_STEPS",
    "Completions",
    "SearchTooLong",
    "SetsKind",
    "group_masks",
    "sum_groups",
    "unions",
]

DEFAULT_LIMIT = 20_000  # most captures one played card may have on one table (``limit``)
# Most groups a table's listing holds (every group adding up to at most the largest value a played card seeks, kept
# from turn to turn): real tables hold a few hundred, a 20-card table of low cards some tens of thousands. A table
# of many low cards beside a card of a high value holds billions, which would fill the memory before any capture
# is counted: play stops there with an error (tests/data/hostile/bomb-sets-growing-table.yaml).
MAX_TABLE_GROUPS = 250_000
# Most tests of a union against a group that combining a table's sets may take (a second or so): a real table's
# sets are a few dozen, combined in a few thousand tests. Thousands of sets that all share a card (every group of
# seven 1s with the one 11, seeking 18) have no union of two, yet each would be tested against all the others
# (tests/data/hostile/bomb-overlapping-sets.yaml).
UNION_STEPS = 20_000_000


def sum_groups(
    alts: Sequence[Sequence[int]], need: int, min_cards: int = 1, max_cards: int = 10_000, steps: float = math.inf
) -> set[int]:
    """Every group of positions (a bit mask over ``alts``) whose cards can add up to ``need``, each card
    counting as one of its alternative values ``alts[i]``; each group once. Zero values never join a sum.

    The search visits positions in order and stops a branch when the rest, at their largest, cannot reach
    what remains: it lists groups, never subsets that fail. Past ``steps`` calls of the search it raises
    :class:`SearchTooLong`.
    """
    return _sum_groups([_positive(vs) for vs in alts], need, min_cards, max_cards, steps=steps)


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


class Completions:
    """What the cards from each position on can still add to a group, for a search that takes cards in order to
    make up a need (a group of positions adding up to it, of ``lo`` to ``hi`` cards). The search follows a
    branch only when the cards after it can make up what the branch lacks in a group of an allowed size, so it
    visits only branches that end in a group: its time goes with the groups it finds (counted before it starts,
    and bounded), never with its dead ends. A table of twenty low even cards beside a card seeking an odd total
    has no group, yet a search pruned by the sum of what is left alone tries millions
    (tests/data/hostile/bomb-dead-end-sum.yaml).

    ``after[j]``: the (total, size) pairs some group of the cards from position ``j`` on reaches, as bits of one
    integer (bit ``total * width + size``; the size left out, ``width`` 1, when no group can be out of the size
    bounds); totals above ``need`` are dropped. :meth:`can` asks it. Each card counts one of its values ``alts[j]``.
    """

    __slots__ = ("after", "width", "windows")

    def __init__(self, alts: Sequence[Sequence[int]], need: int, lo: int, hi: int) -> None:
        n = len(alts)
        hi = min(hi, n)
        sized = lo > 1 or hi < n  # with a need above 0 every group has a card: only then can a size be wrong
        width = hi + 2 if sized else 1  # a slot per total, holding the sizes 0..hi and one to clear (overflow)
        keep = (1 << ((need + 1) * width)) - 1
        if sized:  # a group grown past hi cards would carry into the next total's slot: that bit is cleared
            keep &= ~((keep // ((1 << width) - 1)) << (hi + 1))
        one = 1 if sized else 0  # a card joining adds one to the size
        after = [1] * (n + 1)
        reach = 1
        for j in range(n - 1, -1, -1):
            grown = reach
            for a in alts[j]:
                if a >= 0:
                    grown |= (reach << (a * width + one)) & keep
            after[j] = reach = grown
        self.after = after
        self.width = width
        # per size chosen so far: the sizes the rest may add, as a mask of one slot
        self.windows = [_sizes(max(lo - k, 0), hi - k) for k in range(n + 2)] if sized else [1] * (n + 2)

    def can(self, j: int, remaining: int, size: int) -> bool:
        """Whether the cards from position ``j`` on can make up ``remaining`` for a group of ``size`` cards so far."""
        return bool((self.after[j] >> (remaining * self.width)) & self.windows[size])


def _sizes(least: int, most: int) -> int:
    """The sizes ``least`` to ``most`` as bits of one slot (none when ``most`` is below ``least``)."""
    return ((1 << (most + 1)) - 1) & ~((1 << least) - 1) if most >= least else 0


class SearchTooLong(Exception):
    """A search for groups took more steps than it was given (:func:`_sum_groups`' ``steps``)."""


def _sum_groups(
    positive: Sequence[tuple[int, ...]],
    need: int,
    min_cards: int,
    max_cards: int,
    prepared: tuple[int, list[int]] | None = None,
    steps: float = math.inf,
) -> set[int]:
    """:func:`sum_groups` over the values given: above 0 from :func:`sum_groups`; a sum kind's own on its big
    tables (:meth:`SumKind._pruned_search <piglia.mechanics.capture.SumKind._pruned_search>`), where a card worth
    0 may join a group too. Past ``steps`` calls of the search, :class:`SearchTooLong` (with alternative values a
    search walks every choice of values, so its length is not bounded by the groups it finds)."""
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

    if n > _COUNT_FROM:  # a big table: each branch followed only where the cards left can complete it
        can = Completions(positive, need, min_cards, max_cards).can
        if not can(0, need, 0):
            return found
        zeros = any(0 in vs for vs in positive)  # a card worth 0 may join a group that makes the need already

        def search(start: int, remaining: int, mask: int, size: int) -> None:
            if remaining == 0:
                if size >= min_cards:
                    found.add(mask)
                if not zeros:
                    return
            for j in range(start, n):
                if not can(j, remaining, size):
                    break  # nothing from here on completes it (fewer cards reach less)
                for a in positive[j]:
                    if a <= remaining and can(j + 1, remaining - a, size + 1):
                        search(j + 1, remaining - a, mask | (1 << j), size + 1)

    if steps < math.inf:  # every call counted only when a bound is given: the unbounded search is a hot path
        step, calls = search, [0]

        def counted(start: int, remaining: int, mask: int, size: int) -> None:
            calls[0] += 1
            if calls[0] > steps:
                raise SearchTooLong
            step(start, remaining, mask, size)

        search = counted  # the name the search calls itself by: each recursive call is counted too

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


def unions(groups: Sequence[int], limit: int, steps: int = UNION_STEPS) -> set[int] | None:
    """Every non-empty union of disjoint ``groups`` (bit masks), each once; None when there are more than
    ``limit``. A search from the empty union adds one disjoint group at a time; the set of unions reached is the
    memo, so a union that splits into sets in several ways is expanded once. Each union reached is tested
    against every group: past ``steps`` tests, :class:`SearchTooLong`."""
    seen: set[int] = {0}
    stack = [0]
    left = steps
    while stack:
        mask = stack.pop()
        left -= len(groups)
        if left < 0:
            raise SearchTooLong
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


_NONE: frozenset[int] = frozenset()


class _Table:
    """One table as a filter row of the kind sees it: the table (a copy, to know it again), the cards the row
    may take as a bit mask over the deck and, with sums, every group of them with a total up to the row's
    largest value, as (total, bit mask) pairs (the empty group too), and the totals they reach as the bits of
    one integer: one listing serves every card of the hand and every value of a card, and the next table's is
    made from it."""

    __slots__ = ("mask", "pairs", "reach", "table")

    def __init__(self, table: list[int], mask: int, pairs: list[tuple[int, int]], reach: int) -> None:
        self.table = table
        self.mask = mask
        self.pairs = pairs
        self.reach = reach


def _grown(
    pairs: list[tuple[int, int]], reach: int, card: int, values: tuple[int, ...], top: int
) -> tuple[list[tuple[int, int]], int]:
    """The groups ``pairs`` (of some cards, totals up to ``top``, reaching the totals ``reach``) with the
    groups holding ``card`` added: each value of the card joins the groups listed before it (so a group holds
    it once)."""
    bit = 1 << card
    grown, grown_reach = pairs, reach
    for a in values:
        most = top - a
        if most >= 0:
            grown = grown + [(t + a, m | bit) for t, m in pairs if t <= most]
            grown_reach |= (reach & ((2 << most) - 1)) << a  # the totals up to most, each a more
    return grown, grown_reach


def _disjoint_union(groups: Sequence[int]) -> int | None:
    """The union of ``groups`` (bit masks) when no two of them share a card, else None."""
    every = 0
    for g in groups:
        if every & g:
            return None
        every |= g
    return every


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
            "maximum": MAX_CAPTURES,
            "description": f"Most captures one played card may have on one table (default {DEFAULT_LIMIT}, at "
            f"most {MAX_CAPTURES}, the engine's own limit); more is an error, raised before the moves are listed.",
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
        n = len(deck.values_of)
        # One value per play: with alternatives, the captures of each value, merged. By rank without sums, the
        # value does not matter (single cards of the rank only).
        self._targets = tuple(
            tuple(deck.values_of[p]) if (self.sums or self._rank_of is None) else (0,) for p in range(n)
        )
        self._alternatives = any(len(v) > 1 for v in deck.values_of)
        # Played cards with the same filter row see a table alike: what the row may take of it, and its groups,
        # are worked out once per table for all of them (the row's last table is remembered).
        rows: dict[tuple[bool, ...], int] = {}
        self._row = tuple(rows.setdefault(row, len(rows)) for row in inp.takes_ok)
        # Per row, each card's bit when the row may take it (else 0), as a list's fast __getitem__: a table's
        # mask is one sum(map(...)) in C.
        self._bit_of: list[Callable[[int], int]] = [lambda c: 0] * len(rows)
        for p, row in enumerate(inp.takes_ok):
            self._bit_of[self._row[p]] = [1 << c if ok else 0 for c, ok in enumerate(row)].__getitem__
        # Per row, the largest value a played card of the row takes with: a table's groups are listed by total
        # up to it, once per table for every played card.
        self._top = [0] * len(rows)
        for p in range(n):
            if inp.played_ok[p]:
                r = self._row[p]
                self._top[r] = max(self._top[r], max((t for t in self._targets[p] if t > 0), default=0))
        self._tables: list[_Table | None] = [None] * len(rows)
        # Single cards only (by rank, or without sums): per played card, which table cards are a set by
        # themselves for each value it takes with, as a list's __getitem__ (the filter folded in).
        self._singles: tuple[tuple[Callable[[int], bool], ...], ...] = tuple(
            tuple(
                [
                    inp.takes_ok[p][c]
                    and (
                        self._rank_of[c] == self._rank_of[p]
                        if self._rank_of is not None
                        else value in deck.values_of[c]
                    )
                    for c in range(n)
                ].__getitem__
                for value in self._targets[p]
            )
            if inp.played_ok[p]
            else ()
            for p in range(n)
        )
        # The common case, a set by value with sums: read straight off the table's groups by total.
        self._by_sums = self.sums and self._rank_of is None
        # By value, a played card takes nothing unless the table reaches one of its values above 0 (one card or a
        # group); checked apart only where its values are not all read off the groups (no sums, a value of 0).
        self._gated = tuple(
            self._rank_of is None and not (self.sums and all(t > 0 for t in self._targets[p])) for p in range(n)
        )
        # Per played card: None when it may not use the kind, else its filter row and, in the common case (by
        # value, with sums, one value above 0), the bit of its value and the value (else 0 and 0: _masks).
        self._plan: tuple[tuple[int, int, int] | None, ...] = tuple(
            (
                (self._row[p], 1 << self._targets[p][0], self._targets[p][0])
                if self._by_sums and len(self._targets[p]) == 1 and self._targets[p][0] > 0
                else (self._row[p], 0, 0)
            )
            if inp.played_ok[p]
            else None
            for p in range(n)
        )
        # A capture as a bit mask over the deck (bit c for card c) and as cards ascending: masks recur across
        # tables, so each is turned into a tuple once (bounded: cleared when it grows past 2 ** 16 entries).
        self._cards_of: dict[int, Capture] = {}

    def _table(self, row: int, table: Sequence[int]) -> _Table:
        """The table as filter ``row`` sees it (:class:`_Table`), made from the row's last one when the table
        is that one with a card placed (the groups with the card added) or some taken (the groups holding them
        dropped), else card by card."""
        mask = sum(map(self._bit_of[row], table))
        last = self._tables[row]
        pairs: list[tuple[int, int]] | None = None
        reach = 1
        if not self.sums:
            pairs = []
        elif last is not None:
            added, removed = mask & ~last.mask, last.mask & ~mask
            if not added:
                if removed:
                    pairs = [p for p in last.pairs if not p[1] & removed]
                    for t, _ in pairs:
                        reach |= 1 << t
                else:
                    pairs, reach = last.pairs, last.reach
            elif not removed and not added & (added - 1):
                card = added.bit_length() - 1
                pairs, reach = _grown(last.pairs, last.reach, card, self._positive_of[card], self._top[row])
                if len(pairs) > MAX_TABLE_GROUPS:
                    raise self._too_many_groups(row, table)
        if pairs is None:
            pairs = [(0, 0)]
            top = self._top[row]
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                card = low.bit_length() - 1
                pairs, reach = _grown(pairs, reach, card, self._positive_of[card], top)
                if len(pairs) > MAX_TABLE_GROUPS:
                    raise self._too_many_groups(row, table)
        seen = self._tables[row] = _Table(list(table), mask, pairs, reach)
        return seen

    def _too_many_groups(self, row: int, table: Sequence[int]) -> LimitError:
        deck = self.inputs.deck
        return LimitError(
            f"capture.kinds.{self.name}: the {len(table)} table cards ({' '.join(deck.ids(table))}) form more than "
            f"{MAX_TABLE_GROUPS:,} groups adding up to at most {self._top[row]}, the highest value a card of this "
            "kind takes: too many to search for captures (deal a smaller table, or keep low cards out of the kind's "
            "cards)"
        )

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

    def masks(self, played: int, table: Sequence[int]) -> AbstractSet[int]:
        """Every capture of ``played`` on ``table`` as a bit mask over the deck (bit ``c`` for card ``c``), each
        once, in no order: what :meth:`captures` lists, without building a tuple (random play counts them and
        builds only the one it draws). Raises :class:`~piglia.errors.LimitError` beyond ``limit``."""
        plan = self._plan[played]
        if plan is None:
            return _NONE
        row, wants, value = plan
        seen = self._tables[row]
        if seen is None or seen.table != table:  # a list compared in C: a turn asks for every card of the hand
            seen = self._table(row, table)
        if not wants:  # by rank, without sums, several values or a value of 0: the general case
            return self._masks(played, table, seen)
        # Most tables hold no set of the value: the totals the table's groups reach are one integer's bits.
        if not seen.reach & wants:
            return _NONE
        groups = self._sets_of(seen, value)
        if len(groups) == 1:
            return {groups[0]}
        return self._unions(groups, played, table)

    def _sets_of(self, seen: _Table, value: int) -> list[int]:
        """The groups of the table ``seen`` adding up to ``value``, as bit masks, each once (with alternative
        values a group may reach the value with two choices of them)."""
        groups = [m for t, m in seen.pairs if t == value]
        if self._alternatives and len(groups) > 1:
            groups = list(set(groups))
        return groups

    def _masks(self, played: int, table: Sequence[int], seen: _Table) -> AbstractSet[int]:
        """:meth:`masks` in general: each value of the played card in turn, and sets by rank or of single cards."""
        if self._gated[played] and not self._reaches(played, table):
            return _NONE
        found: AbstractSet[int] = _NONE
        for i, value in enumerate(self._targets[played]):
            if self._by_sums and value > 0:
                if not (seen.reach >> value) & 1:
                    continue
                groups = self._sets_of(seen, value)
            else:
                groups = self._groups(played, i, value, seen, table)
                if not groups:
                    continue
            reached = {groups[0]} if len(groups) == 1 else self._unions(groups, played, table)
            found = found | reached if found else reached  # a capture reachable with two values is listed once
            if len(found) > self.limit:
                raise self._too_many(played, table)
        return found

    def _reaches(self, played: int, table: Sequence[int]) -> bool:
        """Whether the table cards ``played`` may take reach one of its values above 0: with sums, as one card or
        a group (each card counting one of its values); without, as one card."""
        ok = self._takes_ok[played]
        positive = [self._positive_of[c] for c in table if ok[c]]
        if self.sums:
            reach = _reach(positive)
        else:
            reach = 0
            for vs in positive:
                for a in vs:
                    reach |= 1 << a
        return any((reach >> t) & 1 for t in self._targets[played] if t > 0)

    def _groups(self, played: int, i: int, value: int, seen: _Table, table: Sequence[int]) -> list[int]:
        """The sets of ``played`` counting its ``i``-th value, ``value``, outside the common case (by rank, without
        sums, or a value of 0 or less), as bit masks over the deck: its single cards (of the rank, or of the
        value), and with sums the groups of two or more cards adding up to the value."""
        singles = list(map((1).__lshift__, filter(self._singles[played][i], table)))
        if not (self.sums and value > 0 and (seen.reach >> value) & 1):
            return singles
        return singles + [g for g in self._sets_of(seen, value) if g & (g - 1)]

    def _unions(self, groups: list[int], played: int, table: Sequence[int]) -> AbstractSet[int]:
        """The captures the rule allows from two or more sets (bit masks), each once."""
        rule = self.rule
        if rule == "all_singles":
            singles = 0
            for g in groups:
                if not g & (g - 1):  # one bit: a single card
                    singles |= g
            rest = [g for g in groups if g & (g - 1) and not g & singles]
            if not rest:
                return {singles}
            reached = self._union_set(rest, played, table)
            if singles:
                reached = {u | singles for u in reached}
                reached.add(singles)
                if len(reached) > self.limit:
                    raise self._too_many(played, table)
            return reached
        if rule == "maximal":
            every = _disjoint_union(groups)
            if every is not None:  # no two sets share a card: only all of them leave nothing a set could take
                if (1 << len(groups)) - 1 > self.limit:  # the unions there are, as the listing counts them
                    raise self._too_many(played, table)
                return {every}
            # maximal: nothing more can be taken from what stays, i.e. every set meets the capture
            return {u for u in self._union_set(groups, played, table) if all(g & u for g in groups)}
        return self._union_set(groups, played, table)

    def _union_set(self, groups: list[int], played: int, table: Sequence[int]) -> set[int]:
        """Every non-empty union of disjoint ``groups`` (bit masks), each once (:func:`unions`, with a shortcut for
        sets that share no card: every subset of them is a union, built by doubling)."""
        if _disjoint_union(groups) is not None:
            if (1 << len(groups)) - 1 > self.limit:
                raise self._too_many(played, table)
            out = [0]
            for g in groups:
                out += list(map(g.__or__, out))
            reached = set(out)
            reached.discard(0)
            return reached
        try:
            found = unions(groups, self.limit)
        except SearchTooLong:
            deck = self.inputs.deck
            raise LimitError(
                f"capture.kinds.{self.name}: the {deck.cards[played].name} has {len(groups):,} sets on a table of "
                f"{len(table)} cards, too many to combine within {UNION_STEPS:,} steps: keep low cards out of the "
                "kind's cards"
            ) from None
        if found is None:
            raise self._too_many(played, table)
        return found

    def _too_many(self, played: int, table: Sequence[int]) -> LimitError:
        deck = self.inputs.deck
        return LimitError(
            f"capture.kinds.{self.name}: the {deck.cards[played].name} has more than {self.limit} captures on a "
            f"table of {len(table)} cards ({' '.join(deck.ids(table))}); "
            + ("raise the kind's limit to allow them" if self.limit < MAX_CAPTURES else "no kind may allow more")
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
        counted without building them; raises :class:`~piglia.errors.LimitError` beyond ``limit``."""
        return len(self.masks(played, table))

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        found = self.masks(played, table)
        if not found:
            return []
        cards_of = self._cards_of
        out: list[Capture] = []
        for mask in found:
            taken = cards_of.get(mask)
            if taken is None:
                taken = remember_cards(cards_of, mask)
            out.append(taken)
        if len(out) > 1:
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
