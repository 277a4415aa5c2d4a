"""Chkobba, RULES.md F6.

French cards without 8-10: ranks A 2-7 Q J K, suits d(diamonds) h(hearts) c(clubs) s(spades).
"""

from __future__ import annotations

import pytest

import piglia
from conftest import award_entries, bonuses_of_last_play, moves_of, play, position
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def ch() -> Variant:
    return piglia.load_variant("chkobba")


def test_F6_forty_french_cards_q8_j9_k10(ch: Variant) -> None:
    assert len(ch.deck) == 40
    assert {r.name: r.value for r in ch.deck.ranks if r.court} == {"Q": 8, "J": 9, "K": 10}


def test_F6_values_in_captures(ch: Variant) -> None:
    # J (9) takes Q (8) + A; K (10) takes J (9) + A or Q + 2.
    state = position(ch, hands=[["Jd", "Kd"], ["2c"]], table=["Qc", "Ah", "Js", "2s"], to_move=0)
    assert moves_of(state, "Jd") == {"Jd x Js"}  # a single J first (S2.3)
    assert moves_of(state, "Kd") == {"Kd x Ah+Js", "Kd x 2s+Qc"}
    state = position(ch, hands=[["Jd"], ["2c"]], table=["Qc", "Ah"], to_move=0)
    assert moves_of(state, "Jd") == {"Jd x Ah+Qc"}


def test_F6_sweep_as_scopa(ch: Variant) -> None:
    state = position(ch, hands=[["Jd", "2d"], ["2c"]], table=["Qc", "Ah"], to_move=0)
    assert bonuses_of_last_play(play(state, "Jd x Ah+Qc")) == {"scopa": 1}


def test_F6_redeal_on_three_kings(ch: Variant) -> None:
    state = Game(ch).new_match(seed=0, auto_deal=False)
    assert state.is_misdeal([ch.deck.parse_card(c).index for c in ("Kd", "Kh", "Ks", "Ac")])


def test_F6_karta_dinari_haya(ch: Variant) -> None:
    awards = award_entries(ch, [["7d", "2d", "3h", "4h"], ["5d", "6s", "Kc"]])
    assert awards["karta"] == [(0, 1)]
    assert awards["dinari"] == [(0, 1)]
    assert awards["haya"] == [(0, 1)]
    assert [a.name for a in ch.awards] == ["karta", "dinari", "haya", "bermila"]  # no primiera


def test_F6_bermila_most_sevens_then_sixes(ch: Variant) -> None:
    awards = award_entries(ch, [["7d", "7h", "6d"], ["7c", "7s", "6h", "6c"]])
    assert awards["bermila"] == [(1, 1)]  # 7s tied 2-2, 6s 1-2
    awards = award_entries(ch, [["7d", "6d", "5d", "5h"], ["7c", "6h", "5c", "Kc", "Qc"]])
    assert awards["bermila"] == [(0, 1)]  # tied on 7s and 6s, 5s 2-1
    awards = award_entries(ch, [["7d", "Ad", "Kd"], ["7h", "Ah"]])
    assert awards["bermila"] == [(None, 0)]  # tied on every rank from 7 down to A: nobody


def test_F6_match_to_11(ch: Variant) -> None:
    assert ch.match.winner([11, 5], 3) == (True, 0)
