"""What an expression can see, where: the scopes the spec checks against and the objects the engine passes.

A bonus condition sees the play (``played``, ``captured``, the table before and after...); an award sees a
team's ``pile``. The spec compiles each expression against the scope of the place it is written in, so a name
used out of place is an error at validation time, not a surprise at play time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from piglia.dsl import T

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


@dataclass(slots=True)
class BonusEnv:
    """The scope of a bonus: one play, just made."""

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
    """The scope of an award: one team's pile at the end of a deal."""

    pile: tuple[int, ...]
    team: int
    deal: int


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
AWARD_SCOPE: Mapping[str, T] = {"pile": T.CARDS, "team": T.INT, "deal": T.INT}
CARD_SCOPE: Mapping[str, T] = {"card": T.CARD, "played": T.CARD}
PLAYED_SCOPE: Mapping[str, T] = {"played": T.CARD}
DEAL_SCOPE: Mapping[str, T] = {"table": T.CARDS, "dealer": T.INT}


def all_scope_names() -> frozenset[str]:
    """Every variable of every scope, to say "not available here" rather than "unknown"."""
    return frozenset().union(BONUS_SCOPE, AWARD_SCOPE, CARD_SCOPE, PLAYED_SCOPE, DEAL_SCOPE)
