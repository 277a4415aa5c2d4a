"""Bad records (issue 4): every kind of damage or tampering gets a clear message at its line, never a traceback.

tests/test_records.py covers a wrong capture, a card not in hand, a missing or extra bonus, a wrong award, wrong
totals, a winner declared too early, a truncated record, a JSON error and other rules; here are the rest, and
the real ``piglia replay`` command on a file of each kind.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import piglia
from conftest import edit_event as edit
from conftest import piglia_env, record_lines
from conftest import record_errors as errors_of
from piglia.record import write_events
from piglia.state import Game
from piglia.variant import Variant

Edit = Callable[[list[str]], list[str]]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return record_lines(piglia.load_variant("scopa"), 7)


def first(lines: list[str], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if json.loads(line)["event"] == kind)


def priority_record(variant: Variant) -> tuple[list[str], int, list[str]]:
    """A record in which some play takes a match while a sum of other cards was also there (S2.3), the line of
    that play, and the sum's card ids: a capture the priority forbids."""
    sum_kind = next(k for tier in variant.capture.tiers for k in tier if k.name == "sum")
    ids = variant.deck.cards
    for seed in range(200):
        game = Game(variant)
        state = game.new_match(seed)
        rng = random.Random(seed)
        found: tuple[int, list[str]] | None = None
        while not state.over:
            moves = state.raw_moves()
            choice = moves[rng.randrange(len(moves))]
            if found is None:
                for card, cap in moves:
                    if len(cap) == 1:
                        sums = [s for s in sum_kind.captures(card, state.table) if len(s) > 1]
                        if sums:
                            choice = (card, cap)
                            assert state.events is not None
                            found = (len(state.events), [ids[c].id for c in sums[0]])
                            break
            state.push_raw(choice)
        if found is not None:
            assert state.events is not None
            out = io.StringIO()
            write_events(state.events, out)
            return out.getvalue().splitlines(), found[0], found[1]
    raise AssertionError("no priority conflict in 200 matches")


def test_a_capture_that_breaks_the_priority_is_caught() -> None:
    variant = piglia.load_variant("scopa")
    lines, i, sum_ids = priority_record(variant)
    assert errors_of(lines) == []
    bad = edit(lines, i, lambda e: e.update(captured=sum_ids))
    ((line, message),) = errors_of(bad)
    assert line == i + 1 and message.startswith("illegal move: ") and "cannot take that; it can take" in message


def test_a_record_of_another_variant(lines: list[str], tmp_path: Path) -> None:
    bad = edit(lines, 0, lambda e: e.update(variant="zzz-unknown"))
    assert errors_of(bad) == [
        (
            1,
            "the record is of variant 'zzz-unknown': no variant named 'zzz-unknown'; `piglia list` shows the built-in "
            "variants; pass its rule file: --variant FILE",
        )
    ]
    other = tmp_path / "other.yaml"
    other.write_text("name: other\nextends: scopa\nmatch: {target: 21}\n")
    assert errors_of(lines, piglia.load_variant(str(other))) == [(1, "the record is of variant 'scopa', not 'other'")]


@pytest.mark.parametrize(
    ("kind", "change", "message"),
    [
        (
            "header",
            lambda e: e["cards"].update(Zz={"rank": "x", "suit": "y"}),
            "card 'Zz' is not in the variant's deck",
        ),
        ("deal", lambda e: e["hands"][0].__setitem__(0, "8d"), "hands[0]: unknown card '8d'"),
        ("deal", lambda e: e["table"].__setitem__(0, "7x"), "table: unknown card '7x'"),
        ("play", lambda e: e.update(card="Zz"), "card: unknown card 'Zz'"),
        ("play", lambda e: e.update(captured=["Zz"]), "captured: unknown card 'Zz'"),
        ("play", lambda e: e.update(card=7), "card: expected a card id, got 7"),
        ("play", lambda e: e.pop("player"), "play event without 'player'"),
        (
            "play",
            lambda e: e.update(bonuses=[1]),
            'bonuses: each entry is {"name": "...", "points": ...}, its name a string',
        ),
        # hand edits that were internal errors of `piglia replay` (a list cannot be sorted with strings, nor be a key)
        ("play", lambda e: e.update(bonuses=[{"name": ["scopa"], "points": 1}]), "its name a string"),
        ("play", lambda e: e.update(face_down=5), "face_down: expected a list of card ids"),
        ("play", lambda e: e.update(face_down=[1, "a"]), "face_down: expected a list of card ids"),
        (
            "deal_end",
            lambda e: e.update(awards=["x"]),
            'awards: each entry is {"name": ..., "team": ..., "points": ...}',
        ),
        (
            "header",
            lambda e: e.update(format="other/2"),
            "not a piglia-record/1 or piglia-record/2 record (format 'other/2')",
        ),
        ("header", lambda e: e.update(players=3), "scopa is played by 2 players, not 3"),
    ],
)
def test_unknown_cards_and_malformed_events(
    lines: list[str], kind: str, change: Callable[[dict[str, Any]], Any], message: str
) -> None:
    i = first(lines, kind)
    errors = errors_of(edit(lines, i, change))
    assert errors[0][0] == i + 1 and errors[0][1].endswith(message), errors


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "the file holds no record"),
        ("[1, 2]\n", 1, 'each line is a JSON object with an "event" key'),
        ('{"event": "play"}\n', 1, "a record starts with a header event"),
        ("{not json\n", 1, "not valid JSON: Expecting property name enclosed in double quotes (column 2)"),
        # past int()'s 4,300 digits: once an internal error of `piglia replay`
        (
            '{"event": "header", "seed": ' + "9" * 5000 + "}\n",
            1,
            "a number of more than 4,300 digits is not a number a record may hold",
        ),
    ],
)
def test_files_that_are_no_record(text: str, line: int, message: str) -> None:
    assert errors_of(text.splitlines()) == [(line, message)]


def test_a_match_cut_short_does_not_hide_the_next_one() -> None:
    """A file of three matches, the first cut short and the other two with wrong totals: the header after the cut
    was read as a stray line of the first match, which then skipped the whole second match unchecked."""
    from piglia.record import verify_lines

    scopa = piglia.load_variant("scopa")
    cut = record_lines(scopa, 7)[:-5]
    second, third = record_lines(scopa, 8), record_lines(scopa, 9)
    at = [first(second, "deal_end"), first(third, "deal_end")]
    wrong = [edit(m, i, lambda e: e.update(totals=[99, 99])) for m, i in zip((second, third), at, strict=True)]
    lines = [*cut, *wrong[0], *wrong[1]]
    count, errors = verify_lines(lines, "rec.jsonl")
    found = [(e.line, e.message.split(",")[0]) for e in errors]
    assert count == 3
    assert found == [
        (len(cut), "the record ends before the match is over (is it cut short?)"),
        (len(cut) + at[0] + 1, "totals [99"),
        (len(cut) + len(second) + at[1] + 1, "totals [99"),
    ], found


def test_an_award_named_by_no_string_and_a_variant_named_too_long(lines: list[str]) -> None:
    """Hand edits that were internal errors of `piglia replay`, or blamed the record file as unreadable (line 0):
    an award whose name is a list, and a header naming a variant of 5,000 characters (no file name is that long)."""
    i = first(lines, "deal_end")
    errors = errors_of(edit(lines, i, lambda e: e["awards"][0].update(name=[e["awards"][0]["name"]])))
    assert any(line == i + 1 and "is not one of this variant's awards" in text for line, text in errors), errors
    errors = errors_of(edit(lines, 0, lambda e: e.update(variant="x" * 5000)))
    assert errors[0][0] == 1 and "no variant named 'xxx" in errors[0][1], errors[0][1][:200]


def test_a_line_cut_in_the_middle(lines: list[str]) -> None:
    errors = errors_of([*lines[:5], lines[5][:20]])
    assert errors[0][0] == 6 and errors[0][1].startswith("not valid JSON")


# -- the real command -------------------------------------------------------------------------------------


def tampered(lines: list[str]) -> dict[str, tuple[list[str], int, str]]:
    """One damaged record file per kind: (lines, line of the first message, start of that message)."""
    play = next(i for i, t in enumerate(lines) if json.loads(t)["event"] == "play" and not json.loads(t)["captured"])
    end = first(lines, "deal_end")

    def flip_award(e: dict[str, Any]) -> None:
        e["awards"][0]["points"] += 1

    return {
        "truncated": (lines[:20], 20, "the record ends before the match is over"),
        "json-error": ([*lines[:3], "{oops", *lines[4:]], 4, "not valid JSON"),
        "other-variant": (edit(lines, 0, lambda e: e.update(variant="scopa-21")), 1, "the record is of variant"),
        "unknown-card": (edit(lines, play, lambda e: e.update(card="11d")), play + 1, "card: unknown card '11d'"),
        "not-in-hand": (
            edit(lines, play, lambda e: e.update(card=json.loads(lines[first(lines, "deal")])["table"][0])),
            play + 1,
            "illegal move: seat",
        ),
        "extra-bonus": (
            edit(lines, play, lambda e: e.update(bonuses=[{"name": "scopa", "points": 1}])),
            play + 1,
            "bonus 'scopa' is not earned by this play",
        ),
        "wrong-award": (edit(lines, end, flip_award), end + 1, "award 'cards': the record gives"),
        "wrong-totals": (edit(lines, end, lambda e: e.update(totals=[50, 50])), end + 1, "totals [50, 50]"),
        "early-winner": (
            [*lines[: end + 1], json.dumps({"event": "match_end", "totals": [1, 0], "winner": 0})],
            end + 2,
            "match_end, but the match is not over",
        ),
    }


def test_piglia_replay_names_the_line_exits_1_and_never_shows_a_traceback(lines: list[str], tmp_path: Path) -> None:
    cases = tampered(lines)
    assert json.loads(lines[first(lines, "deal_end") + 1])["event"] != "match_end"  # the early winner is early
    for name, (bad, _, _) in cases.items():
        (tmp_path / f"{name}.jsonl").write_text("\n".join(bad) + "\n")
    for name, (_, line, start) in cases.items():
        result = subprocess.run(
            [sys.executable, "-m", "piglia", "replay", f"{name}.jsonl"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=piglia_env(),
            timeout=300,
        )
        assert result.returncode == 1, (name, result.stdout, result.stderr)
        assert result.stdout.splitlines()[0].startswith(f"{name}.jsonl:{line}: {start}"), (name, result.stdout)
        assert result.stderr == "" and "Traceback" not in result.stdout, name
