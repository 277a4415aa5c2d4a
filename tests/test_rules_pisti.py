"""Pisti, RULES.md section 5.1: one test (or more) per rule id, expected answers from the rules text.

Card ids: rank id + suit id. Ranks A 2-10 J Q K; suits c (clubs), d (diamonds), h (hearts), s (spades).
A table is listed in the order its cards arrived: its last card is the top of the pile.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import piglia
from conftest import award_entries, moves_of, play, position, run_piglia
from piglia.chance import DealOutcome
from piglia.mechanics.replace import replace_table
from piglia.players import make_player
from piglia.record import verify_lines
from piglia.simulate import simulate
from piglia.state import Game, State
from piglia.variant import Variant


@pytest.fixture(scope="module")
def pisti() -> Variant:
    return piglia.load_variant("pisti")


def ids(variant: Variant, cards: list[str]) -> list[int]:
    return [variant.deck.parse_card(c).index for c in cards]


def deal_event(state: State) -> dict[str, object]:
    return next(e.to_json() for e in reversed(state.events or []) if e["event"] == "deal")


# -- P1.1: the deck, the players, the order of play -------------------------------------------------------


def test_P1_1_52_cards_2_players_or_4_in_partnerships(pisti: Variant) -> None:
    assert len(pisti.deck) == 52
    assert pisti.player_counts == (2, 4)
    assert pisti.players(2).teams == ((0,), (1,))
    assert pisti.players(4).teams == ((0, 2), (1, 3))  # partners opposite


def test_P1_1_counterclockwise_the_player_after_the_dealer_leads_the_deal_passes(pisti: Variant) -> None:
    assert pisti.players(4).order == "counterclockwise"
    for n in (2, 4):
        state = Game(pisti, n).new_match(seed=8)
        first = state.dealer
        assert state.to_move == (first + 1) % n  # seats are numbered in the order of play
        while state.deal_no == 1:
            state.push(state.legal_moves()[0])
        assert state.dealer == (first + 1) % n  # the deal passes on each deal


# -- P1.2: the pile, face down and face up; the hands ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_P1_2_three_face_down_one_face_up_four_each(pisti: Variant, players: int) -> None:
    for seed in range(20):
        state = Game(pisti, players).new_match(seed=seed)
        deal = deal_event(state)
        assert [len(h) for h in state.hands] == [4] * players
        assert len(state.table) == 1 and len(state.face_down) == 3
        assert deal["table"] == [pisti.deck.cards[state.table[0]].id]
        assert deal["face_down"] == [pisti.deck.cards[c].id for c in state.face_down]  # complete information
        assert deal["stock"] == 52 - 4 - 4 * players
        assert pisti.deck.cards[state.table[0]].rank.name != "J"  # a face-up jack never stays


def test_P1_2_a_face_up_jack_goes_under_the_stock_and_the_next_card_is_turned_up(pisti: Variant) -> None:
    jack_c, jack_d, five, six, seven = ids(pisti, ["Jc", "Jd", "5h", "6h", "7h"])
    unwanted = tuple(c.rank.name == "J" for c in pisti.deck.cards)
    # The next stock card is a jack too: it goes under as well ("repeatedly").
    table, stock, returned = replace_table([jack_c], [jack_d, five, six, seven], unwanted)
    assert table == (five,)
    assert returned == (jack_c, jack_d)
    assert stock == (six, seven, jack_c, jack_d)  # under the stock: dealt last
    # Seeds whose opening top card was a jack: the record says which went under, and the game deals them last.
    seen = 0
    for seed in range(60):
        state = Game(pisti).new_match(seed=seed)
        deal = deal_event(state)
        if "returned" not in deal:
            continue
        seen += 1
        returned_ids = deal["returned"]
        assert isinstance(returned_ids, list) and all(r.startswith("J") for r in returned_ids)
        tail = [pisti.deck.cards[c].id for c in state.stock[-len(returned_ids) :]]
        assert tail == returned_ids
    assert seen > 0


def test_P1_2_face_down_cards_are_hidden_from_every_player(pisti: Variant) -> None:
    state = Game(pisti, 4).new_match(seed=4)
    hidden = set(state.face_down)
    for seat in range(4):
        view = state.view(seat)
        assert view.face_down == 3  # their count only
        assert [c.index for c in view.table] == state.table
        shown = {c.index for c in view.hand} | {c.index for c in view.table}
        shown |= {c.index for p in view.piles for c in p} | {c.index for _, c, cap in view.plays for c in (c, *cap)}
        assert not hidden & shown
        assert hidden <= {c.index for c in view.unseen}
        # Every legal move names face-up cards only.
        for move in state.legal_moves() if seat == state.to_move else []:
            assert not hidden & {c.index for c in move.captured}


def test_P1_2_what_a_move_would_score_never_tells_the_face_down_cards(tmp_path: Path) -> None:
    """P1.2: the three face-down cards are hidden from every player until taken. A rule file adding a bonus for
    an ace taken had the move list (terminal and web alike) mark "hidden_ace +1" on the move taking the pile,
    so the mark told the player an ace lay face down. The marks of such a move are now the same whatever the
    face-down cards are; a bonus that does not depend on them is still marked."""
    from piglia.players.knowledge import play_bonuses

    rules = tmp_path / "leak.yaml"
    rules.write_text(
        "name: leak\nextends: pisti\nbonuses:\n  hidden_ace:\n    points: 1\n"
        "    when: count(captured where rank == A) >= 1\n  any_take:\n    points: 2\n    when: count(captured) >= 1\n",
        encoding="utf-8",
    )
    variant = piglia.load_variant(rules)
    marks = []
    for under in (["Ah", "2c", "3s"], ["5h", "2c", "3s"]):
        state = position(variant, hands=[["Jc", "9d"], ["8h", "8c"]], table=["4d"], face_down=under,
                         stock=["Kd", "Kc"], dealer=1, to_move=0)  # fmt: skip
        take = next(m for m in state.legal_moves() if m.captured)
        after = state.apply(take)
        scored = {b["name"] for e in after.events or [] if e["event"] == "play" for b in e["bonuses"]}
        assert ("hidden_ace" in scored) == ("Ah" in under)  # the engine scores what was taken, once it is taken
        marks.append(sorted(play_bonuses(state, take.raw)))
    assert marks[0] == marks[1] == [("any_take", 2)]


def test_P1_2_refill_four_each_never_more_to_the_centre(pisti: Variant) -> None:
    state = Game(pisti).new_match(seed=2)
    for _ in range(8):  # both hands played out
        state.push(state.legal_moves()[-1])
    refill = [e for e in state.events or [] if e["event"] == "refill"]
    assert len(refill) == 1 and [len(h) for h in refill[0]["hands"]] == [4, 4]
    assert len(state.stock) == 52 - 4 - 8 - 8
    assert len(state.table) + len(state.face_down) + sum(map(len, state.piles)) == 4 + 8


# -- P2.1: a turn ---------------------------------------------------------------------------------------


def test_P2_1_only_the_top_card_matters_a_jack_takes_any_pile(pisti: Variant) -> None:
    # The pile: 5c then 9d on top. The 9 takes the pile (the top's rank); the 5 matches a card under the top:
    # it takes nothing; the jack takes the pile; the 2 takes nothing. No sums: 2c + 7? nothing.
    state = position(pisti, hands=[["9h", "5h", "Js", "2c"], ["3c"]], table=["5c", "9d"], to_move=0)
    assert moves_of(state) == {"9h x 5c+9d", "5h", "Js x 5c+9d", "2c"}


def test_P2_1_a_jack_on_an_empty_pile_takes_nothing(pisti: Variant) -> None:
    state = position(pisti, hands=[["Js", "4c"], ["3c"]], table=[], to_move=0)
    assert moves_of(state) == {"Js", "4c"}


def test_P2_1_a_card_that_takes_nothing_becomes_the_new_top(pisti: Variant) -> None:
    state = position(pisti, hands=[["4c", "Qh"], ["Qs", "4d"]], table=["9d"], to_move=0)
    state = play(state, "4c")
    assert state.table[-1] == ids(pisti, ["4c"])[0]
    assert moves_of(state) == {"4d x 4c+9d", "Qs"}  # the 4 now on top decides


def test_P2_1_the_pile_is_taken_with_its_face_down_cards(pisti: Variant) -> None:
    state = position(
        pisti, hands=[["7h", "2s"], ["3c", "Kd"]], table=["7c"], face_down=["2d", "3d", "4d"], stock=[], to_move=0
    )
    assert moves_of(state, "7h") == {"7h x 7c"}
    after = play(state, "7h x 7c")
    assert sorted(after.piles[0]) == sorted(ids(pisti, ["7h", "7c", "2d", "3d", "4d"]))
    assert after.face_down == [] and after.table == []
    event = (after.events or [])[-1]
    assert event["face_down"] == ["2d", "3d", "4d"]  # the record shows them
    assert event["bonuses"] == []  # four cards taken: no pisti (P2.2)


# -- P2.2: pisti ----------------------------------------------------------------------------------------


def bonuses_of(state: State, move: str) -> list[tuple[str, int]]:
    event = next(e for e in reversed(play(state, move).events or []) if e["event"] == "play")
    return [(b["name"], b["points"]) for b in event["bonuses"]]


def lone(pisti: Variant, top: str, hand: list[str], *, last: bool = False) -> State:
    stock: list[str] = [] if last else ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]
    return position(pisti, hands=[hand, [] if last else ["Kc", "Qc", "Ac", "10c"]], table=[top], stock=stock, to_move=0)


def test_P2_2_taking_a_lone_card_of_the_same_rank_is_a_pisti_of_10(pisti: Variant) -> None:
    assert bonuses_of(lone(pisti, "7c", ["7h", "2s"]), "7h x 7c") == [("pisti", 10)]


def test_P2_2_a_jack_taking_a_lone_jack_scores_20(pisti: Variant) -> None:
    assert bonuses_of(lone(pisti, "Jc", ["Jh", "2s"]), "Jh x Jc") == [("jack_pisti", 20)]


def test_P2_2_a_jack_taking_a_lone_card_of_another_rank_is_not_a_pisti(pisti: Variant) -> None:
    assert bonuses_of(lone(pisti, "7c", ["Jh", "2s"]), "Jh x 7c") == []


def test_P2_2_a_pile_of_two_is_not_a_pisti(pisti: Variant) -> None:
    state = position(pisti, hands=[["7h", "2s"], ["Kc"]], table=["5d", "7c"], stock=["2c", "3c"], to_move=0)
    assert bonuses_of(state, "7h x 5d+7c") == []


def test_P2_2_no_pisti_on_the_last_play(pisti: Variant) -> None:
    assert bonuses_of(lone(pisti, "7c", ["7h"], last=True), "7h x 7c") == []
    assert bonuses_of(lone(pisti, "Jc", ["Jh"], last=True), "Jh x Jc") == []


# -- P3.1: the end of a deal, the awards, the match --------------------------------------------------------


def test_P3_1_the_pile_left_at_the_end_goes_to_the_last_taker(pisti: Variant) -> None:
    state = position(pisti, hands=[["2s"], ["3h"]], table=["5d"], piles=[[], ["9c", "9d"]], to_move=0, last_capturer=1)
    state = play(state, "2s")
    state = play(state, "3h")
    end = next(e for e in state.events or [] if e["event"] == "deal_end")
    assert end["leftover"] == {"team": 1, "cards": ["5d", "2s", "3h"]}


def test_P3_1_awards(pisti: Variant) -> None:
    # The first pile: every ace and jack, the 2 of clubs and the 10 of diamonds, 22 cards in all.
    first = ["10d", *(f"{r}{s}" for r in ("A", "J", "2", "3", "4", "5") for s in "cdhs")][:22]
    everything = [c.id for c in pisti.deck.cards]
    second = [c for c in everything if c not in first]
    entries = award_entries(pisti, [first, second])
    assert len(first) == 22 and {"2c", "10d", "Ac", "Js"} <= set(first)
    assert entries["cards"] == [(1, 3)]
    assert entries["jacks"] == [(0, 4)]  # each jack 1: all four in the first pile
    assert entries["aces"] == [(0, 4)]
    assert entries["two_of_clubs"] == [(0, 2)]
    assert entries["ten_of_diamonds"] == [(0, 3)]
    half = everything[:26]
    tied = award_entries(pisti, [half, everything[26:]])
    assert tied["cards"] == [(None, 0)]  # 26-26: nobody


@pytest.mark.parametrize(
    ("totals", "decided"),
    [
        ((151, 150), (True, 0)),  # at or above 151 with more points
        ((150, 149), (False, None)),
        ((151, 151), (False, None)),  # equal totals play on
        ((160, 170), (True, 1)),
    ],
)
def test_P3_1_match_to_151(pisti: Variant, totals: tuple[int, int], decided: tuple[bool, int | None]) -> None:
    assert pisti.match.winner(totals, 9) == decided


# -- whole matches ----------------------------------------------------------------------------------------


def test_deal_outcome_with_face_down_cards_is_checked(pisti: Variant) -> None:
    state = Game(pisti).new_match(seed=1, auto_deal=False)
    good = state.chance_outcome()
    assert isinstance(good, DealOutcome) and len(good.face_down) == 3
    bad = DealOutcome(good.hands, (*good.table, good.face_down[0]), good.stock, (), good.face_down[1:])
    with pytest.raises(piglia.PigliaError, match="face down"):
        state.push_chance(bad)
    state.push_chance(good)
    assert state.face_down == list(good.face_down)


@pytest.mark.parametrize("players", [2, 4])
def test_300_short_matches_replay_clean(tmp_path: Path, players: int) -> None:
    # Pisti's matches are long (to 151): the rules of play are the same with a match to 12 (mostly one deal).
    short = tmp_path / "pisti-short.yaml"
    short.write_text("extends: pisti\nname: pisti-short\nmatch: {target: 12}\n")
    variant = piglia.load_variant(short)
    out = io.StringIO()
    summary = simulate(variant, matches=300, seed=11, players=players, record=out)
    assert summary.matches == 300
    count, errors = verify_lines(out.getvalue().splitlines(), "pisti-short.jsonl", variant=variant)
    assert [str(e) for e in errors] == []
    assert count == 300
    assert '"face_down":[' in out.getvalue() and '"returned":[' in out.getvalue()


# -- the terminal game and the AI players -----------------------------------------------------------------


def test_the_terminal_game_plays_a_whole_pisti_match(tmp_path: Path) -> None:
    result = run_piglia("play", "pisti", "--opponents", "greedy", "--seed", "7", stdin="1\n" * 3000, cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in out + result.stderr
    assert re.search(r"You (win|lose) the match \d+-\d+\.", out)
    assert re.search(r"^Table: .*\(under them, 3 face down\)$", out, re.M)  # the count, never the cards
    assert re.search(r"takes .* with the face-down cards \S+", out)  # seen once taken
    records = list(tmp_path.glob("piglia-pisti-7*.jsonl"))
    replay = run_piglia("replay", records[0].name, cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_and_ismcts_play_a_match(players: int) -> None:
    variant = piglia.load_variant("pisti")
    game = Game(variant, players)
    state = game.new_match(3)
    seats = [make_player("greedy", 1), make_player("ismcts:iterations=12:seconds=0", 2)]
    while not state.is_terminal():
        seat = state.current_seat
        state.push(seats[seat % 2].choose(state.view(seat), state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None and max(outcome.totals) >= 151


def test_P2_1_an_agent_observes_the_top_card() -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from piglia.env.encoding import Encoder

    variant = piglia.load_variant("pisti")
    state = position(variant, hands=[["9h", "5h"], ["3c"]], table=["5c", "9d"], face_down=["2d"], to_move=0)
    encoder = Encoder(state.game)
    obs = encoder.observation(state.view(0))
    tops = obs[encoder.layout.slice("extras")][: len(variant.deck)]
    assert tops.nonzero()[0].tolist() == ids(variant, ["9d"])  # only the top card matters (P2.1)


def test_replay_checks_the_face_down_cards_of_the_record(pisti: Variant) -> None:
    import json

    from piglia.record import write_events

    state = Game(pisti).new_match(seed=6)
    while not state.is_terminal():
        state.push(state.legal_moves()[0])
    out = io.StringIO()
    write_events(state.events or [], out)
    lines = out.getvalue().splitlines()
    assert verify_lines(lines, "ok.jsonl", variant=pisti) == (1, [])
    deal_at = next(i for i, line in enumerate(lines) if '"event":"deal"' in line)
    take_at = next(i for i, line in enumerate(lines) if '"face_down":[' in line and '"event":"play"' in line)
    # A face-down card swapped with a card of a hand: not the deal of the seed.
    deal = json.loads(lines[deal_at])
    deal["face_down"][0], deal["hands"][0][0] = deal["hands"][0][0], deal["face_down"][0]
    bad = [*lines[:deal_at], json.dumps(deal), *lines[deal_at + 1 :]]
    _, errors = verify_lines(bad, "bad.jsonl", variant=pisti)
    assert any("does not match the shuffle" in str(e) for e in errors)
    # A play that hides which face-down cards it took.
    play_event = json.loads(lines[take_at])
    play_event["face_down"] = play_event["face_down"][:-1]
    bad = [*lines[:take_at], json.dumps(play_event), *lines[take_at + 1 :]]
    _, errors = verify_lines(bad, "bad.jsonl", variant=pisti)
    assert any("face_down" in str(e) for e in errors)
