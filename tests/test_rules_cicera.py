"""Cicera as page 004 plays it, RULES.md section 3 (B0.1-B4.4), and traditional Cicera (BT.1-BT.3).

Brescian cards: ranks A 2-10 F(fante) C(cavallo) R(re), suits d(coins) c(cups) s(swords) b(clubs).
Four seats in the order of play; teams 0 (seats 0, 2) and 1 (seats 1, 3).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import piglia
from conftest import award_entries, bonuses_of_last_play, events_of, moves_of, play, position
from piglia.simulate import play_random_match
from piglia.state import Game
from piglia.variant import Variant

SUITS = "dcsb"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F", "C", "R"]


def suit(s: str) -> list[str]:
    return [r + s for r in RANKS]


@pytest.fixture(scope="module")
def ci() -> Variant:
    return piglia.load_variant("cicera")


@pytest.fixture(scope="module")
def trad() -> Variant:
    return piglia.load_variant("cicera-traditional")


def hands(*seat0: str) -> list[list[str]]:
    """Seat 0 holds these; the others hold a card each, so a play is not the last of the deal."""
    return [list(seat0), ["Ab"], ["Cb"], ["Rb"]]


# -- setup --------------------------------------------------------------------------------------------------


def test_B0_1_partners_sit_opposite(ci: Variant) -> None:
    assert Game(ci).players.teams == ((0, 2), (1, 3))


def test_B1_1_all_52_cards_twelve_each_four_on_the_table(ci: Variant) -> None:
    assert len(ci.deck) == 52
    deal = events_of(Game(ci).new_match(seed=1), "deal")[0]
    assert [len(h) for h in deal["hands"]] == [12, 12, 12, 12]
    assert len(deal["table"]) == 4 and deal["stock"] == 0


def test_B1_2_random_dealer_right_hand_leads_counterclockwise(ci: Variant) -> None:
    assert Game(ci).players.order == "counterclockwise"
    dealers = set()
    for seed in range(12):
        state = Game(ci).new_match(seed=seed)
        dealers.add(state.dealer)
        assert state.to_move == (state.dealer + 1) % 4  # seats are numbered in the order of play
    assert len(dealers) > 1


def test_B1_3_numerals_and_courts(ci: Variant) -> None:
    assert [r.value for r in ci.deck.ranks if not r.court] == list(range(1, 11))
    assert [r.name for r in ci.deck.ranks if r.court] == ["fante", "cavallo", "re"]


# -- a turn -------------------------------------------------------------------------------------------------


def test_B2_6_example_seven_on_seven_three_four(ci: Variant) -> None:
    # Take the 7, or take 3 + 4, or leave the card on the table (B2.1, B2.2, B2.5, B2.6).
    state = position(ci, players=4, hands=hands("7d"), table=["7c", "3s", "4b"], to_move=0)
    assert moves_of(state, "7d") == {"7d x 7c", "7d x 3s+4b", "7d"}


def test_B2_1_match_is_by_rank(ci: Variant) -> None:
    state = position(ci, players=4, hands=hands("10d", "Rd"), table=["10c", "Rs", "Fb"], to_move=0)
    assert moves_of(state, "10d") == {"10d x 10c", "10d"}
    assert moves_of(state, "Rd") == {"Rd x Rs", "Rd"}


def test_B2_2_numerals_add_up_to_the_numeral(ci: Variant) -> None:
    state = position(ci, players=4, hands=hands("10d"), table=["4s", "6b", "3c", "7s", "9b"], to_move=0)
    assert moves_of(state, "10d") == {"10d x 4s+6b", "10d x 3c+7s", "10d"}


def test_B2_3_courts_take_only_a_court_of_their_rank_and_are_in_no_sum(ci: Variant) -> None:
    state = position(ci, players=4, hands=hands("Fd", "5d"), table=["Fc", "Cs", "2b", "3b", "Rc"], to_move=0)
    assert moves_of(state, "Fd") == {"Fd x Fc", "Fd"}
    assert moves_of(state, "5d") == {"5d x 2b+3b", "5d"}


def test_B2_4_captures_join_the_team_pile(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["Ad"], ["2d"], ["4d", "9b"], ["Rb"]], table=["4c"], to_move=2)
    state = play(state, "4d x 4c")
    deck = ci.deck
    assert sorted(state.piles[0]) == sorted(deck.parse_card(c).index for c in ("4d", "4c"))


# -- capture bonuses ----------------------------------------------------------------------------------------


def test_B3_1_B3_5_scua_counts_on_the_last_play(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["5d"], [], [], []], table=["5c"], to_move=0)
    state = play(state, "5d x 5c")
    assert bonuses_of_last_play(state) == {"scua": 1}


def test_B3_2_picada_takes_the_card_just_placed(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["4d", "Ad"], ["4s", "7s"], ["Cb"], ["Rb"]], table=["9c", "3b"], to_move=0)
    state = play(state, "4d")  # placed, although it could not take anything anyway
    assert moves_of(state, "4s") == {"4s x 4d", "4s"}
    after = play(state, "4s x 4d")
    assert bonuses_of_last_play(after) == {"picada": 1}


def test_B3_2_no_picada_when_taking_more_than_the_placed_card(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["4d", "Ad"], ["4s", "7s"], ["Cb"], ["Rb"]], table=["9c", "3b"], to_move=0)
    state = play(state, "4d")
    after = play(state, "7s x 3b+4d")
    assert "picada" not in bonuses_of_last_play(after)


def test_B3_2_no_picada_when_the_previous_play_captured(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["4d", "Ad"], ["4s", "7s"], ["Cb"], ["Rb"]], table=["4c", "4b"], to_move=0)
    state = play(state, "4d x 4c")
    after = play(state, "4s x 4b")
    assert "picada" not in bonuses_of_last_play(after)


def test_B3_3_simili_played_and_captured_share_a_suit(ci: Variant) -> None:
    state = position(ci, players=4, hands=hands("7d"), table=["3d", "4d", "3c", "4c", "Rs"], to_move=0)
    assert bonuses_of_last_play(play(state, "7d x 3d+4d")) == {"simili": 1}
    assert bonuses_of_last_play(play(state, "7d x 3d+4c")) == {}


def test_B3_4_quadriglia_three_table_cards(ci: Variant) -> None:
    state = position(ci, players=4, hands=hands("9d"), table=["2c", "3s", "4b", "Rs"], to_move=0)
    assert bonuses_of_last_play(play(state, "9d x 2c+3s+4b")) == {"quadriglia": 1}


def test_B3_5_bonuses_stack(ci: Variant) -> None:
    state = position(ci, players=4, hands=hands("9d"), table=["2d", "3d", "4d"], to_move=0)
    assert bonuses_of_last_play(play(state, "9d x 2d+3d+4d")) == {"scua": 1, "simili": 1, "quadriglia": 1}


# -- scoring and end ----------------------------------------------------------------------------------------


def test_B4_1_leftover_to_the_last_capture_team_without_bonus(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["5d"], ["6c"], [], []], table=["5c", "Rs"], to_move=0)
    state = play(state, "5d x 5c")
    state = play(state, "6c")
    assert bonuses_of_last_play(state) == {}
    assert events_of(state, "deal_end")[0]["leftover"] == {"team": 0, "cards": ["Rs", "6c"]}


def test_B4_1_nobody_captured_the_table_stays_unwon(ci: Variant) -> None:
    state = position(ci, players=4, hands=[["5d"], ["6c"], [], []], table=["Rs"], to_move=0)
    state = play(play(state, "5d"), "6c")
    assert events_of(state, "deal_end")[0]["leftover"] == {"team": None, "cards": ["Rs", "5d", "6c"]}


def test_B4_2_end_of_deal_awards(ci: Variant) -> None:
    team0 = suit("d") + suit("c") + ["2s"]  # 27 cards, the mata, the 10 of coins, the fante of cups
    team1 = [c for c in suit("s") if c != "2s"] + suit("b")  # 25 cards, 12 swords, no 2 of swords
    awards = award_entries(ci, [team0, team1])
    assert awards["cards"] == [(0, 2)]
    assert awards["swords"] == [(1, 1)]
    assert awards["mata"] == [(0, 1)]
    assert awards["ten_of_coins"] == [(0, 1)]
    assert awards["fante_of_cups"] == [(0, 1)]
    assert awards["napula"] == [(None, 0)]  # team 1's run of swords stops at the asso


def test_B4_2_a_tied_majority_gives_no_points(ci: Variant) -> None:
    awards = award_entries(ci, [suit("d") + suit("c"), suit("s") + suit("b")])
    assert awards["cards"] == [(None, 0)]  # 26-26


@pytest.mark.parametrize(
    ("swords", "points"),
    [(["A", "2", "3"], 3), (["A", "2", "3", "4"], 4), (["A", "2", "4", "5"], 0), (["2", "3", "4"], 0), (RANKS, 10)],
)
def test_B4_3_napula_run_of_swords_from_the_asso(ci: Variant, swords: list[str], points: int) -> None:
    awards = award_entries(ci, [[r + "s" for r in swords], ["Ad"]])
    assert awards["napula"] == ([(0, points)] if points else [(None, 0)])


def test_B4_4_one_deal_equal_totals_draw(ci: Variant) -> None:
    # The last card is placed; nobody captured in this deal. Team 0 has the 10 of coins, team 1 the fante
    # of cups: 1-1, and the cards (12-12) and swords (0-0) are tied. One deal: a draw.
    team0 = [c for c in suit("d") if c != "5d"]
    team1 = [c for c in suit("c") if c != "Rc"]
    state = position(ci, players=4, hands=[["5d"], [], [], []], table=["Rc"], piles=[team0, team1], to_move=0)
    state = play(state, "5d")
    assert state.is_terminal()
    assert state.totals == [1, 1] and state.winner is None


def test_B4_4_higher_total_wins(ci: Variant) -> None:
    team0 = [c for c in suit("d") if c != "5d"] + ["Fc"]
    team1 = [c for c in suit("c") if c not in ("Rc", "Fc")]
    state = position(ci, players=4, hands=[["5d"], [], [], []], table=["Rc"], piles=[team0, team1], to_move=0)
    state = play(state, "5d")
    assert state.is_terminal() and state.winner == 0  # cards 13-11 (2), 10 of coins, fante of cups


# -- traditional Cicera -------------------------------------------------------------------------------------


def test_BT_1_match_to_51_ties_play_on(trad: Variant) -> None:
    assert trad.match.winner([51, 40], 3) == (True, 0)
    assert trad.match.winner([50, 49], 9) == (False, None)
    assert trad.match.winner([53, 53], 4) == (False, None)  # both reached it, equal: another deal
    assert trad.match.winner([52, 55], 4) == (True, 1)  # both reached it: the higher total


def test_BT_1_the_deal_passes_in_the_order_of_play(trad: Variant) -> None:
    events = play_random_match(Game(trad), 7)
    dealers = [e["dealer"] for e in events if e["event"] == "deal"]
    assert len(dealers) > 1
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))


def test_BT_2_all_thirteen_swords_win_at_once(trad: Variant) -> None:
    swords = [c for c in suit("s") if c != "Rs"]
    state = position(
        trad, players=4, hands=[["Rd", "4d"], ["5c"], ["6c"], ["7c"]], table=["Rs", "9b"], piles=[swords, []],
        totals=[10, 30], to_move=0,
    )  # fmt: skip
    state = play(state, "Rd x Rs")
    assert state.is_terminal() and state.winner == 0
    end = state.events[-1]  # type: ignore[index]
    assert end == {"event": "match_end", "totals": [10, 30], "winner": 0, "reason": "all 13 swords"}
    assert events_of(state, "deal_end") == []  # the deal is not played out


def test_BT_2_the_leftover_can_complete_the_swords(trad: Variant) -> None:
    swords = [c for c in suit("s") if c != "Rs"]
    state = position(trad, players=4, hands=[["9d"], [], [], []], table=["9c", "Rs"], piles=[swords, []], to_move=0)
    state = play(state, "9d x 9c")  # the last play; the re of swords is left over to team 0
    assert [e["event"] for e in state.events[-2:]] == ["deal_end", "match_end"]  # type: ignore[index]
    assert state.winner == 0 and state.events[-1]["reason"] == "all 13 swords"  # type: ignore[index]


def test_BT_2_twelve_swords_is_not_enough(trad: Variant) -> None:
    swords = [c for c in suit("s") if c not in ("Rs", "Cs")]
    state = position(
        trad, players=4, hands=[["Rd", "4d"], ["5c"], ["6c"], ["7c"]], table=["Rs", "9b"], piles=[swords, []],
        to_move=0,
    )  # fmt: skip
    assert not play(state, "Rd x Rs").is_terminal()


def test_BT_3_this_file_follows_the_page(trad: Variant) -> None:
    assert award_entries(trad, [suit("d") + suit("c"), suit("s") + suit("b")])["cards"] == [(None, 0)]
    state = position(trad, players=4, hands=[["5d"], [], [], []], table=["5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "5d x 5c")) == {"scua": 1}


def test_BT_3_the_other_choices_can_be_written(tmp_path: Path) -> None:
    rules = tmp_path / "cicera-other.yaml"
    rules.write_text(
        "name: cicera-other\n"
        "extends: cicera-traditional\n"
        "awards:\n"
        "  cards: {tie: each, tie_points: 1}\n"
        "bonuses:\n"
        "  scua: {when: empty(table_after) and not last_play}\n",
        encoding="utf-8",
    )
    other = piglia.load_variant(rules)
    assert award_entries(other, [suit("d") + suit("c"), suit("s") + suit("b")])["cards"] == [(0, 1), (1, 1)]
    state = position(other, players=4, hands=[["5d"], [], [], []], table=["5c"], to_move=0)
    assert bonuses_of_last_play(play(state, "5d x 5c")) == {}
