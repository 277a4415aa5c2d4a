"""Cassino, RULES.md 5.3: one test (or more) per rule id, expected answers from the rules text.

Card ids: rank id + suit id. Ranks A 2 ... 10 J Q K; suits d (diamonds) h (hearts) c (clubs) s (spades).
Builds are given to a position as ``(cards, value, owner seat, multiple)``; their cards lie on the table beside
the loose ones. Build moves are written ``CARD on CARD+CARD = VALUE``.
"""

from __future__ import annotations

import io
import json
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import (
    award_entries,
    bonuses_of_last_play,
    edit_event,
    events_of,
    play,
    record_errors,
    with_target,
    write_variant,
)
from piglia.mechanics.builds import Build
from piglia.moves import Move
from piglia.players import make_player
from piglia.players.knowledge import determinize
from piglia.record import verify_lines, write_events
from piglia.simulate import play_random_match
from piglia.state import Game, State
from piglia.variant import Variant

Spec = tuple[list[str], int, int, bool]


@pytest.fixture(scope="module")
def cassino() -> Variant:
    return piglia.load_variant("cassino")


@pytest.fixture(scope="module")
def one_deal(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    """Cassino with a match to 1: a match is (almost always) one deal; for 300 cheap matches."""
    return with_target(tmp_path_factory, "cassino", 1)


def at(variant: Variant, hands: list[list[str]], table: list[str], builds: list[Spec] = (), **kw: Any) -> State:  # type: ignore[assignment]
    """A position with seat 0 to move (seat 1 holds a card for later unless given)."""
    return Game(variant).position(hands=hands, table=table, builds=builds, to_move=0, **kw)


def legal(state: State, card: str | None = None) -> set[str]:
    return {str(m) for m in state.legal_moves() if card is None or m.card.id == card}


def norm(variant: Variant, *texts: str) -> set[str]:
    """Moves written by hand, in the engine's notation (cards in deck order)."""
    return {str(Move.parse(t, variant.deck)) for t in texts}


# -- CA1: setup ------------------------------------------------------------------------------------------


def test_CA1_1_fifty_two_cards_four_each_four_on_the_table(cassino: Variant) -> None:
    assert len(cassino.deck) == 52 and cassino.player_counts == (2, 4)
    state = Game(cassino).new_match(seed=1)
    deal = events_of(state, "deal")[0]
    assert [len(h) for h in deal["hands"]] == [4, 4] and len(deal["table"]) == 4 and deal["stock"] == 40
    assert state.to_move == 1 - state.dealer  # the non-dealer leads
    values = {c.rank.id: c.rank.value for c in cassino.deck.cards}
    assert [values[r] for r in ("A", "2", "9", "10")] == [1, 2, 9, 10]
    assert all(r.court for r in cassino.deck.ranks if r.id in ("J", "Q", "K"))


def test_CA1_1_four_more_each_and_never_more_to_the_table(cassino: Variant) -> None:
    state = Game(cassino).new_match(seed=2)
    refills = 0
    while not state.is_terminal() and refills < 3:
        before = len(state.events or [])
        state.push(state.legal_moves()[0])
        for e in (state.events or [])[before:]:
            if e.event == "refill":
                refills += 1
                assert [len(h) for h in e["hands"]] == [4, 4]
    assert refills == 3


def test_CA1_1_four_players_in_partnerships(cassino: Variant) -> None:
    game = Game(cassino, 4)
    assert [list(t) for t in game.players.teams] == [[0, 2], [1, 3]]
    deal = events_of(game.new_match(seed=3), "deal")[0]
    assert [len(h) for h in deal["hands"]] == [4, 4, 4, 4] and deal["stock"] == 52 - 16 - 4


# -- CA2.1: the four ways to play a card -------------------------------------------------------------------


def test_CA2_1_capture_takes_its_rank_and_builds_always_and_groups_by_choice(cassino: Variant) -> None:
    # the 7 must take the loose 7 and the opponent's 7-build; the groups 3+4 and 5+2 are the player's choice
    state = at(
        cassino,
        [["7h", "Kd"], ["2c", "3c"]],
        ["7c", "3d", "4s", "5h", "2s", "Ks"],
        [(["As", "6d"], 7, 1, False)],
    )
    taken = "7c+6d+As"
    assert legal(state, "7h") == norm(
        cassino,
        "7h",
        f"7h x {taken}",
        f"7h x {taken}+3d+4s",
        f"7h x {taken}+5h+2s",
        f"7h x {taken}+3d+4s+5h+2s",
    )
    # a court takes only the courts of its rank; courts never build
    assert legal(state, "Kd") == norm(cassino, "Kd", "Kd x Ks")
    with pytest.raises(piglia.IllegalMoveError):
        play(state, "7h x 7c")  # the build of its value cannot be left


def test_CA2_1_every_card_of_its_rank_is_taken_with_any_groups(cassino: Variant) -> None:
    # both loose 7s go with any 7 capture; 3+4 is the player's choice; courts never join a sum
    state = at(cassino, [["7h", "Kd"], ["2c"]], ["7c", "7s", "3d", "4s", "Qs"])
    assert legal(state, "7h") == norm(cassino, "7h", "7h x 7c+7s", "7h x 7c+7s+3d+4s")
    # without a card of its rank, the groups alone: at least one
    groups = at(cassino, [["7h", "Kd"], ["2c"]], ["3d", "4s", "5c", "2d"])
    assert legal(groups, "7h") == norm(cassino, "7h", "7h x 3d+4s", "7h x 5c+2d", "7h x 3d+4s+5c+2d")


def test_CA2_1_a_build_is_one_unit_taken_only_by_its_value(cassino: Variant) -> None:
    # the 3 and the 4 inside a 7-build are not loose cards: only a 7 takes them, and only all together
    state = at(cassino, [["3h", "4h", "7c"], ["2c"]], ["5s"], [(["3d", "4s"], 7, 1, False)])
    assert legal(state, "3h") == {"3h"}
    assert legal(state, "4h") == {"4h"}
    assert legal(state, "7c") == norm(cassino, "7c", "7c x 3d+4s")


def test_CA2_1_build_on_loose_cards_for_a_value_held(cassino: Variant) -> None:
    # a 3 on a 4 for the 7 in hand; the 3 and the 4 with the loose 7: a multiple build of sevens
    state = at(cassino, [["3h", "7c"], ["2c"]], ["4d", "7s"])
    assert legal(state, "3h") == norm(cassino, "3h", "3h on 4d = 7", "3h on 4d+7s = 7")
    # the 7 has nothing to build for (the 3 is lower); it takes the loose 7
    assert legal(state, "7c") == norm(cassino, "7c", "7c x 7s")
    after = play(state, "3h on 4d = 7")
    assert after.builds == [Build(tuple(sorted(cassino.deck.parse_card(c).index for c in ("3h", "4d"))), 7, 0, False)]
    assert sorted(c.id for c in after.view(1).table) == sorted(["4d", "7s", "3h"])  # build cards stay on the table


def test_CA2_1_no_build_without_a_card_of_its_value_kept(cassino: Variant) -> None:
    # the 3 on the 4 makes 7, but the only 7 would be the card played: no build
    state = at(cassino, [["3h", "9c"], ["2c"]], ["4d"])
    assert legal(state, "3h") == {"3h"}


def test_CA2_1_increase_a_single_build_never_a_multiple_one(cassino: Variant) -> None:
    state = at(
        cassino,
        [["2h", "9c", "Kd"], ["2c"]],
        ["Ah", "Ad"],
        [(["3d", "4s"], 7, 1, False), (["5s", "2d", "3c"], 5, 1, True)],
    )
    # 2 on the single 7-build makes 9 (held); 2 + the multiple 5-build + A + A would make 9 too: never
    assert legal(state, "2h") == norm(cassino, "2h", "2h x Ad+Ah", "2h on 3d+4s = 9")
    assert legal(state, "9c") == {"9c"}
    after = play(state, "2h on 3d+4s = 9")
    assert (
        Build(tuple(sorted(cassino.deck.parse_card(c).index for c in ("2h", "3d", "4s"))), 9, 0, False) in after.builds
    )
    assert [b.owner for b in after.builds if b.value == 9] == [0]  # the increased build is now the player's


def test_CA2_1_multiple_build_on_the_opponents_build_becomes_the_players(cassino: Variant) -> None:
    state = at(cassino, [["7h", "7c"], ["2c", "9d"]], [], [(["3d", "4s"], 7, 1, False)])
    assert legal(state, "7h") == norm(cassino, "7h", "7h x 3d+4s", "7h on 3d+4s = 7")
    after = play(state, "7h on 3d+4s = 7")
    (build,) = after.builds
    assert build.owner == 0 and build.multiple and build.value == 7
    # a multiple build cannot be increased: the 2 (for the 9 held) can only be left
    assert legal(after, "2c") == {"2c"}


def test_CA2_1_two_builds_are_never_merged(cassino: Variant) -> None:
    # 2 + a 3-build + a 4-build would make 9: never one build of two; and the 2 inside a build is not loose
    state = at(cassino, [["2h", "9c"], ["2c"]], [], [(["Ad", "2d"], 3, 1, False), (["Ac", "3c"], 4, 1, False)])
    assert legal(state, "2h") == {"2h"}


def test_CA2_1_a_new_build_may_share_the_value_of_one_on_the_table(cassino: Variant) -> None:
    state = at(cassino, [["5c", "7h", "7s"], ["9d", "Kd"]], ["2d"], [(["3d", "4s"], 7, 0, False)])
    assert "5c on 2d = 7" in legal(state, "5c")
    after = play(state, "5c on 2d = 7")
    assert sorted(b.value for b in after.builds) == [7, 7]
    # the next 7 takes both builds of its value at once
    # the next 7 takes both builds of its value at once (or adds to either, the other 7 kept)
    assert legal(after.apply(Move.parse("9d", cassino.deck)), "7h") == norm(
        cassino, "7h x 3d+4s+2d+5c", "7h on 2d+5c = 7", "7h on 3d+4s = 7"
    )


# -- CA2.2: the owner's obligations --------------------------------------------------------------------------


def test_CA2_2_the_owner_may_not_trail_and_must_keep_each_builds_value(cassino: Variant) -> None:
    state = at(cassino, [["7h", "5c", "2h"], ["9c"]], ["2d", "Qs"], [(["3d", "4s"], 7, 0, False)])
    assert legal(state) == norm(
        cassino,
        "7h x 3d+4s",  # capture it (the only 7: no other build may use it)
        "5c on 2d = 7",  # make another build, keeping the 7
        "5c on 2d+3d+4s = 7",  # add to it (5+2 again: a multiple build)
        "2h x 2d",  # capture with another card, keeping the 7
    )


def test_CA2_2_no_move_may_leave_a_build_uncovered(cassino: Variant) -> None:
    # building 9 with the 7 (7+2, or 7+2 with the loose 9) would give up the only 7 the 7-build needs
    state = at(cassino, [["7h", "9c"], ["2c"]], ["9d", "2s"], [(["3d", "4s"], 7, 0, False)])
    assert legal(state) == norm(cassino, "7h x 3d+4s", "9c x 9d")
    with pytest.raises(piglia.IllegalMoveError, match="build"):
        play(state, "7h on 2s = 9")
    with pytest.raises(piglia.IllegalMoveError, match="may not leave"):
        play(state, "9c")


def test_CA2_2_an_increased_build_frees_its_former_owner(cassino: Variant) -> None:
    # seat 1 owned the 7-build; seat 0 raises it to 9: seat 1 may now trail its 7
    state = at(cassino, [["2h", "9c"], ["7c", "8c"]], [], [(["3d", "4s"], 7, 1, False)])
    after = play(state, "2h on 3d+4s = 9")
    assert "7c" in legal(after, "7c")


# -- CA3.1: scoring ------------------------------------------------------------------------------------------


def test_CA3_1_a_sweep_takes_every_card_and_build(cassino: Variant) -> None:
    state = at(cassino, [["7c", "Kd"], ["2c"]], [], [(["3d", "4s"], 7, 1, False)])
    assert bonuses_of_last_play(play(state, "7c x 3d+4s")) == {"sweep": 1}
    # a build left on the table: no sweep
    left = at(cassino, [["5h", "Kd"], ["2c"]], ["5s"], [(["3d", "4s"], 7, 1, False)])
    assert bonuses_of_last_play(play(left, "5h x 5s")) == {}


def test_CA3_1_no_sweep_on_the_last_play(cassino: Variant) -> None:
    state = at(cassino, [["7c"], []], [], [(["3d", "4s"], 7, 0, False)])
    after = play(state, "7c x 3d+4s")
    assert bonuses_of_last_play(after) == {}
    assert after.builds == []


def test_CA3_1_leftovers_to_the_last_capturer(cassino: Variant) -> None:
    state = at(cassino, [["5h"], ["Kc"]], ["5s", "9d"])
    state = play(play(state, "5h x 5s"), "Kc")
    end = events_of(state, "deal_end")[0]
    assert end["leftover"] == {"team": 0, "cards": ["9d", "Kc"]}


def test_CA3_1_awards(cassino: Variant) -> None:
    piles = [["10d", "2s", "Ad", "Ah", "3s", "4s", "5d", "6d"], ["As", "Kh", "Qs", "7c"]]
    entries = award_entries(cassino, piles)
    assert entries["cards"] == [(0, 3)]
    assert entries["spades"] == [(0, 1)]  # 2s, 3s, 4s against As, Qs
    assert entries["ten_of_diamonds"] == [(0, 2)]
    assert entries["two_of_spades"] == [(0, 1)]
    assert entries["aces"] == [(0, 2), (1, 1)]
    tied = award_entries(cassino, [["2d", "3s"], ["4d", "5s"]])
    assert [t for t, p in tied["cards"] if p] == [] and [t for t, p in tied["spades"] if p] == []


def test_CA3_1_match_to_21_equal_totals_play_on(cassino: Variant) -> None:
    assert cassino.match.winner([21, 19], 3) == (True, 0)
    assert cassino.match.winner([20, 19], 3) == (False, None)
    assert cassino.match.winner([22, 22], 3) == (False, None)
    assert cassino.match.winner([21, 25], 3) == (True, 1)


# -- notation, views and records -------------------------------------------------------------------------------


def test_build_notation_round_trips(cassino: Variant) -> None:
    deck = cassino.deck
    move = Move.parse("3h on 7s+4d = 7", deck)
    assert move.is_build and move.value == 7 and [c.id for c in move.onto] == ["4d", "7s"]
    assert str(move) == "3h on 4d+7s = 7" and Move.parse(str(move), deck) == move
    assert not move.is_capture and move.describe() == "3 of hearts builds 7 on 4 of diamonds + 7 of spades"
    assert Move.parse("7d x 3c+4s", deck) != Move.parse("7d", deck)
    # '²' passes str.isdigit() and a number of 5,000 digits is too long for int(): each is bad notation too
    for bad in ("3h on = 7", "3h on 4d = x", "3h on 4d", "3h on 4d = 0", "3h on 4d = ²", "3h on 4d = " + "9" * 5000):
        with pytest.raises(piglia.PigliaError):
            Move.parse(bad, deck)


def test_builds_are_public_and_survive_a_determinization(cassino: Variant) -> None:
    state = play(at(cassino, [["3h", "7c"], ["2c", "9d"]], ["4d", "7s"]), "3h on 4d = 7")
    for seat in (0, 1):
        (b,) = state.view(seat).builds
        assert [c.id for c in b.cards] == ["4d", "3h"] and b.value == 7 and b.owner == 0 and not b.multiple
    guess = determinize(state.view(1), random.Random(1))
    assert guess.builds == state.builds and sorted(guess.raw_moves()) == sorted(state.raw_moves())


def test_imagined_hands_give_a_builds_owner_a_card_of_its_value(cassino: Variant) -> None:
    """CA2.2 as knowledge: the opponent owns a 7-build, so it holds a 7; a player imagining its hand deals it one
    (from the cards this seat has not seen), and every imagined position has legal moves."""
    state = at(cassino, [["2h", "9c"], ["7c", "Kd", "5s"]], ["Qh"], [(["3d", "4s"], 7, 1, False)])
    state = play(state, "9c")
    view = state.view(0)
    sevens = {c.id for c in cassino.deck.cards if c.rank.id == "7"}
    rng = random.Random(3)
    for _ in range(40):
        guess = determinize(view, rng)
        assert {cassino.deck.cards[c].id for c in guess.hands[1]} & sevens
        assert guess.raw_moves()


def test_a_build_play_is_recorded_and_replay_checks_it(one_deal: Variant) -> None:
    for seed in range(50):
        lines = _record(one_deal, seed)
        builds = [i for i, line in enumerate(lines) if '"build":' in line]
        if builds:
            break
    else:
        pytest.fail("no build in 50 random matches")
    event = json.loads(lines[builds[0]])
    assert event["captured"] == [] and isinstance(event["build"], int) and event["onto"]
    assert "kind" not in event
    assert record_errors(lines, one_deal) == []

    def raise_value(e: dict[str, Any]) -> None:
        e["build"] += 20

    assert any("illegal move" in m for _, m in record_errors(edit_event(lines, builds[0], raise_value), one_deal))

    def trail(e: dict[str, Any]) -> None:
        del e["build"], e["onto"]

    assert record_errors(edit_event(lines, builds[0], trail), one_deal) != []


# -- whole matches ---------------------------------------------------------------------------------------


def _record(variant: Variant, seed: int, players: int = 2) -> list[str]:
    out = io.StringIO()
    write_events(play_random_match(Game(variant, players), seed), out)
    return out.getvalue().splitlines()


@pytest.mark.parametrize("players", [2, 4])
def test_300_matches_replay_clean(one_deal: Variant, players: int) -> None:
    out = io.StringIO()
    made = {"single": 0, "increase": 0, "multiple": 0, "taken": 0}
    for seed in range(300):
        events = play_random_match(Game(one_deal, players), seed)
        for e in events:
            if e.event == "play" and e.get("build") is not None:
                made["single"] += 1
            if e.event == "play" and e.get("kind") == "builds":
                made["taken"] += 1
        write_events(events, out)
    count, errors = verify_lines(out.getvalue().splitlines(), "cassino.jsonl", variant=one_deal)
    assert [str(e) for e in errors] == [] and count == 300
    assert made["single"] > 0 and made["taken"] > 0


def test_every_kind_of_build_happens_in_random_play(one_deal: Variant) -> None:
    seen: set[str] = set()
    for seed in range(60):
        state = Game(one_deal).new_match(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            before = {b.cards: b for b in state.builds}
            state.push(move)
            if move.is_build and not state.is_terminal() and state.builds:
                new = state.builds[-1]
                base = [b for cards, b in before.items() if set(cards) <= set(new.cards)]
                seen.add("multiple" if new.multiple else "increase" if base else "build")
        if seen == {"build", "increase", "multiple"}:
            break
    assert seen == {"build", "increase", "multiple"}


@pytest.mark.parametrize("name", ["greedy", "ismcts:iterations=30:seconds=0"])
def test_ai_players_play_a_match_and_build(one_deal: Variant, name: str) -> None:
    builds = 0
    for seed in range(3):
        state = Game(one_deal).new_match(seed=seed)
        players = [make_player(name, seed=1), make_player("random", seed=2)]
        while not state.is_terminal():
            moves = state.legal_moves()
            move = players[state.current_seat].choose(state.view(state.current_seat), moves)
            builds += move.is_build and state.current_seat == 0
            state.push(move)
        assert state.outcome() is not None
    assert builds > 0


def test_greedy_values_a_build_by_what_it_will_capture(cassino: Variant) -> None:
    # the 2 of spades (an award card) on the 8 for the 10 kept: the build brings both home next turn; leaving
    # either card on the table brings nothing
    state = at(cassino, [["2s", "10c"], ["Qc", "Qd"]], ["8d"])
    assert legal(state) == norm(cassino, "2s", "2s on 8d = 10", "10c")
    greedy = make_player("greedy", seed=1)
    assert str(greedy.choose(state.view(0), state.legal_moves())) == "2s on 8d = 10"


def test_the_terminal_game_plays_cassino(tmp_path: Path) -> None:
    from conftest import run_piglia

    result = run_piglia("play", "cassino", "--opponents", "greedy", "--seed", "7", stdin="1\n" * 3000, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "You win the match" in result.stdout or "You lose the match" in result.stdout
    assert " builds " in result.stdout and "Builds: " in result.stdout  # build moves offered, builds shown
    records = list(tmp_path.glob("piglia-cassino-7*.jsonl"))
    assert len(records) == 1
    assert run_piglia("replay", records[0].name, cwd=tmp_path).returncode == 0


def test_the_web_table_plays_cassino_with_builds(cassino: Variant) -> None:
    # CA2.1: builds are moves of their own and units on the table: the API lists build moves with their value and
    # the table cards they join, shows the builds (public), and a whole match is played through it
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from piglia.web.app import create_app

    seen_build_move = seen_build = False
    with TestClient(create_app()) as client:
        r = client.post("/api/games", json={"variant": "cassino", "seat": 0, "opponents": "greedy", "seed": 5})
        assert r.status_code == 201, r.text
        game_id = r.json()["id"]
        game = client.get(f"/api/games/{game_id}").json()
        turns = 0
        while not game["finished"]:
            moves = game["legal_moves"]
            builds = [m for m in moves if m["build"]]
            for m in builds:
                seen_build_move = True
                assert m["notation"] == f"{m['card']} on {'+'.join(m['build']['onto'])} = {m['build']['value']}"
                assert m["captured"] == [] and set(m["build"]["onto"]) <= set(game["table"])
            choice = builds[0] if builds else moves[-1]  # build whenever possible
            r = client.post(f"/api/games/{game_id}/moves", json={"move": choice["index"]})
            assert r.status_code == 200, r.text
            game = r.json()
            for b in game["builds"]:
                seen_build = True
                assert set(b["cards"]) <= set(game["table"]) and b["value"] > 0
            turns += 1
            assert turns < 500
        record = client.get(f"/api/games/{game_id}/record").text
    assert seen_build_move and seen_build
    count, errors = verify_lines(record.splitlines(), "web.jsonl", variant=cassino)
    assert count == 1 and [str(e) for e in errors] == []


def test_the_rl_environments_encode_build_moves_and_the_builds(cassino: Variant) -> None:
    # CA2.1: a build is a move of its own and a unit on the table: an action in a block of its own, and a plane
    pytest.importorskip("pettingzoo")
    from piglia.env.encoding import Encoder

    game = Game(cassino)
    enc = Encoder(game)
    d = len(cassino.deck)
    assert enc.num_actions == d * enc.slots + d * enc.build_slots
    state = game.position(
        hands=[["3c", "9h", "5d"], ["2s", "Kc", "8d"]],
        table=["4s", "2h", "6c", "3d"],
        builds=[(["6c", "3d"], 9, 1, False)],
        to_move=0,
    )
    moves = state.legal_moves()
    actions = enc.actions(moves)
    assert sorted(map(str, actions.values())) == sorted(map(str, moves))  # one to one: few enough for the slots
    made = {a: m for a, m in actions.items() if m.is_build}
    assert made and all(a >= enc.build_base for a in made)
    assert all(enc.describe(a).startswith(m.card.id + " build #") for a, m in made.items())
    extras = enc.observation(state.view(0))[enc.layout.slice("extras")].reshape(3, d)
    idx = cassino.deck.parse_card
    assert {i: float(v) for i, v in enumerate(extras[1]) if v} == {idx("6c").index: 0.5, idx("3d").index: 0.5}
    # seat 1 owns the build: its own side's, marked 1
    mine = enc.observation(state.view(1))[enc.layout.slice("extras")].reshape(3, d)[1]
    assert mine[idx("6c").index] == 1.0


def test_piglia_list_shows_cassino() -> None:
    from conftest import run_piglia

    result = run_piglia("list")
    assert result.returncode == 0
    assert any(line.split()[:2] == ["cassino", "Cassino"] and "2, 4" in line for line in result.stdout.splitlines())


def test_a_builds_section_that_builds_nothing_is_a_located_error(tmp_path: Path) -> None:
    ref = write_variant(tmp_path, "name: bad\nextends: cassino\nbuilds: {cards: rank == J}\n", "bad.yaml")
    with pytest.raises(piglia.SpecErrors) as info:
        piglia.load_variant(str(ref))
    message = info.value.errors[0].format()
    assert "bad.yaml:3:" in message and "builds.cards" in message and "no card of the deck" in message
    typo = write_variant(tmp_path, "name: bad2\nextends: cassino\nbuilds: {increse: false}\n", "bad2.yaml")
    with pytest.raises(piglia.SpecErrors) as info:
        piglia.load_variant(str(typo))
    assert "increse" in info.value.errors[0].format()
