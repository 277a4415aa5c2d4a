"""Scopa a perdere (misere Scopa), RULES.md section 5.6: rule SP1.1, expected answers from the rules text.

SP1.1 keeps classic Scopa's deal, captures, scopa and awards (S1-S3.4) and changes only the aim. Card ids as in
test_rules_scopa.py: ranks A 2-7 F C R; suits d (coins) c (cups) s (swords) b (clubs).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import piglia
from conftest import award_entries, moves_of, play, position
from piglia.outcome import Reason
from piglia.players import make_player
from piglia.record import verify_lines
from piglia.simulate import simulate
from piglia.state import Game
from piglia.variant import Variant


@pytest.fixture(scope="module")
def perdere() -> Variant:
    return piglia.load_variant("scopa-a-perdere")


# -- SP1.1: classic Scopa's play (S1-S3.4) ------------------------------------------------------------------


def test_SP1_1_deal_as_classic_scopa(perdere: Variant, scopa: Variant) -> None:
    for seed in range(5):
        assert Game(perdere).new_match(seed).events[1:] == Game(scopa).new_match(seed).events[1:]  # type: ignore[index]


def test_SP1_1_S2_2_a_match_before_a_sum(perdere: Variant) -> None:
    # A 7 on the table: the 7 takes it, not 3 + 4 (S2.3: a sum only when no card has the same value).
    state = position(perdere, hands=[["7d", "2c"], ["Ab"]], table=["3c", "4s", "7b"], stock=["5c", "6c"], to_move=0)
    assert moves_of(state) == {"7d x 7b", "2c"}


def test_SP1_1_S2_3_a_sum_and_S2_4_capture_is_mandatory(perdere: Variant) -> None:
    state = position(perdere, hands=[["7d", "2c"], ["Ab"]], table=["3c", "4s", "6b"], stock=["5c", "6c"], to_move=0)
    assert moves_of(state) == {"7d x 3c+4s", "2c"}


def test_SP1_1_S3_1_a_scopa_still_scores_its_point(perdere: Variant) -> None:
    state = position(perdere, hands=[["5d", "2c"], ["Ab", "3b"]], table=["5c"], stock=["4c", "6c"], to_move=0)
    after = play(state, "5d x 5c")
    assert after.deal_points == [1, 0]  # a point, and a bad one


def test_SP1_1_S3_3_the_awards_of_classic_scopa(perdere: Variant, scopa: Variant) -> None:
    piles = [["7d", "6d", "Ad", "5c", "7s", "7b"], ["2d", "3c", "4s", "Rb", "Fb"]]
    assert award_entries(perdere, piles) == award_entries(scopa, piles)
    assert award_entries(perdere, piles)["settebello"] == [(0, 1)]


# -- SP1.1: the aim: fewer points win --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "decided"),
    [
        ((11, 10), (True, 1)),  # a side reached 11: the side with fewer points wins
        ((3, 14), (True, 0)),
        ((10, 9), (False, None)),  # nobody has 11 yet
        ((11, 11), (False, None)),  # a tie for the lowest plays on
        ((12, 12), (False, None)),
    ],
)
def test_SP1_1_the_side_with_fewer_points_wins(
    perdere: Variant, totals: tuple[int, int], decided: tuple[bool, int | None]
) -> None:
    assert perdere.match.winner(totals, 4) == decided


def test_SP1_1_a_whole_match_ends_at_11_and_the_lowest_wins(perdere: Variant) -> None:
    for seed in range(12):
        state = Game(perdere).new_match(seed)
        while not state.is_terminal():
            state.push(state.legal_moves()[seed % len(state.legal_moves())])
        ends = [e for e in state.events or [] if e["event"] == "deal_end"]
        for end in ends[:-1]:  # every earlier deal: nobody at 11, or a tie for the lowest
            totals = end["totals"]
            assert max(totals) < 11 or totals[0] == totals[1]
        final = ends[-1]["totals"]
        outcome = state.outcome()
        assert outcome is not None and outcome.reason is Reason.TARGET
        assert max(final) >= 11 and final[outcome.winner or 0] == min(final) < max(final)
        assert state.returns()[outcome.winner or 0] == 1.0


def test_SP1_1_greedy_plays_to_lose_points(perdere: Variant, scopa: Variant) -> None:
    # The 7 of coins must take the 7 of cups if played (S2.4): classic Scopa's greedy player takes the settebello,
    # the misere one keeps it out of its pile by placing the 2.
    table, hands = ["7c", "5s"], [["7d", "2c"], ["Ab", "2b"]]
    stock = ["3c", "4c", "6c", "Rc"]
    for variant, wanted in ((scopa, "7d x 7c"), (perdere, "2c")):
        state = position(variant, hands=hands, table=table, stock=stock, to_move=0)
        choice = make_player("greedy", 1).choose(state.view(0), state.legal_moves())
        assert str(choice) == wanted, variant.name


def test_300_short_matches_replay_clean(tmp_path: Path) -> None:
    short = tmp_path / "perdere-short.yaml"  # the same play, a match to 4 (one or two deals): cheap to run
    short.write_text("extends: scopa-a-perdere\nname: perdere-short\nmatch: {misere: 4}\n")
    variant = piglia.load_variant(short)
    out = io.StringIO()
    summary = simulate(variant, matches=300, seed=5, record=out)
    count, errors = verify_lines(out.getvalue().splitlines(), "perdere-short.jsonl", variant=variant)
    assert [str(e) for e in errors] == []
    assert count == summary.matches == 300


def test_greedy_and_ismcts_play_a_whole_match(perdere: Variant) -> None:
    state = Game(perdere).new_match(4)
    seats = [make_player("greedy", 1), make_player("ismcts:iterations=12:seconds=0", 2)]
    while not state.is_terminal():
        seat = state.current_seat
        state.push(seats[seat].choose(state.view(seat), state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    assert outcome.totals[outcome.winner] == min(outcome.totals) < max(outcome.totals)
