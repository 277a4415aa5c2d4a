"""Property tests (issue 16): valid-but-extreme rule files end in every command.

Hypothesis writes rule files at the edges the schema allows: decks of one card to 256, tables of up to 60 cards,
points of zero or negative, big targets, sums with and without a group size, captures optional or not. Each one
either is refused with located messages, or validates, and then its rules page renders, random matches end (a
match cannot end: the deal limit stops it) and their records replay; an engine limit reached in play is a
clear error naming the kind, never an internal error. Kept small (few examples, small deal limits) so the file
runs in a few seconds.
"""

from __future__ import annotations

import io
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import piglia
from piglia.errors import PigliaError, SpecError, SpecErrors
from piglia.mechanics.capture import CaptureLimitError, MoveLimitError, count_subsets
from piglia.probe import play_random
from piglia.record import verify_lines, write_events
from piglia.rulespage import render_markdown
from piglia.state import Game

EXTREME = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def extreme_variants(draw: st.DrawFn) -> dict[str, Any]:
    """A rule file within the schema, at its edges; it need not validate (a refusal must then be located)."""
    n_suits = draw(st.integers(1, 8))
    n_ranks = draw(st.integers(1, 40))
    values = st.sampled_from([0, 1, 1, 2, 3, 5, 10, 20, 1000])
    ranks = [{"name": f"r{i}", "id": f"R{i}", "value": draw(values)} for i in range(n_ranks)]
    suits = [{"name": f"s{i}", "id": f"S{i}"} for i in range(n_suits)]
    size = n_suits * n_ranks
    players = draw(st.sampled_from([2, 3, 4]))
    hand = draw(st.integers(1, 4))
    table = draw(st.integers(0, max(0, min(size - players * hand, 60))))
    stock = size - table - players * hand
    refill = stock > 0
    if refill and stock % (players * hand):  # the stock must deal in whole rounds: fold the rest onto the table
        table += stock % (players * hand)
    sum_options = draw(st.sampled_from([{}, {"max_cards": 2}, {"min_cards": 2, "max_cards": 3}, {"target": 10}]))
    points = st.integers(-3, 3)
    spec: dict[str, Any] = {
        "name": "extreme",
        "deck": {"suits": suits, "ranks": ranks},
        "players": {"count": players},
        "deal": {"hand": hand, "table": table, "refill": refill},
        "capture": {
            "kinds": {"match": {"type": "match"}, "sum": {"type": "sum", **sum_options}},
            "priority": draw(st.sampled_from(["free", ["match", "sum"]])),
            "mandatory": draw(st.booleans()),
        },
        "bonuses": {"sweep": {"points": draw(points), "when": "empty(table_after)"}},
        "awards": {
            "cards": {"points": draw(points), "most": "count(pile)", "tie": draw(st.sampled_from(["none", "each"]))},
            "flat": {"score": draw(st.sampled_from(["0", "1", "-1", "count(pile) / 3"]))},
        },
        "match": {"max_deals": draw(st.integers(1, 3))},
    }
    if draw(st.booleans()):
        spec["match"]["target"] = draw(st.sampled_from([1, 5, 100, 1_000_000]))
    else:
        spec["match"]["deals"] = 1
    return spec


@EXTREME
@given(spec=extreme_variants(), seed=st.integers(0, 2**32))
def test_an_extreme_variant_is_refused_with_locations_or_every_command_ends(spec: dict[str, Any], seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "extreme.yaml"
        path.write_text(yaml.safe_dump(spec, sort_keys=False))
        try:
            variant = piglia.load_variant(str(path))
        except SpecErrors as exc:
            assert all(e.file and e.line >= 1 and e.col >= 1 and e.path for e in exc.errors), exc.errors
            return
        except SpecError as exc:  # pragma: no cover - the generator writes well-formed YAML
            raise AssertionError(exc.format()) from None
    assert render_markdown(variant, "en")
    report = play_random(variant, 2, seed=seed)
    assert report.error is None or "internal error" not in report.error, report.error
    game = Game(variant)
    pick = random.Random(seed)
    state = game.new_match(seed)
    try:
        while not state.is_terminal():
            state.push(pick.choice(state.legal_moves()))
    except (CaptureLimitError, MoveLimitError) as exc:
        assert "max_cards" in str(exc)  # the message says what to change
        return
    assert state.events is not None
    assert state.deal_no <= spec["match"]["max_deals"]
    out = io.StringIO()
    write_events(state.events, out)
    count, errors = verify_lines(out.getvalue().splitlines(), "x.jsonl", variant=variant)
    assert (count, [str(e) for e in errors]) == (1, [])


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.integers(0, 6), max_size=12),
    need=st.integers(0, 20),
    lo=st.integers(0, 4),
    hi=st.integers(0, 12),
)
def test_counting_captures_agrees_with_listing_every_group(values: list[int], need: int, lo: int, hi: int) -> None:
    listed = sum(
        1
        for mask in range(1 << len(values))
        if lo <= bin(mask).count("1") <= hi and sum(v for i, v in enumerate(values) if mask >> i & 1) == need
    )
    assert count_subsets(values, need, lo, hi) == listed


def test_the_capture_limit_names_the_kind_and_lists_nothing() -> None:
    variant = piglia.load_variant(str(Path(__file__).parent / "data" / "hostile" / "bomb-growing-table.yaml"))
    deck = variant.deck
    ones = [c.index for c in deck.cards if c.rank.value == 1][:30]
    twenty = next(c.index for c in deck.cards if c.rank.value == 20)
    try:
        variant.capture.options(twenty, ones)
    except CaptureLimitError as exc:
        # C(30, 20) groups of twenty ones make 20: counted, never listed
        assert exc.kind == "sum" and exc.count == 30045015
        assert isinstance(exc, PigliaError) and "capture.kinds.sum" in str(exc)
    else:
        raise AssertionError("the capture limit was not reached")


def test_the_move_limit_bounds_a_position_whose_cards_each_stay_under_the_capture_limit() -> None:
    variant = piglia.load_variant(str(Path(__file__).parent / "data" / "hostile" / "bomb-growing-table.yaml"))
    ids = [c.id for c in variant.deck.cards]
    ones, twenties = [i for i in ids if i.startswith("o")], [i for i in ids if i.startswith("t")]
    # C(25, 20) = 53,130 groups for each 20 in hand: under the capture limit, but 8 of them make 425,040 moves
    state = Game(variant).position(hands=[twenties[:8], twenties[8:16]], table=ones[:25], dealer=1, to_move=0)
    with pytest.raises(MoveLimitError, match="offers more than 100,000 legal moves"):
        state.legal_moves()
    small = Game(variant).position(hands=[twenties[:1], twenties[8:16]], table=ones[:25], dealer=1, to_move=0)
    assert len(small.legal_moves()) == 53130


def test_validation_counts_no_captures_of_a_kind_its_when_closes(tmp_path: Path) -> None:
    """The opening probe refuses a table on which a kind could pass the capture limit
    (tests/data/invalid/capture-sets-limit-on-opening.yaml). The same rules with that kind closed on big tables by
    its `when` never search it there, so they validate, and random play meets no limit."""
    invalid = Path(__file__).parent / "data" / "invalid" / "capture-sets-limit-on-opening.yaml"
    with pytest.raises(SpecErrors, match="more than 20000 captures"):
        piglia.load_variant(str(invalid))
    closed = tmp_path / "closed.yaml"
    closed.write_text(
        "name: closed\nextends: basra\ndeal: {table: 36}\ncapture:\n  kinds:\n"
        "    numbers: {type: sets, rule: maximal, played: not court, when: count(table) < 12}\n"
    )
    variant = piglia.load_variant(str(closed))
    report = play_random(variant, 40, seed=3)
    assert report.error is None and report.deals >= 40
    # and a `when` open on big tables is still refused: the probe counts what the engine would search
    open_ = tmp_path / "open.yaml"
    open_.write_text(closed.read_text().replace("count(table) < 12", "count(table) > 12").replace("closed", "open"))
    with pytest.raises(SpecErrors, match="more than 20000 captures"):
        piglia.load_variant(str(open_))
