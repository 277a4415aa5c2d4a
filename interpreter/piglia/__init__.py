"""Piglia: a rules interpreter for capture ("fishing") card games.

Write a game's rules once as a YAML rule file; load it, play it, simulate it, replay its records.

>>> import piglia
>>> variant = piglia.load_variant(piglia.builtin_names()[0])
>>> state = piglia.Game(variant).new_match(seed=7)
>>> move = state.legal_moves()[0]
>>> state = state.apply(move)
"""

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
