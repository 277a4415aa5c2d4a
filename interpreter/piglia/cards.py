"""Cards, suits, ranks and decks: the small immutable values every other module speaks in.

A variant declares its suits and ranks; a card is one rank of one suit and is named by its id, the rank's id
followed by the suit's id (``7d``). Inside the engine a card is its integer index in the deck (0..n-1), so that
hands, tables and piles are tuples of small ints and card attributes are array lookups precomputed once per
variant. :class:`Card` is the value the public API hands out.

>>> deck = Deck.build(
...     suits=[Suit("hearts", "h", 0)],
...     ranks=[Rank("ace", "A", 0, 1, False), Rank("7", "7", 1, 7, False)],
... )
>>> deck.parse_card("7h")
Card('7h')
>>> deck.parse_card("7h").name
'7 of hearts'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from piglia.errors import PigliaError

__all__ = ["Card", "Deck", "Rank", "Suit", "Table", "bit_of", "mask_of"]

# 1 << c for each card c, read through a list (an existing int, where a shift makes a new one), grown in place
# for a bigger deck.
_BITS = [1 << c for c in range(128)]
_bit_of = _BITS.__getitem__


def bit_of(size: int) -> Callable[[int], int]:
    """Card ``c`` -> ``1 << c`` for the cards of a deck of ``size``, as a fast function for ``map``."""
    if size > len(_BITS):
        _BITS.extend(1 << c for c in range(len(_BITS), size))
    return _bit_of


def mask_of(cards: Sequence[int]) -> int:
    """The bit mask (bit ``c`` for card ``c``) of ``cards``, distinct card indexes of a deck."""
    try:
        return sum(map(_bit_of, cards))
    except IndexError:  # a deck of more than 128 cards
        return sum(map(bit_of(max(cards) + 1), cards))


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit: its name, its short id (the last part of a card id) and its index in the deck.

    ``aliases`` are other names expressions may call it by: a suit that plays the role of another (the French
    diamonds as coins) answers to that suit's name too.
    """

    name: str
    id: str
    index: int
    props: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank: name, short id, index in rank order, capture value, whether it is a court, named properties.

    ``aliases`` are other names expressions and tables may call it by (a French K playing the role of a re).
    """

    name: str
    id: str
    index: int
    value: int
    court: bool
    props: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    aliases: tuple[str, ...] = ()
    # Alternative capture values (``values: [1, 11]``): the card counts as any one of them, each card on its own;
    # empty when the rank has only ``value``. ``value`` is always one of them (the one expressions read).
    values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, repr=False)
class Card:
    """One card of a deck: a rank of a suit. ``str(card)`` is its id, ``card.name`` its words.

    Cards of a deck are ordered as the deck is (suit by suit, rank by rank), so moves sort.
    """

    id: str
    rank: Rank = field(compare=False)
    suit: Suit = field(compare=False)
    index: int = field(compare=False)

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return f"Card({self.id!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    @property
    def name(self) -> str:
        """The card in words, e.g. ``7 of hearts``."""
        return f"{self.rank.name} of {self.suit.name}"

    @property
    def value(self) -> int:
        """The capture value of the card's rank."""
        return self.rank.value


@dataclass(frozen=True, slots=True)
class Table:
    """A named table of card values (points per rank, say), keyed by rank, suit or card."""

    name: str
    key: str  # "rank", "suit" or "card"
    values: tuple[int, ...]

    def of_card(self, deck: Deck, card: int) -> int:
        """The table's value for the card with index ``card``."""
        if self.key == "rank":
            return self.values[deck.rank_of[card]]
        if self.key == "suit":
            return self.values[deck.suit_of[card]]
        return self.values[card]


class Deck:
    """The cards of a variant, with per-card attribute arrays for the engine's hot paths.

    Build it with :meth:`build`; it is never mutated afterwards.
    """

    __slots__ = (
        "by_id",
        "cards",
        "court_of",
        "prop_of",
        "rank_by_name",
        "rank_of",
        "ranks",
        "suit_by_name",
        "suit_of",
        "suits",
        "tables",
        "value_of",
        "values_of",
    )

    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    suit_by_name: Mapping[str, Suit]
    rank_by_name: Mapping[str, Rank]
    suit_of: tuple[int, ...]
    rank_of: tuple[int, ...]
    value_of: tuple[int, ...]
    values_of: tuple[tuple[int, ...], ...]  # per card, every capture value it may count as (``value`` first)
    court_of: tuple[bool, ...]
    prop_of: Mapping[str, tuple[Any, ...]]
    tables: Mapping[str, Table]

    @classmethod
    def build(
        cls,
        suits: Sequence[Suit],
        ranks: Sequence[Rank],
        tables: Iterable[Table] = (),
    ) -> Deck:
        """Make the deck of every rank in every suit, ordered suit by suit, rank by rank."""
        deck = cls.__new__(cls)
        deck.suits = tuple(suits)
        deck.ranks = tuple(ranks)
        cards: list[Card] = []
        for suit in deck.suits:
            for rank in deck.ranks:
                cards.append(Card(rank.id + suit.id, rank, suit, len(cards)))
        deck.cards = tuple(cards)
        deck.by_id = MappingProxyType({c.id: c for c in cards})
        if len(deck.by_id) != len(cards):
            raise PigliaError("card ids are not unique: two rank+suit ids spell the same card")
        # Aliases resolve like names, so expressions written for one deck read the same on a deck whose
        # suits or ranks play those roles; a real name wins over an alias of another suit or rank.
        deck.suit_by_name = MappingProxyType(
            {**{a: s for s in deck.suits for a in s.aliases}, **{s.name: s for s in deck.suits}}
        )
        deck.rank_by_name = MappingProxyType(
            {**{a: r for r in deck.ranks for a in r.aliases}, **{r.name: r for r in deck.ranks}}
        )
        deck.suit_of = tuple(c.suit.index for c in cards)
        deck.rank_of = tuple(c.rank.index for c in cards)
        deck.value_of = tuple(c.rank.value for c in cards)
        deck.values_of = tuple((c.rank.value, *(v for v in c.rank.values if v != c.rank.value)) for c in cards)
        deck.court_of = tuple(c.rank.court for c in cards)
        names = {k for r in deck.ranks for k in r.props} | {k for s in deck.suits for k in s.props}
        deck.prop_of = MappingProxyType(
            {name: tuple(c.rank.props.get(name, c.suit.props.get(name)) for c in cards) for name in names}
        )
        deck.tables = MappingProxyType({t.name: t for t in tables})
        return deck

    def __len__(self) -> int:
        return len(self.cards)

    def parse_card(self, text: str) -> Card:
        """The card with this id; raises :class:`PigliaError` for an unknown id."""
        try:
            return self.by_id[text]
        except KeyError:
            raise PigliaError(f"unknown card {text!r}") from None

    def card_name(self, index: int) -> str:
        """The words for the card with this index."""
        return self.cards[index].name

    def ids(self, indexes: Iterable[int]) -> list[str]:
        """Card ids for card indexes, in deck order."""
        return [self.cards[i].id for i in sorted(indexes)]
