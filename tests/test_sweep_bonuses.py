"""A bonus is checked only on the plays its condition can hold for, as the terms its ``and`` joins say:
``empty(table_after)`` (S3.1's scopa and the sweep bonuses of most of the family) needs a play that leaves the
table empty, and ``count(captured) == 1`` (P2.2's pisti, F8's picula) or ``>= 2`` (F8's bagher) a play that
captures so many cards. A play no bonus can score on builds no bonus scope at all (``Game.live_bonuses``,
scoring.py and the fused play loop). Nothing a play scores may change: the reference below checks every bonus on
every capture (and the ``on: play`` ones on placements too).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import piglia
from conftest import write_variant
from piglia.dsl import parse
from piglia.dsl.nodes import conjuncts
from piglia.scoring import ScopeReads
from piglia.spec import builtin_names
from piglia.state import Game, State
from piglia.variant import Variant


def needs(variant: Variant) -> dict[str, bool]:
    return {b.name: b.needs_empty_table for b in variant.bonuses}


def bounds(variant: Variant) -> dict[str, tuple[int, int | None]]:
    return {b.name: (b.captured_min, b.captured_max) for b in variant.bonuses}


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


def test_the_bonuses_count_of_cards_captured_is_read_from_their_conditions() -> None:
    # F8: a picula takes one card, a bagher two or more; P2.2: a pisti takes a pile of one card
    assert bounds(piglia.load_variant("spazzino")) == {"spazzino": (0, None), "picula": (1, 1), "bagher": (2, None)}
    assert bounds(piglia.load_variant("pisti")) == {"pisti": (1, 1), "jack_pisti": (1, 1)}


def test_a_game_checks_only_the_bonuses_a_play_can_score() -> None:
    game = Game(piglia.load_variant("spazzino"))
    names = [[[b.name for b in live] for live in by_sweep] for by_sweep in game.live_bonuses[:4]]
    # a placement scores none; one card taken: a picula, or a spazzino if it was the table's last; two or more:
    # a bagher, or a spazzino too
    assert names == [
        [[], []],
        [["picula"], ["spazzino", "picula"]],
        [["bagher"], ["spazzino", "bagher"]],
        [["bagher"], ["spazzino", "bagher"]],
    ]
    assert [len(by_sweep[0]) for by_sweep in Game(piglia.load_variant("scopa")).live_bonuses] == [0] * 41


MADE_UP = {  # name: (condition, needs the table left empty, the bounds on count(captured))
    "or_empty": ("empty(table_after) or count(captured) >= 2", False, (0, None)),
    "not_empty": ("not empty(table_after)", False, (0, None)),
    "nested": ("count(captured) >= 1 and (not last_play and empty(table_after))", True, (1, None)),
    "before": ("empty(table_before) and count(captured) >= 1", False, (1, None)),
    "inside": ("any(empty(table_after) for c in captured)", False, (0, None)),
    "pair": ("2 == count(captured) and count(table_before) > 2", False, (2, 2)),
    "few": ("count(captured) < 3 and 1 < count(captured)", False, (2, 2)),
    "many": ("count(captured) > 2 and count(captured) <= 4 or empty(table_after)", False, (0, None)),
    "not_two": ("count(captured) != 2 and count(hand) >= 1", False, (0, None)),
}


def made_up(tmp_path: Path, names: list[str]) -> Variant:
    lines = ["name: made-up-bonuses", "extends: scopa", "bonuses:", "  scopa: null"]
    for name in names:
        lines += [f"  {name}:", "    points: 1", f"    when: {MADE_UP[name][0]}"]
    on_play = "count(captured) == 0 and count(table_after) == 3"
    lines += ["  on_play:", "    points: 1", "    on: play", f"    when: {on_play}"]
    return piglia.load_variant(write_variant(tmp_path, "\n".join(lines) + "\n"))


def test_only_a_term_of_the_top_and_chain_counts(tmp_path: Path) -> None:
    variant = made_up(tmp_path, list(MADE_UP))
    assert needs(variant) == {name: flag for name, (_, flag, _) in MADE_UP.items()} | {"on_play": False}
    assert bounds(variant) == {name: bound for name, (_, _, bound) in MADE_UP.items()} | {"on_play": (0, 0)}


def scored_both_ways(state: State) -> list[tuple[int, int]]:
    """For every legal move: the bonus points with the shortcut, and with every bonus evaluated."""
    game = state.game
    out = []
    # the reference: every bonus checked on every capture, and those `on: play` on placements too (S3.1's scopa
    # and the family's bonuses are checked on captures only, docs/language.md)
    on_play = tuple(b for b in game.variant.bonuses if b.on_play)
    every = game.variant.bonuses
    everything = tuple((on_play, on_play) if n == 0 else (every, every) for n in range(len(game.live_bonuses)))
    full_scope = ScopeReads.of(every)  # and each evaluated on the whole scope that any bonus reads
    scopes = tuple((full_scope, full_scope) for _ in everything)
    for raw in state.raw_moves():
        fast = state.bonus_points(raw)
        live, game.live_bonuses = game.live_bonuses, everything
        reads, game.live_reads = game.live_reads, scopes
        try:
            full = state.bonus_points(raw)
        finally:
            game.live_bonuses, game.live_reads = live, reads
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


@pytest.mark.parametrize(
    "names", [["nested"], ["nested", "or_empty"], ["before", "inside", "not_empty"], ["pair", "few", "many", "not_two"]]
)
def test_made_up_bonuses_score_what_they_score_evaluated(tmp_path: Path, names: list[str]) -> None:
    game = Game(made_up(tmp_path, names))
    pairs = walk(game, 5, 300)
    assert all(fast == full for fast, full in pairs)
    assert any(full for _, full in pairs)


def test_a_play_builds_only_what_the_bonuses_it_can_score_read() -> None:
    """F8: on a one-card capture that leaves cards on the table only the picula can score, and it reads the
    previous play, not the table after; on a capture of two or more only the bagher, which reads neither; the
    spazzino (a sweep) reads the table after, on the plays that may empty it (``Game.live_reads``)."""
    game = Game(piglia.load_variant("spazzino"))
    one, two = game.live_reads[1][False], game.live_reads[2][False]
    assert [b.name for b in game.live_bonuses[1][False]] == ["picula"]
    assert one.previous and not one.table_after
    assert [b.name for b in game.live_bonuses[2][False]] == ["bagher"]
    assert not two.previous and not two.table_after
    assert game.live_reads[2][True].table_after and game.live_reads[2][True].previous is False
