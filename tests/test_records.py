"""Records (RECORD_FORMAT.md): simulated records replay clean; tampering is caught at its line."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import edit_event as _edit
from conftest import record_errors as errors_of
from conftest import record_lines
from piglia.record import verify_lines
from piglia.simulate import match_seed, simulate
from piglia.variant import Variant


def test_simulated_records_replay_clean(scopa: Variant) -> None:
    out = io.StringIO()
    summary = simulate(scopa, matches=150, seed=5, record=out)
    count, errors = verify_lines(out.getvalue().splitlines(), "sim.jsonl")
    assert errors == []
    assert count == summary.matches == 150


def test_record_follows_the_format(scopa: Variant) -> None:
    events = [json.loads(line) for line in record_lines(scopa, 1)]
    header = events[0]
    assert header["event"] == "header" and header["format"] == "piglia-record/2"
    assert header["variant"] == "scopa" and header["players"] == 2 and header["teams"] == [[0], [1]]
    assert len(header["cards"]) == 40 and header["cards"]["7d"] == {"rank": "7", "suit": "coins"}
    assert len(header["spec_sha256"]) == 64
    assert events[-1]["event"] == "match_end"
    kinds = {e["event"] for e in events}
    assert {"deal", "refill", "play", "deal_end", "match_end"} <= kinds
    end = next(e for e in events if e["event"] == "deal_end")
    assert {a["name"] for a in end["awards"]} == {"cards", "coins", "settebello", "primiera"}
    plays = [e for e in events if e["event"] == "play"]
    # version 2: a capture names its kind (S2.3: a single card of the same value, else a sum); a placement none
    assert all(e["kind"] in ("match", "sum") for e in plays if e["captured"])
    assert all("kind" not in e for e in plays if not e["captured"])
    assert all(e["kind"] == "match" for e in plays if len(e["captured"]) == 1)


def test_same_seed_same_record_byte_for_byte(scopa: Variant) -> None:
    assert record_lines(scopa, 42) == record_lines(scopa, 42)
    assert record_lines(scopa, 42) != record_lines(scopa, 43)


def _find(lines: list[str], pred: Any) -> int:
    for i, line in enumerate(lines):
        if pred(json.loads(line)):
            return i
    raise AssertionError("no such event")


@pytest.fixture(scope="module")
def record_with_scopa() -> list[str]:
    variant = piglia.load_variant("scopa")
    for k in range(200):
        lines = record_lines(variant, match_seed(9, k))
        if any('"name":"scopa"' in line for line in lines):
            return lines
    raise AssertionError("no scopa in 200 random matches")


def test_wrong_capture_is_caught_at_its_line(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "play" and e["captured"])
    bad = _edit(lines, i, lambda e: e.update(captured=[]))
    errors = errors_of(bad)
    assert errors and errors[0][0] == i + 1
    assert "must capture" in errors[0][1] or "illegal" in errors[0][1]


def test_card_not_in_hand_is_caught(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "play")
    deal = json.loads(lines[_find(lines, lambda e: e["event"] == "deal")])
    player = json.loads(lines[i])["player"]
    other = deal["hands"][1 - player][0]
    bad = _edit(lines, i, lambda e: e.update(card=other, captured=[]))
    errors = errors_of(bad)
    assert errors[0][0] == i + 1 and "does not hold" in errors[0][1]


def test_missed_scopa_is_caught(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "play" and e["bonuses"])
    bad = _edit(lines, i, lambda e: e.update(bonuses=[]))
    assert (i + 1, "missing bonus 'scopa' (1 points): the rules score it on this play") in errors_of(bad)


def test_extra_bonus_is_caught(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "play" and not e["bonuses"])
    bad = _edit(lines, i, lambda e: e.update(bonuses=[{"name": "scopa", "points": 1}]))
    assert (i + 1, "bonus 'scopa' is not earned by this play") in errors_of(bad)


def test_wrong_award_is_caught(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "deal_end")

    def flip(e: dict[str, Any]) -> None:
        for a in e["awards"]:
            if a["name"] == "settebello":
                a["team"] = 1 - a["team"]

    errors = errors_of(_edit(lines, i, flip))
    assert any(line == i + 1 and "award 'settebello'" in msg for line, msg in errors)


def test_wrong_total_is_caught(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "deal_end")
    errors = errors_of(_edit(lines, i, lambda e: e["totals"].__setitem__(0, e["totals"][0] + 1)))
    assert any(line == i + 1 and msg.startswith("totals") for line, msg in errors)


def test_winner_declared_too_early_is_caught(record_with_scopa: list[str]) -> None:
    lines = record_with_scopa
    i = _find(lines, lambda e: e["event"] == "deal_end")
    cut = [*lines[: i + 1], json.dumps({"event": "match_end", "totals": [0, 0], "winner": 0})]
    if json.loads(lines[i + 1])["event"] == "match_end":
        pytest.skip("the match really ended after its first deal")
    errors = errors_of(cut)
    assert errors[0][0] == i + 2 and "not over" in errors[0][1]


def test_truncated_record_is_caught(record_with_scopa: list[str]) -> None:
    errors = errors_of(record_with_scopa[:20])
    assert errors == [(20, "the record ends before the match is over (is it cut short?)")]


def test_json_error_is_caught(record_with_scopa: list[str]) -> None:
    bad = [*record_with_scopa[:5], "{not json", *record_with_scopa[6:]]
    errors = errors_of(bad)
    assert errors[0][0] == 6 and "not valid JSON" in errors[0][1]


def test_record_of_other_rules_is_refused(record_with_scopa: list[str]) -> None:
    bad = _edit(record_with_scopa, 0, lambda e: e.update(spec_sha256="0" * 64))
    errors = errors_of(bad)
    assert errors[0][0] == 1 and "other rules" in errors[0][1]


def test_record_file_round_trip(tmp_path: Path, scopa: Variant) -> None:
    path = tmp_path / "games.jsonl"
    with path.open("w") as fh:
        simulate(scopa, matches=3, seed=1, record=fh)
    count, errors = piglia.verify_file(path)
    assert (count, errors) == (3, [])
