"""Escoba, RULES.md F5.

Spanish cards: ranks 1-7 S(sota) C(caballo) R(rey), suits o(oros) c(copas) e(espadas) b(bastos).
"""

from __future__ import annotations

import io
import json

import pytest

import piglia
from conftest import award_entries, bonuses_of_last_play, events_of, moves_of, play, position
from piglia.record import verify_lines, write_events
from piglia.simulate import match_seed, play_random_match
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def es() -> Variant:
    return piglia.load_variant("escoba")


def test_F5_spanish_deck_values(es: Variant) -> None:
    assert len(es.deck) == 40
    assert [s.name for s in es.deck.suits] == ["oros", "copas", "espadas", "bastos"]
    assert [(r.name, r.value) for r in es.deck.ranks][7:] == [("sota", 8), ("caballo", 9), ("rey", 10)]


def test_F5_three_each_four_on_the_table_refills(es: Variant) -> None:
    rules = es.deal_rules()
    assert (rules.hand, rules.table, rules.refill) == (3, 4, True)


def test_F5_opening_table_of_15_goes_to_the_dealer_one_escoba(es: Variant) -> None:
    state = position(es, hands=[["1c"], ["2c"]], table=["1o", "2e", "5c", "7b"], dealer=1, opening=True)
    assert state.table == []
    assert sorted(es.deck.cards[c].id for c in state.piles[1]) == ["1o", "2e", "5c", "7b"]
    assert state.deal_points == [0, 1]
    assert events_of(state, "opening") == [
        {"event": "opening", "deal": 1, "player": 1, "name": "dealer_escoba", "points": 1,
         "captured": ["1o", "5c", "2e", "7b"]},
    ]  # fmt: skip


def test_F5_opening_table_of_two_fifteens_two_escobas(es: Variant) -> None:
    # 10 + 5 and 7 + 8: total 30 in two groups of 15.
    state = position(es, hands=[["1c"], ["2c"]], table=["Ro", "5c", "7e", "Sb"], dealer=0, opening=True)
    assert state.table == [] and state.deal_points == [2, 0]


def test_F5_thirty_that_does_not_split_gives_nothing(es: Variant) -> None:
    # 10 + 10 + 9 + 1 = 30, but no two cards make 15 (and no single card or three cards can).
    state = position(es, hands=[["1c"], ["2c"]], table=["Ro", "Rc", "Ce", "1b"], dealer=0, opening=True)
    assert len(state.table) == 4 and state.deal_points == [0, 0]
    assert events_of(state, "opening") == []


def test_F5_other_totals_give_nothing(es: Variant) -> None:
    state = position(es, hands=[["1c"], ["2c"]], table=["1o", "2e", "5c", "Sb"], dealer=0, opening=True)
    assert len(state.table) == 4 and state.deal_points == [0, 0]


def test_F5_capture_is_a_card_plus_table_cards_making_15_optional(es: Variant) -> None:
    state = position(es, hands=[["7o", "1o"], ["2c"]], table=["Sc", "3e", "5b", "7c"], to_move=0)
    assert moves_of(state, "7o") == {"7o", "7o x Sc", "7o x 3e+5b"}


def test_F5_escoba_but_not_on_the_last_play(es: Variant) -> None:
    state = position(es, hands=[["7o", "1o"], ["2c"]], table=["Sc"], to_move=0)
    assert bonuses_of_last_play(play(state, "7o x Sc")) == {"escoba": 1}
    state = position(es, hands=[["7o"], []], table=["Sc"], to_move=0)
    assert bonuses_of_last_play(play(state, "7o x Sc")) == {}


def test_F5_awards(es: Variant) -> None:
    awards = award_entries(es, [["7o", "7c", "1o", "2b"], ["7e", "3o", "Rc"]])
    assert awards == {
        "cards": [(0, 1)],
        "oros": [(0, 1)],  # 2 oros against 1
        "velo": [(0, 1)],
        "sevens": [(0, 1)],  # 2 sevens against 1
    }
    tied = award_entries(es, [["7o", "1c"], ["7e", "1o"]])
    assert tied["cards"] == [(None, 0)] and tied["oros"] == [(None, 0)] and tied["sevens"] == [(None, 0)]


def test_F5_match_to_21_ties_play_on(es: Variant) -> None:
    assert es.match.winner([21, 20], 5) == (True, 0)
    assert es.match.winner([22, 22], 5) == (False, None)


def test_F5_opening_bonus_is_in_the_record_and_checked() -> None:
    es = piglia.load_variant("escoba")
    game = Game(es)
    for k in range(200):
        events = play_random_match(game, match_seed(11, k))
        if any(e["event"] == "opening" for e in events):
            break
    else:
        pytest.fail("no opening bonus in 200 matches")
    out = io.StringIO()
    write_events(events, out)
    lines = out.getvalue().splitlines()
    assert verify_lines(lines)[1] == []
    at = next(i for i, line in enumerate(lines) if '"event":"opening"' in line)
    tampered = json.loads(lines[at])
    tampered["points"] += 1
    bad = [*lines[:at], json.dumps(tampered), *lines[at + 1 :]]
    errors = verify_lines(bad, "rec.jsonl")[1]
    assert errors and errors[0].line == at + 1 and "opening bonus points" in errors[0].message
    dropped = [*lines[:at], *lines[at + 1 :]]
    assert verify_lines(dropped, "rec.jsonl")[1]
