"""Classic Scopa, RULES.md section 1: one test (or more) per rule id, expected answers from the rules text.

Card ids: rank id + suit id. Ranks A 2 3 4 5 6 7 F(fante) C(cavallo) R(re); suits d(coins) c(cups)
s(swords) b(clubs).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from conftest import all_cards, award_entries, moves_of, position
from piglia.state import Game
from piglia.variant import Variant


def simulated_events(variant: Variant, seeds: range) -> list[list[dict[str, Any]]]:
    from piglia.simulate import play_random_match

    return [[e.to_json() for e in play_random_match(Game(variant), s)] for s in seeds]


# -- Objective -------------------------------------------------------------------------------------------


def test_S0_2_reaching_target_mid_deal_does_not_end_the_match(scopa: Variant) -> None:
    # Team 0 has 10 points and scores a scopa (11) on the first play of a deal: the match goes on.
    state = position(
        scopa,
        hands=[["5d", "Rd", "Rc"], ["2c", "3c", "4c"]],
        table=["5c"],
        stock=all_cards(scopa)[:0],
        totals=[10, 0],
        to_move=0,
    )
    state = state.apply(next(m for m in state.legal_moves() if str(m) == "5d x 5c"))
    assert state.deal_points[0] == 1  # the scopa is scored...
    assert not state.is_terminal()  # ...but the match is checked only after the deal
    assert state.legal_moves()


# -- Setup -----------------------------------------------------------------------------------------------


def test_S1_1_forty_cards_three_each_four_on_table(scopa: Variant) -> None:
    assert len(scopa.deck) == 40
    state = Game(scopa).new_match(seed=3)
    deal = next(e for e in state.events or [] if e["event"] == "deal")
    assert [len(h) for h in deal["hands"]] == [3, 3]
    assert len(deal["table"]) == 4
    assert deal["stock"] == 40 - 6 - 4


def test_S1_2_non_dealer_leads(scopa: Variant) -> None:
    for seed in range(10):
        state = Game(scopa).new_match(seed=seed)
        assert state.to_move == 1 - state.dealer


@pytest.mark.parametrize(
    ("table", "redeal"),
    [
        (["Rd", "Rc", "Rs", "5b"], True),  # three re
        (["Rd", "Rc", "Rs", "Rb"], True),  # four re
        (["Rd", "Rc", "5s", "5b"], False),  # two re
        (["Fd", "Fc", "Fs", "Cb"], False),  # three fante are not re
    ],
)
def test_S1_3_three_or_four_re_on_opening_table_redeal(scopa: Variant, table: list[str], redeal: bool) -> None:
    state = Game(scopa).new_match(seed=0, auto_deal=False)
    deck = scopa.deck
    assert state.is_misdeal([deck.parse_card(c).index for c in table]) is redeal


def test_S1_3_the_same_dealer_deals_again(scopa: Variant) -> None:
    misdeals = 0
    for events in simulated_events(scopa, range(300)):
        for before, after in itertools.pairwise(events):
            if before["event"] == "misdeal":
                misdeals += 1
                assert sum(c.startswith("R") for c in before["table"]) >= 3
                assert after["event"] in ("misdeal", "deal")
                assert after["dealer"] == before["dealer"] and after["deal"] == before["deal"]
            if before["event"] == "deal":
                assert sum(c.startswith("R") for c in before["table"]) < 3
    assert misdeals > 0  # about 1 opening table in 40 has three re: 300 matches see some


def test_S1_4_capture_values_courts_take_part_in_sums(scopa: Variant) -> None:
    values = {r.name: r.value for r in scopa.deck.ranks}
    assert values == {
        "asso": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "fante": 8, "cavallo": 9, "re": 10,
    }  # fmt: skip
    # A re (10) takes fante (8) + 2, and a cavallo (9) can be part of a sum taken by nothing smaller.
    state = position(scopa, hands=[["Rd"], ["2c"]], table=["Fs", "2b", "3c"], to_move=0)
    assert moves_of(state, "Rd") == {"Rd x 2b+Fs"}


# -- A turn ----------------------------------------------------------------------------------------------


def test_S2_1_a_turn_plays_one_card_from_the_hand(scopa: Variant) -> None:
    state = position(scopa, hands=[["Ad", "2d"], ["3c", "4c"]], table=["6s"], to_move=0)
    assert {m.card.id for m in state.legal_moves()} == {"Ad", "2d"}
    after = state.apply(state.legal_moves()[0])
    assert len(after.hands[0]) == 1 and after.to_move == 1


def test_S2_2_same_value_takes_one_such_card_player_chooses(scopa: Variant) -> None:
    state = position(scopa, hands=[["7d"], ["2c"]], table=["7c", "7s", "3b", "4b"], to_move=0)
    # Two single 7s: one move for each; the 3+4 sum is excluded by the match (S2.3).
    assert moves_of(state, "7d") == {"7d x 7c", "7d x 7s"}


def test_S2_3_sum_only_when_no_equal_value_player_chooses_group(scopa: Variant) -> None:
    state = position(scopa, hands=[["7d"], ["2c"]], table=["3b", "4b", "2s", "5c", "Ac", "6s"], to_move=0)
    assert moves_of(state, "7d") == {
        "7d x 3b+4b",
        "7d x 2s+5c",
        "7d x 6s+Ac",
        "7d x 2s+4b+Ac",
    }
    # Courts are values too: a fante (8) takes 5+3 when no 8 is on the table.
    state = position(scopa, hands=[["Fd"], ["2c"]], table=["5s", "3s", "Ac"], to_move=0)
    assert moves_of(state, "Fd") == {"Fd x 3s+5s"}


def test_S2_4_available_capture_is_mandatory(scopa: Variant) -> None:
    state = position(scopa, hands=[["5d", "Rd"], ["2c"]], table=["5c", "2s"], to_move=0)
    assert moves_of(state, "5d") == {"5d x 5c"}  # no placing the 5 when it can capture
    assert moves_of(state, "Rd") == {"Rd"}  # the re cannot capture: it stays on the table


def test_S2_5_example_playing_a_seven(scopa: Variant) -> None:
    with_seven = position(scopa, hands=[["7d"], ["2c"]], table=["7c", "3s", "4s"], to_move=0)
    assert moves_of(with_seven, "7d") == {"7d x 7c"}
    without = position(scopa, hands=[["7d"], ["2c"]], table=["3s", "4s"], to_move=0)
    assert moves_of(without, "7d") == {"7d x 3s+4s"}
    nothing = position(scopa, hands=[["7d"], ["2c"]], table=["Rs", "Fs"], to_move=0)
    assert moves_of(nothing, "7d") == {"7d"}
    after = nothing.apply(nothing.legal_moves()[0])
    assert sorted(scopa.deck.ids(after.table)) == sorted(["Rs", "Fs", "7d"])


def test_S2_6_capture_puts_played_and_taken_cards_on_pile(scopa: Variant) -> None:
    state = position(scopa, hands=[["7d", "Ab"], ["2c"]], table=["3s", "4s", "Rc"], to_move=0)
    move = next(m for m in state.legal_moves() if str(m) == "7d x 3s+4s")
    after = state.apply(move)
    assert sorted(scopa.deck.ids(after.piles[0])) == sorted(["7d", "3s", "4s"])
    assert scopa.deck.ids(after.table) == ["Rc"]


def test_S2_7_turns_alternate_and_hands_refill_without_table_cards(scopa: Variant) -> None:
    state = Game(scopa).new_match(seed=11)
    first = state.to_move
    table_before_refill = None
    seats = []
    while state.deal_no == 1 and not state.is_terminal():
        seats.append(state.to_move)
        if len(state.stock) and sum(len(h) for h in state.hands) == 1:
            table_before_refill = list(state.table)
        state = state.apply(state.legal_moves()[0])
        if table_before_refill is not None and any(state.hands):
            # the refill: 3 each, and the table only differs by the last play
            assert [len(h) for h in state.hands] == [3, 3]
            break
    assert seats[:6] == [first, 1 - first] * 3
    refill = [e for e in state.events or [] if e["event"] == "refill"]
    assert refill and [len(h) for h in refill[0]["hands"]] == [3, 3]
    assert refill[0]["stock"] == 30 - 6


# -- Scoring and end -------------------------------------------------------------------------------------


def test_S3_1_clearing_the_table_scores_a_scopa(scopa: Variant) -> None:
    state = position(scopa, hands=[["7d", "Ab"], ["2c", "Rb"]], table=["3s", "4s"], stock=["5d", "5c"], to_move=0)
    after = state.apply(next(m for m in state.legal_moves() if str(m) == "7d x 3s+4s"))
    play = (after.events or [])[-1]
    assert play["bonuses"] == [{"name": "scopa", "points": 1}]
    # a capture that leaves cards on the table is no scopa
    state = position(scopa, hands=[["7d", "Ab"], ["2c", "Rb"]], table=["3s", "4s", "Rc"], stock=["5d"], to_move=0)
    after = state.apply(next(m for m in state.legal_moves() if str(m) == "7d x 3s+4s"))
    assert (after.events or [])[-1]["bonuses"] == []


def test_S3_1_no_scopa_on_the_final_play_of_a_deal(scopa: Variant) -> None:
    state = position(scopa, hands=[["7d"], []], table=["3s", "4s"], to_move=0)
    after = state.apply(next(m for m in state.legal_moves() if str(m) == "7d x 3s+4s"))
    play = next(e for e in after.events or [] if e["event"] == "play")
    assert play["bonuses"] == []


def test_S3_2_leftover_table_goes_to_last_capturer_without_scopa(scopa: Variant) -> None:
    # Seat 0 captured earlier (last_capturer 0); seat 1 plays the last card and cannot capture.
    state = position(
        scopa, hands=[[], ["Rb"]], table=["2s", "3c"], to_move=1, last_capturer=0, piles=[["5d", "5c"], []]
    )
    after = state.apply(state.legal_moves()[0])
    end = next(e for e in after.events or [] if e["event"] == "deal_end")
    assert end["leftover"]["team"] == 0 and sorted(end["leftover"]["cards"]) == ["2s", "3c", "Rb"]
    assert not any(e.get("bonuses") for e in after.events or [] if e["event"] == "play")


def test_S3_3_four_awards_one_point_each(scopa: Variant) -> None:
    # Team 0: 21 cards, 7 coins, the 7 of coins, and primiera 7d 7b 6c 6s = 21+21+18+18 = 78 against
    # team 1's 7c 7s 5b and a court of coins = 21+21+15+10 = 67.
    cards = all_cards(scopa)
    team0 = [r + s for s in "d" for r in "A234567"] + [r + s for s in "cs" for r in "A23456"] + ["7b", "6b"]
    team1 = [c for c in cards if c not in team0]
    got = award_entries(scopa, [team0, team1])
    assert got["cards"] == [(0, 1)]  # 21 against 19
    assert got["coins"] == [(0, 1)]  # 7 coins against 3
    assert got["primiera"] == [(0, 1)]
    assert got["settebello"] == [(0, 1)]
    assert {name: sum(p for _, p in e) for name, e in got.items()} == {
        "cards": 1, "coins": 1, "settebello": 1, "primiera": 1,
    }  # fmt: skip


def test_S3_3_a_tie_gives_the_point_to_neither(scopa: Variant) -> None:
    cards = all_cards(scopa)
    # 20 cards each, 5 coins each: cards and coins are tied.
    coins = [c for c in cards if c.endswith("d")]
    others = [c for c in cards if not c.endswith("d")]
    team0 = coins[:5] + others[:15]
    team1 = coins[5:] + others[15:]
    got = award_entries(scopa, [team0, team1])
    assert got["cards"] == [(None, 0)]
    assert got["coins"] == [(None, 0)]


def test_S3_4_primiera_values_and_best_card_per_suit(scopa: Variant) -> None:
    primiera = scopa.deck.tables["primiera"]
    by_rank = {r.name: primiera.values[r.index] for r in scopa.deck.ranks}
    assert by_rank == {
        "7": 21, "6": 18, "asso": 16, "5": 15, "4": 14, "3": 13, "2": 12, "fante": 10, "cavallo": 10, "re": 10,
    }  # fmt: skip
    # Team 0: 7d 7c 6s 5b = 21+21+18+15 = 75. Team 1: 6d 6c 7s 7b = 18+18+21+21 = 78: team 1 wins.
    got = award_entries(scopa, [["7d", "7c", "6s", "5b"], ["6d", "6c", "7s", "7b"]])
    assert got["primiera"] == [(1, 1)]
    # Equal primiera: nobody (S3.3).
    got = award_entries(scopa, [["7d", "6c", "Rs", "Ab"], ["6d", "7c", "As", "Rb"]])
    assert got["primiera"] == [(None, 0)]


def test_S3_4_primiera_needs_all_four_suits(scopa: Variant) -> None:
    # Team 0 has three sevens and a six but no clubs: only team 1, with all four suits, can win it.
    got = award_entries(scopa, [["7d", "7c", "7s", "6d"], ["Ad", "2c", "2s", "2b"]])
    assert got["primiera"] == [(1, 1)]
    # Neither team has all four suits: nobody.
    got = award_entries(scopa, [["7d", "7c"], ["7s", "7b"]])
    assert got["primiera"] == [(None, 0)]


def _end_deal_with_totals(scopa: Variant, totals: list[int], team0_gets: int) -> tuple[bool, int | None, list[int]]:
    """Play the last card of a deal where team 0 will take ``team0_gets`` award points (and team 1 the rest)."""
    cards = all_cards(scopa)
    # A-7 of coins, cups and swords and the 7 of clubs: 22 cards, 7 coins, the 7 of coins, primiera 84.
    pile0 = [r + s for s in "dcs" for r in "A234567"] + ["7b"] if team0_gets == 4 else []
    pile1 = [c for c in cards if c not in pile0 and c not in ("Rb", "Fb")]
    state = position(
        scopa,
        hands=[[], ["Rb"]],
        table=["Fb"],
        to_move=1,
        last_capturer=1,
        piles=[pile0, pile1],
        totals=totals,
    )
    after = state.apply(state.legal_moves()[0])
    return after.is_terminal(), after.winner, after.totals


def test_S3_5_win_with_at_least_11_and_more_than_the_opponent(scopa: Variant) -> None:
    over, winner, totals = _end_deal_with_totals(scopa, [7, 9], team0_gets=4)
    assert totals == [11, 9] and over and winner == 0


def test_S3_5_tied_totals_of_11_or_more_play_on(scopa: Variant) -> None:
    over, _, totals = _end_deal_with_totals(scopa, [7, 11], team0_gets=4)
    assert totals == [11, 11] and not over


def test_S3_5_below_11_plays_on(scopa: Variant) -> None:
    over, _, totals = _end_deal_with_totals(scopa, [6, 6], team0_gets=4)
    assert totals == [10, 6] and not over


def test_S3_6_dealer_alternates(scopa: Variant) -> None:
    for events in simulated_events(scopa, range(5)):
        dealers = [e["dealer"] for e in events if e["event"] == "deal"]
        assert all(a != b for a, b in itertools.pairwise(dealers))


def test_points_per_deal_come_from_bonuses_and_awards(scopa: Variant) -> None:
    for events in simulated_events(scopa, range(20)):
        bonus = Counter[int]()
        for e in events:
            if e["event"] == "play":
                for b in e["bonuses"]:
                    bonus[e["player"]] += b["points"]  # 2 players: seat == team
            elif e["event"] == "deal_end":
                awards = Counter[int]()
                for a in e["awards"]:
                    if a["team"] is not None:
                        awards[a["team"]] += a["points"]
                assert e["points"] == [bonus[t] + awards[t] for t in (0, 1)]
                bonus.clear()
