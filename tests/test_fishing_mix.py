"""The wider family's mechanics combine without Python: tests/variants/fishing-mix.yaml puts an ordered table
(a pile kind and a bonus reading the top card), face-down table cards, opening cards replaced from the stock and a
misere match end on classic Scopa. Expected answers from the file's own rules (its comments)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import piglia
from conftest import moves_of, play, position
from piglia.record import verify_lines
from piglia.rulespage import render_markdown
from piglia.simulate import simulate
from piglia.state import Game
from piglia.variant import Variant

MIX = Path(__file__).parent / "variants" / "fishing-mix.yaml"


@pytest.fixture(scope="module")
def mix() -> Variant:
    return piglia.load_variant(MIX)


def test_a_re_takes_the_pile_when_a_court_is_on_top_and_nothing_of_higher_priority(mix: Variant) -> None:
    # Top card: cavallo. No re on the table, no group adding up to 10: the re takes the pile, face-down ones too.
    state = position(mix, hands=[["Rd", "2c"], ["Ab"]], table=["7c", "Cs"], face_down=["4b", "5b"], to_move=0)
    assert moves_of(state) == {"Rd x 7c+Cs", "2c"}
    after = play(state, "Rd x 7c+Cs")
    assert sorted(after.piles[0]) == sorted(mix.deck.parse_card(c).index for c in ["Rd", "7c", "Cs", "4b", "5b"])
    assert after.face_down == []


def test_a_court_not_on_top_gives_no_pile_capture(mix: Variant) -> None:
    state = position(mix, hands=[["Rd", "2c"], ["Ab"]], table=["Cs", "6c"], face_down=["4b", "5b"], to_move=0)
    assert moves_of(state, "Rd") == {"Rd"}  # 6 on top; no 10 by sum (9 + 6 is 15)


def test_a_sum_has_priority_over_the_pile(mix: Variant) -> None:
    state = position(mix, hands=[["Rd"], ["Ab"]], table=["Ac", "Cs"], face_down=["4b"], to_move=0)
    assert moves_of(state) == {"Rd x Ac+Cs"}
    # The sum took every face-up card: the face-down card goes with them (it lies under the pile).
    after = play(state, "Rd x Ac+Cs")
    assert mix.deck.parse_card("4b").index in after.piles[0]


def test_the_bonus_reads_the_top_card(mix: Variant) -> None:
    state = position(mix, hands=[["Ad", "2c"], ["5b"]], table=["3s", "Ac"], stock=["6c", "7c"], to_move=0)
    event = next(e for e in reversed(play(state, "Ad x Ac").events or []) if e["event"] == "play")
    assert event["bonuses"] == [{"name": "low_top", "points": 1}]


def test_no_re_stays_face_up_on_the_opening_table_and_views_hide_the_face_down(mix: Variant) -> None:
    returned = 0
    for seed in range(40):
        state = Game(mix).new_match(seed)
        assert len(state.table) == 2 and len(state.face_down) == 2
        assert all(mix.deck.cards[c].rank.name != "re" for c in state.table)
        view = state.view(state.to_move)
        assert view.face_down == 2 and set(state.face_down) <= {c.index for c in view.unseen}
        deal = next(e for e in state.events or [] if e["event"] == "deal")
        returned += len(deal.get("returned") or [])
    assert returned > 0


def test_misere_end(mix: Variant) -> None:
    assert mix.match.winner([12, 7], 3) == (True, 1)
    assert mix.match.winner([11, 11], 3) == (False, None)


def test_rules_page_in_english_and_italian(mix: Variant) -> None:
    en = render_markdown(mix, lang="en")
    assert "the first 2 face down" in en and "top card of the pile is a court" in en and "fewest points" in en
    it = render_markdown(mix, lang="it")
    assert "le prime 2 coperte" in it and "in cima al mucchio" in it and "meno punti" in it


def test_200_matches_replay_clean(mix: Variant) -> None:
    out = io.StringIO()
    summary = simulate(mix, matches=200, seed=3, record=out)
    count, errors = verify_lines(out.getvalue().splitlines(), "fishing-mix.jsonl", variant=mix)
    assert [str(e) for e in errors] == []
    assert count == summary.matches == 200


# Mechanics mixed by a fuzzer of valid rule files (stop 48): each validated, then its own records failed to replay.
REPLACE_AND_REDEAL = "name: rr\nextends: scopa\ndeal:\n  replace: {when: not court, reason: only courts open}\n"
REPLACED_TWICE = "name: r2\nextends: pisti\ndeal:\n  face_down: 0\n  replace: {when: rank != K, reason: kings open}\n"


@pytest.mark.parametrize("text", [REPLACE_AND_REDEAL, REPLACED_TWICE], ids=["replace-and-redeal", "replaced-twice"])
def test_deals_that_replace_cards_replay_clean(tmp_path: Path, text: str) -> None:
    """docs/language.md, deal.replace and deal.redeal. The redeal looked at the opening table before its cards
    were replaced, the deal's check and the replay after: a kept deal could show a table the rules redeal (three
    re once only courts stayed). And a card sent under the stock can come round again: the record lists it
    twice in `returned`, which the replay refused."""
    rules = tmp_path / "r.yaml"
    rules.write_text(text, encoding="utf-8")
    variant = piglia.load_variant(rules)
    out = io.StringIO()
    summary = simulate(variant, matches=30, seed=1, record=out)
    lines = out.getvalue().splitlines()
    count, errors = verify_lines(lines, "r.jsonl", variant=variant)
    assert [str(e) for e in errors] == []
    assert count == summary.matches == 30
    game = Game(variant)
    tables = [e["table"] for e in map(json.loads, lines) if e["event"] == "deal"]
    deck = variant.deck
    assert not any(game.new_match(0).is_misdeal(tuple(deck.by_id[c].index for c in t)) for t in tables)
    if text is REPLACED_TWICE:  # the case the replay refused does happen in these matches
        returned = [e.get("returned") or [] for e in map(json.loads, lines) if e["event"] == "deal"]
        assert any(len(set(r)) < len(r) for r in returned)
