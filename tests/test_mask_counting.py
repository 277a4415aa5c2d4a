"""Random play with the capture table off (it switches itself off in a long simulation of big tables: Cicera's
after about a hundred deals) counts each card's captures as bit masks (``KindMechanic.masks`` of the match, sum,
all and sets kinds, through ``CaptureRules.counters``) and builds only the capture it draws
(docs/performance.md, "Issue 12, seventh pass"). The match kind keeps the last table's mask and the sum kind its
groups by total, across calls and across tables.

The reference is each kind's own listing (``captures``, itself checked against the rules and brute force in
tests/test_capture_speed_paths.py, tests/test_sum_enumeration.py and the rules tests): the masks must be exactly
the captures listed, on walks of tables as play makes them (one list changed in place, as the engine changes
its table) and on made-up ones; and ``pick`` must count and draw exactly the move the plain listing has at every
index, for every built-in variant whose kinds all give masks.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import piglia
from conftest import plain_moves, play_positions, write_variant
from piglia.capture_search import _says_singles
from piglia.mechanics.capture import KindMechanic, MatchKind, SumKind, as_cards
from piglia.spec import builtin_names
from piglia.variant import CaptureRules, Variant


def counted(name: str) -> bool:
    return piglia.load_variant(name).capture.counters is not None


COUNTED = [name for name in builtin_names() if counted(name)]


def fresh_rules(variant: Variant) -> CaptureRules:
    """The variant's capture rules with a capture table of their own, switched off (the shared variant's stays on)."""
    rules = CaptureRules(variant.capture.tiers, variant.capture.mandatory)
    if rules.table is not None:
        rules.table.on = False
    return rules


def test_the_scopa_family_counts_in_masks() -> None:
    """Match and sum kinds give masks: the games of those kinds are counted, not listed, once the table is off."""
    for name in ("scopa", "cicera", "escoba", "scopa-15", "scopone", "spazzino"):
        assert name in COUNTED, name


@pytest.mark.parametrize("name", COUNTED)
def test_pick_counts_and_draws_the_plain_listing_at_every_index(name: str) -> None:
    variant = piglia.load_variant(name)
    rules = fresh_rules(variant)
    assert rules.counters is not None
    for hand, table in play_positions(variant, 31, 120):
        moves = plain_moves(rules, hand, table)
        for i in range(len(moves)):
            assert rules.pick(hand, table, lambda n, i=i: i) == (len(moves), moves[i]), (hand, table, i)  # type: ignore[misc]


def mask_kinds(variant: Variant) -> list[KindMechanic]:
    return [k for tier in variant.capture.tiers for k in tier if isinstance(k, MatchKind | SumKind)]


def check_walk(kind: KindMechanic, rng: random.Random, steps: int, deck: int, max_table: int) -> int:
    """Masks against the listing for every played card, on one table list changed in place step by step (a card
    placed, some taken, a new deal), as the engine changes its table."""
    table: list[int] = []
    checked = 0
    for _ in range(steps):
        for played in range(deck):
            masks = kind.masks(played, table)
            assert len(set(masks)) == len(masks), (played, table)  # each capture once
            assert sorted(map(as_cards, masks)) == kind.captures(played, table), (played, table)
            checked += 1
        move = rng.random()
        outside = [c for c in range(deck) if c not in table]
        if move < 0.5 and outside and len(table) < max_table:
            table.append(rng.choice(outside))
        elif move < 0.85 and table:
            for c in rng.sample(table, rng.randint(1, min(4, len(table)))):
                table.remove(c)
        else:
            table[:] = rng.sample(range(deck), rng.randint(0, max_table))
    return checked


@pytest.mark.parametrize("name", ["scopa", "cicera", "escoba", "scopa-15", "cirulla", "spazzino"])
def test_match_and_sum_masks_are_the_captures_listed(name: str) -> None:
    variant = piglia.load_variant(name)
    kinds = mask_kinds(variant)
    assert kinds
    for kind in kinds:
        fresh = type(kind)(kind.inputs)  # its own caches, empty
        assert check_walk(fresh, random.Random(name), 50, len(variant.deck), 14) > 0


def test_sums_within_size_bounds_and_with_alternative_values(tmp_path: Path) -> None:
    """min_cards and max_cards filter the enumerated groups by size; an ace worth 1 or 11 is listed, not
    enumerated: the masks follow the listing either way."""
    bounded = piglia.load_variant(
        write_variant(
            tmp_path,
            "name: bounded\nextends: scopa\ncapture:\n  kinds:\n    sum: {type: sum, min_cards: 2, max_cards: 3}\n",
            "bounded.yaml",
        )
    )
    alternative = piglia.load_variant(
        write_variant(
            tmp_path,
            "name: alt\nextends: scopa\ndeck:\n  ranks:\n"
            "    - {name: asso, id: A, value: 1, values: [1, 11]}\n"
            + "".join(f'    - {{name: "{v}", id: "{v}", value: {v}}}\n' for v in range(2, 8))
            + "    - {name: fante, id: F, value: 8, court: true}\n"
            "    - {name: cavallo, id: C, value: 9, court: true}\n"
            "    - {name: re, id: R, value: 10, court: true}\n",
            "alt.yaml",
        )
    )
    for variant in (bounded, alternative):
        sums = [k for k in mask_kinds(variant) if isinstance(k, SumKind)]
        assert sums
        for kind in sums:
            assert check_walk(SumKind(kind.inputs), random.Random(3), 60, len(variant.deck), 16) > 0


@pytest.mark.parametrize("name", ["scopa", "cicera", "escoba", "scopa-15", "cirulla", "spazzino", "pisti"])
def test_what_a_kind_says_of_its_one_card_captures_holds_on_every_table(name: str) -> None:
    # KindMechanic.singles: `exact` is every capture (each a table card alone), `within` cards each a capture alone
    # wherever they lie. The engine trusts it to ask one kind of a two-kind tier (Cicera's match and sum, Pisti's
    # pair and jack). Tables are random, in random order (a pile kind reads the last card as the top).
    variant = piglia.load_variant(name)
    deck = len(variant.deck)
    rng = random.Random(name)
    kinds = [kind for tier in variant.capture.tiers for kind in tier if _says_singles(kind)]
    assert kinds
    for kind in kinds:
        assert isinstance(kind, KindMechanic)
        for _ in range(150):
            table = rng.sample(range(deck), rng.randint(0, 12))
            for played in range(deck):
                exact, within = kind.singles(played)
                captures = kind.captures(played, table)
                if exact is not None:
                    assert captures == [(c,) for c in sorted(table) if exact >> c & 1], (kind.name, played, table)
                assert all((c,) in captures for c in table if within >> c & 1), (kind.name, played, table)


def test_cicera_asks_one_kind_per_played_card() -> None:
    # B2.1-B2.5: a numeral matched is also a group of one adding up to it, so the sum kind alone gives a numeral's
    # captures; a court takes only by rank (B2.3), so the match kind alone gives a court's.
    from piglia.capture_search import _alone

    variant = piglia.load_variant("cicera")
    ((match, sums),) = variant.capture.tiers
    alone = _alone((match, sums))
    assert alone is not None
    court = variant.deck.court_of
    assert alone == [1 if court[c] else 2 for c in range(len(variant.deck))]
