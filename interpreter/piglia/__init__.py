"""Piglia: a rules interpreter for capture ("fishing") card games.

Write a game's rules once as a YAML rule file; load it, play it, simulate it, replay its records.

>>> import piglia
>>> variant = piglia.load_variant(piglia.builtin_names()[0])
>>> state = piglia.Game(variant).new_match(seed=7)
>>> move = state.legal_moves()[0]
>>> state = state.apply(move)
"""

# The public names are imported when first used (PEP 562), not with the package: `import piglia` stays cheap,
# and a command loads only what it runs (`piglia simulate` never imports the players, the schema validator or
# the web server). `from piglia import X` and `piglia.X` work as for ordinary names.

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from piglia.cards import Card, Deck, Rank, Suit
    from piglia.errors import (
        DslError,
        IllegalMoveError,
        PigliaError,
        RecordError,
        SpecError,
        SpecErrors,
    )
    from piglia.moves import Move
    from piglia.players import Player, RandomPlayer, make_player
    from piglia.record import verify_file, write_events
    from piglia.simulate import simulate
    from piglia.spec import builtin_names, load_variant
    from piglia.state import Game, SeatView, State
    from piglia.variant import Variant

__all__ = [
    "Card",
    "Deck",
    "DslError",
    "Game",
    "IllegalMoveError",
    "Move",
    "PigliaError",
    "Player",
    "RandomPlayer",
    "Rank",
    "RecordError",
    "SeatView",
    "SpecError",
    "SpecErrors",
    "State",
    "Suit",
    "Variant",
    "builtin_names",
    "load_variant",
    "make_player",
    "simulate",
    "verify_file",
    "write_events",
]

__version__ = "0.1.0"

# Where each public name is defined.
_HOMES = {
    "Card": "piglia.cards",
    "Deck": "piglia.cards",
    "Rank": "piglia.cards",
    "Suit": "piglia.cards",
    "DslError": "piglia.errors",
    "IllegalMoveError": "piglia.errors",
    "PigliaError": "piglia.errors",
    "RecordError": "piglia.errors",
    "SpecError": "piglia.errors",
    "SpecErrors": "piglia.errors",
    "Move": "piglia.moves",
    "Player": "piglia.players",
    "RandomPlayer": "piglia.players",
    "make_player": "piglia.players",
    "verify_file": "piglia.record",
    "write_events": "piglia.record",
    "simulate": "piglia.simulate",
    "builtin_names": "piglia.spec",
    "load_variant": "piglia.spec",
    "Game": "piglia.state",
    "SeatView": "piglia.state",
    "State": "piglia.state",
    "Variant": "piglia.variant",
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use and keep it, so the next use is a plain attribute read."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'piglia' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(ModuleType):
    """The package object. ``piglia.simulate`` is the function, although a submodule has the same name: when the
    submodule is first imported (``from piglia.simulate import Summary``), the import system sets the package's
    attribute to the module, and this keeps the function there instead, as the eager import used to."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "simulate" and isinstance(value, ModuleType) and value.__name__ == "piglia.simulate":
            value = value.simulate
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
