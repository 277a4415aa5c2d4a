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
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar

from piglia.errors import PigliaError
from piglia.mechanics.base import Page, register_mechanic
from piglia.mechanics.capture import Capture, KindInputs, KindMechanic, as_cards

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


_NONE: frozenset[int] = frozenset()


class _View:
    """One table as a filter row sees it: its cards ascending (and as a bit mask over the deck), their values
    above 0, the totals their groups reach (as bits; without sums, the values of single cards), and (once a
    played card of the row needs a group: :meth:`SetsKind._pairs`) every group of its cards with a total up to
    the row's largest value, as (total, bit mask) pairs: one listing serves every card of the hand and every
    value of a card."""

    __slots__ = ("cards", "mask", "pairs", "positive", "reach", "row")

    def __init__(self, row: int, cards: list[int], mask: int, positive: list[tuple[int, ...]], reach: int) -> None:
        self.row = row
        self.cards = cards
        self.mask = mask
        self.positive = positive
        self.reach = reach
        self.pairs: list[tuple[int, int]] | None = None


def _grown(pairs: list[tuple[int, int]], card: int, values: tuple[int, ...], top: int) -> list[tuple[int, int]]:
    """``pairs`` (the groups of some cards by total, up to ``top``) with the groups holding ``card`` added: each
    value of the card joins the groups listed before the card (so a group holds it once)."""
    bit = 1 << card
    for a in values[::-1] if len(values) > 1 else values:
        most = top - a
        if most >= 0:
            pairs = pairs + [(t + a, m | bit) for t, m in pairs if t <= most and not m & bit]
    return pairs


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
        n = len(deck.values_of)
        # One value per play: with alternatives, the captures of each value, merged. By rank without sums, the
        # value does not matter (single cards of the rank only).
        self._targets = tuple(
            tuple(deck.values_of[p]) if (self.sums or self._rank_of is None) else (0,) for p in range(n)
        )
        self._alternatives = any(len(v) > 1 for v in deck.values_of)
        # Played cards with the same filter row see a table alike: its cards, their values and the totals they
        # reach are worked out once per table for all of them (the last table is remembered).
        rows: dict[tuple[bool, ...], int] = {}
        self._row = tuple(rows.setdefault(row, len(rows)) for row in inp.takes_ok)
        # Per row, the largest value a played card of the row takes with: the groups of a table are listed by
        # total up to it, once per table for every played card (_View.by_total).
        self._top = [0] * len(rows)
        for p in range(n):
            if inp.played_ok[p]:
                r = self._row[p]
                self._top[r] = max([self._top[r], *(t for t in self._targets[p] if t > 0)])
        # Per played card, the bits of the values above 0 it takes with: a table whose groups reach none of them
        # (one AND with the view's reach) offers it nothing, the commonest answer.
        self._wants = tuple(sum(1 << t for t in set(self._targets[p]) if t > 0) for p in range(n))
        self._last: tuple[tuple[int, tuple[int, ...]], _View] | None = None
        # Per row, the last table whose groups were listed (its mask) and its groups: the next table is mostly
        # that one with a card placed or some taken, so the groups are brought up to date, not listed again.
        self._listed: list[tuple[int, list[tuple[int, int]]] | None] = [None] * len(rows)
        # A capture as a bit mask over the deck (bit c for card c) and as cards ascending: masks recur across
        # tables, so each is turned into a tuple once (bounded: cleared when it grows past 2 ** 16 entries).
        self._cards_of: dict[int, Capture] = {}

    def _view(self, played: int, table: Sequence[int]) -> _View:
        """The table as ``played``'s filter sees it (see :class:`_View`); the last one is remembered, as a turn
        asks for every card of the hand on one table."""
        row = self._row[played]
        key = (row, tuple(table))
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        ok = self._takes_ok[played]
        cards = sorted([c for c in table if ok[c]])
        positive_of = self._positive_of
        positive = [positive_of[c] for c in cards]
        if self.sums:
            reach = _reach(positive)
        else:
            reach = 1
            for vs in positive:
                for a in vs:
                    reach |= 1 << a
        mask = 0
        for c in cards:
            mask |= 1 << c
        view = _View(row, cards, mask, positive, reach)
        self._last = (key, view)
        return view

    def _pairs(self, view: _View) -> list[tuple[int, int]]:
        """Every group of the view's cards with a total up to the row's largest value, as (total, bit mask)
        pairs (the empty group too), listed once per view: from the row's last listed table when this one is it
        with one card more (the groups with the card added) or some cards fewer (the groups holding them
        dropped), else card by card."""
        pairs = view.pairs
        if pairs is not None:
            return pairs
        row, mask = view.row, view.mask
        top = self._top[row]
        last = self._listed[row]
        positive_of = self._positive_of
        pairs = None
        if last is not None:
            known, listed = last
            added, removed = mask & ~known, known & ~mask
            if not added:
                pairs = [p for p in listed if not p[1] & removed] if removed else listed
            elif not removed and not added & (added - 1):
                card = added.bit_length() - 1
                pairs = _grown(listed, card, positive_of[card], top)
        if pairs is None:
            pairs = [(0, 0)]
            for c in view.cards:
                pairs = _grown(pairs, c, positive_of[c], top)
        view.pairs = pairs
        self._listed[row] = (mask, pairs)
        return pairs

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
        builds only the one it draws). Raises :class:`PigliaError` beyond ``limit``."""
        if not self._played_ok[played]:
            return _NONE
        view = self._view(played, table)
        if not view.cards:
            return _NONE
        # Most tables hold no set of the played card's value: which totals the table's cards reach (one card or
        # several) is one integer's bits, worked out once per table (_view).
        if self._rank_of is None and not view.reach & self._wants[played]:
            return _NONE
        found: AbstractSet[int] = _NONE
        for value in self._targets[played]:
            groups = self._groups(played, value, view)
            if not groups:
                continue
            reached = self._unions(groups, played, table)
            if found:
                found = found | reached  # a capture reachable with two values is listed once
                if len(found) > self.limit:
                    raise self._too_many(played, table)
            else:
                found = reached
        return found

    def _groups(self, played: int, value: int, view: _View) -> list[int]:
        """The sets ``played`` may take counting ``value``, as bit masks over the deck, each once."""
        rank_of = self._rank_of
        if rank_of is None and value > 0:
            if not (view.reach >> value) & 1:
                return []
            if self.sums:
                groups = [m for t, m in self._pairs(view) if t == value]
                return list(set(groups)) if self._alternatives and len(groups) > 1 else groups
            return [1 << c for c, vs in zip(view.cards, view.positive, strict=True) if value in vs]
        if rank_of is not None:
            rank = rank_of[played]
            singles = [1 << c for c in view.cards if rank_of[c] == rank]
        else:  # a value of 0 or less: single cards of it (a sum needs a positive value)
            values_of = self._values_of
            singles = [1 << c for c in view.cards if value in values_of[c]]
        if not (self.sums and value > 0 and (view.reach >> value) & 1):
            return singles
        groups = [m for t, m in self._pairs(view) if t == value and m & (m - 1)]  # two or more cards
        if self._alternatives and len(groups) > 1:
            groups = list(set(groups))
        return singles + groups if singles else groups

    def _unions(self, groups: list[int], played: int, table: Sequence[int]) -> AbstractSet[int]:
        """The captures the rule allows from these sets (bit masks), each once."""
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
            return reached
        if len(groups) == 1:
            return {groups[0]}
        reached = self._union_set(groups, played, table)
        if rule == "maximal":
            # maximal: nothing more can be taken from what stays, i.e. every set meets the capture
            return {u for u in reached if all(g & u for g in groups)}
        return reached

    def _union_set(self, groups: list[int], played: int, table: Sequence[int]) -> set[int]:
        """Every non-empty union of disjoint ``groups``, each once (:func:`unions`, with a shortcut for sets that
        share no card, the common case: every subset of them is a union, built by doubling)."""
        every = 0
        for g in groups:
            if every & g:
                break
            every |= g
        else:  # pairwise disjoint: 2 ** k - 1 unions, all distinct
            if (1 << len(groups)) - 1 > self.limit:
                raise self._too_many(played, table)
            out = [0]
            for g in groups:
                out += [u | g for u in out]
            reached = set(out)
            reached.discard(0)
            return reached
        found = unions(groups, self.limit)
        if found is None:
            raise self._too_many(played, table)
        return found

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
                taken = as_cards(mask)
                if len(cards_of) > 1 << 16:
                    cards_of.clear()
                cards_of[mask] = taken
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
