"""The speed work must not change a single game: records and summaries equal those of the engine before it.

The files in ``tests/data`` were written by the engine as it was before a change, from fixed seeds: a classic
Scopa run and a run of ``golden-mix.yaml`` (before the speed work), and runs of ``golden-full.yaml`` (before the
engine's phases, issue 10), a test variant whose bonuses read the capture kind (with two kinds of one tier
reaching the same capture), the hand, the pile, the table before and after, the previous and the last play, with
an opening bonus that takes cards, a redeal, an instant win, and every award form (most, holder, score); and a
Cassino run (before issue 12's ninth pass changed how builds are listed).
Same seed, same bytes, but for the one documented change of format since (docs/records.md): version 2 records
name the capture kind of every capture (``kind`` on ``play`` lines) and say ``piglia-record/2`` in the header.
So a record of today, with its ``kind`` fields dropped and its version set back to 1, must be the saved file
byte for byte; and the kinds it adds must be those the rules give (``piglia replay`` checks them).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import piglia
from piglia.record import verify_lines
from piglia.simulate import simulate

DATA = Path(__file__).parent / "data"


def _as_version_1(record: str) -> str:
    """A version 2 record as version 1 wrote it: no capture kind, format 1 (the only changes, line by line)."""
    lines = []
    for text in record.splitlines():
        event = json.loads(text)
        if event["event"] == "header":
            assert event["format"] == "piglia-record/2"
            event["format"] = "piglia-record/1"
        elif event["event"] == "play":
            assert ("kind" in event) == bool(event["captured"])  # every capture names its kind; no placement does
            event.pop("kind", None)
        lines.append(json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n")
    return "".join(lines)


def _record(ref: str, *, matches: int, seed: int, players: int | None = None) -> str:
    out = io.StringIO()
    variant = piglia.load_variant(ref)
    simulate(variant, matches=matches, seed=seed, players=players, record=out, workers=1)
    record = out.getvalue()
    assert verify_lines(record.splitlines(), variant=variant) == (matches, [])  # the kinds written are the rules' own
    return _as_version_1(record)


def test_scopa_record_is_byte_for_byte_the_one_before_the_speed_work() -> None:
    expected = (DATA / "golden-scopa-seed7.jsonl").read_text(encoding="utf-8")
    assert _record("scopa", matches=3, seed=7) == expected


def test_mixed_mechanics_record_is_byte_for_byte_the_one_before_the_speed_work() -> None:
    expected = (DATA / "golden-mix-4p-seed11.jsonl").read_text(encoding="utf-8")
    assert _record(str(DATA / "golden-mix.yaml"), matches=3, seed=11, players=4) == expected


def test_summary_figures_are_those_before_the_speed_work() -> None:
    before = json.loads((DATA / "golden-summary-scopa-seed7-1000deals.json").read_text(encoding="utf-8"))
    now = simulate(piglia.load_variant("scopa"), deals=1000, seed=7, workers=1).as_dict()
    for key in ("matches", "deals", "plays_per_deal", "draws"):
        assert now[key] == before[key], key
    for team_now, team_before in zip(now["teams"], before["teams"], strict=True):
        for key in ("wins", "win_rate", "ci95", "points_per_deal"):
            assert team_now[key] == team_before[key], key
    by_name = {s["name"]: s for s in now["scoring"]}
    for s in before["scoring"]:
        assert by_name[s["name"]]["points_per_deal"] == s["points_per_deal"]
        assert by_name[s["name"]]["scored_in"] == s["scored_in"]


def test_full_mechanics_records_are_byte_for_byte_the_ones_before_the_engine_phases() -> None:
    for players, seed in ((2, 7), (4, 11)):
        expected = (DATA / f"golden-full-{players}p-seed{seed}.jsonl").read_text(encoding="utf-8")
        assert _record(str(DATA / "golden-full.yaml"), matches=6, seed=seed, players=players) == expected


def test_builds_record_is_byte_for_byte_the_one_before_the_builds_speed_work() -> None:
    # written by the engine before the ninth pass's changes to the listing of builds (docs/performance.md)
    expected = (DATA / "golden-cassino-seed5.jsonl").read_text(encoding="utf-8")
    assert _record("cassino", matches=2, seed=5) == expected
