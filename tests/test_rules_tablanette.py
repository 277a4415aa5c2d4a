"""Tablanette, RULES.md 5.4: one test (or more) per rule id, expected answers from the rules text.

Card ids: rank id + suit id. Ranks A 2 ... 10 J Q K; suits d (diamonds) h (hearts) c (clubs) s (spades).
"""

from __future__ import annotations

import io
from pathlib import Path

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
    write_variant,
)
from piglia.players import make_player
from piglia.record import verify_lines, write_events
from piglia.simulate import play_random_match
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def tab() -> Variant:
    return piglia.load_variant("tablanette")


@pytest.fixture(scope="module")
def one_deal_tab(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    """Tablanette with a match to 1: a match is (almost always) one deal; for 300 cheap matches."""
    return with_target(tmp_path_factory, "tablanette", 1)


# -- T1.1: setup and values ------------------------------------------------------------------------------


def test_T1_1_fifty_two_cards_six_each_four_on_the_table(tab: Variant) -> None:
    assert len(tab.deck) == 52 and tab.player_counts == (2,)
    state = Game(tab).new_match(seed=1)
    deal = events_of(state, "deal")[0]
    assert [len(h) for h in deal["hands"]] == [6, 6]
    assert len(deal["table"]) == 4
    assert deal["stock"] == 52 - 12 - 4


def test_T1_1_six_more_each_never_more_to_the_table(tab: Variant) -> None:
    state = Game(tab).new_match(seed=2)
    for _ in range(12):
        before = len(state.table)
        state.push(state.legal_moves()[0])
        assert len(state.table) <= before + 1
    refill = events_of(state, "refill")[0]
    assert [len(h) for h in refill["hands"]] == [6, 6] and refill["stock"] == 52 - 16 - 12


def test_T1_1_values(tab: Variant) -> None:
    values = {r.name: (r.values or (r.value,)) for r in tab.deck.ranks}
    assert values == {
        "A": (1, 11), "2": (2,), "3": (3,), "4": (4,), "5": (5,), "6": (6,), "7": (7,), "8": (8,), "9": (9,),
        "10": (10,), "J": (12,), "Q": (13,), "K": (14,),
    }  # fmt: skip


def test_T1_1_courts_take_part_in_sums(tab: Variant) -> None:
    """The rules' own example: a K (14) can take a J and a 2."""
    state = position(tab, hands=[["Kh"], ["3c"]], table=["Jd", "2s", "9c"], to_move=0)
    assert moves_of(state, "Kh") == {"Kh", "Kh x 2s+Jd"}


def test_T1_1_the_played_ace_counts_1_or_11(tab: Variant) -> None:
    # as 1 it takes the other ace; as 11: the ace (11) alone, or ace (1) + 10, or 5 + 6, and 5 + 6 with either
    # of the first two (disjoint sets)
    state = position(tab, hands=[["Ah"], ["3c"]], table=["Ac", "10s", "5d", "6d"], to_move=0)
    assert moves_of(state, "Ah") == {
        "Ah", "Ah x Ac", "Ah x 10s+Ac", "Ah x 5d+6d", "Ah x 5d+6d+Ac", "Ah x 10s+5d+6d+Ac",
    }  # fmt: skip


def test_T1_1_each_table_ace_counts_1_or_11_on_its_own(tab: Variant) -> None:
    # a J (12): ace 11 + ace 1; a Q (13): ace 11 + 2 (never ace 1 + 2); a 2: ace 1 + ace 1
    state = position(tab, hands=[["Jh", "Qh", "2h"], ["3c"]], table=["Ac", "As", "2d"], to_move=0)
    assert moves_of(state, "Jh") == {"Jh", "Jh x Ac+As"}
    assert moves_of(state, "Qh") == {"Qh", "Qh x 2d+Ac", "Qh x 2d+As"}
    assert moves_of(state, "2h") == {"2h", "2h x 2d", "2h x Ac+As", "2h x 2d+Ac+As"}


# -- T2.1: several sets, the player's choice, optional -------------------------------------------------


def test_T2_1_any_number_of_disjoint_sets_is_the_players_choice(tab: Variant) -> None:
    # a 5 on 5, 2 + 3: the 5 alone, the 2 + 3 alone, or both; or nothing (capture is optional)
    state = position(tab, hands=[["5h"], ["3c"]], table=["5c", "2d", "3s"], to_move=0)
    assert moves_of(state, "5h") == {"5h", "5h x 5c", "5h x 2d+3s", "5h x 2d+3s+5c"}


def test_T2_1_sets_are_disjoint(tab: Variant) -> None:
    # a 6 on A, 2, 3, 3: {3, 3} and {A, 2, 3} share a 3, so never both
    state = position(tab, hands=[["6h"], ["3c"]], table=["Ad", "2d", "3d", "3s"], to_move=0)
    assert moves_of(state, "6h") == {"6h", "6h x 3d+3s", "6h x 2d+3d+Ad", "6h x 2d+3s+Ad"}


def test_T2_1_capture_is_optional(tab: Variant) -> None:
    state = position(tab, hands=[["5h"], ["3c"]], table=["5c"], to_move=0)
    state = play(state, "5h")
    assert sorted(c.id for c in state.view(0).table) == ["5c", "5h"]


# -- T3: scoring ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "move", "points"),
    [
        (["Jd", "2s"], "Kh x 2s+Jd", 2),  # K 1 + J 1 + 2 of spades 0
        (["Jd", "2c"], "Kh x 2c+Jd", 3),  # the 2 of clubs scores 1
        (["10s"], "10d x 10s", 3),  # the 10 of diamonds 2, the 10 of spades 1
        (["4s", "5c"], "9h x 4s+5c", 0),  # a tabla of cards without card points scores 0
        (["Ac", "10s"], "Ah x 10s+Ac", 3),  # A 1 + A 1 + 10 1
    ],
)
def test_T3_1_tabla_scores_the_card_points_of_every_card_taken(
    tab: Variant, table: list[str], move: str, points: int
) -> None:
    card = move.split()[0]
    state = position(tab, hands=[[card, "Kc"], ["3c", "Ks"]], table=table, to_move=0)
    state = play(state, move)
    assert bonuses_of_last_play(state).get("tabla", 0) == points


def test_T3_1_no_tabla_when_the_table_is_not_cleared(tab: Variant) -> None:
    state = position(tab, hands=[["Kh", "Kc"], ["3c", "Ks"]], table=["Jd", "2s", "9c"], to_move=0)
    assert bonuses_of_last_play(play(state, "Kh x 2s+Jd")) == {}


def test_T3_1_no_tabla_on_the_last_play(tab: Variant) -> None:
    state = position(tab, hands=[["Kh"], []], table=["Jd", "2s"], to_move=0)
    assert bonuses_of_last_play(play(state, "Kh x 2s+Jd")) == {}


def test_T3_2_card_points_and_most_cards(tab: Variant) -> None:
    piles = [["Ad", "Kd", "Qd", "Jd", "10d", "2c", "3c"], ["10s", "2s", "3s"]]
    entries = award_entries(tab, piles)
    assert entries["card_points"] == [(0, 1 + 1 + 1 + 1 + 2 + 1), (1, 1)]
    assert entries["cards"] == [(0, 3)]
    tied = award_entries(tab, [["2d", "3d"], ["2s", "3s"]])
    assert tied["cards"] == [(None, 0)]  # a tie: nobody


def test_T3_1_T3_2_card_points_read_on_the_rules_page(tab: Variant) -> None:
    """The card points are a table looked up by card (honours[c]): the page phrases the lookup."""
    from piglia.rulespage import render_markdown

    assert "the honours value of the played card" in render_markdown(tab, "en")
    assert "il valore onori della carta giocata" in render_markdown(tab, "it")


def test_T3_2_leftovers_to_the_last_capturer(tab: Variant) -> None:
    state = position(tab, hands=[["5h"], ["9s"]], table=["5c", "8d"], to_move=0)
    state = play(play(state, "5h x 5c"), "9s")
    end = events_of(state, "deal_end")[0]
    assert end["leftover"] == {"team": 0, "cards": ["8d", "9s"]}


def test_T3_2_match_to_251_equal_totals_play_on(tab: Variant) -> None:
    assert tab.match.winner([251, 200], 9) == (True, 0)
    assert tab.match.winner([250, 200], 9) == (False, None)
    assert tab.match.winner([260, 260], 9) == (False, None)


# -- whole matches ---------------------------------------------------------------------------------------


def test_300_matches_replay_clean(one_deal_tab: Variant) -> None:
    out = io.StringIO()
    tablas = 0
    for seed in range(300):
        events = play_random_match(Game(one_deal_tab), seed)
        tablas += sum(b["name"] == "tabla" for e in events if e.event == "play" for b in e.to_json()["bonuses"])
        write_events(events, out)
    count, errors = verify_lines(out.getvalue().splitlines(), "tablanette.jsonl", variant=one_deal_tab)
    assert [str(e) for e in errors] == [] and count == 300
    assert tablas > 0


@pytest.mark.parametrize("name", ["greedy", "ismcts:iterations=20:seconds=0"])
def test_ai_players_play_a_match(tmp_path: Path, name: str) -> None:
    variant = piglia.load_variant(write_variant(tmp_path, "name: t\nextends: tablanette\nmatch: {target: 30}\n"))
    state = Game(variant).new_match(seed=4)
    players = [make_player(name, seed=1), make_player("random", seed=2)]
    while not state.is_terminal():
        moves = state.legal_moves()
        state.push(players[state.current_seat].choose(state.view(state.current_seat), moves))
    assert state.outcome() is not None


def test_the_terminal_game_plays_tablanette(tmp_path: Path) -> None:
    result = run_piglia("play", "tablanette", "--opponents", "random", "--seed", "3", stdin="2\n1\nq\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "stays on the table" in result.stdout and " takes " in result.stdout
