"""Moves: the played card and the exact set of table cards it takes, with a compact text notation.

``7d`` leaves the 7 of coins on the table; ``7d x 3c+4s`` plays it to take the 3 of cups and the 4 of swords.
The notation round-trips: ``Move.parse(str(move), deck) == move``.
"""

from __future__ import annotations

from dataclasses import dataclass

from piglia.cards import Card, Deck
from piglia.errors import PigliaError

__all__ = ["Move"]


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A card played from the hand and the table cards it captures (empty: the card stays on the table).

    ``action`` names the kind of turn; the fishing games of today only play cards (``"play"``), and the field is
    there so that games with other turn actions (a Casino build) fit the same value.
    """

    card: Card
    captured: tuple[Card, ...] = ()
    action: str = "play"

    def __post_init__(self) -> None:
        object.__setattr__(self, "captured", tuple(sorted(self.captured, key=lambda c: c.index)))

    @classmethod
    def _sorted(cls, card: Card, captured: tuple[Card, ...]) -> Move:
        """A move whose captured cards are already in deck order (the engine's): no sorting again."""
        move = object.__new__(cls)
        _SET_CARD(move, card)  # the slots' own setters: what object.__setattr__ ends up calling, called directly
        _SET_CAPTURED(move, captured)
        _SET_ACTION(move, "play")
        return move

    def __str__(self) -> str:
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
        if not self.captured:
            return f"{self.card.name} stays on the table"
        return f"{self.card.name} takes {' + '.join(c.name for c in self.captured)}"

    @classmethod
    def parse(cls, text: str, deck: Deck) -> Move:
        """Read ``7d`` or ``7d x 3c+4s``; raises :class:`PigliaError` for unknown cards or bad notation."""
        played, sep, taken = text.strip().partition(" x ")
        if not played or (sep and not taken.strip()):
            raise PigliaError(f"cannot read move {text!r}: write a card id, or 'CARD x CARD+CARD'")
        card = deck.parse_card(played.strip())
        captured = tuple(deck.parse_card(t.strip()) for t in taken.split("+")) if sep else ()
        return cls(card, captured)


# The frozen dataclass's slot setters, for Move._sorted (thousands of moves per position on big tables).
_SET_CARD = Move.__dict__["card"].__set__
_SET_CAPTURED = Move.__dict__["captured"].__set__
_SET_ACTION = Move.__dict__["action"].__set__
