"""``Award.values``: the numbers behind an award, as score sheets show them (RULES.md S3.3, S3.4, B4.3)."""

from __future__ import annotations

import piglia
from piglia.contexts import AwardEnv, CardSet
from piglia.variant import Variant


def values(variant: Variant, piles: list[list[str]]) -> dict[str, list[int | None] | None]:
    deck = variant.deck
    idx = [tuple(deck.parse_card(c).index for c in pile) for pile in piles]
    return {a.name: a.values(idx, 1) for a in variant.awards}


def test_S3_3_S3_4_majorities_show_each_sides_count(scopa: Variant) -> None:
    # S3.4: primiera adds each suit's best: 7d 21 + 6c 18 + As 16 + Rb 10 = 65; the other pile lacks clubs
    mine = ["7d", "6c", "As", "Rb", "2d"]
    theirs = ["3d", "4c", "5s"]
    shown = values(scopa, [mine, theirs])
    assert shown["cards"] == [5, 3]
    assert shown["coins"] == [2, 1]
    assert shown["primiera"] == [65, None]  # not eligible without every suit: no number
    assert shown["settebello"] is None  # a card is held or not


def test_B4_3_a_scored_award_shows_each_sides_value() -> None:
    cicera = piglia.load_variant("cicera")
    # B4.3: the napula is the run of swords from the asso, counted only from the 3 on
    shown = values(cicera, [["As", "2s", "3s", "4s"], ["5s", "2d"]])
    assert shown["napula"] == [4, 0]
    assert shown["swords"] == [4, 1]


def test_S3_3_S3_4_awards_read_a_pile_as_cards_or_as_a_bit_mask_alike(scopa: Variant) -> None:
    # The deal's end hands the awards CardSets, whose aggregates run on the pile's bit mask (Scope.bits); a plain
    # tuple (a plugin's, the web table's) is read as cards. S3.4: 7d 21 + 6c 18 + As 16 + Rb 10 = 65 against
    # 7s 21 + 5d 15 + 3c 13 + Ab 16 = 65: a tie, nobody scores the primiera; S3.3: coins 2 to 1, cards 5 to 4.
    deck = scopa.deck
    mine = tuple(deck.parse_card(c).index for c in ["7d", "6c", "As", "Rb", "2d"])
    theirs = tuple(deck.parse_card(c).index for c in ["7s", "5d", "3c", "Ab"])
    for piles in ([mine, theirs], [CardSet(mine), CardSet(theirs)]):
        entries = {a.name: a.entries(piles, 1) for a in scopa.awards}
        assert entries == {
            "cards": [(0, 1)],
            "coins": [(0, 1)],
            "settebello": [(0, 1)],
            "primiera": [(None, 0)],
        }
    assert CardSet(mine).bits == AwardEnv(mine, 0, 1).pile_bits == sum(1 << c for c in mine)


def test_a_card_set_of_a_deck_past_128_cards_has_every_bit() -> None:
    assert CardSet((3, 130, 200)).bits == (1 << 3) | (1 << 130) | (1 << 200)
    assert AwardEnv((200, 0), 0, 1).pile_bits == (1 << 200) | 1
