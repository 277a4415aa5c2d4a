"""Shared helpers for the tests: positions and piles written with card ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import piglia
from piglia.state import Game, State
from piglia.variant import Variant


@pytest.fixture(scope="session")
def scopa() -> Variant:
    return piglia.load_variant("scopa")


def moves_of(state: State, card: str | None = None) -> set[str]:
    """The legal moves in notation (captured ids in alphabetical order), optionally only those playing ``card``."""
    out = set()
    for m in state.legal_moves():
        if card is None or m.card.id == card:
            taken = "+".join(sorted(c.id for c in m.captured))
            out.add(f"{m.card.id} x {taken}" if taken else m.card.id)
    return out


def position(variant: Variant, **kwargs: object) -> State:
    """A hand-made position of ``variant`` (see :meth:`Game.position`)."""
    players = kwargs.pop("players", None)
    return Game(variant, players if isinstance(players, int) else None).position(**kwargs)  # type: ignore[arg-type]


def award_entries(variant: Variant, piles: Sequence[Sequence[str]]) -> dict[str, list[tuple[int | None, int]]]:
    """Each award's (team, points) entries for piles given by card id."""
    deck = variant.deck
    idx = [tuple(deck.parse_card(c).index for c in pile) for pile in piles]
    return {a.name: a.entries(idx, 1) for a in variant.awards}


def all_cards(variant: Variant) -> list[str]:
    return [c.id for c in variant.deck.cards]


def play(state: State, text: str) -> State:
    """The position after the move written in notation (``7d x 3c+4s``, or ``7d`` to place it)."""
    from piglia.moves import Move

    return state.apply(Move.parse(text, state.game.variant.deck))


def bonuses_of_last_play(state: State) -> dict[str, int]:
    """The bonuses scored by the last play, by name."""
    plays = [e for e in state.events or [] if e["event"] == "play"]
    return {b["name"]: b["points"] for b in plays[-1]["bonuses"]}


def events_of(state: State, kind: str) -> list[dict[str, Any]]:
    """The logged events of one kind."""
    return [e for e in state.events or [] if e["event"] == kind]
