"""A tier of two capture kinds asks one of them where the other adds nothing for the played card
(``KindMechanic.singles``, ``piglia.capture_search._alone``): the per-card search (``CaptureRules.by_card``), the
tier's merged search and the counted masks all rely on it. The reference here is each tier's kinds asked one
by one and their captures merged, which uses no such choice.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import piglia
from conftest import play_positions
from piglia.capture_rules import CaptureRules
from piglia.capture_search import _alone
from piglia.mechanics.capture import Capture
from piglia.spec import builtin_names


def union_search(rules: CaptureRules, card: int, table: Sequence[int]) -> list[Capture]:
    """The first tier whose kinds, each asked, take something: their captures merged, ascending."""
    for tier in rules.tiers:
        found = sorted({cap for kind in tier for cap in kind.captures(card, table)})
        if found:
            return found
    return []


NO_BUILDS = [name for name in builtin_names() if piglia.load_variant(name).builds is None]


@pytest.mark.parametrize("name", NO_BUILDS)
def test_each_cards_search_lists_what_its_tiers_kinds_list(name: str) -> None:
    variant = piglia.load_variant(name)
    rules = CaptureRules(variant.capture.tiers, variant.capture.mandatory)
    if rules.table is not None:
        rules.table.on = False
    for hand, table in play_positions(variant, 17, 150):
        expected = [union_search(rules, card, table) for card in hand]
        assert [rules.captures(card, table) for card in hand] == expected, (hand, table)
        assert rules.hand_captures(hand, table) == expected, (hand, table)


def test_pisti_asks_the_pair_kind_alone_for_every_card_but_a_jack() -> None:
    # P2.1: a card of the top card's rank takes the pile, and a jack takes any pile: only a jack may use the
    # jack kind, so for every other card the pair kind gives the tier's captures; a jack needs both (it takes a
    # pile topped by a jack as a pair too, and any other pile as a jack).
    variant = piglia.load_variant("pisti")
    ((pair, jack),) = variant.capture.tiers
    assert (pair.name, jack.name) == ("pair", "jack")
    alone = _alone((pair, jack))
    assert alone is not None
    rank = variant.deck.cards
    assert alone == [0 if rank[c].rank.id == "J" else 1 for c in range(len(variant.deck))]


@pytest.mark.parametrize("name", NO_BUILDS)
def test_pick_draws_what_the_listing_from_each_kind_has_at_every_index(name: str) -> None:
    # random play counts the moves and builds only the one drawn: through the memo's positions, the counted
    # masks or (a game with neither, as Pisti) the per-card search inline
    variant = piglia.load_variant(name)
    rules = CaptureRules(variant.capture.tiers, variant.capture.mandatory)
    for turn, (hand, table) in enumerate(play_positions(variant, 23, 90)):
        if rules.table is not None:
            rules.table.on = turn % 2 == 0  # the memo's answers, then the search's, in turn
        moves: list[tuple[int, Capture]] = []
        for card in hand:
            caps = union_search(rules, card, table)
            if caps and not rules.mandatory:
                moves.append((card, ()))
            moves += [(card, cap) for cap in caps] if caps else [(card, ())]
        for i in range(len(moves)):
            assert rules.pick(hand, table, lambda n, i=i: i) == (len(moves), moves[i]), (hand, table, i)  # type: ignore[misc]
