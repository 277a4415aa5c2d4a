"""The web table's JSON API (docs/web.md), through Starlette's test client: the minimal contract, hidden
information over whole matches, errors, uploads, bounds. Rules facts cite docs/RULES.md."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'piglia[web]'")
pytest.importorskip("httpx", reason="the test client needs httpx")

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import piglia
from piglia.cli import main
from piglia.locales import languages, load_catalog
from piglia.record import verify_lines
from piglia.spec import load_variant, validate_file
from piglia.texts import VariantTexts, untranslated_note
from piglia.web.app import MAX_BODY_BYTES, create_app
from piglia.web.sessions import GameSession, GameStore
from piglia.web.views import public_event

BROKEN = "name: broken\nextends: scopa\nawards:\n  coins: {points: 1, most: count(pile where suit == coin)}\n"


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def session_of(client: TestClient, game_id: str) -> GameSession:
    session: GameSession | None = client.app.state.games.get(game_id)  # type: ignore[attr-defined]
    assert session is not None
    return session


def new_game(client: TestClient, **body: Any) -> str:
    r = client.post("/api/games", json={"variant": "scopa", "seat": 0, "opponents": "greedy", "seed": 5, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


# -- the minimal contract ---------------------------------------------------------------------------------


def test_contract_create_then_read_then_move_by_index_and_by_notation(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "scopa", "seat": 0, "opponents": "greedy", "seed": 5, "lang": "fi"})
    assert r.status_code == 201
    created = r.json()
    assert isinstance(created["id"], str)
    assert created["lang"] == "fi" and "lang_note" not in created  # Finnish, a source page's language
    # a language with no catalog: English, and the answer says so
    r = client.post("/api/games", json={"variant": "scopa", "seat": 0, "opponents": "greedy", "seed": 5, "lang": "de"})
    fallback = r.json()
    assert fallback["lang"] == "en" and "de" in fallback["lang_note"] and "English" in fallback["lang_note"]
    game = client.get(f"/api/games/{created['id']}").json()
    assert game["finished"] is False and game["to_move"] == 0
    moves = game["legal_moves"]
    assert moves and [m["index"] for m in moves] == list(range(len(moves)))
    assert all(isinstance(m["notation"], str) and "points" in m and "bonuses" in m for m in moves)
    before = len(game["hand"])
    after = client.post(f"/api/games/{created['id']}/moves", json={"move": 0}).json()
    assert len(after["hand"]) in (before - 1, 3)  # one card played (or a new hand of 3 dealt)
    if after["legal_moves"]:
        notation = after["legal_moves"][-1]["notation"]
        r = client.post(f"/api/games/{created['id']}/moves", json={"move": notation})
        assert r.status_code == 200
        assert any(e["event"] == "play" and e["player"] == 0 for e in r.json()["events"])


def test_italian_is_kept_and_players_optional(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "cicera", "seat": 0, "opponents": "random", "seed": 1, "lang": "it"})
    assert r.status_code == 201 and r.json()["lang"] == "it" and "lang_note" not in r.json()
    game = client.get(f"/api/games/{r.json()['id']}").json()
    # B0.1: four players, partners opposite: seat 2 is the person's partner
    assert game["players"] == 4
    assert [s["role"] for s in game["seats"]] == ["you", "opponent", "partner", "opponent"]
    seven = game["deck"]["cards"]["7d"]
    suit = game["deck"]["suits"][seven["suit"]]
    it = load_catalog("it")
    # card names in the game's language, the suit too: "7 di denari", not "7 di coins"
    assert suit["name"] == "coins" and suit["label"] == it.messages["name.coins"] == "denari"
    assert seven["name"] == it("card", rank="7", suit="denari")


def test_record_is_refused_while_the_match_runs_and_replays_when_over(client: TestClient) -> None:
    game_id = new_game(client, seed=9)
    r = client.get(f"/api/games/{game_id}/record")
    assert r.status_code == 409 and "over" in r.json()["error"]
    play_out(client, game_id)
    r = client.get(f"/api/games/{game_id}/record")
    assert r.status_code == 200
    assert 'filename="piglia-scopa-9.jsonl"' in r.headers["content-disposition"]
    count, errors = verify_lines(r.text.splitlines(), "web.jsonl")
    assert errors == [] and count == 1


# -- hidden information ----------------------------------------------------------------------------------


def card_ids(data: Any) -> set[str]:
    """Every string anywhere in the answer (card ids among them), except the deck's own list of cards."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "deck":
                continue
            found.add(str(key))
            found |= card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_ids(value)
    elif isinstance(data, str):
        found.add(data)
        found.update(re.split(r"[ x+]+", data))
    return found


def keys_of(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_of(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_of(v)}
    return set()


def check_hidden(client: TestClient, game_id: str, answer: dict[str, Any]) -> None:
    session = session_of(client, game_id)
    state = session.state
    if state.is_terminal():
        return
    deck = state.game.variant.deck
    hidden = {deck.cards[c].id for s, hand in enumerate(state.hands) if s != session.seat for c in hand}
    hidden |= {deck.cards[c].id for c in state.stock}
    hidden |= {deck.cards[c].id for c in state.face_down}  # table cards face down (RULES.md P1.2)
    # a declared hand lies face up for the rest of the hand (RULES.md CI1.2): public, and sent as `shown`
    shown = [
        [deck.cards[c].id for c in cards if c in hand] for cards, hand in zip(state.shown, state.hands, strict=True)
    ]
    assert answer["shown"] == shown
    hidden -= {c for cards in shown for c in cards}
    # earlier deals (and a misdealt table) are history: their cards are shuffled into this deal's hidden ones
    # and the game's random id is no card, though split at its x's it can name one ('fCxJhxP' gives 'Jh')
    now = {k: v for k, v in answer.items() if k not in ("events", "sheets", "id")}
    now["events"] = [e for e in answer["events"] if e.get("deal") == answer["deal"] and e["event"] != "misdeal"]
    assert not card_ids(now) & hidden, "an answer names a card of another seat's hand or of the stock"
    assert "seed" not in keys_of(answer) and "hands" not in keys_of(answer)
    assert answer["hand"] == [deck.cards[c].id for c in state.hands[session.seat]]


def play_out(client: TestClient, game_id: str, pick: int = -1, check: bool = False) -> dict[str, Any]:
    """Play the person's moves (the ``pick``-th legal move each time) to the end of the match."""
    game: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    if check:
        check_hidden(client, game_id, game)
    turns = 0
    while not game["finished"]:
        assert game["to_move"] == game["seat"], "the AI seats play by themselves"
        moves = game["legal_moves"]
        r = client.post(f"/api/games/{game_id}/moves", json={"move": moves[pick % len(moves)]["index"]})
        assert r.status_code == 200, r.text
        game = r.json()
        if check:
            check_hidden(client, game_id, game)
            check_hidden(client, game_id, client.get(f"/api/games/{game_id}?since=3").json())
        turns += 1
        assert turns < 2000
    return game


@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [("scopa", None, 3), ("cicera", 4, 8), ("scopone", None, 2), ("pisti", 4, 5), ("cirulla", None, 4)],
)
def test_whole_matches_never_show_another_hand_the_stock_or_the_seed(
    client: TestClient, variant: str, players: int | None, seed: int
) -> None:
    game_id = new_game(client, variant=variant, players=players, seed=seed)
    last = play_out(client, game_id, check=True)
    assert last["finished"] and last["to_move"] is None and last["legal_moves"] == []
    assert last["result"]["you"] in ("win", "lose", "draw")


def test_a_declared_hand_is_sent_face_up_and_the_face_down_count_only(client: TestClient) -> None:
    """RULES.md CI1.2: a declared hand is shown face up for the rest of the hand; P1.2: face-down cards by count."""
    seen_shown = False
    for seed in range(40):
        game = client.get(f"/api/games/{new_game(client, variant='cirulla', seed=seed)}").json()
        if any(game["shown"][s] for s in range(game["players"]) if s != game["seat"]):
            seen_shown = True
            events = game["events"]
            at = next(i for i, e in enumerate(events) if e["event"] == "declare" and e["player"] != game["seat"])
            who = events[at]["player"]
            played = {e["card"] for e in events[at:] if e["event"] == "play" and e["player"] == who}
            assert game["shown"][who] == [c for c in events[at]["cards"] if c not in played]  # less what it played
            break
    assert seen_shown, "no opponent declared in 40 seeds"
    pisti = client.get(f"/api/games/{new_game(client, variant='pisti', seed=1)}").json()
    assert pisti["face_down"] == 3 and pisti["shown"] == [[], []]


def test_ids_are_unguessable(client: TestClient) -> None:
    ids = {new_game(client, seed=1) for _ in range(5)}
    assert len(ids) == 5
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22,}", i) for i in ids)


# -- what a move scores, the running score, the sheet ------------------------------------------------------


def first_turn_with(client: TestClient, wanted: Any, variant: str = "scopa") -> tuple[str, dict[str, Any]]:
    """A new game at the person's first turn of some seed where ``wanted(game)`` holds."""
    for seed in range(200):
        game_id = new_game(client, variant=variant, seed=seed)
        game = client.get(f"/api/games/{game_id}").json()
        if wanted(game):
            return game_id, game
    raise AssertionError("no seed gives the position wanted")


def test_S3_1_a_move_that_clears_the_table_is_marked_with_its_bonus(client: TestClient) -> None:
    game_id, game = first_turn_with(client, lambda g: any(m["clears_table"] for m in g["legal_moves"]))
    sweep = next(m for m in game["legal_moves"] if m["clears_table"])
    assert sorted(sweep["captured"]) == sorted(game["table"])
    # S3.1: clearing the table scores a scopa, 1 point (not the final play: this is the first turn)
    assert [(b["name"], b["points"]) for b in sweep["bonuses"]] == [("scopa", 1)] and sweep["points"] == 1
    assert all(m["bonuses"] == [] for m in game["legal_moves"] if not m["clears_table"])
    after = client.post(f"/api/games/{game_id}/moves", json={"move": sweep["notation"]}).json()
    # the running score shows the point at once, during the deal
    mine = after["my_team"]
    assert after["score"]["running"][mine] >= after["score"]["totals"][mine] + 1
    assert any(b["name"] == "scopa" and b["team"] == mine for b in after["score"]["bonuses"])


def test_S2_4_an_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    def can_capture(g: dict[str, Any]) -> bool:
        return any(m["captured"] for m in g["legal_moves"])

    game_id, game = first_turn_with(client, can_capture)
    capture = next(m for m in game["legal_moves"] if m["captured"])
    r = client.post(f"/api/games/{game_id}/moves", json={"move": capture["card"]})
    # S2.4: a capture that is available is mandatory
    assert r.status_code == 422 and "must capture" in r.json()["error"]
    wrong = [c for c in game["table"] if c not in capture["captured"]]
    if wrong:
        r = client.post(f"/api/games/{game_id}/moves", json={"move": f"{capture['card']} x {wrong[0]}"})
        assert r.status_code == 422 and r.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["hand"] == game["hand"]  # nothing was played


def test_S3_3_sheet_gives_the_counts_behind_every_award(client: TestClient) -> None:
    game_id = new_game(client, seed=4)
    game = client.get(f"/api/games/{game_id}").json()
    while not game["sheets"]:
        game = client.post(f"/api/games/{game_id}/moves", json={"move": 0}).json()
    sheet = game["sheets"][0]
    awards = {a["name"]: a for a in sheet["awards"]}
    assert set(awards) == {"cards", "coins", "settebello", "primiera"}
    cards = [v[0] for v in awards["cards"]["values"]]
    assert cards == sheet["pile_sizes"] and sum(cards) == 40  # S3.2: the leftover goes to the last capturer
    # S3.3: most cards wins 1 point; a tie gives it to nobody
    if cards[0] != cards[1]:
        assert awards["cards"]["team"] == cards.index(max(cards)) and awards["cards"]["points"] == 1
    else:
        assert awards["cards"]["team"] is None
    coins = [v[0] for v in awards["coins"]["values"]]
    assert sum(coins) == 10
    holder = awards["settebello"]
    assert holder["form"] == "holder" and holder["holds"].count(True) == 1
    assert holder["team"] == holder["holds"].index(True)
    assert len(awards["primiera"]["values"]) == 2 and len(awards["primiera"]["eligible"]) == 2


# -- the coach (docs/web.md) ----------------------------------------------------------------------------


@pytest.fixture()
def quick_coach() -> Iterator[TestClient]:
    """A table whose coach searches 150 playouts a turn (the page's default is the coach's 800)."""
    with TestClient(create_app(GameStore(coach_iterations=150))) as c:
        yield c


def test_the_coach_rates_every_legal_move_best_first_on_your_turn(quick_coach: TestClient) -> None:
    game_id = new_game(quick_coach)
    game = quick_coach.get(f"/api/games/{game_id}").json()
    answer = quick_coach.get(f"/api/games/{game_id}/coach").json()
    advice = answer["advice"]
    # every legal move once, by its index and notation in legal_moves
    legal = {m["index"]: m["notation"] for m in game["legal_moves"]}
    assert sorted(a["index"] for a in advice) == sorted(legal)
    assert all(legal[a["index"]] == a["notation"] for a in advice)
    assert [a["rank"] for a in advice] == list(range(1, len(advice) + 1))
    values = [a["value"] for a in advice]
    assert values == sorted(values, reverse=True)  # best first, by the search's estimate
    assert all(0 <= a["risk"] <= 1 for a in advice)
    assert advice[0]["why"] and not any(a["why"] for a in advice[1:])  # one sentence, for the best move
    # asked again on the same turn: the same advice (worked out once); it only reads the seat's view
    assert quick_coach.get(f"/api/games/{game_id}/coach").json() == answer
    # the sentence in the page's language; the estimates are the same
    italian = quick_coach.get(f"/api/games/{game_id}/coach?lang=it").json()["advice"]
    assert [(a["index"], a["value"]) for a in italian] == [(a["index"], a["value"]) for a in advice]
    assert "punti meglio di" in italian[0]["why"] or italian[0]["why"] == "è l'unica mossa possibile."
    assert "points better than" in advice[0]["why"] or advice[0]["why"] == "it is the only legal move."
    check_hidden(quick_coach, game_id, {**game, "legal_moves": advice})


def test_the_coach_advises_only_on_your_turn(quick_coach: TestClient) -> None:
    r = quick_coach.post("/api/games", json={"variant": "scopa", "seat": 0, "opponents": "greedy", "seed": 5})
    game_id = r.json()["id"]
    session = session_of(quick_coach, game_id)
    while not session.state.is_terminal():
        session.play(0)
    r = quick_coach.get(f"/api/games/{game_id}/coach")
    assert r.status_code == 409 and "your turn" in r.json()["error"]


def test_after_a_deal_the_sheet_names_the_advised_moves_that_lost_most(quick_coach: TestClient) -> None:
    game_id = new_game(quick_coach)
    game = quick_coach.get(f"/api/games/{game_id}").json()
    losses: list[tuple[str, str, float]] = []
    while game["deal"] == 1 and not game["finished"]:
        # ask the coach, then play its worst move: what the review must name
        advice = quick_coach.get(f"/api/games/{game_id}/coach").json()["advice"]
        worst, best = advice[-1], advice[0]
        losses.append((worst["notation"], best["notation"], best["value"] - worst["value"]))
        game = quick_coach.post(f"/api/games/{game_id}/moves", json={"move": worst["index"]}).json()
    review = game["sheets"][0]["coach"]
    # the three costliest of the turns that lost at least a twentieth of a point, costliest first
    expected = sorted((x for x in losses if x[2] >= 0.05), key=lambda x: -x[2])[:3]
    assert [(m["played"]["notation"], m["best"]["notation"]) for m in review] == [(p, b) for p, b, _ in expected]
    assert [m["loss"] for m in review] == pytest.approx([x[2] for x in expected], abs=0.002)
    assert review and all(m["loss"] >= 0.05 for m in review)


# -- the game's language --------------------------------------------------------------------------------


def word(variant: str, lang: str, ident: str) -> str:
    """A name in a language as its sources give it: the rule file's translation, else the catalog's common word."""
    own = ((load_variant(variant).rules.get("translations") or {}).get(lang) or {}).get("names") or {}
    return str(own.get(ident) or load_catalog(lang).messages[f"name.{ident}"])


@pytest.mark.parametrize("lang", ["it", "fi", "tr"])
def test_names_are_in_the_games_language(client: TestClient, lang: str) -> None:
    game_id = new_game(client, lang=lang, seed=4)
    game = client.get(f"/api/games/{game_id}").json()
    msg = load_catalog(lang)
    suits = game["deck"]["suits"]
    assert [s["name"] for s in suits] == ["coins", "cups", "swords", "clubs"]  # the rule file's names stay
    assert [s["label"] for s in suits] == [word("scopa", lang, s["name"]) for s in suits]
    ranks = {r["name"]: r["label"] for r in game["deck"]["ranks"]}
    assert ranks["asso"] == word("scopa", lang, "asso") and ranks["7"] == "7"
    assert game["deck"]["cards"]["7d"]["name"] == msg("card", rank="7", suit=word("scopa", lang, "coins"))
    assert game["names"]["scopa"] == word("scopa", lang, "scopa") and game["names"]["sum"] == word("scopa", lang, "sum")
    kinds = {m["kind"]: m["kind_label"] for m in game["legal_moves"] if m["kind"]}
    assert kinds and all(label == word("scopa", lang, kind) for kind, label in kinds.items())
    while not game["sheets"]:
        game = client.post(f"/api/games/{game_id}/moves", json={"move": 0}).json()
    sheet = game["sheets"][0]
    awards = {a["name"]: a["label"] for a in sheet["awards"]}
    assert awards == {n: word("scopa", lang, n) for n in ("cards", "coins", "settebello", "primiera")}
    assert all(b["label"] == word("scopa", lang, b["name"]) for b in sheet["bonuses"])
    labels = [b for e in game["events"] if e["event"] == "play" for b in e["bonuses"]]
    assert all(b["label"] == word("scopa", lang, b["name"]) for b in labels)
    end = next(e for e in game["events"] if e["event"] == "deal_end")
    assert [a["label"] for a in end["awards"]] == list(awards.values())
    if lang == "it":  # the words themselves, as an Italian player knows them
        assert awards["coins"] == "denari" and awards["cards"] == "carte"


def display_strings(data: Any) -> Iterator[str]:
    """Every string of an answer meant to be shown: not the rule file's own identifiers (a ``name`` next to its
    ``label``, a capture's ``kind``, the keys of ``names``, the event kinds)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("kind", "event") or (key == "name" and "label" in data):
                continue
            yield from display_strings(list(value.values()) if key == "names" else value)
    elif isinstance(data, list):
        for value in data:
            yield from display_strings(value)
    elif isinstance(data, str):
        yield data


def test_no_english_suit_name_in_an_italian_scopa_match(client: TestClient) -> None:
    english = re.compile(r"\b(coins|cups|swords|clubs|of)\b")
    game_id = new_game(client, lang="it", seed=6)
    answers = [client.get(f"/api/games/{game_id}").json()]
    while not answers[-1]["finished"]:
        moves = answers[-1]["legal_moves"]
        answers.append(client.post(f"/api/games/{game_id}/moves", json={"move": moves[-1]["index"]}).json())
    shown = [text for answer in answers for text in display_strings(answer)]
    assert any("denari" in text for text in shown) and len(answers[-1]["sheets"]) >= 2
    leaks = sorted({text for text in shown if english.search(text)})
    assert leaks == [], f"English words in an Italian game: {leaks[:5]}"


NEW_AWARD = (
    "name: scopa-cups\ntitle: Scopa with cups\nextends: scopa\n"
    "awards:\n  most_cups: {points: 1, most: count(pile where suit == cups)}\n"
)


def test_what_a_rule_file_does_not_translate_is_said_once(client: TestClient) -> None:
    r = client.post("/api/games", json={"rules": NEW_AWARD, "rules_name": "cups.yaml", "lang": "fi", "seed": 1})
    game = client.get(f"/api/games/{r.json()['id']}").json()
    note = game["variant"]["untranslated"]
    fi = load_catalog("fi")
    # the Finnish catalog's sentence, naming the new award (shown as written) and not the translated ones
    assert note and note.startswith(fi.messages["untranslated"].split("{")[0]) and "`most_cups`" in note
    assert "`coins`" not in note and game["names"]["most_cups"] == "most cups"
    assert note == untranslated_note(VariantTexts(session_of(client, game["id"]).variant, "fi"))
    checked = client.post("/api/rules/check", json={"rules": NEW_AWARD, "rules_name": "cups.yaml", "lang": "fi"})
    assert checked.json()["untranslated"] == note
    # a rule file translated into the language: nothing to say
    assert client.get(f"/api/games/{new_game(client, lang='fi')}").json()["variant"]["untranslated"] is None
    listed = {v["name"]: v for v in client.get("/api/variants?lang=it").json()["variants"]}
    assert listed["scopa"]["untranslated"] is None and listed["scopa"]["description"].startswith("Due giocatori")


def test_titles_and_descriptions_are_in_the_pages_language(client: TestClient) -> None:
    french = load_variant("scopa-french")
    for lang in ("it", "fi", "hu"):
        own = french.rules["translations"][lang]
        listed = {v["name"]: v for v in client.get(f"/api/variants?lang={lang}").json()["variants"]}
        assert listed["scopa-french"]["title"] == own["title"] != french.title
        assert listed["scopa-french"]["description"] == " ".join(own["description"].split())
        game = client.get(f"/api/games/{new_game(client, variant='scopa-french', lang=lang)}").json()
        assert game["variant"]["title"] == own["title"]


def test_S2_4_the_reason_for_an_illegal_move_is_in_the_pages_language(client: TestClient) -> None:
    """Seed 3: the hand holds the 7 of swords and the table the 7 of cups; S2.4 the 7 must capture it."""
    game_id = new_game(client, seed=3, lang="it")
    game = client.get(f"/api/games/{game_id}").json()
    assert "7s" in game["hand"] and "7c" in game["table"]
    it = load_catalog("it")
    card = it("card", rank="7", suit=word("scopa", "it", "swords"))
    taken = it("card", rank="7", suit=word("scopa", "it", "cups"))
    r = client.post(f"/api/games/{game_id}/moves", json={"move": "7s"})
    assert r.status_code == 422
    assert (
        r.json()["error"]
        == it("play.why.must_capture", card=card, options=taken)
        == ("7 di spade deve prendere (la presa è obbligatoria): 7 di coppe")
    )
    r = client.post(f"/api/games/{game_id}/moves", json={"move": "3d"})
    assert r.json()["error"] == it("play.why.not_in_hand", card=it("card", rank="3", suit="denari"))
    # the page changed its language: the reason follows it
    fi = load_catalog("fi")
    r = client.post(f"/api/games/{game_id}/moves", json={"move": "7s", "lang": "fi"})
    card = fi("card", rank="7", suit=word("scopa", "fi", "swords"))
    assert r.json()["error"] == fi(
        "play.why.must_capture", card=card, options=fi("card", rank="7", suit=word("scopa", "fi", "cups"))
    )
    r = client.post(f"/api/games/{new_game(client, seed=3)}/moves", json={"move": "7s"})
    assert "must capture" in r.json()["error"]  # English: the engine's own words


def test_unreadable_notation_is_refused_never_a_server_error(client: TestClient) -> None:
    # '3c on 4s = ²' once reached int() past str.isdigit() and answered 500
    game_id = client.post("/api/games", json={"variant": "cassino", "seed": 3}).json()["id"]
    for text in ("3c on 4s = ²", "3c on 4s = " + "9" * 5000, " on = "):
        r = client.post(f"/api/games/{game_id}/moves", json={"move": text})
        assert r.status_code == 422 and "cannot read move" in r.json()["error"], (text[:20], r.text[:200])


def test_public_events_keep_only_the_fields_known_to_be_public() -> None:
    """A field the web table does not know (a face-down card, the stock's order, a seed) never reaches a client."""
    deal = {
        "event": "deal",
        "deal": 1,
        "dealer": 0,
        "hands": [["7d", "3c"], ["Rb", "2s"]],
        "table": ["4s"],
        "face_down": ["Ad"],
        "stock": 30,
        "stock_order": ["5c"],
    }
    assert public_event(deal) == {
        "event": "deal",
        "deal": 1,
        "dealer": 0,
        "table": ["4s"],
        "stock": 30,
        "hand_sizes": [2, 2],
        "face_down": 1,  # face-down table cards: how many is public (RULES.md P1.2), which ones is not
    }
    refill = {"event": "refill", "deal": 1, "hands": [["5d"], ["6d"]], "stock": 28, "burnt": ["7b"]}
    assert public_event(refill) == {"event": "refill", "deal": 1, "stock": 28, "hand_sizes": [1, 1]}
    play = {
        "event": "play",
        "deal": 1,
        "player": 0,
        "card": "7d",
        "captured": ["7c"],
        "kind": "match",
        "bonuses": [{"name": "scopa", "points": 1, "seen": ["Ad"]}],
        "hand_after": ["3c"],
    }
    assert public_event(play) == {
        "event": "play",
        "deal": 1,
        "player": 0,
        "card": "7d",
        "captured": ["7c"],
        "kind": "match",
        "bonuses": [{"name": "scopa", "points": 1}],
    }
    header = {"event": "header", "variant": "scopa", "players": 2, "teams": [[0], [1]], "seed": 5, "format": "x"}
    assert public_event(header) == {"event": "header", "variant": "scopa", "players": 2, "teams": [[0], [1]]}
    end = {
        "event": "deal_end",
        "deal": 1,
        "leftover": {"team": 0, "cards": ["2d"], "stock": ["9c"]},
        "awards": [{"name": "cards", "team": 1, "points": 1, "pile": ["Ad"]}],
        "points": [0, 1],
        "totals": [0, 1],
        "hands": [["Ad"]],
    }
    assert public_event(end) == {
        "event": "deal_end",
        "deal": 1,
        "leftover": {"team": 0, "cards": ["2d"]},
        "awards": [{"name": "cards", "team": 1, "points": 1}],
        "points": [0, 1],
        "totals": [0, 1],
    }
    assert public_event({"event": "peek", "deal": 1, "cards": ["Ad"]}) is None  # an unknown kind: dropped


# -- errors ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"variant": "no-such-game"}, 422, "built-in variants"),
        ({"variant": "scopa", "opponents": "os:system"}, 422, "opponents"),
        ({"variant": "scopa", "opponents": "ismcts:iterations=99999999"}, 422, "opponents"),
        ({"variant": "scopa", "seat": 2}, 422, "seat must be from 0 to 1"),
        ({"variant": "scopa", "players": 3}, 422, "not 3"),
        ({"variant": "scopa", "players": 0}, 422, "not 0"),  # was taken as "the variant's default"
        ({"variant": "scopa", "players": -2}, 422, "not -2"),
        ({"variant": "scopa", "seed": "five"}, 422, "seed must be a whole number"),
        ({"rules": 7}, 422, "rules must be the text"),
    ],
)
def test_bad_new_games_get_4xx_json_with_a_message(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == status and words in r.json()["error"]


def test_bad_requests_get_4xx_json_with_a_message(client: TestClient) -> None:
    r = client.get("/api/games/not-a-game")
    assert r.status_code == 404 and "no such game" in r.json()["error"]
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post("/api/games", json=[1, 2])
    assert r.status_code == 400
    assert client.get("/api/nothing-here").json()["error"]
    game_id = new_game(client)
    for move, words in ((99, "no legal move 99"), (True, "move must be"), ("zz", "unknown card"), (None, "move must")):
        r = client.post(f"/api/games/{game_id}/moves", json={"move": move})
        assert r.status_code == 422 and words in r.json()["error"], (move, r.text)
    r = client.post(f"/api/games/{game_id}/moves", json={})
    assert r.status_code == 422
    r = client.get(f"/api/games/{game_id}?since=x")
    assert r.status_code == 400
    play_out(client, game_id)
    r = client.post(f"/api/games/{game_id}/moves", json={"move": 0})
    assert r.status_code == 409 and "over" in r.json()["error"]


# -- uploaded rule files ---------------------------------------------------------------------------------


def test_uploaded_rules_get_the_same_located_errors_as_validate(client: TestClient, tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    expected = [e.format().replace(e.file, "broken.yaml") for e in validate_file(str(path))]
    assert expected and "awards.coins.most: unknown name 'coin'" in expected[0]
    r = client.post("/api/rules/check", json={"rules": BROKEN, "rules_name": "broken.yaml"})
    assert r.status_code == 422
    errors = r.json()["errors"]
    assert [e["text"] for e in errors] == expected
    assert errors[0]["file"] == "broken.yaml" and errors[0]["line"] == 4 and errors[0]["path"] == "awards.coins.most"
    r = client.post("/api/games", json={"rules": BROKEN, "rules_name": "broken.yaml"})
    assert r.status_code == 422 and r.json()["errors"][0]["text"] == expected[0]


def test_uploaded_rules_extend_only_built_in_variants(client: TestClient) -> None:
    r = client.post("/api/rules/check", json={"rules": "name: x\nextends: ../../etc/secret.yaml\n", "rules_name": "x"})
    assert r.status_code == 422
    assert r.json()["errors"][0]["text"].startswith("x.yaml:2:10: extends: an uploaded rule file can extend only")


def test_an_uploaded_variant_is_played_and_recorded(client: TestClient) -> None:
    rules = "name: scopa-21\ntitle: Scopa to 21\nextends: scopa\nmatch:\n  target: 21\n"
    r = client.post("/api/rules/check", json={"rules": rules, "rules_name": "scopa-21.yaml"})
    checked = r.json()
    assert r.status_code == 200 and checked["ok"] is True and checked["name"] == "scopa-21"
    assert checked["title"] == "Scopa to 21" and checked["players"] == [2]
    r = client.post(
        "/api/games", json={"rules": rules, "rules_name": "scopa-21.yaml", "seed": 2, "opponents": "random"}
    )
    game_id = r.json()["id"]
    game = client.get(f"/api/games/{game_id}").json()
    assert game["match"]["target"] == 21 and game["variant"]["uploaded"] is True
    last = play_out(client, game_id)
    assert max(last["result"]["totals"]) >= 21
    header = json.loads(client.get(f"/api/games/{game_id}/record").text.splitlines()[0])
    assert header["variant"] == "scopa-21"


TIGHT_LIMIT = (Path(__file__).parent / "data" / "tight.yaml").read_text()  # Tablanette, sets allowed 2 captures


def test_a_match_past_an_engine_limit_stops_with_the_message_never_a_server_error(client: TestClient) -> None:
    """An uploaded rule file that validates may reach a position past one of the engine's limits (docs/language.md,
    "Guarantees and limits"): the match stops there, its state says why, moves and the coach get 409 with the
    limit's message, and its record so far can be downloaded; no answer is a server error."""
    stopped = 0
    for seed in range(8):
        r = client.post("/api/games", json={"rules": TIGHT_LIMIT, "rules_name": "tight.yaml", "seed": seed})
        assert r.status_code == 201
        game_id = r.json()["id"]
        game = client.get(f"/api/games/{game_id}").json()
        while not game["finished"] and game["stopped"] is None:
            r = client.post(f"/api/games/{game_id}/moves", json={"move": 0})
            assert r.status_code == 200, r.text
            game = r.json()
        if game["stopped"] is None:
            continue
        stopped += 1
        assert game["stopped"].startswith("capture.kinds.sets: the ") and "more than 2 captures" in game["stopped"]
        assert game["to_move"] is None and game["legal_moves"] == [] and not game["finished"]
        r = client.post(f"/api/games/{game_id}/moves", json={"move": 0})
        assert r.status_code == 409 and "the match has stopped: capture.kinds.sets" in r.json()["error"]
        assert client.get(f"/api/games/{game_id}/coach").status_code == 409
        assert client.get(f"/api/games/{game_id}").status_code == 200
        # played no further, its record so far can be taken away (to replay, or to report the rule file)
        record = client.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200
        events = [json.loads(line) for line in record.text.splitlines()]
        assert events[0]["event"] == "header" and events[0]["seed"] == seed
        assert not any(e["event"] == "match_end" for e in events)
    assert stopped >= 4


def test_a_bonus_past_a_limit_on_the_persons_moves_stops_the_match_never_a_server_error(client: TestClient) -> None:
    """A bonus whose score passes 18 digits once the pile holds a few cards: marking the person's moves with what
    they score met the limit, and every answer about the match was a 500 (its moves too)."""
    grows = " * ".join(["(count(pile) + 10)"] * 18)
    rules = f'name: growing\nextends: scopa\nbonuses:\n  scopa: {{points: "1 if {grows} > 0 else 2"}}\n'
    r = client.post("/api/games", json={"rules": rules, "rules_name": "growing.yaml", "seed": 1, "opponents": "random"})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    game = client.get(f"/api/games/{game_id}").json()
    for _ in range(40):
        if game["stopped"] is not None or game["finished"]:
            break
        r = client.post(f"/api/games/{game_id}/moves", json={"move": 0})
        assert r.status_code == 200, r.text
        game = r.json()
    assert game["stopped"] is not None and "18 digits" in game["stopped"]
    assert game["legal_moves"] == [] and game["to_move"] is None
    assert client.get(f"/api/games/{game_id}").status_code == 200
    assert client.post(f"/api/games/{game_id}/moves", json={"move": 0}).status_code == 409


# -- the page's own needs ---------------------------------------------------------------------------------


def test_messages_come_from_the_catalog_with_english_fallback(client: TestClient) -> None:
    it = client.get("/api/messages?lang=it").json()
    assert it["lang"] == "it" and it["note"] is None and it["messages"]["new_match"] == "Nuova partita"
    hu = client.get("/api/messages?lang=hu").json()
    assert hu["lang"] == "hu" and hu["note"] is None and hu["messages"]["new_match"] == "Új mérkőzés"
    de = client.get("/api/messages?lang=de").json()
    assert de["lang"] == "en" and "de" in de["note"] and de["messages"]["new_match"] == "New match"
    assert client.get("/api/messages?lang=it-IT").json()["lang"] == "it"


def test_page_and_its_files_are_served_by_the_app(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<meta name="viewport"' in page.text
    assert not re.search(r"(src|href)=\"https?://", page.text), "nothing is fetched from elsewhere"
    for name in ("app.js", "cards.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "http://" not in r.text.replace("http://www.w3.org/2000/svg", "")
    listed = client.get("/api/variants").json()
    assert {"scopa", "cicera"} <= {v["name"] for v in listed["variants"]}
    assert listed["opponents"] == ["greedy", "ismcts", "random"]


def test_suits_get_looks_by_deck_style(client: TestClient) -> None:
    looks = {}
    for variant in ("scopa", "escoba", "scopa-french"):
        game = client.get(f"/api/games/{new_game(client, variant=variant)}").json()
        looks[variant] = (game["deck"]["style"], [s["look"] for s in game["deck"]["suits"]])
    assert looks["scopa"] == ("italian", ["disc", "cup", "sword", "baton"])
    assert looks["escoba"] == ("spanish", ["disc", "cup", "sword", "baton"])
    assert looks["scopa-french"] == ("french", ["diamond", "heart", "club", "spade"])


# -- bounds -----------------------------------------------------------------------------------------------


def test_the_store_is_bounded_in_number_and_age() -> None:
    now = [0.0]
    store = GameStore(max_games=2, max_age=60, clock=lambda: now[0])
    with TestClient(create_app(store)) as c:
        a, b = new_game(c), new_game(c)
        assert c.get(f"/api/games/{a}").status_code == 200  # a is now the most recently used
        new_game(c)
        assert len(store) == 2
        assert c.get(f"/api/games/{b}").status_code == 404  # the least recently used made room
        assert c.get(f"/api/games/{a}").status_code == 200
        now[0] = 61
        assert c.get(f"/api/games/{a}").status_code == 404 and len(store) == 0


def test_serve_listens_on_localhost_by_default_and_needs_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from piglia.cli import parser

    args = parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the extra were not installed
    assert main(["serve"]) == 1
    assert "pip install 'piglia[web]'" in capsys.readouterr().err


def _post_raw(path: str, chunks: int, declared: int | str | None) -> tuple[int, int]:
    """POST ``chunks`` chunks of 1 MB to the application, as a server hands a request over (ASGI), optionally
    declaring a Content-Length: (the answer's status, how many chunks the application read)."""
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        return {"type": "http.request", "body": b" " * (1 << 20), "more_body": read < chunks}

    statuses: list[int] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    headers = [(b"content-type", b"application/json")]
    if declared is not None:
        headers.append((b"content-length", str(declared).encode("latin-1")))  # as HTTP carries header bytes
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(create_app()(scope, receive, send))
    return statuses[0], read


def test_a_request_over_the_size_limit_is_refused_without_reading_it_whole() -> None:
    # A 400 MB request was read whole before it was refused (850 MB of the server's memory): a few would exhaust
    # the machine. Now a declared size over the limit is refused before any reading, and a body that does not
    # say its size (chunked) is read only up to the limit.
    limit_chunks = MAX_BODY_BYTES // (1 << 20)
    for path in ("/api/games", "/api/rules/check"):
        assert _post_raw(path, 400, declared=400 << 20) == (413, 0)
        # a size that is no number ('²' passes str.isdigit()) is not trusted: the body is counted as it comes
        status, read = _post_raw(path, 400, declared="\u00b2")
        assert status == 413 and read <= limit_chunks + 1
        status, read = _post_raw(path, 400, declared=None)
        assert status == 413 and read <= limit_chunks + 1
    # under the limit, the body is read whole (and, being blanks, is not JSON)
    assert _post_raw("/api/games", limit_chunks - 1, declared=None) == (400, limit_chunks - 1)


def test_piglia_serve_serves_the_page_until_stopped() -> None:
    """The command itself: it starts the server on the port asked for and the page answers there. Stopped while a
    coach's advice runs (on costly rules, up to its half-minute safety net), it cuts the request short after a
    grace of seconds and reports no traceback: it waited for the request to end, and was killed for it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root / "interpreter")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "piglia", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    page = answer.read().decode("utf-8")
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()[1]
                assert time.monotonic() < deadline, "piglia serve did not answer"
                time.sleep(0.1)
        assert '<script src="/static/app.js">' in page
        rules = (Path(__file__).parent / "data" / "hostile" / "bomb-dead-end-builds.yaml").read_text()
        body = {"rules": rules, "rules_name": "b.yaml", "seat": 0, "seed": 1, "opponents": "greedy"}
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            game_id = json.loads(answer.read())["id"]
        advice: list[object] = []

        def ask_the_coach() -> None:  # about 15 s of CPU on this file, more on a loaded machine
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game_id}/coach", timeout=60) as a:
                    advice.append(a.status)
            except OSError as exc:
                advice.append(exc)

        asking = threading.Thread(target=ask_the_coach)
        asking.start()
        time.sleep(1)  # the request is under way
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)  # it waited for the advice to end: 15 to 37 s
    asking.join(timeout=60)
    assert f"http://127.0.0.1:{port}/" in out
    assert advice and advice[0] != 200  # cut short, not waited for
    assert "Traceback" not in err and "CancelledError" not in err, err


def test_every_word_the_page_uses_is_in_every_catalog() -> None:
    """The page asks the catalog for each word by key: each key it names exists in every language's catalog."""
    script = resources.files("piglia.web").joinpath("static/app.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z_.]+)"', script)) | {f"strength.{o}" for o in ("greedy", "ismcts", "random")}
    words = re.findall(r'"[a-z-]+": "([a-z_.]+)"', script.split("const words = {", 1)[1].split("};", 1)[0])
    used |= set(words)
    assert len(used) > 40
    for lang in languages():
        messages = load_catalog(lang).messages
        missing = sorted(k for k in used if f"web.{k}" not in messages)
        assert missing == [], f"{lang}: the page uses words its catalog lacks: {missing}"


# -- what a hostile client sends (issue 16's web hunt) -----------------------------------------------------------


def test_a_body_nested_too_deep_is_refused_not_a_server_error(client: TestClient) -> None:
    """[[[[... a hundred thousand deep: the JSON decoder's RecursionError answered 500 with a traceback."""
    deep = b"[" * 100_000 + b"]" * 100_000
    for url in ("/api/games", "/api/rules/check"):
        r = client.post(url, content=deep, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nests too deep" in r.json()["error"]


def test_a_record_request_waiting_for_a_busy_game_stops_no_other_request(client: TestClient) -> None:
    """The record's handler waited for its game's lock on the event loop: while an AI move held it, the whole
    server answered nobody. It now waits in a worker thread, as every other handler that takes the lock."""
    import threading

    game_id = new_game(client, seed=9)
    play_out(client, game_id)
    session = session_of(client, game_id)
    answers: dict[str, int] = {}

    def ask(name: str, url: str) -> None:
        answers[name] = client.get(url).status_code

    with session.lock:  # the game busy (an AI move, a coach request)
        waiting = threading.Thread(target=ask, args=("record", f"/api/games/{game_id}/record"), daemon=True)
        waiting.start()
        time.sleep(0.2)  # the record request is in, waiting for the lock
        other = threading.Thread(target=ask, args=("messages", "/api/messages?lang=en"), daemon=True)
        other.start()
        other.join(60)  # only a hang guard: it answers at once
        assert answers.get("messages") == 200 and "record" not in answers
    waiting.join(60)
    assert answers["record"] == 200


def test_each_finished_deal_s_sheet_is_made_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer carries every finished deal's score sheet; they were all made again from every event on every
    answer, which grew with deals times events over a long match. Made once, they are the same as made afresh."""
    from piglia.web import views

    game_id = new_game(client, seed=9)
    play_out(client, game_id)
    made: list[int] = []
    fresh = views.sheet_json

    def counted(*args: Any) -> Any:
        made.append(1)
        return fresh(*args)

    monkeypatch.setattr("piglia.web.app.sheet_json", counted)
    first = client.get(f"/api/games/{game_id}").json()["sheets"]
    again = client.get(f"/api/games/{game_id}").json()["sheets"]
    assert first == again and len(first) >= 2 and made == []  # made as the deals ended, before the patch
    session = session_of(client, game_id)
    session.sheets.clear()
    assert client.get(f"/api/games/{game_id}").json()["sheets"] == first and len(made) == len(first)
    in_italian = client.get(f"/api/games/{game_id}?lang=it").json()["sheets"]
    assert len(made) == 2 * len(first) and [s["deal"] for s in in_italian] == [s["deal"] for s in first]


def test_uploaded_rules_leave_nothing_in_the_loaded_rules_cache(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each upload wrote its merged rules to the user's disk cache (up to a megabyte or more), under a key holding
    the server's private folder that no other process can ever read: thousands of uploads took gigabytes."""
    monkeypatch.setenv("PIGLIA_CACHE_DIR", str(tmp_path))
    for k in range(3):
        rules = f"name: up{k}\nextends: scopa\nmatch: {{target: {k + 5}}}\n"
        r = client.post("/api/rules/check", json={"rules": rules, "rules_name": f"up{k}.yaml"})
        assert r.status_code == 200 and r.json()["ok"] is True, r.text
    loaded = tmp_path / "rules-loaded"
    assert not loaded.exists() or not list(loaded.iterdir())
    # the same text as a user's own file is remembered (the next process loads it faster)
    mine = tmp_path / "mine.yaml"
    mine.write_text("name: mine\nextends: scopa\nmatch: {target: 9}\n", encoding="utf-8")
    assert load_variant(mine).name == "mine" and len(list(loaded.iterdir())) == 1


def test_a_match_at_the_table_keeps_no_copy_of_each_position(client: TestClient) -> None:
    """Every move, the person's and the AI's, was pushed with an undo entry (a copy of the position) that
    nothing ever takes back: a long match held one per move for as long as the server kept it."""
    game_id = new_game(client, variant="scopa", seed=4, opponents="random")
    play_out(client, game_id)
    state = session_of(client, game_id).state
    assert state.over and len(state.plays) > 0
    with pytest.raises(piglia.PigliaError, match="nothing to take back"):
        state.pop()


def test_the_award_counters_of_many_uploaded_variants_stay_bounded(client: TestClient) -> None:
    """A counter per variant was kept forever: each upload is a variant of its own, and a server taking uploads
    grew by a megabyte each (1 GiB after about a thousand)."""
    from piglia.web.views import _counter

    for k in range(36):
        rules = f"name: up{k}\nextends: scopa\nmatch: {{target: 1}}\n"  # a deal or two
        r = client.post("/api/games", json={"rules": rules, "seat": 0, "seed": k, "opponents": "random"})
        assert r.status_code == 201, r.text
        play_out(client, r.json()["id"])
    assert _counter.cache_info().currsize <= 32
