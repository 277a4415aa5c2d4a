"""Capture kinds: the registered ways a played card can take table cards (family ``capture``).

A variant names its kinds and gives each a ``type``, the ``key`` of a :class:`KindMechanic` registered here or by
a plugin (``match``, ``sum``, ``all``). Each kind class carries its schema fragment and defaults, its play-time
``captures`` and its rules-page phrasing; :func:`build_kind` does what every kind shares (the ``played`` and
``cards`` filters, an optional ``target``) and :func:`kind_text` the words every kind shares.

Every kind is built once per variant. Its filters (``played``, ``cards``) are expressions, evaluated at build
time for every card of the deck into boolean tables, so finding captures during play is table lookups and,
for sums, a search pruned by the remaining total.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import filterfalse
from math import inf
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from piglia.cards import Deck, bit_of, mask_of
from piglia.contexts import CARD_SCOPE, PLAYED_SCOPE, CardEnv
from piglia.dsl import Compiled, T
from piglia.errors import LimitError, PigliaError
from piglia.mechanics import guard as plugins
from piglia.mechanics.base import BuildContext, Mechanic, Page, mechanics, register_mechanic
from piglia.mechanics.conditions import TABLE_SCOPE, WHEN_PROPERTY, guard

if TYPE_CHECKING:
    from piglia.yamlpos import Path

__all__ = [
    "FILTER_PROPERTIES",
    "MAX_CAPTURES",
    "MAX_MOVES",
    "MAX_SUM_NEED",
    "CaptureKind",
    "CaptureLimitError",
    "KindInputs",
    "KindMechanic",
    "KindOptionError",
    "MoveLimitError",
    "as_cards",
    "build_kind",
    "count_subsets",
    "kind_text",
    "register_capture_kind",
    "remember_cards",
]

Capture = tuple[int, ...]  # table card indexes taken, ascending
# A table prepared for a sum search: reachable totals as bits, cards in search order, their values, suffix sums.
_Prepared = tuple[int, list[int], list[int], list[int]]

# The most captures one kind may offer one played card. A real table offers a handful (Scopa's richest tables a few
# dozen); a deck of many low cards on a big table could offer millions of groups and fill the memory while they
# are listed, so they are counted first (a cheap count of subsets by total) and refused beyond this.
MAX_CAPTURES = 100_000
# Steps a search for the groups of alternative values may take when the ways to make the need pass MAX_CAPTURES (each
# card counting one of its values, the search walks every choice): a second or two; the groups of real tables take
# a few hundred.
SEARCH_STEPS = 2_000_000
# The most work the filters of one kind may cost when the rules are loaded (about two seconds): each is computed
# for every card, the cards filter for every pair of cards.
MAX_FILTER_STEPS = 20_000_000
# The highest total a sum kind may seek, the highest card value (the schema's): the count of a table's groups, the
# enumeration by total and the search's bounds each hold one slot per total up to the need, so a target of a hundred
# million filled a gigabyte on the first turn (tests/data/hostile/limit-sum-target.yaml).
MAX_SUM_NEED = 1_000
# Tables up to this many cards have fewer subsets in all than MAX_CAPTURES: nothing to count.
_COUNT_FROM = MAX_CAPTURES.bit_length() - 1  # 2 ** 16 subsets are fewer than 100,000
# A sum kind lists the groups of a table with this many cards or more (that it may take) from one enumeration of
# the table's groups by total, shared by every played card and kept up to date as cards arrive and leave (see
# SumKind._groups); smaller tables are searched per played card.
ENUM_FROM = 2
# The most groups that enumeration keeps for one table; a table with more is searched per played card.
ENUM_BUDGET = 4096
# A table not made from the last one by a placement or a capture is enumerated at once from this many cards;
# a smaller one only when it is asked for again (see SumKind._groups).
ENUM_BUILD_FROM = 8


def as_cards(mask: int) -> Capture:
    """The cards of a bit mask over the deck (bit ``c`` for card ``c``), ascending: a capture."""
    taken = []
    while mask:
        low = mask & -mask
        taken.append(low.bit_length() - 1)
        mask ^= low
    return tuple(taken)


MASKS_REMEMBERED = 1 << 16  # masks a kind keeps the cards of (remember_cards), then forgets at once


def remember_cards(cards_of: dict[int, Capture], mask: int) -> Capture:
    """:func:`as_cards` of ``mask``, kept in ``cards_of`` for the next time (bounded: cleared past
    MASKS_REMEMBERED masks). Callers look ``cards_of`` up first and call this on a miss."""
    if len(cards_of) > MASKS_REMEMBERED:
        cards_of.clear()
    cards = cards_of[mask] = as_cards(mask)
    return cards


class KindOptionError(PigliaError):
    """Raised by a kind's constructor for options that do not fit together; reported at ``key`` of the kind."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


# The most legal moves one position may offer (every hand card's captures together): listing them stays within tens of
# megabytes. A real position offers a few dozen.
MAX_MOVES = 100_000


class MoveLimitError(LimitError):
    """A position would offer more than :data:`MAX_MOVES` legal moves."""

    def __init__(self, hand: int, table: int) -> None:
        super().__init__(
            f"a position with {hand} cards in hand and {table} on the table offers more than {MAX_MOVES:,} legal "
            "moves, the limit (capture.kinds: give the sum kinds a max_cards, or deal a smaller table)"
        )


class CaptureLimitError(LimitError):
    """A played card would have more captures of one kind than :data:`MAX_CAPTURES`."""

    def __init__(self, kind: str, card: str, table: int, count: int) -> None:
        super().__init__(
            f"capture kind {kind!r}: the {card} could take {count:,} different groups of the {table} table cards, "
            f"more than the limit of {MAX_CAPTURES:,} captures per played card (capture.kinds.{kind}: give it a "
            "max_cards, or deal a smaller table)"
        )
        self.kind = kind
        self.count = count


def count_subsets(values: Sequence[int], need: int, lo: int, hi: int) -> int:
    """How many groups of ``values`` (by position) of ``lo`` to ``hi`` cards add up to ``need``, without listing.

    A count by total (and by group size when the size is bounded), whatever the number of groups: the counts of
    every total up to ``need`` are the coefficients of one polynomial, prod(1 + x**v), held in one big integer
    (each coefficient in a slot wide enough for any count), so each card is one shift and one addition.
    """
    hi = min(hi, len(values))
    lo = max(lo, 0)
    if lo > hi or need < 0:
        return 0
    if any(v < 0 for v in values):
        return _count_by_dict(values, need, lo, hi)
    # a count of groups is below 2 ** len(values): a slot of len(values) + 1 bits holds it
    return _count_ways([(v,) for v in values], need, lo, hi, len(values) + 1)


def count_choices(alts: Sequence[Sequence[int]], need: int, lo: int, hi: int) -> int:
    """How many ways a group of ``lo`` to ``hi`` cards adds up to ``need``, each card counting one of its values
    ``alts[i]`` (values of 0 or less never join a sum): at least the number of such groups, since a group that
    reaches ``need`` with two choices of values counts twice. The polynomial count of :func:`count_subsets`, with
    prod(1 + x**a + x**b ...) over each card's values."""
    positive = [tuple({a for a in vs if a > 0}) for vs in alts]
    hi = min(hi, len(positive))
    lo = max(lo, 0)
    if lo > hi or need <= 0:
        return 0
    most = max((len(vs) for vs in positive), default=0)
    # a count of choices is below (most + 1) ** len(alts): a slot of this many bits holds it
    return _count_ways(positive, need, lo, hi, len(positive) * (most + 1).bit_length() + 1)


def _count_ways(alts: Sequence[Sequence[int]], need: int, lo: int, hi: int, width: int) -> int:
    """The count of :func:`count_choices` (``lo`` and ``hi`` within the number of cards), each coefficient in a slot
    of ``width`` bits."""
    if hi == len(alts):  # no upper bound: groups of any size, less those under lo cards
        return _count_any_size(alts, need, width) - _count_up_to(alts, need, lo - 1, width)
    return _count_up_to(alts, need, hi, width) - _count_up_to(alts, need, lo - 1, width)


def _times_card(poly: int, values: Sequence[int], width: int) -> int:
    """``poly`` times the sum of x**v over a card's values (the card joining a group), less the ``poly`` itself."""
    if len(values) == 1:
        return poly << (values[0] * width)
    return sum(poly << (a * width) for a in values)


def _count_any_size(alts: Sequence[Sequence[int]], need: int, width: int) -> int:
    keep = (1 << (width * (need + 1))) - 1  # the coefficients of the totals 0..need
    poly = 1
    for values in alts:
        poly = (poly + _times_card(poly, values, width)) & keep
    return (poly >> (width * need)) & ((1 << width) - 1)


def _count_up_to(alts: Sequence[Sequence[int]], need: int, most: int, width: int) -> int:
    """Groups of at most ``most`` cards: one polynomial per group size."""
    if most < 0:
        return 0
    keep = (1 << (width * (need + 1))) - 1
    polys = [1] + [0] * most  # polys[k]: groups of k cards, by total
    for values in alts:
        for k in range(most, 0, -1):
            if polys[k - 1]:
                polys[k] = (polys[k] + _times_card(polys[k - 1], values, width)) & keep
    digit = (1 << width) - 1
    return sum((p >> (width * need)) & digit for p in polys)


def _count_by_dict(values: Sequence[int], need: int, lo: int, hi: int) -> int:
    """The general count (negative values: totals can go down), by group size and total."""
    ways: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(hi)]
    for v in values:
        for k in range(hi - 1, -1, -1):
            grow = ways[k + 1]
            for total, n in ways[k].items():
                grow[total + v] = grow.get(total + v, 0) + n
    return sum(ways[k].get(need, 0) for k in range(lo, hi + 1))


@dataclass(frozen=True)
class KindInputs:
    """What a kind builder gets from the spec: its options (defaults applied), the deck and its compiled filters."""

    name: str
    options: Mapping[str, Any]
    deck: Deck
    played_ok: tuple[bool, ...]  # per card: may this card be played with this kind?
    takes_ok: tuple[tuple[bool, ...], ...]  # [played][card]: may the played card take this table card?
    target: tuple[int, ...] | None  # per played card, for kinds with a target expression
    # The compiled ``played``, ``cards`` and ``target`` expressions as written (for the rules page).
    exprs: Mapping[str, Compiled | int] = field(default_factory=dict)


class CaptureKind(Protocol):
    """One capture kind of a variant, ready to play."""

    name: str

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """Every capture this kind allows for ``played`` on ``table``, each once, in ascending order.

        The order is part of the contract: the engine lists legal moves in it without sorting again.
        """
        ...


# Every kind takes these keys: which played cards may use it, which table cards it may take.
FILTER_PROPERTIES: Mapping[str, Any] = {
    "played": {
        "type": "string",
        "minLength": 1,
        "description": "Which played cards may use this kind; sees card (the played card) and its attributes.",
    },
    "cards": {
        "type": "string",
        "minLength": 1,
        "description": "Which table cards may be taken by this kind; sees card (the table card) and played.",
    },
    "when": WHEN_PROPERTY,
}


class KindMechanic(Mechanic):
    """Base of a capture kind: built from :class:`KindInputs`, plays with ``captures``, phrases itself."""

    family = "capture"
    uses_target: ClassVar[bool] = False  # a ``target`` key, compiled per played card into ``KindInputs.target``
    one_set: ClassVar[bool] = True  # a capture is one set (a card or a group): the rules page says "never two"
    # Its own condition keys and the scope each sees: compiled (located errors) into ``KindInputs.exprs``.
    conditions: ClassVar[Mapping[str, Mapping[str, T]]] = {}

    def __init__(self, inp: KindInputs) -> None:
        self.name = inp.name
        self.inputs = inp

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """Every capture this kind allows (see :class:`CaptureKind`)."""
        raise NotImplementedError

    def masks(self, played: int, table: Sequence[int]) -> Collection[int]:
        """Every capture :meth:`captures` lists, as a bit mask over the deck (bit ``c`` for card ``c``), each once,
        in no order and in any collection (which callers never change): random play counts them and builds only
        the one it draws (:meth:`CaptureRules.pick <piglia.capture_rules.CaptureRules.pick>`). Optional: a kind whose
        class defines ``captures`` but not this (a plugin's, a subclass that searches otherwise) is counted through
        :meth:`captures`."""
        raise NotImplementedError

    def singles(self, played: int) -> tuple[int | None, int]:
        """What holds on every table of this kind's captures of ``played`` by one card, as two bit masks over the
        deck: ``exact``, when not None, says its captures are exactly the table's cards in that mask, each alone
        (0: it takes nothing); ``within``, cards each of which is a capture alone on any table that holds it.
        Optional, like :meth:`masks` (the default knows nothing: ``(None, 0)``): random play then asks only one
        kind of a tier where the other's captures are all among its own (a card matched is also a group of one).
        """
        return None, 0

    def forced(self, played: int, table: Sequence[int]) -> tuple[int, ...]:
        """The table cards that every capture of ``played`` by this kind takes (none by default): a capture
        that adds builds (mechanics/builds.py) may leave the loose cards alone only when this is empty."""
        return ()

    def signatures(self) -> tuple[Sequence[Hashable], Sequence[Hashable]] | None:
        """What this kind's captures depend on, per card of the deck: ``(played, table)`` signatures.

        The contract: two played cards with equal played signatures have the same captures on every table, and
        swapping a table card for another with an equal table signature swaps it in the captures too (the kind
        sees nothing else of a card). The engine memoises captures by these classes
        (:class:`~piglia.capture_rules.CaptureRules`). ``None`` (the default, and the safe answer for a new kind):
        no memo, the engine calls :meth:`captures` every time.
        """
        return None

    def reaches(self, played: int) -> int | None:
        """The table cards that can matter to this kind's captures of ``played``, as a bit mask over the deck
        (bit ``c`` for card ``c``), or None (the default): every card may.

        The contract: on every table, the captures of ``played`` are those it has on the table's cards in the
        mask alone (a card outside it is never taken and changes nothing). Like :meth:`signatures`, it must hold
        alike for every card of a class. The capture table keys its answers by the cards that can matter only,
        so tables that differ elsewhere share them (a 7 in a sum game reads no card above 7).
        """
        return None

    def phrase(self, page: Page) -> str:
        """What this kind takes, as the end of "A card takes ...": one sentence from the catalog."""
        options = ", ".join(f"{k}: {v}" for k, v in self.inputs.options.items() if k not in FILTER_PROPERTIES)
        return page.msg("kind.other", spec=f"`type: {self.key}{', ' if options else ''}{options}`")


def register_capture_kind(type_name: str | None = None) -> Callable[[Any], Any]:
    """Register a capture kind under a ``type`` name (compatible name of :func:`register_mechanic`).

    ``@register_capture_kind()`` on a :class:`KindMechanic` subclass registers it under its ``key``;
    ``@register_capture_kind("wild")`` on any class or function taking :class:`KindInputs` (the older form)
    registers it with no schema of its own options (any keys are accepted) and the generic phrasing.
    """

    def decorate(builder: Any) -> Any:
        if isinstance(builder, type) and issubclass(builder, KindMechanic):
            if type_name is not None and type_name != builder.key:
                raise PigliaError(f"{builder.__name__} has key {builder.key!r}, registered as {type_name!r}")
            register_mechanic(builder)
            return builder
        if type_name is None:
            raise PigliaError(f"register_capture_kind needs a type name for {builder!r}")
        wrapped = type(
            f"Legacy_{type_name}",
            (_LegacyKind,),
            {"key": type_name, "summary": f"{type_name}: a capture kind", "builder": staticmethod(builder)},
        )
        register_mechanic(wrapped)
        return builder

    return decorate


class _LegacyKind(KindMechanic):
    """A kind registered the older way: a builder function, no schema fragment (any option is accepted)."""

    open_schema: ClassVar[bool] = True
    uses_target = True
    builder: ClassVar[Callable[[KindInputs], CaptureKind]]

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        self._kind = type(self).builder(inp)

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        return self._kind.captures(played, table)


def build_kind(b: BuildContext, name: str, spec: Mapping[str, Any]) -> KindMechanic:
    """Check and compile one kind of ``capture.kinds``: the shared filters, then its own class."""
    deck = b.deck
    assert deck is not None
    path: Path = ("capture", "kinds", name)
    registered = mechanics("capture")
    cls = registered.get(spec["type"])
    if cls is None or not issubclass(cls, KindMechanic):
        raise b.fail((*path, "type"), f"unknown capture kind type {spec['type']!r}")
    n = len(deck)
    played_ok: tuple[bool, ...] = (True,) * n
    takes: tuple[tuple[bool, ...], ...] = ((True,) * n,) * n
    target: tuple[int, ...] | None = None
    exprs: dict[str, Compiled | int] = {}

    def affordable(c: Compiled, key: str, times: int) -> None:
        # a filter is computed at build time for every card (or pair of cards): bound the whole of that work
        if c.cost * times > MAX_FILTER_STEPS:
            raise b.fail(
                (*path, key),
                f"too costly: computed {times:,} times when the rules are loaded, at about {c.cost:,} steps each "
                f"(the limit is {MAX_FILTER_STEPS:,} steps in all): simplify it",
            )

    try:
        if "played" in spec:
            # docs/language.md: a filter sees its card's attributes bare (`played: not court`)
            f = b.compiled((*path, "played"), spec["played"], {"card": T.CARD}, T.BOOL, bare_card="card")
            exprs["played"] = f
            affordable(f, "played", n)
            played_ok = tuple(bool(f.fn(CardEnv(c, c))) for c in range(n))
        if "cards" in spec:
            g = b.compiled((*path, "cards"), spec["cards"], CARD_SCOPE, T.BOOL, bare_card="card")
            exprs["cards"] = g
            affordable(g, "cards", n * n)
            takes = tuple(tuple(bool(g.fn(CardEnv(c, p))) for c in range(n)) for p in range(n))
        if cls.uses_target and "target" in spec:
            t = b.quantity((*path, "target"), spec["target"], PLAYED_SCOPE)
            exprs["target"] = t
            if not isinstance(t, int):
                affordable(t, "target", n)
            target = (t,) * n if isinstance(t, int) else tuple(int(t.fn(CardEnv(p, p))) for p in range(n))
            if not isinstance(t, int) and not any(v >= 1 for v, ok in zip(target, played_ok, strict=True) if ok):
                # cards' values are positive: no group adds up to less than 1 (a written 0 is refused by the schema)
                raise b.fail((*path, "target"), "the target is below 1 for every card this kind plays: it would "
                             "never capture")  # fmt: skip
        for key, scope in cls.conditions.items():
            if key in spec:
                exprs[key] = b.compiled((*path, key), spec[key], scope, T.BOOL)
    except PigliaError as exc:
        raise b.fail(path, f"cannot be evaluated on every card: {exc}") from None
    when = b.compiled((*path, "when"), spec["when"], TABLE_SCOPE, T.BOOL) if "when" in spec else None
    if when is not None:
        exprs["when"] = when
    options = cls.with_defaults({k: v for k, v in spec.items() if k != "type"})
    inputs = KindInputs(name, options, deck, played_ok, takes, target, exprs)
    # A plugin's kind (its class, or an older kind's builder, outside piglia.) is checked (mechanics/guard.py);
    # Piglia's own run their own code, unwrapped.
    origin = cls.builder if issubclass(cls, _LegacyKind) else cls
    plugin = plugins.is_plugin(origin)
    try:
        kind = plugins.constructed("capture", cls.key, origin, lambda: cls(inputs)) if plugin else cls(inputs)
    except KindOptionError as exc:
        raise b.fail((*path, exc.key), exc.message) from None
    if plugin:
        kind = plugins.check_kind(kind, origin)
    if when is not None:
        guard(kind, when)
    return kind


def kind_text(kind: CaptureKind, page: Page) -> str:
    """The rules-page line of one kind: its own phrasing, then its filters."""
    if not isinstance(kind, KindMechanic):
        return page.msg("kind.other", spec=f"`{kind.name}`")
    text = kind.phrase(page)
    exprs = kind.inputs.exprs
    played, cards = exprs.get("played"), exprs.get("cards")
    if isinstance(played, Compiled):
        text += " " + page.msg("kind.played", mods=page.words.card_filter(played))
    if isinstance(cards, Compiled):
        text += " " + page.msg("kind.cards", mods=page.words.card_filter(cards))
    when = exprs.get("when")
    if isinstance(when, Compiled):
        text += " " + page.msg("kind.when", cond=page.words.condition(when))
    return text


def _same(a: Any, b: Any) -> bool:
    return bool(a & b) if isinstance(a, frozenset) else bool(a == b)


@register_mechanic
class MatchKind(KindMechanic):
    """Take one table card of the same value (``by: value``) or the same rank (``by: rank``)."""

    key = "match"
    summary = "Take one table card equal to the played card (the player picks which, if several)."
    properties: ClassVar[Mapping[str, Any]] = {
        "by": {"enum": ["value", "rank"], "description": "Equal capture value (the default) or equal rank."},
    }
    defaults: ClassVar[Mapping[str, Any]] = {"by": "value"}
    messages = ("kind.match_value", "kind.match_rank")

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        # Alternative values (``values: [1, 11]``): equal when the cards share one of their values.
        key: Sequence[Any] = (
            inp.deck.rank_of if inp.options["by"] == "rank" else [frozenset(v) for v in inp.deck.values_of]
        )
        n = len(key)
        # Per played card, which table cards it can take (None: it cannot be played with this kind): the
        # key comparison and both filters folded into one lookup per table card.
        self._hits: tuple[tuple[bool, ...] | None, ...] = tuple(
            tuple(_same(key[c], key[p]) and inp.takes_ok[p][c] for c in range(n)) if inp.played_ok[p] else None
            for p in range(n)
        )
        # The same rows as a list's bound __getitem__ (a fast method; a tuple's is a slower slot wrapper).
        self._hit_of: tuple[Callable[[int], bool] | None, ...] = tuple(
            None if row is None else list(row).__getitem__ for row in self._hits
        )
        # The same rows as bit masks over the deck (0: no capture of this kind), and the last table seen with its
        # mask: random play asks for each played class of the hand on one table, and then a capture is an `&`.
        self._hit_mask: list[int] = [
            sum(1 << c for c, hit in enumerate(row) if hit) if row else 0 for row in self._hits
        ]
        self._last: tuple[list[int], int] = ([], 0)
        self._bit_of = bit_of(n)

    def phrase(self, page: Page) -> str:
        return page.msg(f"kind.match_{self.inputs.options['by']}")

    def signatures(self) -> tuple[Sequence[Hashable], Sequence[Hashable]]:
        # A played card is its row of hits; a table card its column (whom it matches): nothing else is read.
        n = len(self._hits)
        return self._hits, [tuple(row is not None and row[c] for row in self._hits) for c in range(n)]

    def reaches(self, played: int) -> int:
        return self._hit_mask[played]  # the cards it takes, one at a time: no other card changes that

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        hits = self._hit_of[played]
        if hits is None:
            return []
        found = list(filter(hits, table))  # in C: no Python frame per table card
        if len(found) > 1:
            found.sort()
        return list(zip(found))  # one-card captures: (c,) each

    def singles(self, played: int) -> tuple[int | None, int]:
        # every capture is one table card it hits, alone, whatever else lies on the table
        hit = self._hit_mask[played]
        return hit, hit

    def masks(self, played: int, table: Sequence[int]) -> Collection[int]:
        hit = self._hit_mask[played]
        if not hit:
            return ()
        last = self._last  # read once: the pair stays consistent whoever replaces it
        if last[0] == table:  # a list compared in C, cheaper than the mask summed again
            on_table = last[1]
        else:
            on_table = sum(map(self._bit_of, table))
            self._last = (list(table), on_table)
        found = on_table & hit
        if not found & (found - 1):  # none, or one card (the commonest answers)
            return (found,) if found else ()
        return list(map(self._bit_of, as_cards(found)))  # each card its own capture


@register_mechanic
class SumKind(KindMechanic):
    """Take a group of table cards whose values add up to the target (the played card's value by default).

    With ``include_played`` the played card's own value counts towards the target (sum-to-15 games). The search
    visits cards by decreasing value and stops a branch as soon as the rest cannot reach the target, so it
    never lists the subsets of the table.
    """

    key = "sum"
    summary = "Take a group of table cards whose values add up to a target."
    uses_target = True
    properties: ClassVar[Mapping[str, Any]] = {
        "target": {
            "description": "The total the group must reach: a number, or an expression that sees played "
            "(default: played.value).",
            "oneOf": [{"type": "integer", "minimum": 1, "maximum": MAX_SUM_NEED}, {"type": "string", "minLength": 1}],
        },
        "include_played": {
            "type": "boolean",
            "description": "Count the played card's value in the total too (sum-to-15 games).",
        },
        "min_cards": {"type": "integer", "minimum": 1, "description": "Fewest table cards in the group."},
        "max_cards": {
            "type": "integer",
            "minimum": 1,
            "description": "Most table cards in the group (default: no limit).",
        },
    }
    defaults: ClassVar[Mapping[str, Any]] = {"include_played": False, "min_cards": 1}
    messages = (
        "kind.sum",
        "kind.sum_with_played",
        "kind.sum_played_value",
        "kind.min_cards",
        "kind.max_cards",
        "kind.courts_in_sums",
    )

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        values = inp.deck.value_of
        self._values = values
        self._takes_ok = inp.takes_ok
        self._all_ok = tuple(all(row) for row in inp.takes_ok)  # no filter to apply for this played card
        self._bitset = all(v >= 0 for v in values)  # totals as bits of an int: values must not be negative
        include_played = bool(inp.options["include_played"])
        self._min = int(inp.options["min_cards"])
        self._max = int(inp.options.get("max_cards", 10_000))
        if self._max < self._min:
            raise KindOptionError("max_cards", f"max_cards ({self._max}) is less than min_cards ({self._min})")
        self._any_size = self._min <= 1 and self._max >= len(values)  # no group is ever out of the size bounds
        target = inp.target if inp.target is not None else values
        # Per played card, the total the taken cards must reach (None: no capture of this kind).
        needs = (target[p] - (values[p] if include_played else 0) for p in range(len(values)))
        self._need: tuple[int | None, ...] = tuple(
            need if ok and need >= 0 else None for need, ok in zip(needs, inp.played_ok, strict=True)
        )
        if inp.target is not None:  # card values are within the bound already (the schema): a target may not be
            for p, ok in enumerate(inp.played_ok):
                if ok and target[p] > MAX_SUM_NEED:
                    raise KindOptionError(
                        "target",
                        f"the {inp.deck.cards[p].id} would seek a total of {target[p]:,}: a sum may seek at most "
                        f"{MAX_SUM_NEED:,}, the highest card value",
                    )
        # The search order (decreasing value, then index) as one integer key per card.
        order = sorted(range(len(values)), key=lambda c: (-values[c], c))
        position = [0] * len(values)
        for i, c in enumerate(order):
            position[c] = i
        self._order = tuple(position)
        self._order_of = list(position).__getitem__  # a list's fast __getitem__ (a tuple's is a slot wrapper)
        # Played cards with the same filter row see the table alike (one prepared table serves them all).
        rows: dict[tuple[bool, ...], int] = {}
        self._row = tuple(rows.setdefault(row, len(rows)) for row in inp.takes_ok)
        self._last: tuple[tuple[int, tuple[int, ...]], _Prepared] | None = None
        # The shared enumeration (values of at least 1, one value per card, no filter on the group's size
        # beyond min/max cards): per filter row, the bit of each card it may take, the largest need, and the
        # groups of the last table seen as bit masks by total.
        self._row_bits: list[tuple[int, ...]] = [()] * len(rows)
        self._row_top: list[int] = [0] * len(rows)
        self._row_enum: list[bool] = [False] * len(rows)  # every card the row may take is worth 1 or more
        for p, row in enumerate(inp.takes_ok):
            r = self._row[p]
            self._row_bits[r] = tuple(1 << c if ok else 0 for c, ok in enumerate(row))
            self._row_enum[r] = all(values[c] >= 1 for c, ok in enumerate(row) if ok)
            need_p = self._need[p]
            if need_p is not None:
                self._row_top[r] = max(self._row_top[r], need_p)
        # Each row's bits as a list's bound __getitem__ (a fast method; a tuple's is a slower slot wrapper).
        self._row_bit_of = [list(bits).__getitem__ for bits in self._row_bits]
        # Per row, the last table enumerated: as a list (compared in C, faster than its mask is summed), its
        # mask, and its groups by total (None: over the budget); see _groups.
        self._enum_last: list[tuple[list[int], int, list[list[int]] | None] | None] = [None] * len(rows)
        self._cards_of: dict[int, tuple[int, ...]] = {}
        self._pending: dict[int, int] = {}  # per row, a table seen once and not enumerated (see _groups)
        # Alternative values (``values: [1, 11]``, docs/language.md): per played card, every total to reach
        # (one per value it may count as); the search then tries each table card's alternatives.
        self._alt_needs: tuple[tuple[int, ...], ...] | None = None
        alts = inp.deck.values_of
        if any(len(v) > 1 for v in alts):
            self._alt_needs = tuple(
                tuple(
                    n
                    for v in alts[p]
                    if (n := (target[p] if inp.target is not None else v) - (v if include_played else 0)) > 0
                )
                if inp.played_ok[p]
                else ()
                for p in range(len(values))
            )

    def phrase(self, page: Page) -> str:
        options, exprs = self.inputs.options, self.inputs.exprs
        target = exprs.get("target")
        if target is None:
            target_text = page.msg("kind.sum_played_value")
        else:
            target_text = str(target) if isinstance(target, int) else page.words.number(target)
        text = page.msg("kind.sum_with_played" if options["include_played"] else "kind.sum", target=target_text)
        if options["min_cards"] != self.defaults["min_cards"]:
            text += " " + page.msg("kind.min_cards", n=options["min_cards"])
        if "max_cards" in options:
            text += " " + page.msg("kind.max_cards", n=options["max_cards"])
        if not exprs.keys() & {"played", "cards"} and any(r.court for r in self.inputs.deck.ranks):
            text += " " + page.msg("kind.courts_in_sums")
        return text

    def check_count(self, played: int, table_size: int, vals: Sequence[int], need: int) -> None:
        """Raise :class:`CaptureLimitError` when more than :data:`MAX_CAPTURES` groups of ``vals`` reach ``need``."""
        found = count_subsets(vals, need, self._min, self._max)
        if found > MAX_CAPTURES:
            raise CaptureLimitError(self.name, self.inputs.deck.cards[played].id, table_size, found)

    def count(self, played: int, table: Sequence[int]) -> int:
        """How many captures :meth:`captures` would list, counted without listing them."""
        need = self._need[played]
        if need is None:
            return 0
        ok = self._takes_ok[played]
        return count_subsets([self._values[c] for c in table if ok[c]], need, self._min, self._max)

    def signatures(self) -> tuple[Sequence[Hashable], Sequence[Hashable]] | None:
        # The search reads a played card's need and filter row, and a table card's value and filter column.
        if self._alt_needs is not None:
            return None  # alternative values: the search reads more than one value per card; no memo
        n = len(self._values)
        played = [(self._need[p], self._takes_ok[p]) for p in range(n)]
        table = [(self._values[c], tuple(row[c] for row in self._takes_ok)) for c in range(n)]
        return played, table

    def reaches(self, played: int) -> int | None:
        # A group reaches its total only with cards worth no more than it, when no value is negative.
        if self._alt_needs is not None or not self._bitset:
            return None
        need = self._need[played]
        if need is None:
            return 0
        ok, values = self._takes_ok[played], self._values
        return sum(1 << c for c in range(len(values)) if ok[c] and values[c] <= need)

    def _prepared(self, played: int, table: Sequence[int]) -> _Prepared:
        """The table as the search sees it under ``played``'s filter: the totals its groups reach (as bits), its
        cards in search order, their values, their suffix sums. The last one is remembered: listing a turn's
        moves asks for every card of the hand on the same table, and most share a filter."""
        key = (self._row[played], tuple(table))
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        ok = self._takes_ok[played]
        values = self._values
        reach = -1  # every total (unknown): values may be negative
        if self._bitset:
            # Which totals some group of the table reaches is one integer's bits, built in a few shifts.
            reach = 1
            for c in table:
                if ok[c]:
                    reach |= reach << values[c]
        cards = sorted(table if self._all_ok[played] else [c for c in table if ok[c]], key=self._order_of)
        vals = [values[c] for c in cards]
        suffix = [0] * (len(cards) + 1)
        for i in range(len(cards) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + vals[i]
        prepared = (reach, cards, vals, suffix)
        self._last = (key, prepared)
        return prepared

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        if self._alt_needs is not None:
            return self._alt_captures(played, table)
        need = self._need[played]
        if need is None:
            return []
        # (the parentheses: Cython's parser wants them, benchmarks/cythonized.py)
        if len(table) >= ENUM_FROM and self._row_enum[(row := self._row[played])]:
            groups = self._groups(row, table)
            if groups is not None:
                return self._listed(groups[need] if need < len(groups) else [])
        return self.search_captures(played, table)

    def singles(self, played: int) -> tuple[int | None, int]:
        need = self._need[played]
        if need is None:
            return 0, 0  # this card takes nothing by this kind
        if self._alt_needs is not None or not self._min <= 1 <= self._max:
            return None, 0
        # a card worth the need that the filter lets it take is a group of one on any table
        ok = self._takes_ok[played]
        values = self._values
        return None, mask_of([c for c in range(len(values)) if ok[c] and values[c] == need])

    def masks(self, played: int, table: Sequence[int]) -> Collection[int]:
        # The shared enumeration holds the groups as masks already: counting them builds no capture (random play
        # turns only the drawn one into cards), and the enumeration's own list is given, not a copy. Elsewhere (a
        # small table asked once, a table over the budget, alternative values) the captures are listed and turned
        # into masks. The table's groups are looked up inline (_groups' first step): a turn of random play asks
        # this for each played class of the hand, on one table.
        need = self._need[played]
        if need is None:
            return ()
        row = self._row[played]
        last = self._enum_last[row]
        if last is not None and last[0] == table and last[2] is not None:  # _groups' first step, inline
            groups = last[2]
        elif self._alt_needs is None and len(table) >= ENUM_FROM and self._row_enum[row]:
            found = self._groups(row, table)
            if found is None:
                return set(map(mask_of, self.search_captures(played, table)))
            groups = found
        else:
            return set(map(mask_of, self.captures(played, table)))
        if not 0 < need < len(groups):  # need 0: only the empty group, never a capture (min_cards >= 1)
            return ()
        if self._any_size:
            return groups[need]
        lo, hi = self._min, self._max
        return [m for m in groups[need] if lo <= m.bit_count() <= hi]

    def search_captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        """:meth:`captures` by a search for this played card alone (the reference for the shared enumeration)."""
        need = self._need[played]
        if need is None:
            return []
        reach, cards, vals, suffix = self._prepared(played, table)
        # Most tables have no group adding up to the need: then there is no search.
        if not (reach >> need) & 1:
            return []
        if not cards:
            return [()] if need == 0 and self._min <= 0 else []
        if need > 0 and (vals[-1] > need or suffix[0] < need):
            return []  # no card is small enough, or all of them together are too few: what the search would find
        count = len(cards)
        if count > _COUNT_FROM:
            self.check_count(played, len(table), vals, need)
            if need > 0:  # (a need of 0: only cards worth 0, already counted, can make it)
                return self._pruned_search(cards, vals, need)
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

    def _pruned_search(self, cards: list[int], vals: list[int], need: int) -> list[Capture]:
        """:meth:`search_captures` on a big table: the same groups, by the search that follows a branch only where
        the cards left can still complete it (:func:`piglia.mechanics.sets.sum_groups`'s, on big tables), so that
        the time goes with the groups (counted first, and at most MAX_CAPTURES), not with the dead ends a big table
        of low cards is full of."""
        from piglia.mechanics.sets import _sum_groups  # sets builds on this module

        groups = _sum_groups([(v,) for v in vals], need, self._min, self._max)
        return sorted(tuple(sorted(cards[i] for i in as_cards(m))) for m in groups)

    def _groups(self, row: int, table: Sequence[int]) -> list[list[int]] | None:
        """Every group of the ``table`` cards filter ``row`` allows, with a total up to the row's largest need,
        as bit masks (bit ``c`` for card ``c``) listed by total; None when there are more than ENUM_BUDGET.

        Kept per row for the last table seen (as a list, its mask, its groups) and given again while the table is
        that one, or brought up to date from it when the new table is that one plus a card (a placement: the
        groups with the card are added) or less some cards (a capture: the groups that hold any of them are
        dropped); otherwise built again, one card at a time, or (a small table, asked for the first time) None:
        the caller searches.
        """
        last = self._enum_last[row]
        if last is not None and last[0] == table:  # a list compared in C: a turn asks for each card of the hand
            return last[2]
        mask = sum(map(self._row_bit_of[row], table))
        if last is not None:
            _, known, groups = last
            if known == mask:  # only cards this row may not take came or went
                self._enum_last[row] = (list(table), mask, groups)
                return groups
            added, removed = mask & ~known, known & ~mask
            if groups is None:
                if not removed:  # a bigger table than one already over the budget: over it too
                    self._enum_last[row] = (list(table), mask, None)
                    return None
            elif removed and not added:
                drop = removed.__and__  # the groups that hold a removed card, filtered out in C
                groups = [list(filterfalse(drop, by)) if by else by for by in groups]
                self._enum_last[row] = (list(table), mask, groups)
                return groups
            elif added and not removed and not added & (added - 1):
                groups = self._add_card(groups, added.bit_length() - 1)
                self._enum_last[row] = (list(table), mask, groups)
                return groups
        # A table not made from the last one (another deal, a search's copy): built when it is big or asked for a
        # second time (another card of the turn), else searched per card this once.
        if len(table) < ENUM_BUILD_FROM and self._pending.get(row) != mask:
            self._pending[row] = mask
            return None
        self._pending.pop(row, None)
        grown: list[list[int]] | None = [[0]] + [[] for _ in range(self._row_top[row])]
        rest = mask
        while rest and grown is not None:
            low = rest & -rest
            rest ^= low
            grown = self._add_card(grown, low.bit_length() - 1)
        self._enum_last[row] = (list(table), mask, grown)
        return grown

    def _add_card(self, groups: list[list[int]] | None, card: int) -> list[list[int]] | None:
        """``groups`` (by total) with the groups that hold ``card`` added; None past the budget."""
        if groups is None:
            return None
        value = self._values[card]
        with_card = (1 << card).__or__  # once: an attribute read makes a new bound method each time
        grown = list(groups)
        for total in range(len(groups) - 1, value - 1, -1):
            below = groups[total - value]
            if below:
                grown[total] = [*groups[total], *map(with_card, below)]  # in C
        if sum(map(len, grown)) > ENUM_BUDGET:
            return None
        return grown

    def _listed(self, masks: list[int]) -> list[Capture]:
        """Groups given as bit masks, as captures: within the size bounds, cards ascending, the list ascending."""
        lo, hi = self._min, self._max
        cards_of = self._cards_of
        found: list[Capture] = []
        for m in masks:
            cards = cards_of.get(m)
            if cards is None:
                if m == 0:
                    continue
                cards = remember_cards(cards_of, m)
            if lo <= len(cards) <= hi:
                found.append(cards)
        found.sort()
        return found

    def _alt_captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        from piglia.mechanics.sets import SearchTooLong, sum_groups  # sets builds on this module

        assert self._alt_needs is not None
        ok = self._takes_ok[played]
        cards = [c for c in table if ok[c]]
        alts = [self.inputs.deck.values_of[c] for c in cards]
        masks: set[int] = set()
        for need in self._alt_needs[played]:
            # counted before they are listed, as single values are (check_count): the ways to make the need bound
            # the groups, and a search past the limit would run for hours
            ways = count_choices(alts, need, self._min, self._max)
            try:  # past the limit in ways, the search for the groups is given a bounded number of steps
                masks |= sum_groups(alts, need, self._min, self._max, SEARCH_STEPS if ways > MAX_CAPTURES else inf)
            except SearchTooLong:
                deck = self.inputs.deck
                raise LimitError(
                    f"capture kind {self.name!r}: the {deck.cards[played].id} could take groups of the {len(table)} "
                    f"table cards in {ways:,} ways (each card counting one of its values), too many to search "
                    f"within {SEARCH_STEPS:,} steps (capture.kinds.{self.name}: give it a max_cards, or deal a "
                    "smaller table)"
                ) from None
            if len(masks) > MAX_CAPTURES:
                raise CaptureLimitError(self.name, self.inputs.deck.cards[played].id, len(table), len(masks))
        found = [tuple(sorted(c for i, c in enumerate(cards) if m >> i & 1)) for m in masks]
        found.sort()
        return found


@register_mechanic
class AllKind(KindMechanic):
    """Take every table card (that the ``cards`` filter allows) at once."""

    key = "all"
    summary = "Take every table card (those allowed by cards), e.g. an ace that sweeps the table."
    messages = ("kind.all",)

    def __init__(self, inp: KindInputs) -> None:
        super().__init__(inp)
        self._played_ok = inp.played_ok
        self._takes_ok = inp.takes_ok

    def phrase(self, page: Page) -> str:
        return page.msg("kind.all")

    def signatures(self) -> tuple[Sequence[Hashable], Sequence[Hashable]]:
        n = len(self._played_ok)
        played = [(self._played_ok[p], self._takes_ok[p]) for p in range(n)]
        return played, [tuple(row[c] for row in self._takes_ok) for c in range(n)]

    def reaches(self, played: int) -> int:
        if not self._played_ok[played]:
            return 0
        return sum(1 << c for c, ok in enumerate(self._takes_ok[played]) if ok)

    def captures(self, played: int, table: Sequence[int]) -> list[Capture]:
        if not self._played_ok[played]:
            return []
        ok = self._takes_ok[played]
        taken = tuple(sorted(c for c in table if ok[c]))
        return [taken] if taken else []

    def masks(self, played: int, table: Sequence[int]) -> AbstractSet[int]:
        if not self._played_ok[played]:
            return frozenset()
        ok = self._takes_ok[played]
        mask = 0
        for c in table:
            if ok[c]:
                mask |= 1 << c
        return {mask} if mask else frozenset()
