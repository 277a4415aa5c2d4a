"""Scopa as GameRules.com teaches it, RULES.md section 2 (G1.1-G1.9); expected answers from the rules text.

Italian cards: ranks A 2-7 F(fante) C(cavallo) R(re), suits d(coins) c(cups) s(swords) b(clubs).
"""

from __future__ import annotations

import pytest

import piglia
from conftest import bonuses_of_last_play, events_of, moves_of, play, position
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def gr() -> Variant:
    return piglia.load_variant("scopa-gamerules")


def test_G1_1_two_or_four_players_partners_opposite(gr: Variant) -> None:
    assert gr.player_counts == (2, 4)
    assert Game(gr, 2).players.teams == ((0,), (1,))
    assert Game(gr, 4).players.teams == ((0, 2), (1, 3))


def test_G1_1_partners_put_their_captures_together(gr: Variant) -> None:
    state = position(gr, players=4, hands=[["2d"], ["3c"], ["5d", "Ab"], ["6c"]], table=["5c", "4s"], to_move=2)
    state = play(state, "5d x 5c")
    assert sorted(state.piles[0]) == sorted(gr.deck.parse_card(c).index for c in ("5d", "5c"))
    assert state.piles[1] == []


def test_G1_4_three_each_four_on_the_table_with_four_players(gr: Variant) -> None:
    deal = events_of(Game(gr, 4).new_match(seed=4), "deal")[0]
    assert [len(h) for h in deal["hands"]] == [3, 3, 3, 3]
    assert len(deal["table"]) == 4
    assert deal["stock"] == 40 - 12 - 4


def test_G1_4_three_or_more_kings_redeal(gr: Variant) -> None:
    state = Game(gr).new_match(seed=0, auto_deal=False)
    ids = [gr.deck.parse_card(c).index for c in ("Rd", "Rc", "Rs", "4b")]
    assert state.is_misdeal(ids)
    assert not state.is_misdeal([*ids[:2], gr.deck.parse_card("4s").index])


def test_G1_5_the_player_after_the_dealer_leads(gr: Variant) -> None:
    for seed in range(8):
        state = Game(gr, 4).new_match(seed=seed)
        assert state.to_move == (state.dealer + 1) % 4


def test_G1_6_a_single_card_must_be_taken_before_a_set(gr: Variant) -> None:
    state = position(gr, hands=[["7d"], ["2c"]], table=["7c", "3s", "4s"], to_move=0)
    assert moves_of(state, "7d") == {"7d x 7c"}


def test_G1_6_between_sets_the_player_chooses_one_never_two(gr: Variant) -> None:
    state = position(gr, hands=[["7d"], ["2c"]], table=["3s", "4s", "2b", "5c"], to_move=0)
    assert moves_of(state, "7d") == {"7d x 3s+4s", "7d x 2b+5c"}


def test_G1_7_G1_9_a_sweep_on_the_last_play_counts(gr: Variant) -> None:
    state = position(gr, hands=[["5d"], []], table=["5c"], to_move=0)
    state = play(state, "5d x 5c")
    assert bonuses_of_last_play(state) == {"scopa": 1}


def test_G1_7_leftover_to_last_capturer_is_no_sweep(gr: Variant) -> None:
    state = position(gr, hands=[["5d"], ["2c"]], table=["5c", "Rb"], to_move=0)
    state = play(state, "5d x 5c")
    assert bonuses_of_last_play(state) == {}
    state = play(state, "2c")
    assert bonuses_of_last_play(state) == {}
    end = events_of(state, "deal_end")[0]
    assert end["leftover"] == {"team": 0, "cards": ["Rb", "2c"]}


def test_G1_8_G1_9_points_and_the_end_of_the_match(gr: Variant) -> None:
    # Last play of a deal at 10-10: team 0 sweeps (1), has the only coins (1) and the settebello (1); team 1
    # has more cards (1); nobody has four suits, so no primiera. 13-11: team 0 wins.
    state = position(
        gr,
        hands=[["7d"], []],
        table=["7c"],
        piles=[[], ["Ac", "2c", "3c"]],
        totals=[10, 10],
        to_move=0,
    )
    state = play(state, "7d x 7c")
    end = events_of(state, "deal_end")[0]
    assert end["points"] == [3, 1]
    assert state.is_terminal() and state.winner == 0 and state.totals == [13, 11]


def test_G1_9_tied_totals_over_eleven_play_on(gr: Variant) -> None:
    assert gr.match.winner([11, 11], 5) == (False, None)
    assert gr.match.winner([12, 11], 5) == (True, 0)
