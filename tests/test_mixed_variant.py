"""Mechanics combine without Python: tests/variants/mixed.yaml puts Escoba's fifteen and opening bonus on a
four-player partnership game, with Cicera's bonuses, Chkobba's tie-broken majority, Spazzino's shared tie and
an instant win. Also the language pieces added for the games: aliases, opening bonuses, instant wins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import piglia
from conftest import award_entries, bonuses_of_last_play, moves_of, play, position
from conftest import write_variant as write
from piglia.errors import SpecErrors
from piglia.state import Game
from piglia.variant import Variant

MIXED = Path(__file__).parent / "variants" / "mixed.yaml"


@pytest.fixture(scope="module")
def mixed() -> Variant:
    return piglia.load_variant(MIXED)


def test_fifteen_on_a_four_player_partnership(mixed: Variant) -> None:
    assert Game(mixed, 4).players.teams == ((0, 2), (1, 3))
    state = position(
        mixed, players=4, hands=[["Ab"], ["2b"], ["7d", "2d"], ["3b"]], table=["Fc", "3s", "5s"], to_move=2
    )
    assert moves_of(state, "7d") == {"7d", "7d x Fc", "7d x 3s+5s"}  # optional, to 15 with the played card


def test_cicera_bonuses_for_the_partnership(mixed: Variant) -> None:
    # Seat 1 places the re of coins; seat 2 takes exactly that card with a 5 (5 + 10 = 15): a picada.
    state = position(mixed, players=4, hands=[["Ab"], ["Rd", "Cb"], ["5s", "Rs"], ["3b"]], table=["Fc"], to_move=1)
    state = play(state, "Rd")
    assert moves_of(state, "5s") == {"5s", "5s x Rd"}
    assert bonuses_of_last_play(play(state, "5s x Rd")) == {"picada": 1}
    # The same capture when the re was not just placed (it was on the table before) is no picada.
    state = position(
        mixed, players=4, hands=[["Ab"], ["2b", "Cb"], ["5s", "Rs"], ["3b"]], table=["Rd", "Fc"], to_move=1
    )
    state = play(state, "2b")
    assert bonuses_of_last_play(play(state, "5s x Rd")) == {}


def test_simili_and_quadriglia_with_points_from_the_capture(mixed: Variant) -> None:
    state = position(
        mixed, players=4, hands=[["Ad", "2b"], ["2c"], ["3c"], ["4c"]], table=["2d", "3d", "4d", "5d", "Rb"], to_move=0
    )
    # 1 + 2 + 3 + 4 + 5 = 15: four table cards of the played suit.
    assert bonuses_of_last_play(play(state, "Ad x 2d+3d+4d+5d")) == {"simili": 1, "quadriglia": 3}


def test_opening_take_counts_as_the_dealer_s_capture(mixed: Variant) -> None:
    state = position(
        mixed, players=4, hands=[["Ab"], ["2b"], ["3b"], ["4b"]], table=["7d", "Fc"], dealer=3, opening=True
    )
    assert state.table == [] and state.deal_points == [0, 1] and state.last_capturer == 3
    for card in ("Ab", "2b", "3b", "4b"):
        state = play(state, card)
    end = next(e for e in state.events or [] if e["event"] == "deal_end")
    assert end["leftover"] == {"team": 1, "cards": ["Ab", "2b", "3b", "4b"]}


def test_tie_broken_majority_and_shared_tie(mixed: Variant) -> None:
    awards = award_entries(mixed, [["7d", "6d", "Ac"], ["7c", "6c", "2c"]])
    assert awards["cards"] == [(0, 1), (1, 1)]
    assert awards["sevens"] == [(0, 1)]  # 7s and 6s tied, then the asso


def test_instant_win_in_a_mixed_game(mixed: Variant) -> None:
    coins = ["Ad", "2d", "3d", "4d", "5d", "6d", "Fd", "Cd", "Rd"]
    state = position(mixed, players=2, hands=[["7d", "Ab"], ["2b"]], table=["Fc"], piles=[coins, []], to_move=0)
    state = play(state, "7d x Fc")
    assert state.is_terminal() and state.winner == 0


def test_alias_that_repeats_a_name_is_an_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "name: v\nextends: scopa\ndeck:\n  suits:\n    - {name: coins, id: d}\n"
        "    - {name: cups, id: c, aliases: [coins]}\n    - {name: swords, id: s}\n    - {name: clubs, id: b}\n",
    )
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(path)
    assert any("alias 'coins' is already a name" in e.message and e.line == 6 for e in info.value.errors)


def test_table_value_by_name_and_alias_is_an_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "name: v\nextends: scopa-french\ndeck:\n  tables:\n    primiera: {K: 10}\n",
    )
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(path)
    assert any("value twice" in e.message for e in info.value.errors)


def test_aliases_resolve_in_expressions(tmp_path: Path) -> None:
    fr = piglia.load_variant("scopa-french")
    awards = award_entries(fr, [["7d"], ["7h", "6h"]])
    assert awards["settebello"] == [(0, 1)]  # `7 of coins` is the 7 of diamonds


def test_instant_win_condition_is_checked_like_any_expression(tmp_path: Path) -> None:
    path = write(tmp_path, "name: v\nextends: scopa\nmatch:\n  instant_win: {when: count(pile) + played}\n")
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(path)
    assert info.value.errors[0].path == "match.instant_win.when"


def test_opening_take_must_be_cards(tmp_path: Path) -> None:
    path = write(
        tmp_path, "name: v\nextends: scopa\ndeal:\n  opening:\n    x: {when: empty(table), points: 1, take: dealer}\n"
    )
    with pytest.raises(SpecErrors) as info:
        piglia.load_variant(path)
    assert info.value.errors[0].path == "deal.opening.x.take"
