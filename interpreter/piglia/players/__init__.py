"""Players: anything that picks a move from what its seat may see.

A player gets a :class:`~piglia.state.SeatView` (its own hand, the table, the piles, the history, the rules
in ``view.game``; never another seat's hand or the stock) and the legal moves, and returns one of them.

Built in: ``random``, ``greedy`` (one ply, valued by the variant's own rules) and ``ismcts`` (information-set
Monte Carlo tree search). Options follow the name: ``ismcts:iterations=200:seconds=0``. Plug in your own
by writing a class with ``choose`` (constructed with the seed, or with no argument) and naming it
``module:Class`` where a player name is asked for. See docs/players.md.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from piglia.errors import PigliaError
from piglia.moves import Move
from piglia.state import SeatView

__all__ = ["PLAYERS", "Player", "RandomPlayer", "make_player"]


@runtime_checkable
class Player(Protocol):
    """The player protocol: choose one of ``moves`` knowing only ``view``.

    ``name`` is shown in tournaments and games. ``choose`` is called once per turn with the seat's view and
    the legal moves (never empty), and must return one of those moves. A player object plays one seat of one
    match; it may keep state between calls (what it has seen so far).
    """

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
        """A legal move drawn uniformly at random."""
        return moves[self.rng.randrange(len(moves))]


def _greedy(seed: int, **options: Any) -> Player:
    from piglia.players.greedy import GreedyPlayer

    return GreedyPlayer(seed, **options)


def _ismcts(seed: int, **options: Any) -> Player:
    from piglia.players.ismcts import IsmctsPlayer

    return IsmctsPlayer(seed, **options)


def _random(seed: int, **options: Any) -> Player:
    return RandomPlayer(seed, **options)


PLAYERS: dict[str, Callable[..., Player]] = {"random": _random, "greedy": _greedy, "ismcts": _ismcts}


def _option(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def make_player(name: str, seed: int = 0) -> Player:
    """A player by name (``random``, ``greedy``, ``ismcts``; options as ``ismcts:iterations=200:seconds=0``)
    or by ``module:Class`` for a player of your own."""
    base, _, rest = name.partition(":")
    if base in PLAYERS:
        pieces = rest.split(":") if rest else []
        if any("=" not in p for p in pieces):
            raise PigliaError(f"cannot read player {name!r}: options are written key=value, as ismcts:iterations=200")
        options = [_option(p) for p in pieces]
        keys = [key for key, _value in options]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:  # the last one would win in silence: a typo in a long list of options would go unseen
            raise PigliaError(f"cannot read player {name!r}: option {', '.join(map(repr, twice))} is given twice")
        try:
            return PLAYERS[base](seed, **dict(options))
        except TypeError as exc:
            raise PigliaError(f"bad option for player {base!r}: {exc}") from None
    module_name, sep, class_name = name.partition(":")
    if not sep or not module_name or not class_name:
        raise PigliaError(f"unknown player {name!r}; built-in: {', '.join(PLAYERS)}; or give module:Class")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except Exception as exc:
        raise PigliaError(f"cannot load player {name!r}: {type(exc).__name__}: {exc}") from None
    # Only a class with a choose method is a player: never call an arbitrary function (os:system) with a seed.
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise PigliaError(
            f"{name!r} is not a player: give a built-in player ({', '.join(PLAYERS)}) or module:Class naming a "
            "class with a choose(view, moves) method"
        )
    try:
        try:
            player = cls(seed)
        except TypeError:
            player = cls()
    except Exception as exc:
        raise PigliaError(f"cannot create player {name!r}: {type(exc).__name__}: {exc}") from None
    return _Plugged(player, name)


class _Plugged:
    """A player of the user's own (``module:Class``), whose faults are reported as its own: a move that is not
    one of those it was given, or an exception, is a :class:`PigliaError` naming it (they were reported as
    piglia's internal errors). Its other attributes are the player's."""

    def __init__(self, player: Player, name: str) -> None:
        self.player = player
        self.name = name

    def choose(self, view: SeatView, moves: Sequence[Move]) -> Move:
        try:
            move = self.player.choose(view, moves)
        except Exception as exc:  # the user's code: anything it raises is its fault, said as such
            raise PigliaError(f"player {self.name!r} failed: {type(exc).__name__}: {exc}") from None
        if not any(move is m or move == m for m in moves):
            raise PigliaError(f"player {self.name!r} chose {move!r}, which is not one of the moves it was given")
        return move

    def __getattr__(self, attr: str) -> Any:
        if attr == "player":  # not set yet (a copy being made): no lookup through itself
            raise AttributeError(attr)
        return getattr(self.player, attr)
