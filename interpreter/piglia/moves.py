"""Moves: the played card and the exact set of table cards it takes, with a compact text notation.

``7d`` leaves the 7 of coins on the table; ``7d x 3c+4s`` plays it to take the 3 of cups and the 4 of swords.
Where the rules have builds (:mod:`piglia.mechanics.builds`), ``3c on 4s+2h = 9`` plays the 3 of cups onto the
table cards 4s and 2h (loose cards, or the cards of a build it adds to) as a build announced as 9.
The notation round-trips: ``Move.parse(str(move), deck) == move``.
"""

from __future__ import annotations

from dataclasses import dataclass

from piglia.cards import Card, Deck
from piglia.errors import PigliaError

__all__ = ["BuildRaw", "Move"]


class BuildRaw(tuple[int, tuple[int, ...]]):
    """The engine's raw form of a build move: shaped as the raw placement ``(card, ())`` (the card joins the
    table, nothing is taken), with the table cards it joins (``onto``, ascending) and the announced ``value``.

    It equals only a build raw of the same card, cards and value (never the plain placement), so that lists and
    dictionaries of raw moves tell them apart.
    """

    onto: tuple[int, ...]
    value: int

    def __new__(cls, card: int, onto: tuple[int, ...], value: int) -> BuildRaw:
        raw = super().__new__(cls, (card, ()))
        raw.onto = onto
        raw.value = value
        return raw

    def __getnewargs__(self) -> tuple[int, tuple[int, ...], int]:
        return (self[0], self.onto, self.value)

    def __eq__(self, other: object) -> bool:
        return type(other) is BuildRaw and other[0] == self[0] and other.onto == self.onto and other.value == self.value

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("build", self[0], self.onto, self.value))

    def __repr__(self) -> str:
        return f"BuildRaw({self[0]}, {self.onto}, {self.value})"


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A card played from the hand and the table cards it captures (empty: the card stays on the table).

    ``action`` names the kind of turn: ``"play"`` (a capture or a placement) or ``"build"`` (the card joins the
    table cards ``onto`` as a build announced as ``value``; nothing is captured).
    """

    card: Card
    captured: tuple[Card, ...] = ()
    action: str = "play"
    value: int = 0
    onto: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "captured", tuple(sorted(self.captured, key=lambda c: c.index)))
        object.__setattr__(self, "onto", tuple(sorted(self.onto, key=lambda c: c.index)))
        if self.action not in ("play", "build"):
            raise PigliaError(f"unknown move action {self.action!r}: play or build")
        if self.action == "build" and (self.captured or not self.onto or self.value <= 0):
            raise PigliaError("a build move takes nothing, joins some table cards and announces a value above 0")

    @classmethod
    def build(cls, card: Card, onto: tuple[Card, ...], value: int) -> Move:
        """The build move: ``card`` joins the table cards ``onto`` as a build announced as ``value``."""
        return cls(card, (), "build", value, onto)

    @property
    def is_build(self) -> bool:
        """True for a build move (the card joins table cards as a build)."""
        return self.action == "build"

    @property
    def raw(self) -> tuple[int, tuple[int, ...]]:
        """The engine's raw form (:meth:`piglia.state.State.raw_moves`): ``(card, captured)`` by deck index, or a
        :class:`BuildRaw` for a build."""
        if self.action == "build":
            return BuildRaw(self.card.index, tuple(c.index for c in self.onto), self.value)
        return (self.card.index, tuple(c.index for c in self.captured))

    @classmethod
    def _sorted(cls, card: Card, captured: tuple[Card, ...]) -> Move:
        """A move whose captured cards are already in deck order (the engine's): no sorting again."""
        move = object.__new__(cls)
        _SET_CARD(move, card)  # the slots' own setters: what object.__setattr__ ends up calling, called directly
        _SET_CAPTURED(move, captured)
        _SET_ACTION(move, "play")
        _SET_VALUE(move, 0)
        _SET_ONTO(move, ())
        return move

    def __str__(self) -> str:
        if self.action == "build":
            return f"{self.card.id} on {'+'.join(c.id for c in self.onto)} = {self.value}"
        if not self.captured:
            return self.card.id
        return f"{self.card.id} x {'+'.join(c.id for c in self.captured)}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @property
    def is_capture(self) -> bool:
        """True when the move takes table cards."""
        return bool(self.captured)

    def describe(self) -> str:
        """The move in words: ``7 of coins takes 3 of cups + 4 of swords``."""
        if self.action == "build":
            return f"{self.card.name} builds {self.value} on {' + '.join(c.name for c in self.onto)}"
        if not self.captured:
            return f"{self.card.name} stays on the table"
        return f"{self.card.name} takes {' + '.join(c.name for c in self.captured)}"

    @classmethod
    def parse(cls, text: str, deck: Deck) -> Move:
        """Read ``7d``, ``7d x 3c+4s`` or ``3c on 4s+2h = 9``; raises :class:`PigliaError` for unknown cards or
        bad notation."""
        if " on " in text or "=" in text:
            return cls._parse_build(text, deck)
        played, sep, taken = text.strip().partition(" x ")
        if not played or (sep and not taken.strip()):
            raise PigliaError(f"cannot read move {text!r}: write a card id, or 'CARD x CARD+CARD'")
        card = deck.parse_card(played.strip())
        captured = tuple(deck.parse_card(t.strip()) for t in taken.split("+")) if sep else ()
        return cls(card, captured)

    @classmethod
    def _parse_build(cls, text: str, deck: Deck) -> Move:
        played, sep, rest = text.strip().partition(" on ")
        cards, eq, value = rest.rpartition("=")
        value = value.strip()
        # ASCII digits, and not too many: str.isdigit() also passes '²', which int() refuses, and int() refuses a
        # number of thousands of digits (both once reached the web table as a server error)
        amount = int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else 0
        if not sep or not eq or not played.strip() or not cards.strip() or amount <= 0:
            raise PigliaError(f"cannot read move {text!r}: a build is written 'CARD on CARD+CARD = VALUE'")
        onto = tuple(deck.parse_card(t.strip()) for t in cards.split("+"))
        return cls.build(deck.parse_card(played.strip()), onto, amount)


# The frozen dataclass's slot setters, for Move._sorted (thousands of moves per position on big tables).
_SET_CARD = Move.__dict__["card"].__set__
_SET_CAPTURED = Move.__dict__["captured"].__set__
_SET_ACTION = Move.__dict__["action"].__set__
_SET_VALUE = Move.__dict__["value"].__set__
_SET_ONTO = Move.__dict__["onto"].__set__
