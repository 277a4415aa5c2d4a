"""Spazzino, RULES.md F8.

Italian cards: ranks A 2-7 F(fante) C(cavallo) R(re), suits d(coins) c(cups) s(swords) b(clubs).
"""

from __future__ import annotations

import pytest

import piglia
from conftest import award_entries, bonuses_of_last_play, moves_of, play, position
from piglia.variant import Variant

RANKS = ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"]


@pytest.fixture(scope="module")
def sp() -> Variant:
    return piglia.load_variant("spazzino")


def test_F8_deal(sp: Variant) -> None:
    rules = sp.deal_rules()
    assert (len(sp.deck), rules.hand, rules.table, rules.refill) == (40, 3, 4, True)


def test_F8_courts_take_part_in_no_sum(sp: Variant) -> None:
    state = position(sp, hands=[["Rd", "Fd"], ["2c"]], table=["3c", "7s", "2b", "6b"], to_move=0)
    assert moves_of(state, "Rd") == {"Rd"}  # 3 + 7 = 10, but a re takes no sum
    assert moves_of(state, "Fd") == {"Fd"}  # 2 + 6 = 8
    state = position(sp, hands=[["Rd"], ["2c"]], table=["Rc", "3c", "7s"], to_move=0)
    assert moves_of(state, "Rd") == {"Rd x Rc"}
    state = position(sp, hands=[["7d"], ["2c"]], table=["3c", "4s", "Fb"], to_move=0)
    assert moves_of(state, "7d") == {"7d x 3c+4s"}


def test_F8_spazzino_sweep(sp: Variant) -> None:
    state = position(sp, hands=[["5d", "2d"], ["2c"]], table=["5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "5d x 5c")) == {"spazzino": 1}


def test_F8_picula_the_card_just_left(sp: Variant) -> None:
    state = position(sp, hands=[["4d", "Ad"], ["4s", "2s"]], table=["Rc", "Cb"], to_move=0)
    state = play(state, "4d")
    assert bonuses_of_last_play(play(state, "4s x 4d")) == {"picula": 1}


def test_F8_bagher_scores_the_cards_taken_plus_the_played_card(sp: Variant) -> None:
    state = position(sp, hands=[["7d", "Ad"], ["2c"]], table=["3d", "4d", "5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 3d+4d")) == {"bagher": 3}
    state = position(sp, hands=[["7d", "Ad"], ["2c"]], table=["3d", "4c", "5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 3d+4c")) == {}  # not all of the played suit
    state = position(sp, hands=[["7d", "Ad"], ["2c"]], table=["7c", "Rd"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 7c")) == {}  # one card is not two or more


def test_F8_bonuses_stack(sp: Variant) -> None:
    state = position(sp, hands=[["7d", "Ad"], ["2c"]], table=["2d", "5d"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 2d+5d")) == {"bagher": 3, "spazzino": 1}


def test_F8_no_bonus_on_the_deal_s_last_card(sp: Variant) -> None:
    state = position(sp, hands=[["7d"], []], table=["2d", "5d"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 2d+5d")) == {}


def test_F8_cards_and_swords_ties_give_one_each(sp: Variant) -> None:
    coins_cups = [r + s for s in "dc" for r in RANKS]
    swords_clubs = [r + s for s in "sb" for r in RANKS]
    half = [r + "s" for r in RANKS[:5]]  # five swords each
    other_half = [r + "s" for r in RANKS[5:]]
    awards = award_entries(sp, [coins_cups, swords_clubs])  # 20-20; swords 0-10
    assert awards["cards"] == [(0, 1), (1, 1)]
    assert awards["swords"] == [(1, 2)]
    awards = award_entries(sp, [[*half, "Ad"], other_half])  # 6-5 cards; swords 5-5
    assert awards["cards"] == [(0, 2)]
    assert awards["swords"] == [(0, 1), (1, 1)]


def test_F8_napola_of_swords_and_single_cards(sp: Variant) -> None:
    awards = award_entries(sp, [["As", "2s", "3s", "4s", "Fs"], ["2d", "7d"]])
    assert awards["napola"] == [(0, 4)]
    assert awards["two_of_swords"] == [(0, 1)]
    assert awards["fante_of_swords"] == [(0, 1)]
    assert awards["seven_of_coins"] == [(1, 1)]
    assert "primiera" not in awards
    assert sp.match.target == 21
