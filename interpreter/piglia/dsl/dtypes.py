"""The DSL's types, and the words error messages use for them."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

__all__ = ["ELEMENT_OF", "Scope", "T", "collection_of", "describe", "describe_any"]


class T(enum.Enum):
    """The type of a DSL value; the comment says how the value is represented at run time."""

    INT = "int"  # int
    BOOL = "bool"  # bool
    STR = "str"  # str
    CARD = "card"  # int: index into deck.cards (-1: no card)
    CARDS = "cards"  # a collection of card ints (tuple, list, frozenset...)
    SUIT = "suit"  # int: index into deck.suits
    SUITS = "suits"  # tuple of suit ints
    RANK = "rank"  # int: index into deck.ranks (rank order)
    RANKS = "ranks"  # tuple of rank ints
    PLAY = "play"  # object with .card, .captured, .placed, .player


class Scope(dict[str, T]):
    """The variables a place in a variant file may read, and their types (a plain mapping does as well).

    ``bits`` names, for some card collections of the scope, the attribute of the environment that also gives that
    collection as a bit mask (bit ``c`` set for card ``c``; the collection holds each card once): an aggregate
    over such a collection (``count``, ``empty``, ``any``, ``all``, ``sum``, ``max``, ``min``) then runs on the
    mask, in a few integer operations and table lookups instead of a pass over its cards.
    """

    def __init__(self, types: Mapping[str, T], *, bits: Mapping[str, str] | None = None) -> None:
        super().__init__(types)
        self.bits: Mapping[str, str] = dict(bits or {})


_WORDS = {
    T.INT: "a number",
    T.BOOL: "a true/false condition",
    T.STR: "a string",
    T.CARD: "a card",
    T.CARDS: "cards",
    T.SUIT: "a suit",
    T.SUITS: "suits",
    T.RANK: "a rank",
    T.RANKS: "ranks",
    T.PLAY: "a play",
}

# The element type of each collection type, for `in`, comprehensions and distinct().
ELEMENT_OF = {T.CARDS: T.CARD, T.SUITS: T.SUIT, T.RANKS: T.RANK}
_COLLECTION_OF = {element: collection for collection, element in ELEMENT_OF.items()}


def describe(t: T) -> str:
    """The words for a type in an error message: ``a number``, ``cards``..."""
    return _WORDS[t]


def describe_any(types: Iterable[T]) -> str:
    """``a number``, ``a number or a card``, ``a number, a card or a suit``."""
    words = [describe(t) for t in types]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def collection_of(t: T) -> T | None:
    """The collection type whose elements are ``t`` (CARD -> CARDS), or None."""
    return _COLLECTION_OF.get(t)
