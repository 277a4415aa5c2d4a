"""Searches for groups of table cards that never walk into dead ends (``Completions``).

A search that takes the cards of a big table in order to make up a need (a sum kind's captures, the groups of a sets
kind or of a build) follows a branch only where the cards left can still complete it, by total and, where a kind
bounds the group's size, by size. Pruned by the sum of what is left alone, a table of low even cards beside a card
seeking an odd total (no group at all) took minutes (tests/data/hostile/bomb-dead-end-sum.yaml). Here the bound is
checked against brute force, and the pruned searches against the plain ones, which are the reference on any table.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import piglia
from conftest import write_variant
from piglia.mechanics import capture as capture_module
from piglia.mechanics import sets as sets_module
from piglia.mechanics.capture import SumKind
from piglia.mechanics.sets import UNION_STEPS, Completions, unions

Span = tuple[int, int]


def completes(alts: list[list[int]], j: int, remaining: int, size: int, lo: int, hi: int) -> bool:
    """Brute force: some cards from position ``j`` on, each counting one of its values (those of 0 or more), add up to
    ``remaining`` and bring a group of ``size`` cards to ``lo`` to ``hi`` cards."""
    rest = range(j, len(alts))
    for k in range(len(rest) + 1):
        if not lo <= size + k <= hi:
            continue
        for chosen in itertools.combinations(rest, k):
            for values in itertools.product(*[[a for a in alts[i] if a >= 0] for i in chosen]):
                if sum(values) == remaining:
                    return True
    return False


def searches(values: Span, cards: Span, most_need: int, lo: Span, hi: Span) -> Callable[[Any], Any]:
    """Hypothesis's cards (each with one or two values), need and group sizes for a search for groups."""
    return given(
        alts=st.lists(st.lists(st.integers(*values), min_size=1, max_size=2), min_size=cards[0], max_size=cards[1]),
        need=st.integers(1, most_need),
        lo=st.integers(*lo),
        hi=st.integers(*hi),
    )


@settings(max_examples=150, deadline=None)
@searches(values=(0, 6), cards=(0, 7), most_need=14, lo=(0, 4), hi=(0, 8))
def test_completions_are_what_the_cards_left_can_make(alts: list[list[int]], need: int, lo: int, hi: int) -> None:
    # S2.2 (a sum capture is any group of table cards adding up to the played card's value), with the group sizes a
    # kind may bound (min_cards, max_cards): a branch is followed exactly when some completion exists
    rest = Completions(alts, need, lo, hi)
    for j in range(len(alts) + 1):
        for size in range(j + 1):  # a search at position j has chosen some of the cards before it
            for remaining in range(1, need + 1):
                expected = completes(alts, j, remaining, size, lo, min(hi, len(alts)))
                assert rest.can(j, remaining, size) == expected, (j, remaining, size)


def sum_kind(variant: piglia.Variant) -> SumKind:
    (kind,) = [k for tier in variant.capture.tiers for k in tier if isinstance(k, SumKind)]
    return kind


@pytest.fixture(scope="module")
def bounded(tmp_path_factory: pytest.TempPathFactory) -> piglia.Variant:
    """Classic Scopa's deck with a sum kind of two or three cards only."""
    text = """
        name: bounded-sums
        extends: scopa
        capture:
          kinds:
            sum: {type: sum, min_cards: 2, max_cards: 3}
    """
    return piglia.load_variant(write_variant(tmp_path_factory.mktemp("bounded"), text))


@pytest.mark.parametrize("name", ["scopa", "bounded"])
def test_a_big_table_lists_the_groups_the_plain_search_lists(
    name: str, scopa: piglia.Variant, bounded: piglia.Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    # S2.2: every group of table cards adding up to the played card's value is a capture; a table of more cards than
    # the plain search takes (17 to 30 here) is searched with the completions bound, and must list the same groups
    kind = sum_kind(scopa if name == "scopa" else bounded)
    rng = random.Random(name)
    deck = list(range(len(kind.inputs.deck)))
    cases = []
    for _ in range(12):
        rng.shuffle(deck)
        cases.append(deck[: rng.randint(17, 30)])
    pruned = [[kind.search_captures(played, table) for played in range(len(deck))] for table in cases]
    monkeypatch.setattr(capture_module, "_COUNT_FROM", 10**9)  # every table searched the plain way
    plain = [[kind.search_captures(played, table) for played in range(len(deck))] for table in cases]
    assert pruned == plain
    assert sum(map(len, itertools.chain.from_iterable(plain))) > 100  # tables with many captures among them


@settings(max_examples=40, deadline=None)
@searches(values=(1, 9), cards=(17, 22), most_need=12, lo=(1, 3), hi=(1, 6))
def test_groups_of_alternative_values_on_a_big_table_are_the_plain_searchs(
    alts: list[list[int]], need: int, lo: int, hi: int
) -> None:
    # T1.1 (an ace counts 1 or 11) and CA2.1 (a build's or a set's group adds up to the value): the groups of a big
    # table, each card counting one of its values, are those the plain search finds
    pruned = sets_module.sum_groups(alts, need, lo, hi)
    with mock.patch.object(sets_module, "_COUNT_FROM", 10**9):  # every table searched the plain way
        plain = sets_module.sum_groups(alts, need, lo, hi)
    assert pruned == plain


def test_a_table_with_no_group_of_the_need_is_answered_at_once(tmp_path: Path) -> None:
    # S2.2 and S2.3: fifty 2s and a 21 on the table; the 21 in hand takes the 21 (a card of its value), and no group
    # of 2s ever adds up to 21. The plain search tried every group of 2s up to 20 (millions) before saying so.
    ranks = "\n".join(f'    - {{name: "t{i}", id: "t{i}", value: 2}}' for i in range(13))
    text = f"""
name: dead-end
deck:
  suits:
    - {{name: coins, id: d}}
    - {{name: cups, id: c}}
    - {{name: swords, id: s}}
    - {{name: clubs, id: b}}
  ranks:
{ranks}
    - {{name: "X", id: "X", value: 21}}
players: {{count: 2}}
deal: {{hand: 3, table: 38, refill: true}}
capture: {{kinds: {{sum: {{type: sum}}}}}}
awards: {{cards: {{points: 1, most: count(pile)}}}}
match: {{target: 11}}
"""
    variant = piglia.load_variant(write_variant(tmp_path, text))
    kind = sum_kind(variant)
    deck = variant.deck
    twos = [deck.parse_card(f"t{i}{s}").index for i in range(13) for s in "dcsb"]
    x_on_table, x_played = deck.parse_card("Xd").index, deck.parse_card("Xc").index
    table = [*twos, x_on_table]
    assert kind.search_captures(x_played, table) == [(x_on_table,)]


def test_sets_that_all_share_a_card_stop_at_the_steps_limit() -> None:
    # thousands of groups all holding one card have no union of two, yet each would be tested against every other:
    # the unions are refused past UNION_STEPS tests, not searched for hours
    shared = 1 << 40
    groups = [shared | (1 << i) | (1 << (i + 1)) for i in range(0, 38)]
    assert unions(groups, 1000) == set(groups)  # a few: found
    many = [shared | m for m in range(1, 6000)]
    with pytest.raises(sets_module.SearchTooLong):
        unions(many, 100_000, steps=UNION_STEPS // 1000)
