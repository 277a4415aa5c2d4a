"""A sum kind lists the groups of a table from one enumeration by total, shared by every played card and brought up
to date as cards arrive and leave (``SumKind._groups``); small tables and tables past the enumeration's budget are
searched per played card (``SumKind.search_captures``). Both must list the very same captures, in the same order,
and the masks random play counts (``SumKind.masks``) must be those captures, whatever the sequence of tables: here
the per-card search is the reference, on random walks of tables (a card placed, a group taken, a new deal), for the
sum kind of every built-in variant and for sums of every size."""

from __future__ import annotations

import random

import pytest

import piglia
from piglia.mechanics import capture as capture_module
from piglia.mechanics.capture import SumKind, as_cards
from piglia.spec import builtin_names


def sum_kinds() -> list[tuple[str, SumKind]]:
    out = []
    for name in builtin_names():
        for tier in piglia.load_variant(name).capture.tiers:
            out += [(f"{name}:{kind.name}", kind) for kind in tier if isinstance(kind, SumKind)]
    return out


KINDS = sum_kinds()


def walk(kind: SumKind, rng: random.Random, steps: int, deck: int, max_table: int) -> int:
    """Random tables in the order a deal makes them; every played card's captures checked at every step."""
    cards = list(range(deck))
    rng.shuffle(cards)
    table = cards[: rng.randint(0, 6)]
    checked = 0
    for _ in range(steps):
        for played in range(deck):
            listed = kind.search_captures(played, table)
            assert kind.captures(played, table) == listed, (played, table)
            assert sorted(map(as_cards, kind.masks(played, table))) == listed, (played, table)  # random play's count
            checked += 1
        move = rng.random()
        outside = [c for c in range(deck) if c not in table]
        if move < 0.5 and outside and len(table) < max_table:  # a card placed
            table = [*table, rng.choice(outside)]
        elif move < 0.85 and table:  # a group taken
            taken = set(rng.sample(table, rng.randint(1, min(4, len(table)))))
            table = [c for c in table if c not in taken]
        else:  # another line of play (a search's copy, a new deal): any table
            rng.shuffle(cards)
            table = cards[: rng.randint(0, max_table)]
    return checked


@pytest.mark.parametrize(("label", "kind"), KINDS, ids=[label for label, _ in KINDS])
def test_enumerated_sums_are_the_searched_sums(label: str, kind: SumKind) -> None:
    deck = len(kind.inputs.deck)
    assert walk(kind, random.Random(label), 60, deck, 16) > 0


def test_tables_past_the_budget_fall_back_to_the_search_and_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small budget sends big tables to the per-card search; a table that shrinks under it is enumerated again."""
    monkeypatch.setattr(capture_module, "ENUM_BUDGET", 40)
    kind = next(kind for label, kind in KINDS if label.startswith("scopa:"))
    fresh = SumKind(kind.inputs)  # its own enumeration state
    assert walk(fresh, random.Random(7), 120, len(kind.inputs.deck), 24) > 0
    rows = [last for last in fresh._enum_last if last is not None]
    assert rows  # the enumeration was used


def test_the_thirty_card_table_of_small_values_agrees() -> None:
    """The benchmark's table (every card of value 1 to 7 and two of value 8): past the default budget."""
    kind = next(kind for label, kind in KINDS if label.startswith("scopa:"))
    fresh = SumKind(kind.inputs)
    deck = kind.inputs.deck
    table = [c.index for c in deck.cards if c.rank.value <= 7][:28] + [
        c.index for c in deck.cards if c.rank.value == 8
    ][:2]
    for played in range(len(deck)):
        assert fresh.captures(played, table) == fresh.search_captures(played, table)
