"""A bonus whose condition needs the table left empty (``empty(table_after)`` among the terms its ``and``
joins: S3.1's scopa, and the sweep bonuses of most of the family) is not checked on a play that leaves cards on
the table; when every bonus of a variant is such, those plays build no bonus scope at all (scoring.py, and the
fused play loop). Nothing a play scores may change: the reference below evaluates every bonus on every play.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import piglia
from conftest import write_variant
from piglia.dsl import parse
from piglia.dsl.nodes import conjuncts
from piglia.spec import builtin_names
from piglia.state import Game, State
from piglia.variant import Variant


def needs(variant: Variant) -> dict[str, bool]:
    return {b.name: b.needs_empty_table for b in variant.bonuses}


def test_conjuncts_are_the_terms_an_and_chain_joins() -> None:
    expr = parse("a and (b and c) and not d")
    assert [type(t).__name__ for t in conjuncts(expr)] == ["Name", "Name", "Name", "Unary"]
    assert len(conjuncts(parse("a or b and c"))) == 1  # an `or` at the top: one term
    assert len(conjuncts(parse("a"))) == 1


def test_the_bonuses_that_need_the_table_left_empty_are_told_apart() -> None:
    # S3.1: a scopa clears the table. F8: Spazzino's picula and bagher take a card or a suit, not the table.
    assert needs(piglia.load_variant("scopa")) == {"scopa": True}
    assert needs(piglia.load_variant("scopa-d-assi"))["scopa"] is True  # empty(...) and not last_play and kind...
    assert needs(piglia.load_variant("spazzino")) == {"spazzino": True, "picula": False, "bagher": False}
    assert not Game(piglia.load_variant("spazzino")).bonuses_need_empty_table
    assert Game(piglia.load_variant("scopa")).bonuses_need_empty_table


MADE_UP = {
    "or_empty": ("empty(table_after) or count(captured) >= 2", False),
    "not_empty": ("not empty(table_after)", False),
    "nested": ("count(captured) >= 1 and (not last_play and empty(table_after))", True),
    "before": ("empty(table_before) and count(captured) >= 1", False),
    "inside": ("any(empty(table_after) for c in captured)", False),
}


def made_up(tmp_path: Path, names: list[str]) -> Variant:
    lines = ["name: made-up-bonuses", "extends: scopa", "bonuses:", "  scopa: null"]
    for name in names:
        lines += [f"  {name}:", "    points: 1", f"    when: {MADE_UP[name][0]}"]
    return piglia.load_variant(write_variant(tmp_path, "\n".join(lines) + "\n"))


def test_only_a_term_of_the_top_and_chain_counts(tmp_path: Path) -> None:
    variant = made_up(tmp_path, list(MADE_UP))
    assert needs(variant) == {name: flag for name, (_, flag) in MADE_UP.items()}


def scored_both_ways(state: State) -> list[tuple[int, int]]:
    """For every legal move: the bonus points with the shortcut, and with every bonus evaluated."""
    game = state.game
    out = []
    for raw in state.raw_moves():
        fast = state.bonus_points(raw)
        game.bonuses_need_empty_table = False
        try:
            full = state.bonus_points(raw)
        finally:
            game.bonuses_need_empty_table = all(b.needs_empty_table for b in game.variant.bonuses)
        out.append((fast, full))
    return out


def walk(game: Game, seed: int, plays: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    pairs: list[tuple[int, int]] = []
    state = game.new_match(seed, log=False)
    for _ in range(plays):
        if state.over:
            state = game.new_match(rng.randrange(1 << 30), log=False)
        pairs += scored_both_ways(state)
        moves = state.raw_moves()
        state.push_raw(moves[rng.randrange(len(moves))])
    return pairs


@pytest.mark.parametrize("name", [n for n in builtin_names() if piglia.load_variant(n).bonuses])
def test_a_play_scores_what_every_bonus_evaluated_scores(name: str) -> None:
    pairs = walk(Game(piglia.load_variant(name)), 3, 150)
    assert all(fast == full for fast, full in pairs)
    assert any(full for _, full in pairs) or name == "cassino"  # some bonus scored on the way


@pytest.mark.parametrize("names", [["nested"], ["nested", "or_empty"], ["before", "inside", "not_empty"]])
def test_made_up_bonuses_score_what_they_score_evaluated(tmp_path: Path, names: list[str]) -> None:
    game = Game(made_up(tmp_path, names))
    assert game.bonuses_need_empty_table == (names == ["nested"])
    pairs = walk(game, 5, 300)
    assert all(fast == full for fast, full in pairs)
    assert any(full for _, full in pairs)
