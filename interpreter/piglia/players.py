"""Players: anything that picks a move from what its seat may see.

A player gets a :class:`~piglia.state.SeatView` (its own hand, the table, the piles, the history; never
another seat's hand or the stock) and the legal moves, and returns one of them. Plug in your own by writing a
class with ``choose`` and naming it ``module:Class`` where a player name is asked for.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from piglia.errors import PigliaError
from piglia.moves import Move
from piglia.state import SeatView

__all__ = ["PLAYERS", "Player", "RandomPlayer", "make_player"]


@runtime_checkable
class Player(Protocol):
    """The player protocol: choose one of ``moves`` knowing only ``view``."""

    name: str

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        """Pick a move; ``moves`` is never empty."""
        ...


class RandomPlayer:
    """A uniformly random legal move, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"piglia/random-player/{seed}")

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        return moves[self.rng.randrange(len(moves))]


PLAYERS: dict[str, Callable[[int], Player]] = {"random": RandomPlayer}


def make_player(name: str, seed: int = 0) -> Player:
    """A player by name (``random``) or by ``module:Class`` for a player of your own."""
    if name in PLAYERS:
        return PLAYERS[name](seed)
    module_name, sep, class_name = name.partition(":")
    if not sep:
        raise PigliaError(f"unknown player {name!r}; built-in: {', '.join(PLAYERS)}; or give module:Class")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise PigliaError(f"cannot load player {name!r}: {exc}") from None
    try:
        player = cls(seed)
    except TypeError:
        player = cls()
    if not callable(getattr(player, "choose", None)):
        raise PigliaError(f"{name} has no choose(view, moves) method")
    return player  # type: ignore[no-any-return]
