"""Cirulla, RULES.md 5.5 (CI1.1-CI3.1).

French cards: ranks A 2-7 J Q K, suits h(hearts) d(diamonds) c(clubs) s(spades); the 7 of hearts (7h) is the
matta, wild for declarations only.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import (
    award_entries,
    bonuses_of_last_play,
    events_of,
    moves_of,
    play,
    position,
    run_piglia,
    with_target,
)
from piglia.players.knowledge import determinize
from piglia.record import verify_lines, write_events
from piglia.simulate import match_seed, play_random_match, simulate
from piglia.state import Game, State
from piglia.variant import Variant


@pytest.fixture(scope="module")
def ci() -> Variant:
    return piglia.load_variant("cirulla")


@pytest.fixture(scope="module")
def one_deal_ci(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    """Cirulla with a match to 1: a match is one deal (the same rules); for 300 cheap matches."""
    return with_target(tmp_path_factory, "cirulla", 1)


def ids(state: State, cards: list[int] | tuple[int, ...]) -> list[str]:
    return sorted(state.game.variant.deck.cards[c].id for c in cards)


# -- CI1.1: cards, deal, redeal, opening ---------------------------------------------------------------------


def test_CI1_1_forty_french_cards_and_values(ci: Variant) -> None:
    assert len(ci.deck) == 40
    assert [s.name for s in ci.deck.suits] == ["hearts", "diamonds", "clubs", "spades"]
    assert [(r.id, r.value) for r in ci.deck.ranks] == [
        ("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("J", 8), ("Q", 9), ("K", 10),
    ]  # fmt: skip


@pytest.mark.parametrize("players", [2, 4])
def test_CI1_1_three_each_four_on_the_table_refills(ci: Variant, players: int) -> None:
    rules = ci.deal_rules(players)
    assert (rules.hand, rules.table, rules.refill) == (3, 4, True)
    state = Game(ci, players).new_match(seed=3)
    assert [len(h) for h in state.hands] == [3] * players
    assert len(state.table) + len(state.piles[0]) + len(state.piles[-1]) == 4
    if players == 4:
        assert ci.players(4).teams == ((0, 2), (1, 3))


def test_CI1_1_two_aces_on_the_opening_table_redeal(ci: Variant) -> None:
    state = Game(ci).new_match(seed=1, auto_deal=False)
    deck = ci.deck
    table = [deck.parse_card(c).index for c in ("Ah", "Ad", "6c", "7s")]  # 15 too: the redeal comes first
    assert state.is_misdeal(table)
    assert not state.is_misdeal([deck.parse_card(c).index for c in ("Ah", "5d", "6c", "7s")])


def test_CI1_1_redeal_is_checked_before_the_opening_scopa() -> None:
    ci = piglia.load_variant("cirulla")
    game = Game(ci)
    for k in range(400):
        events = play_random_match(game, match_seed(5, k))
        misdeals = [e for e in events if e["event"] == "misdeal"]
        if misdeals:
            break
    else:
        pytest.fail("no misdeal in 400 matches")
    table = misdeals[0]["table"]
    assert sum(c.startswith("A") for c in table) >= 2
    # the next line is the same deal dealt again, never an opening bonus on the redealt table
    at = events.index(misdeals[0])
    assert events[at + 1]["event"] in ("misdeal", "deal")


def test_CI1_1_opening_table_of_15_taken_by_the_dealer_with_one_scopa(ci: Variant) -> None:
    state = position(ci, hands=[["Kc", "Kd", "Ks"], ["Qc", "Qd", "Qs"]], table=["5h", "4d", "3c", "3s"], dealer=1,
                     opening=True)  # fmt: skip
    assert state.table == []
    assert ids(state, state.piles[1]) == ["3c", "3s", "4d", "5h"]
    assert events_of(state, "opening")[0]["points"] == 1
    # the leader's three kings are declared at once (CI1.2); the dealer's three queens wait for its first turn
    assert state.deal_points == [10, 1]


def test_CI1_1_opening_table_of_30_two_scope_other_totals_nothing(ci: Variant) -> None:
    state = position(ci, hands=[["2c"], ["3c"]], table=["Kh", "Qd", "6c", "5s"], dealer=0, opening=True)
    assert state.table == [] and state.deal_points == [2, 0]
    state = position(ci, hands=[["2c"], ["3c"]], table=["Kh", "Qd", "6c", "4s"], dealer=0, opening=True)
    assert len(state.table) == 4 and state.deal_points == [0, 0]


# -- CI1.2: declarations ---------------------------------------------------------------------------------------


def declared(ci: Variant, hand: list[str]) -> list[dict[str, Any]]:
    """The declarations of the leader holding ``hand`` at the start of a hand."""
    state = position(ci, hands=[["Kc", "Qd", "Js"], hand], table=["5h", "5d", "6c", "Ks"], dealer=0, opening=True)
    return events_of(state, "declare")


@pytest.mark.parametrize(
    ("hand", "name", "points", "named"),
    [
        (["2c", "3d", "4s"], "low_hand", 3, None),  # 9: three cards totalling 9 or less
        (["Ac", "Ad", "As"], "three_of_a_kind", 10, None),  # both ways: three of a kind only
        (["4c", "4d", "4s"], "three_of_a_kind", 10, None),
        (["7h", "4c", "4d"], "three_of_a_kind", 10, {"7h": "4h"}),  # the matta completes a pair
        (["7h", "2c", "5d"], "low_hand", 3, {"7h": "Ah"}),  # the matta counts as an ace: 1 + 2 + 5
        (["7h", "7c", "Ad"], "low_hand", 3, {"7h": "Ah"}),  # no pair: 1 + 7 + 1 = 9
        (["7h", "7c", "7d"], "three_of_a_kind", 10, {"7h": "7h"}),
    ],
)
def test_CI1_2_declarations(ci: Variant, hand: list[str], name: str, points: int, named: object) -> None:
    expected: dict[str, Any] = {
        "event": "declare",
        "deal": 1,
        "player": 1,
        "name": name,
        "points": points,
        "cards": hand,
    }
    if named is not None:
        expected["named"] = named
    got = declared(ci, hand)
    assert len(got) == 1
    assert {**got[0], "cards": sorted(got[0]["cards"])} == {**expected, "cards": sorted(hand)}


@pytest.mark.parametrize("hand", [["2c", "3d", "5s"], ["7h", "3c", "6d"], ["Kc", "Kd", "Qs"]])
def test_CI1_2_hands_that_do_not_qualify(ci: Variant, hand: list[str]) -> None:
    assert declared(ci, hand) == []  # 10; the matta as an ace makes 10; a pair is not three of a kind


def test_CI1_2_declared_when_the_seat_first_plays_shown_for_the_rest_of_the_hand(ci: Variant) -> None:
    state = position(ci, hands=[["Kc", "Qd", "Js"], ["2c", "2d", "2s"]], table=["Jh", "Jd", "Kh", "Ks"], dealer=1,
                     opening=True)  # fmt: skip
    assert state.current_seat == 0 and events_of(state, "declare") == []
    assert state.view(0).shown == ((), ())  # seat 1 has not played a card of this hand yet
    state = play(state, "Qd")
    assert [e["player"] for e in events_of(state, "declare")] == [1]
    assert state.deal_points == [0, 10]
    view = state.view(0)
    assert sorted(c.id for c in view.shown[1]) == ["2c", "2d", "2s"]
    assert not {c.id for c in view.unseen} & {"2c", "2d", "2s"}
    state = play(state, "2c")
    assert sorted(c.id for c in state.view(0).shown[1]) == ["2d", "2s"]  # the rest of the hand stays shown
    # a player's imagined positions respect what was shown
    for k in range(20):
        guess = determinize(state.view(0), random.Random(k))
        assert {"2d", "2s"} <= set(ids(guess, guess.hands[1]))


def test_CI1_2_each_new_hand_declares_again(ci: Variant) -> None:
    state = position(ci, hands=[["Kc"], ["Qc"]], table=["Jh", "Jd"], stock=["2c", "Ac", "2d", "Ad", "2s", "As"],
                     dealer=1, to_move=0)  # fmt: skip
    assert state.deal_points == [0, 0]
    state = play(state, "Kc")
    state = play(state, "Qc")
    state.push_chance(state.chance_outcome())  # a hand-made position deals by explicit chance steps
    # the refill deals one card at a time from the seat after the dealer: seat 0 gets 2c 2d 2s
    assert ids(state, state.hands[0]) == ["2c", "2d", "2s"]
    assert [(e["player"], e["name"]) for e in events_of(state, "declare")] == [(0, "three_of_a_kind")]
    assert state.view(1).shown[0] and state.view(1).shown[1] == ()


def test_CI1_2_declarations_are_checked_by_replay() -> None:
    ci = piglia.load_variant("cirulla")
    events = play_random_match(Game(ci), match_seed(3, 0))
    out = io.StringIO()
    write_events(events, out)
    lines = out.getvalue().splitlines()
    assert verify_lines(lines)[1] == []
    at = next(i for i, line in enumerate(lines) if '"event":"declare"' in line)
    tampered = json.loads(lines[at])
    tampered["points"] += 1
    errors = verify_lines([*lines[:at], json.dumps(tampered), *lines[at + 1 :]], "rec.jsonl")[1]
    assert errors and errors[0].line == at + 1 and "declaration points" in errors[0].message
    dropped = verify_lines([*lines[:at], *lines[at + 1 :]], "rec.jsonl")[1]
    assert dropped and "declare" in dropped[0].message
    withwild = next((i for i, line in enumerate(lines) if '"named"' in line), None)
    if withwild is not None:
        tampered = json.loads(lines[withwild])
        tampered["named"] = {k: "Kh" for k in tampered["named"]}
        errors = verify_lines([*lines[:withwild], json.dumps(tampered), *lines[withwild + 1 :]], "rec.jsonl")[1]
        assert errors and "declaration named" in errors[0].message


# -- CI2.1 and CI2.2: captures -------------------------------------------------------------------------------------


def test_CI2_1_free_choice_of_match_sum_and_fifteen_compulsory(ci: Variant) -> None:
    state = position(ci, hands=[["7d", "2h"], ["3h"]], table=["3c", "4d", "7s", "Jc"], to_move=0)
    # one set per play: never 7s together with 3c+4d; capture is compulsory: no bare 7d
    assert moves_of(state, "7d") == {"7d x 7s", "7d x 3c+4d", "7d x Jc"}


def test_CI2_1_fifteen_with_the_played_card(ci: Variant) -> None:
    state = position(ci, hands=[["Kd"], ["3h"]], table=["2c", "3s", "Jh", "5c"], to_move=0)
    # sums to its value 10 (2 + 3 + 5, 2 + J) and sums to 15 with it (10 + 2 + 3, 10 + 5), freely
    assert moves_of(state, "Kd") == {"Kd x 2c+3s+5c", "Kd x 2c+Jh", "Kd x 2c+3s", "Kd x 5c"}


def test_CI2_1_in_play_the_matta_is_a_plain_seven(ci: Variant) -> None:
    state = position(ci, hands=[["7h"], ["3h"]], table=["7c", "2d", "5s", "Qc"], to_move=0)
    assert moves_of(state, "7h") == {"7h x 7c", "7h x 2d+5s"}


def test_CI2_2_an_ace_takes_the_whole_table_when_no_ace_is_there(ci: Variant) -> None:
    state = position(ci, hands=[["Ad", "2h"], ["3h"]], table=["3h", "5d", "Jd", "Qs"], to_move=0)
    # its only capture: not the fifteen 5d + Qs (1 + 5 + 9) it could otherwise make
    assert moves_of(state, "Ad") == {"Ad x 3h+5d+Jd+Qs"}
    after = play(state, "Ad x 3h+5d+Jd+Qs")
    assert bonuses_of_last_play(after) == {"scopa": 1}
    assert events_of(after, "play")[-1]["kind"] == "ace_sweep"


def test_CI2_2_with_an_ace_on_the_table_the_ace_captures_as_CI2_1(ci: Variant) -> None:
    state = position(ci, hands=[["Ad", "2h"], ["3h"]], table=["Ac", "5d", "Qs"], to_move=0)
    assert moves_of(state, "Ad") == {"Ad x Ac", "Ad x 5d+Qs"}


def test_CI2_2_an_ace_on_an_empty_table_stays(ci: Variant) -> None:
    state = position(ci, hands=[["Ad", "2h"], ["3h"]], table=[], to_move=0)
    assert moves_of(state, "Ad") == {"Ad"}


def test_CI3_1_no_scopa_on_the_last_play(ci: Variant) -> None:
    state = position(ci, hands=[["Ad"], []], table=["3h", "5d"], to_move=0)
    after = play(state, "Ad x 3h+5d")
    assert bonuses_of_last_play(after) == {}


# -- CI3.1: awards and the match -------------------------------------------------------------------------------


def test_CI3_1_majorities_seven_of_diamonds_primiera(ci: Variant) -> None:
    awards = award_entries(ci, [["7d", "7h", "6c", "As", "2d"], ["Kh", "Qc", "3s"]])
    assert awards["cards"] == [(0, 1)]
    assert awards["diamonds"] == [(0, 1)]
    assert awards["seven_of_diamonds"] == [(0, 1)]
    assert awards["primiera"] == [(0, 1)]  # team 1 lacks diamonds: not eligible
    tied = award_entries(ci, [["2d", "3c"], ["4d", "5c"]])
    assert tied["cards"] == [(None, 0)] and tied["diamonds"] == [(None, 0)]


def test_CI3_1_grande_the_three_diamond_courts_together(ci: Variant) -> None:
    assert award_entries(ci, [["Kd", "Qd", "Jd"], ["Kh"]])["grande"] == [(0, 5)]
    assert award_entries(ci, [["Kd", "Qd", "Jh"], ["Jd"]])["grande"] == [(None, 0)]


@pytest.mark.parametrize(
    ("diamonds", "points"),
    [
        (["Ad", "2d"], 0),  # no piccola without the 3
        (["Ad", "2d", "3d"], 3),
        (["Ad", "2d", "3d", "5d"], 3),  # the run is broken at the 4
        (["Ad", "2d", "3d", "4d"], 4),
        (["Ad", "2d", "3d", "4d", "5d", "6d"], 6),
        (["Ad", "2d", "3d", "4d", "5d", "6d", "7d"], 6),  # the run counts up to the 6
        (["2d", "3d", "4d"], 0),  # no ace
    ],
)
def test_CI3_1_piccola_and_its_run(ci: Variant, diamonds: list[str], points: int) -> None:
    assert award_entries(ci, [diamonds, ["Kh"]])["piccola"] == ([(0, points)] if points else [(None, 0)])


def test_CI3_1_match_to_51_ties_play_on(ci: Variant) -> None:
    assert ci.match.winner([51, 40], 4) == (True, 0)
    assert ci.match.winner([48, 60], 4) == (True, 1)
    assert ci.match.winner([52, 52], 4) == (False, None)
    assert ci.match.winner([50, 49], 4) == (False, None)


# -- whole matches ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_CI_300_matches_per_player_count_replay_clean(one_deal_ci: Variant, players: int) -> None:
    out = io.StringIO()
    summary = simulate(one_deal_ci, matches=300, seed=51, players=players, record=out)
    assert summary.matches == 300
    text = out.getvalue()
    assert '"event":"declare"' in text and '"kind":"ace_sweep"' in text and '"event":"misdeal"' in text
    count, errors = verify_lines(text.splitlines(), "cirulla.jsonl", variant=one_deal_ci)
    assert count == 300 and [str(e) for e in errors] == []


@pytest.mark.parametrize("spec", ["greedy", "ismcts:iterations=30:seconds=0"])
def test_CI_ai_players_play_a_match(ci: Variant, spec: str) -> None:
    game = Game(ci)
    players = [piglia.make_player(spec, seed=1), piglia.make_player("random", seed=2)]
    state = game.new_match(seed=9)
    while not state.is_terminal():
        seat = state.current_seat
        moves = state.legal_moves()
        move = players[seat].choose(state.view(seat), moves)
        assert move in moves
        state.push(move)
    assert max(state.totals) >= 51
    assert any(e["event"] == "declare" for e in state.events or [])


def test_CI_terminal_game_plays_a_match(tmp_path: Path) -> None:
    result = run_piglia("play", "cirulla", "--opponents", "greedy", "--seed", "4", stdin="1\n" * 3000, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "low hand declared" in out or "three of a kind declared" in out
    assert "You win the match" in out or "You lose the match" in out
    records = list(tmp_path.glob("piglia-cirulla-4*.jsonl"))
    assert len(records) == 1
    replay = run_piglia("replay", records[0].name, cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_CI_rules_page_in_english_and_italian(ci: Variant) -> None:
    from piglia.rulespage import render_markdown

    en = render_markdown(ci, "en")
    assert "## Declarations" in en and "**three of a kind**: 10 points" in en
    assert "Open only when there are no cards of rank A on the table." in en
    it = render_markdown(ci, "it")
    assert "## Dichiarazioni" in it and "**tris**: 10 punti" in it
    assert "**asso piglia tutto**" in it and "Possibile solo quando non ci sono carte di tipo asso sul tavolo" in it
    assert "low hand" not in it and "three of a kind" not in it
