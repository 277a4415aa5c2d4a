"""Scopone (RULES.md F1) and Scopone scientifico (F2).

Italian cards: ranks A 2-7 F(fante) C(cavallo) R(re), suits d(coins) c(cups) s(swords) b(clubs).
"""

from __future__ import annotations

import pytest

import piglia
from conftest import bonuses_of_last_play, events_of, moves_of, play, position
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def sc() -> Variant:
    return piglia.load_variant("scopone")


@pytest.fixture(scope="module")
def sci() -> Variant:
    return piglia.load_variant("scopone-scientifico")


def test_F1_four_players_partners_opposite_nine_each_four_on_table(sc: Variant) -> None:
    game = Game(sc)
    assert game.num_players == 4 and game.players.teams == ((0, 2), (1, 3))
    deal = events_of(game.new_match(seed=3), "deal")[0]
    assert [len(h) for h in deal["hands"]] == [9, 9, 9, 9]
    assert len(deal["table"]) == 4 and deal["stock"] == 0
    assert not sc.deal_rules().refill


def test_F1_redeal_on_three_re(sc: Variant) -> None:
    state = Game(sc).new_match(seed=0, auto_deal=False)
    assert state.is_misdeal([sc.deck.parse_card(c).index for c in ("Rd", "Rc", "Rs", "Ab")])


def test_F1_capture_as_scopa_single_card_first(sc: Variant) -> None:
    state = position(sc, hands=[["7d"], ["Ac"], ["Ab"], ["As"]], table=["7c", "3s", "4b"], to_move=0)
    assert moves_of(state, "7d") == {"7d x 7c"}


def test_F1_scopa_but_not_on_the_last_play(sc: Variant) -> None:
    state = position(sc, hands=[["5d"], ["Ac"], [], []], table=["5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "5d x 5c")) == {"scopa": 1}
    state = position(sc, hands=[["5d"], [], [], []], table=["5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "5d x 5c")) == {}


def test_F1_match_to_11_ties_play_on(sc: Variant) -> None:
    assert sc.match.winner([11, 9], 2) == (True, 0)
    assert sc.match.winner([12, 12], 2) == (False, None)


def test_F2_ten_each_none_on_the_table(sci: Variant) -> None:
    deal = events_of(Game(sci).new_match(seed=3), "deal")[0]
    assert [len(h) for h in deal["hands"]] == [10, 10, 10, 10]
    assert deal["table"] == [] and deal["stock"] == 0
    state = Game(sci).new_match(seed=3)
    assert all(not m.captured for m in state.legal_moves())  # the first card can only be placed
    assert sci.match.target == 11
