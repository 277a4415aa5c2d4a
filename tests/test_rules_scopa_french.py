"""Scopa with French cards (RULES.md G1.2, G1.4, G1.8) and without face cards (G1.3).

French cards: ranks A 2-7 (8 9 10) J Q K, suits d(diamonds) h(hearts) c(clubs) s(spades).
"""

from __future__ import annotations

import pytest

import piglia
from conftest import award_entries, moves_of, position
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def fr() -> Variant:
    return piglia.load_variant("scopa-french")


@pytest.fixture(scope="module")
def num() -> Variant:
    return piglia.load_variant("scopa-numerals")


def test_G1_2_french_52_without_8_9_10(fr: Variant) -> None:
    assert len(fr.deck) == 40
    assert [r.name for r in fr.deck.ranks] == ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    assert {r.name: r.value for r in fr.deck.ranks if r.court} == {"J": 8, "Q": 9, "K": 10}
    assert [s.name for s in fr.deck.suits] == ["diamonds", "hearts", "clubs", "spades"]


def test_G1_2_values_in_captures(fr: Variant) -> None:
    # K = 10 takes J (8) + 2; Q = 9 takes 4 + 5.
    state = position(fr, hands=[["Kd", "Qh"], ["2c"]], table=["Js", "2s", "4c", "5h"], to_move=0)
    assert moves_of(state, "Kd") == {"Kd x 2s+Js"}
    assert moves_of(state, "Qh") == {"Qh x 4c+5h"}


def test_G1_2_G1_8_diamonds_play_the_role_of_coins(fr: Variant) -> None:
    awards = award_entries(fr, [["7d", "2d", "3h"], ["4d", "5s", "6s", "Kc"]])
    assert awards["coins"] == [(0, 1)]  # most diamonds: 2 against 1
    assert awards["settebello"] == [(0, 1)]  # the 7 of diamonds
    assert awards["cards"] == [(1, 1)]


def test_G1_8_prime_example_is_75(fr: Variant) -> None:
    # 7 of hearts, 7 of diamonds, 6 of clubs, 5 of spades = 21 + 21 + 18 + 15 = 75 beats 18 + 18 + 18 + 16 = 70.
    awards = award_entries(fr, [["7h", "7d", "6c", "5s"], ["6h", "6d", "6s", "Ac", "Ks"]])
    assert awards["primiera"] == [(0, 1)]
    # And the prime needs every suit: without spades, 7s and 6s do not help.
    awards = award_entries(fr, [["7h", "7d", "7c", "6c"], ["2h", "2d", "2s", "2c"]])
    assert awards["primiera"] == [(1, 1)]


def test_G1_4_three_or_more_kings_redeal(fr: Variant) -> None:
    state = Game(fr).new_match(seed=0, auto_deal=False)
    idx = [fr.deck.parse_card(c).index for c in ("Kd", "Kh", "Ks", "4c")]
    assert state.is_misdeal(idx)
    assert not state.is_misdeal([fr.deck.parse_card(c).index for c in ("Qd", "Qh", "Qs", "4c")])


def test_G1_3_numerals_only_a_to_10_at_face_value(num: Variant) -> None:
    assert len(num.deck) == 40
    assert [(r.name, r.value, r.court) for r in num.deck.ranks] == [
        (str(v) if v > 1 else "A", v, False) for v in range(1, 11)
    ]
    state = position(num, hands=[["10d"], ["2c"]], table=["4c", "6s", "9h"], to_move=0)
    assert moves_of(state, "10d") == {"10d x 4c+6s"}


def test_G1_3_eight_nine_ten_count_ten_in_primiera(num: Variant) -> None:
    # 10 + 21 + 21 + 21 = 73 against 21 + 18 + 18 + 16 = 73: a tie, nobody, exactly when the 10 counts 10.
    awards = award_entries(num, [["10d", "7h", "7c", "7s"], ["7d", "6h", "6c", "As"]])
    assert awards["primiera"] == [(None, 0)]
    # 8 and 9 too: 8 + 9 + 10 in three suits (30) with a 7 (21) = 51 against 2 + 2 + 2 + 3 = 12 * 3 + 13 = 49.
    awards = award_entries(num, [["8d", "9h", "10c", "7s"], ["2d", "2h", "2c", "3s"]])
    assert awards["primiera"] == [(0, 1)]


def test_G1_3_no_kings_no_redeal(num: Variant) -> None:
    assert num.deal_rules().redeal is None
