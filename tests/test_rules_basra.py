"""Basra, RULES.md 5.2: one test (or more) per rule id, expected answers from the rules text.

Card ids: rank id + suit id. Ranks A 2 ... 10 J Q K; suits d (diamonds) h (hearts) c (clubs) s (spades).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import (
    all_cards,
    award_entries,
    bonuses_of_last_play,
    edit_event,
    events_of,
    moves_of,
    play,
    position,
    record_errors,
    run_piglia,
    with_target,
)
from piglia.players import make_player
from piglia.record import verify_lines, write_events
from piglia.simulate import play_random_match
from piglia.state import Game, State
from piglia.variant import Variant


@pytest.fixture(scope="module")
def basra() -> Variant:
    return piglia.load_variant("basra")


@pytest.fixture(scope="module")
def short_basra(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    """Basra with a match to 40 (one or two deals): the same rules, shorter matches for simulation."""
    return with_target(tmp_path_factory, "basra", 40)


@pytest.fixture(scope="module")
def one_deal_basra(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    """Basra with a match to 1: a match is (almost always) one deal; for 300 cheap matches."""
    return with_target(tmp_path_factory, "basra", 1)


# -- BA1: setup ------------------------------------------------------------------------------------------


def test_BA1_1_fifty_two_cards_four_each_four_on_the_table(basra: Variant) -> None:
    assert len(basra.deck) == 52 and basra.player_counts == (2, 4)
    state = Game(basra).new_match(seed=1)
    deal = events_of(state, "deal")[0]
    assert [len(h) for h in deal["hands"]] == [4, 4]
    assert len(deal["table"]) == 4
    assert deal["stock"] == 52 - 8 - 4
    assert state.to_move == 1 - state.dealer  # the non-dealer leads


def test_BA1_1_four_players_in_partnerships(basra: Variant) -> None:
    game = Game(basra, 4)
    assert [list(t) for t in game.players.teams] == [[0, 2], [1, 3]]  # partners opposite
    deal = events_of(game.new_match(seed=3), "deal")[0]
    assert [len(h) for h in deal["hands"]] == [4, 4, 4, 4] and deal["stock"] == 52 - 16 - 4


def test_BA1_1_four_more_each_and_never_more_to_the_table(basra: Variant) -> None:
    state = Game(basra).new_match(seed=2)
    for _ in range(8):  # both hands played out: the refill follows the eighth card
        table_before = len(state.table)
        move = state.legal_moves()[0]
        state.push(move)
        assert len(state.table) <= table_before + 1  # only the played card can reach the table
    refill = events_of(state, "refill")[0]
    assert [len(h) for h in refill["hands"]] == [4, 4] and refill["stock"] == 52 - 12 - 8


def test_BA1_1_no_jack_and_no_seven_of_diamonds_on_an_opening_table(basra: Variant) -> None:
    for seed in range(60):
        for deal in events_of(Game(basra).new_match(seed=seed), "deal"):
            assert not any(c.startswith("J") or c == "7d" for c in deal["table"])


def test_BA1_1_such_a_card_goes_under_the_stock_and_is_replaced(basra: Variant) -> None:
    # BA1.1: the card goes back into the stock, at its bottom, and the next stock card takes its place; no redeal
    seen = 0
    for seed in range(60):
        state = Game(basra).new_match(seed=seed)
        assert not events_of(state, "misdeal")
        deal = events_of(state, "deal")[0]
        if "returned" not in deal:
            continue
        seen += 1
        returned = deal["returned"]
        assert all(c.startswith("J") or c == "7d" for c in returned)
        assert [basra.deck.cards[c].id for c in state.stock[-len(returned) :]] == returned  # dealt last
        assert len(deal["table"]) == 4 and deal["stock"] == 52 - 8 - 4
    assert seen > 10  # 5 of the 52 cards qualify: about a third of openings hold one


# -- BA2: capturing --------------------------------------------------------------------------------------


def test_BA2_1_maximal_is_not_the_most_cards(basra: Variant) -> None:
    """The rules' own example: a 6 on A, 2, 3, 3 may take {3, 3} or {A, 2, 3}."""
    state = position(basra, hands=[["6h"], ["2c"]], table=["Ad", "2d", "3d", "3s"], to_move=0)
    assert moves_of(state, "6h") == {"6h x 3d+3s", "6h x 2d+3d+Ad", "6h x 2d+3s+Ad"}


def test_BA2_1_every_card_of_its_rank_and_every_group_in_one_play(basra: Variant) -> None:
    # a 5 on 5, 5, 2 + 3, 4 + A: everything of value 5 goes at once; the king stays
    state = position(basra, hands=[["5h"], ["2c"]], table=["5c", "5s", "2d", "3s", "4h", "Ad", "Kc"], to_move=0)
    assert moves_of(state, "5h") == {"5h x 2d+3s+4h+5c+5s+Ad"}
    # a part of it is not a capture: nothing of value 5 may stay
    with pytest.raises(piglia.IllegalMoveError):
        play(state, "5h x 5c+5s")


def test_BA2_1_groups_are_number_cards_only(basra: Variant) -> None:
    # a 9 cannot count a queen or a jack in a group
    state = position(basra, hands=[["9h"], ["2c"]], table=["Qd", "9s", "Jd"], to_move=1)
    state = play(state, "2c")  # seat 1 places its 2 (nothing of value 2)
    assert moves_of(state, "9h") == {"9h x 9s"}


def test_BA2_2_queens_and_kings_take_their_own_rank_only(basra: Variant) -> None:
    state = position(basra, hands=[["Qh", "Kh"], ["2c"]], table=["Qd", "Qs", "Kc", "2d"], to_move=0)
    assert moves_of(state, "Qh") == {"Qh x Qd+Qs"}
    assert moves_of(state, "Kh") == {"Kh x Kc"}
    empty = position(basra, hands=[["Qh"], ["2c"]], table=["Kc", "2d"], to_move=0)
    assert moves_of(empty, "Qh") == {"Qh"}


def test_BA2_3_jack_and_seven_of_diamonds_take_everything(basra: Variant) -> None:
    table = ["Qd", "9s", "Ad", "7c"]
    state = position(basra, hands=[["Jh", "7d", "7h"], ["2c"]], table=table, to_move=0)
    assert moves_of(state, "Jh") == {"Jh x 7c+9s+Ad+Qd"}
    assert moves_of(state, "7d") == {"7d x 7c+9s+Ad+Qd"}
    assert moves_of(state, "7h") == {"7h x 7c"}  # another 7 is a plain number card


def test_BA2_3_on_an_empty_table_they_stay(basra: Variant) -> None:
    state = position(basra, hands=[["Jh", "7d"], ["2c"]], table=[], to_move=0)
    assert moves_of(state) == {"Jh", "7d"}


def test_BA2_4_capture_is_compulsory(basra: Variant) -> None:
    state = position(basra, hands=[["5h", "9h"], ["2c"]], table=["5c", "Kd"], to_move=0)
    assert moves_of(state) == {"5h x 5c", "9h"}


# -- BA3: scoring ----------------------------------------------------------------------------------------


def _last_plays(basra: Variant, table: list[str], card: str, other: str = "2c") -> State:
    """Seat 0 holds ``card`` with one more card for later, so the play is not the last of the deal."""
    return position(basra, hands=[[card, "Kh"], [other, "Ks"]], table=table, to_move=0)


@pytest.mark.parametrize(
    ("table", "move", "points"),
    [
        (["5c"], "5h x 5c", 10),  # a number card clearing the table
        (["Qc", "Qs"], "Qh x Qc+Qs", 10),  # a queen clearing it
        (["5c", "Qd"], "Jh x 5c+Qd", 0),  # never with a jack
        (["3c", "4s"], "7d x 3c+4s", 10),  # the 7 of diamonds: number cards totalling 7
        (["3c", "4s", "2d"], "7d x 2d+3c+4s", 10),  # ... 9
        (["6c", "5s"], "7d x 5s+6c", 0),  # ... 11: more than 10
        (["3c", "Qs"], "7d x 3c+Qs", 0),  # ... a queen is not a number card
    ],
)
def test_BA3_1_basra(basra: Variant, table: list[str], move: str, points: int) -> None:
    card = move.split()[0]
    state = play(_last_plays(basra, table, card), move)
    assert bonuses_of_last_play(state).get("basra", 0) == points


def test_BA3_1_basra_counts_on_the_last_play_too(basra: Variant) -> None:
    state = position(basra, hands=[["5h"], []], table=["5c"], to_move=0)
    state = play(state, "5h x 5c")
    assert bonuses_of_last_play(state) == {"basra": 10}


def test_BA3_2_awards(basra: Variant) -> None:
    piles = [["Jd", "Jh", "Ad", "2c", "10d", "3d", "4d", "5d"], ["Js", "Ah", "As", "3c"]]
    entries = award_entries(basra, piles)
    assert entries["cards"] == [(0, 30)]
    assert entries["jacks"] == [(0, 2), (1, 1)]  # each jack 1
    assert entries["aces"] == [(0, 1), (1, 2)]  # each ace 1
    assert entries["two_of_clubs"] == [(0, 2)]
    assert entries["ten_of_diamonds"] == [(0, 3)]


def _tied_deal(basra: Variant, carried: int = 0) -> State:
    """The last two plays of a deal ending 26-26 in cards (no leftover: nobody captured)."""
    cards = [c for c in all_cards(basra) if c not in {"2h", "3h"}]
    state = position(basra, hands=[["2h"], ["3h"]], piles=[cards[:25], cards[25:]], to_move=0, totals=[10, 20])
    state.carried = {"cards": carried} if carried else {}
    return state


def test_BA3_2_a_tie_for_most_cards_carries_the_30_to_the_next_deal(basra: Variant) -> None:
    state = play(play(_tied_deal(basra), "2h"), "3h")
    end = events_of(state, "deal_end")[0]
    cards = next(a for a in end["awards"] if a["name"] == "cards")
    assert cards == {"name": "cards", "team": None, "points": 0, "carry": 30}
    assert state.carried == {"cards": 30}


def test_BA3_2_the_next_deals_majority_scores_60(basra: Variant) -> None:
    state = position(basra, hands=[["5h"], ["3h"]], table=["5c"], piles=[all_cards(basra)[:30], []], to_move=0)
    state.carried = {"cards": 30}
    state = play(play(state, "5h x 5c"), "3h")
    end = events_of(state, "deal_end")[0]
    assert next(a for a in end["awards"] if a["name"] == "cards") == {"name": "cards", "team": 0, "points": 60}
    assert state.carried == {}


def test_BA3_2_and_so_on_while_ties_repeat(basra: Variant) -> None:
    state = play(play(_tied_deal(basra, carried=30), "2h"), "3h")
    cards = next(a for a in events_of(state, "deal_end")[0]["awards"] if a["name"] == "cards")
    assert cards["team"] is None and cards["carry"] == 60


def test_BA3_2_match_to_101_equal_totals_play_on(basra: Variant) -> None:
    assert basra.match.winner([101, 99], 3) == (True, 0)
    assert basra.match.winner([100, 99], 3) == (False, None)
    assert basra.match.winner([105, 105], 3) == (False, None)
    assert basra.match.winner([102, 110], 3) == (True, 1)


# -- whole matches ---------------------------------------------------------------------------------------


def _record(variant: Variant, seed: int) -> list[str]:
    out = io.StringIO()
    write_events(play_random_match(Game(variant), seed), out)
    return out.getvalue().splitlines()


@pytest.mark.parametrize("players", [2, 4])
def test_300_matches_replay_clean(one_deal_basra: Variant, players: int) -> None:
    out = io.StringIO()
    carries = 0
    for seed in range(300):
        events = play_random_match(Game(one_deal_basra, players), seed)
        carries += sum("carry" in a for e in events if e.event == "deal_end" for a in e.to_json()["awards"])
        write_events(events, out)
    count, errors = verify_lines(out.getvalue().splitlines(), "basra.jsonl", variant=one_deal_basra)
    assert [str(e) for e in errors] == [] and count == 300
    assert carries > 0  # 26-26 happens: the carry-over is recorded and replayed


def test_replay_checks_the_carried_points(short_basra: Variant) -> None:
    """BA3.2 in whole matches: a tied deal carries 30, the next deal's majority scores 60; replay checks both."""
    for seed in range(300):
        lines = _record(short_basra, seed)
        cards = [
            a for e in map(json.loads, lines) if e["event"] == "deal_end" for a in e["awards"] if a["name"] == "cards"
        ]
        carried = [i for i, a in enumerate(cards) if a.get("carry") == 30]
        if carried and carried[0] + 1 < len(cards) and cards[carried[0] + 1]["points"] in (0, 60):
            if cards[carried[0] + 1]["points"] == 60:
                break
            assert cards[carried[0] + 1]["carry"] == 60  # tied again: 60 carried on
    else:
        pytest.fail("no carry-over followed by a win of it in 300 matches")
    at = [i for i, line in enumerate(lines) if '"carry":30' in line]
    assert record_errors(lines, short_basra) == []

    def drop_carry(event: dict[str, Any]) -> None:
        for a in event["awards"]:
            a.pop("carry", None)

    errors = record_errors(edit_event(lines, at[0], drop_carry), short_basra)
    assert any("award 'cards'" in message for _, message in errors)


@pytest.mark.parametrize("name", ["greedy", "ismcts:iterations=30:seconds=0"])
def test_ai_players_play_a_match(short_basra: Variant, name: str) -> None:
    state = Game(short_basra).new_match(seed=4)
    players = [make_player(name, seed=1), make_player("random", seed=2)]
    while not state.is_terminal():
        moves = state.legal_moves()
        state.push(players[state.current_seat].choose(state.view(state.current_seat), moves))
    assert state.outcome() is not None


def test_the_terminal_game_plays_basra(tmp_path: Path) -> None:
    result = run_piglia("play", "basra", "--opponents", "greedy", "--seed", "7", stdin="1\n" * 3000, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "You win the match" in result.stdout or "You lose the match" in result.stdout
    records = list(tmp_path.glob("piglia-basra-7*.jsonl"))
    assert len(records) == 1
    assert run_piglia("replay", records[0].name, cwd=tmp_path).returncode == 0
