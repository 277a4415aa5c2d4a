"""The guarantees of issue 16 that the corpora do not show line by line: the deal limit in the engine and its
record, the rule for bare names in ``extends``, a rules page for what used to crash it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import piglia
from conftest import ROOT, record_errors, run_piglia, write_variant
from piglia.errors import SpecErrors
from piglia.outcome import Reason
from piglia.record import write_events
from piglia.rulespage import render_markdown
from piglia.state import Game

HOSTILE = ROOT / "tests" / "data" / "hostile"


def play_out(game: Game, seed: int) -> piglia.State:
    state = game.new_match(seed)
    while not state.is_terminal():
        state.push(state.legal_moves()[0])
    return state


def test_a_match_that_cannot_end_stops_at_the_deal_limit_with_no_winner() -> None:
    variant = piglia.load_variant(str(HOSTILE / "deal-limit-always-tied.yaml"))
    assert variant.match.max_deals == 30
    state = play_out(Game(variant), 4)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Reason.DEAL_LIMIT and outcome.winner is None
    assert state.deal_no == 30 and state.returns() == [0.0, 0.0]
    assert state.events is not None
    assert state.events[-1].to_json() == {
        "event": "match_end",
        "totals": [30, 30],
        "winner": None,
        "reason": "deal limit",
    }
    assert sum(1 for e in state.events if e["event"] == "deal_end") == 30


def test_the_deal_limit_is_1000_by_default_and_a_decided_match_ends_first(tmp_path: Path) -> None:
    assert piglia.load_variant("scopa").match.max_deals == 1000
    # S3.5: a match to 11 ends when a player reaches it alone; a limit of 2 deals stops it first only if undecided
    path = write_variant(tmp_path, "name: short\nextends: scopa\nmatch: {max_deals: 2}\n")
    for seed in range(5):
        state = play_out(Game(piglia.load_variant(str(path))), seed)
        outcome = state.outcome()
        assert outcome is not None and state.deal_no <= 2
        leader_alone = max(state.totals) >= 11 and state.totals.count(max(state.totals)) == 1
        assert outcome.reason is (Reason.TARGET if leader_alone else Reason.DEAL_LIMIT)


def test_replay_checks_the_deal_limit_reason(tmp_path: Path) -> None:
    variant = piglia.load_variant(str(HOSTILE / "deal-limit-always-tied.yaml"))
    state = play_out(Game(variant), 2)
    assert state.events is not None
    out = tmp_path / "r.jsonl"
    with out.open("w", encoding="utf-8") as f:
        write_events(state.events, f)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert record_errors(lines, variant) == []
    end = json.loads(lines[-1])
    del end["reason"]  # a record claiming an ordinary draw at the deal limit is not what the rules give
    assert record_errors([*lines[:-1], json.dumps(end)], variant) != []


def test_a_bare_name_in_extends_is_the_built_in_even_beside_a_file_of_that_name(tmp_path: Path) -> None:
    scopa = (ROOT / "variants" / "scopa.yaml").read_text(encoding="utf-8").replace("target: 11 ", "target: 21 ")
    (tmp_path / "scopa.yaml").write_text(scopa, encoding="utf-8")
    bare = write_variant(tmp_path, "name: mine\nextends: scopa\n", "mine.yaml")
    local = write_variant(tmp_path, "name: mine2\nextends: ./scopa.yaml\n", "mine2.yaml")
    assert piglia.load_variant(str(bare)).match.target == 11  # as `piglia rules scopa` reads it
    assert piglia.load_variant(str(local)).match.target == 21
    result = run_piglia("validate", str(bare), str(local))
    assert result.returncode == 0
    assert "extends: scopa is the built-in variant scopa, not the file" in result.stdout
    assert "write extends: ./scopa.yaml for the file" in result.stdout
    assert result.stdout.count("note:") == 1  # mine2 names its file: nothing to say


def test_a_name_no_built_in_has_is_the_file_beside(tmp_path: Path) -> None:
    write_variant(tmp_path, "name: base\nextends: scopa\nmatch: {target: 16}\n", "base.yaml")
    child = write_variant(tmp_path, "name: child\nextends: base\n", "child.yaml")
    assert piglia.load_variant(str(child)).match.target == 16


def test_rules_pages_of_what_used_to_crash_them() -> None:
    lookup = piglia.load_variant(str(HOSTILE / "rules-table-lookup-in-bonus.yaml"))
    page = render_markdown(lookup, "en")
    assert "when the primiera value of the played card is 21" in page
    assert "the primiera value of 7 is 21" in page
    tiny = render_markdown(piglia.load_variant(str(HOSTILE / "rules-two-card-deck.yaml")), "en")
    assert "## " in tiny and "Example" not in tiny  # no room for a worked example: the page goes without


def test_a_deal_limit_written_by_the_author_is_on_the_rules_page(tmp_path: Path) -> None:
    path = write_variant(tmp_path, "name: capped\nextends: scopa\nmatch: {max_deals: 40}\n")
    assert "undecided after 40 deals stops there, with no winner" in render_markdown(piglia.load_variant(str(path)))
    assert "deal limit" not in render_markdown(piglia.load_variant("scopa"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("match: {deals: 3, target: null}\nbonuses: null\nawards: null", None),  # deals end it: allowed
        ("bonuses: null\nawards: {cards: null, coins: null, settebello: null}", None),  # primiera still scores
        ("awards: {cards: {points: 0}, coins: {points: 0}, settebello: {points: 0}, primiera: {points: 0}}", None),
        (
            "bonuses: {scopa: {points: 0}}\nawards: {cards: {points: 0}, coins: {points: 0}, settebello: "
            "{points: 0}, primiera: {points: 0}}",
            "no team can ever reach 11 points",
        ),
    ],
)
def test_a_target_is_refused_only_when_it_certainly_cannot_be_reached(
    tmp_path: Path, change: str, message: str | None
) -> None:
    path = write_variant(tmp_path, f"name: t\nextends: scopa\n{change}\n")
    if message is None:
        piglia.load_variant(str(path))
        return
    with pytest.raises(SpecErrors) as caught:
        piglia.load_variant(str(path))
    assert [e.path for e in caught.value.errors] == ["awards"]
    assert message in caught.value.errors[0].message


def test_matches_stopped_at_the_deal_limit_are_counted_and_said_apart_from_draws(tmp_path: Path) -> None:
    """A match stopped undecided by match.max_deals is no ordinary draw: simulate counts and says it, play says it."""
    path = str(ROOT / "tests" / "data" / "hostile" / "deal-limit-always-tied.yaml")
    done = run_piglia("simulate", path, "--matches", "3", "--seed", "1", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["draws"] == 3 and summary["stopped_at_deal_limit"] == 3
    text = run_piglia("simulate", path, "--matches", "2", "--seed", "1", "--workers", "1")
    assert "2 of them stopped undecided at the deal limit" in text.stdout
    played = run_piglia(
        "play", path, "--seed", "1", "--opponents", "random", "--record", "r.jsonl", stdin="1\n" * 3000, cwd=tmp_path
    )
    assert "stops at the deal limit with no winner" in played.stdout and "is a draw" not in played.stdout
