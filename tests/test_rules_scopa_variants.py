"""Scopa d'Assi (RULES.md F3 + F7), Scopa a 15 (F4) and Scopa with Napola and Re bello (F7).

Italian cards: ranks A 2-7 F(fante) C(cavallo) R(re), suits d(coins) c(cups) s(swords) b(clubs).
"""

from __future__ import annotations

import pytest

import piglia
from conftest import award_entries, bonuses_of_last_play, moves_of, play, position
from piglia.variant import Variant


@pytest.fixture(scope="module")
def assi() -> Variant:
    return piglia.load_variant("scopa-d-assi")


@pytest.fixture(scope="module")
def s15() -> Variant:
    return piglia.load_variant("scopa-15")


@pytest.fixture(scope="module")
def nap() -> Variant:
    return piglia.load_variant("scopa-napola")


def test_F3_an_asso_takes_the_whole_table(assi: Variant) -> None:
    state = position(assi, hands=[["Ad", "5d"], ["2c"]], table=["5c", "7s", "Rb"], to_move=0)
    assert moves_of(state, "Ad") == {"Ad x 5c+7s+Rb"}
    assert moves_of(state, "5d") == {"5d x 5c"}  # other cards capture as in Scopa


def test_F3_with_an_asso_on_the_table_it_takes_just_one_asso(assi: Variant) -> None:
    state = position(assi, hands=[["Ad"], ["2c"]], table=["Ac", "As", "7s"], to_move=0)
    assert moves_of(state, "Ad") == {"Ad x Ac", "Ad x As"}


def test_F3_whole_table_by_the_asso_scores_no_scopa(assi: Variant) -> None:
    state = position(assi, hands=[["Ad", "2d"], ["2c"]], table=["5c", "7s"], to_move=0)
    assert bonuses_of_last_play(play(state, "Ad x 5c+7s")) == {}
    # An asso taking the only asso by matching is an ordinary sweep.
    state = position(assi, hands=[["Ad", "2d"], ["2c"]], table=["Ac"], to_move=0)
    assert bonuses_of_last_play(play(state, "Ad x Ac")) == {"scopa": 1}


def test_F3_an_asso_on_an_empty_table_is_placed(assi: Variant) -> None:
    state = position(assi, hands=[["Ad", "2d"], ["2c"]], table=[], to_move=0)
    assert moves_of(state, "Ad") == {"Ad"}


@pytest.mark.parametrize(
    ("coins", "points"),
    [
        (["A", "2", "3"], 3),
        (["A", "2", "3", "4", "5"], 5),
        (["A", "2", "4"], 0),
        (["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"], 10),
    ],
)
def test_F3_F7_napola(assi: Variant, coins: list[str], points: int) -> None:
    awards = award_entries(assi, [[r + "d" for r in coins], ["Ac"]])
    assert awards["napola"] == ([(0, points)] if points else [(None, 0)])
    assert "re_bello" not in awards  # re bello is not part of F3


def test_F3_match_to_21(assi: Variant) -> None:
    assert assi.match.winner([20, 3], 4) == (False, None)
    assert assi.match.winner([21, 3], 4) == (True, 0)


def test_F4_played_card_and_table_cards_make_15(s15: Variant) -> None:
    # 7 needs 8: the fante, or 3 + 5; the 7 on the table would make 14.
    state = position(s15, hands=[["7d"], ["2c"]], table=["7c", "Fs", "3b", "5c"], to_move=0)
    assert moves_of(state, "7d") == {"7d x Fs", "7d x 3b+5c"}


def test_F4_re_needs_five(s15: Variant) -> None:
    state = position(s15, hands=[["Rd"], ["2c"]], table=["5c", "2s", "3b", "Rb"], to_move=0)
    assert moves_of(state, "Rd") == {"Rd x 5c", "Rd x 2s+3b"}


def test_F4_no_fifteen_no_capture(s15: Variant) -> None:
    state = position(s15, hands=[["7d"], ["2c"]], table=["7c", "Rb"], to_move=0)
    assert moves_of(state, "7d") == {"7d"}


def test_F4_scoring_as_scopa(s15: Variant) -> None:
    state = position(s15, hands=[["7d", "2d"], ["2c"]], table=["3c", "5s"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 3c+5s")) == {"scopa": 1}
    assert [a.name for a in s15.awards] == ["cards", "coins", "settebello", "primiera"]


def test_F7_napola_and_re_bello_on_classic_scopa(nap: Variant) -> None:
    awards = award_entries(nap, [["Ad", "2d", "3d", "4d"], ["Rd", "5d"]])
    assert awards["napola"] == [(0, 4)]
    assert awards["re_bello"] == [(1, 1)]
    assert nap.match.target == 11
