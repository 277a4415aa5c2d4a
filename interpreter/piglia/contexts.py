"""What an expression can see, where: the scopes the spec checks against and the objects the engine passes.

A bonus condition sees the play (``played``, ``captured``, the table before and after...); an award sees a
team's ``pile``. The spec compiles each expression against the scope of the place it is written in, so a name
used out of place is an error at validation time, not a surprise at play time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from piglia.cards import mask_of
from piglia.dsl import Scope, T

__all__ = [
    "AWARD_SCOPE",
    "BONUS_SCOPE",
    "CARD_SCOPE",
    "DEAL_SCOPE",
    "NO_PLAY",
    "PLAYED_SCOPE",
    "PLAY_ATTRS",
    "AwardEnv",
    "BonusEnv",
    "CardEnv",
    "CardSet",
    "DealEnv",
    "PileEnv",
    "PlayInfo",
    "all_scope_names",
]


class PlayInfo(NamedTuple):
    """One play as expressions see it (``previous``): card -1 and player -1 when there was none.

    A named tuple rather than a frozen dataclass: one is made on every play, and a tuple is made in C.
    """

    card: int
    captured: tuple[int, ...]
    placed: bool
    player: int


NO_PLAY = PlayInfo(-1, (), False, -1)

# The attributes of a play (``previous.card``...) and their types: the one table the DSL compiler checks them
# against; the phrasing reads the compiler's types. Its keys are the fields of PlayInfo, in order.
PLAY_ATTRS: Mapping[str, T] = {"card": T.CARD, "captured": T.CARDS, "placed": T.BOOL, "player": T.INT}
assert tuple(PLAY_ATTRS) == PlayInfo._fields


class BonusEnv(NamedTuple):
    """The scope of a bonus: one play, just made.

    A named tuple, as :class:`PlayInfo`: one is made for every play a bonus may score on (every capture in some
    games), and :func:`~piglia.scoring.score_play` makes it in C (``tuple.__new__``), without the Python
    ``__init__`` a dataclass runs; a compiled expression reads its fields through C-level getters all the same.
    """

    played: int
    captured: tuple[int, ...]
    table_before: tuple[int, ...]
    table_after: tuple[int, ...]
    previous: PlayInfo
    last_play: bool
    player: int
    team: int
    kind: str
    hand: tuple[int, ...]
    pile: tuple[int, ...]
    deal: int
    top: int = -1  # the table's top card before the play (-1: empty table); see mechanics/pile.py


@dataclass(slots=True)
class AwardEnv:
    """The scope of an award: one team's pile at the end of a deal (each card once)."""

    pile: tuple[int, ...]
    team: int
    deal: int
    _bits: int = field(default=-1, repr=False, compare=False)

    @property
    def pile_bits(self) -> int:
        """The pile as a bit mask (bit ``c`` for card ``c``): the compiled aggregates over the pile read this
        (``AWARD_SCOPE.bits``). A :class:`CardSet` pile brings its own; another is worked out once per env."""
        bits = self._bits
        if bits < 0:
            pile = self.pile
            bits = self._bits = pile.bits if type(pile) is CardSet else mask_of(pile)
        return bits


class CardSet(tuple[int, ...]):
    """A tuple of distinct cards that also holds them as a bit mask, ``bits`` (bit ``c`` for card ``c``).

    The deal's end hands the teams' piles to every award as card sets, so that the mask is worked out once per
    pile, not once per award (:attr:`AwardEnv.pile_bits`)."""

    bits: int

    def __new__(cls, cards: Iterable[int]) -> CardSet:
        made = super().__new__(cls, cards)
        made.bits = mask_of(made)
        return made


@dataclass(slots=True)
class CardEnv:
    """The scope of a capture kind's filters: a card, and the card being played."""

    card: int
    played: int


@dataclass(slots=True)
class PileEnv:
    """The scope of a pile kind's ``on_top``: the card being played and the pile's top card."""

    played: int
    top: int


@dataclass(slots=True)
class DealEnv:
    """The scope of the redeal condition: the opening table."""

    table: tuple[int, ...]
    dealer: int


BONUS_SCOPE: Mapping[str, T] = {
    "played": T.CARD,
    "captured": T.CARDS,
    "table_before": T.CARDS,
    "table_after": T.CARDS,
    "previous": T.PLAY,
    "last_play": T.BOOL,
    "player": T.INT,
    "team": T.INT,
    "kind": T.STR,
    "hand": T.CARDS,
    "pile": T.CARDS,
    "deal": T.INT,
    "top": T.CARD,
}
AWARD_SCOPE: Mapping[str, T] = Scope({"pile": T.CARDS, "team": T.INT, "deal": T.INT}, bits={"pile": "pile_bits"})
CARD_SCOPE: Mapping[str, T] = {"card": T.CARD, "played": T.CARD}
PLAYED_SCOPE: Mapping[str, T] = {"played": T.CARD}
DEAL_SCOPE: Mapping[str, T] = {"table": T.CARDS, "dealer": T.INT}


def all_scope_names() -> frozenset[str]:
    """Every variable of every scope, to say "not available here" rather than "unknown"."""
    return frozenset().union(BONUS_SCOPE, AWARD_SCOPE, CARD_SCOPE, PLAYED_SCOPE, DEAL_SCOPE)
