"""Random play counts the captures of the ``sets`` kind as bit masks and builds only the one it draws
(:meth:`SetsKind.masks`, :meth:`CaptureRules.pick` through ``counters``); the kind lists a table's groups once
per table and carries them to the next table (docs/performance.md, "Issue 12, fourth pass: the sets kind").

The reference here is the plain search as it was before that pass: per played card and value, the groups by a
pruned search over the table (:func:`piglia.mechanics.sets.group_masks`) and their unions
(:func:`piglia.mechanics.sets.unions`), filtered by the rule. The fast paths must list, count and draw exactly
what it lists, in the order of ``State.raw_moves`` (sorted captures), on positions of real play and on random
tables, for Tablanette (choice; aces 1 or 11; and a maximal variant of it), Basra (maximal, by rank without sums,
a sweep kind in a higher tier) and Cassino (all_singles), and raise the ``limit`` error where it raises it. The
rules themselves are tested against RULES.md elsewhere (tests/test_capture_sets.py holds the brute-force
oracle of the definition).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

import piglia
from conftest import plain_moves, play_positions, position, write_variant
from piglia.errors import PigliaError
from piglia.mechanics.capture import Capture, as_cards
from piglia.mechanics.sets import SetsKind, group_masks, unions
from piglia.variant import Variant

NAMES = ["tablanette", "basra", "cassino"]


def _variant(tmp: Path, text: str) -> Variant:
    return piglia.load_variant(write_variant(tmp, text))


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Variant]:
    tmp = tmp_path_factory.mktemp("sets")
    out = {name: piglia.load_variant(name) for name in NAMES}
    out["tablanette-maximal"] = _variant(
        tmp, "name: tab-max\nextends: tablanette\ncapture:\n  kinds:\n    sets: {rule: maximal}\n"
    )
    out["tablanette-singles"] = _variant(
        tmp, "name: tab-singles\nextends: tablanette\ncapture:\n  kinds:\n    sets: {rule: all_singles}\n"
    )
    out["tablanette-rank"] = _variant(
        tmp, "name: tab-rank\nextends: tablanette\ncapture:\n  kinds:\n    sets: {by: rank}\n"
    )
    out["tablanette-nosums"] = _variant(
        tmp, "name: tab-nosums\nextends: tablanette\ncapture:\n  kinds:\n    sets: {sums: false}\n"
    )
    return out


def reference(kind: SetsKind, played: int, table: Sequence[int]) -> list[Capture]:
    """The plain search of the sets kind before the fourth pass (positions over the table cards ascending)."""
    inp = kind.inputs
    deck = inp.deck
    if not inp.played_ok[played]:
        return []
    ok = inp.takes_ok[played]
    cards = sorted(c for c in table if ok[c])
    if not cards:
        return []
    rank_of = deck.rank_of if kind.by == "rank" else None
    targets = deck.values_of[played] if (kind.sums or rank_of is None) else (0,)
    if rank_of is None:
        # by value, nothing unless the table reaches a value above 0 (with sums: one card or a group)
        reachable = False
        for t in targets:
            if t > 0 and group_masks(played, cards, t, values_of=deck.values_of, rank_of=None, sums=kind.sums):
                reachable = True
        if not reachable:
            return []
    found: set[int] = set()
    for value in targets:
        groups = group_masks(played, cards, value, values_of=deck.values_of, rank_of=rank_of, sums=kind.sums)
        if not groups:
            continue
        singles = 0
        if kind.rule == "all_singles":
            for g in groups:
                if not g & (g - 1):
                    singles |= g
            groups = [g for g in groups if g & (g - 1) and not g & singles]
        reached = unions(groups, kind.limit)
        if reached is None:
            raise PigliaError(f"capture.kinds.{kind.name}: more than {kind.limit} captures")
        if kind.rule == "all_singles":
            reached = {u | singles for u in reached}
            if singles:
                reached.add(singles)
        elif kind.rule == "maximal":
            reached = {u for u in reached if all(g & u for g in groups)}
        found |= reached
        if len(found) > kind.limit:
            raise PigliaError(f"capture.kinds.{kind.name}: more than {kind.limit} captures")
    return sorted(tuple(cards[i] for i in range(len(cards)) if m >> i & 1) for m in found)


def sets_kinds(variant: Variant) -> list[SetsKind]:
    return [k for tier in variant.capture.tiers for k in tier if isinstance(k, SetsKind)]


def random_tables(variant: Variant, seed: int, count: int) -> list[tuple[int, list[int]]]:
    rng = random.Random(seed)
    n = len(variant.deck)
    return [(rng.randrange(n), rng.sample(range(n), rng.randint(0, 10))) for _ in range(count)]


VARIANTS = [*NAMES, "tablanette-maximal", "tablanette-singles", "tablanette-rank", "tablanette-nosums"]


@pytest.mark.parametrize("name", VARIANTS)
def test_masks_and_captures_list_what_the_plain_search_lists(name: str, variants: dict[str, Variant]) -> None:
    variant = variants[name]
    base = name.split("-")[0]
    cases = [(card, table) for hand, table in play_positions(variant, 3, 250) for card in hand]
    cases += random_tables(variant, 5, 400)
    kinds = sets_kinds(variant)
    assert kinds
    for card, table in cases:  # in play order: each table made from the last one, as in a match
        for kind in kinds:
            want = reference(kind, card, table)
            assert kind.captures(card, table) == want, (base, card, table)
            assert sorted(map(as_cards, kind.masks(card, table))) == want
            assert kind.count(card, table) == len(want)


@pytest.mark.parametrize("name", ["tablanette", "basra", "cassino", "tablanette-maximal", "tablanette-singles"])
def test_pick_counts_and_draws_the_plain_listing_at_every_index(name: str, variants: dict[str, Variant]) -> None:
    """The counting path of random play (the capture table off, as it switches itself off in a long
    simulation): the same number of moves and the same move at every index as the plain listing."""
    variant = variants[name]
    rules = variant.capture
    assert rules.counters is not None  # every kind of these variants counts in masks
    if rules.table is not None:
        rules.table.on = False
    for hand, table in play_positions(variant, 11, 150):
        moves = plain_moves(rules, hand, table)
        for i in range(len(moves)):
            assert rules.pick(hand, table, lambda n, i=i: i) == (len(moves), moves[i])  # type: ignore[misc]


def test_the_tables_groups_carried_across_tables_are_those_listed_afresh(variants: dict[str, Variant]) -> None:
    """A random walk of tables (a card placed, cards taken, another table) for one kind, against a fresh kind
    (nothing carried) on each table."""
    variant = variants["tablanette"]
    (kind,) = sets_kinds(variant)
    rng = random.Random(2)
    n = len(variant.deck)
    table: list[int] = []
    for _ in range(600):
        step = rng.random()
        rest = [c for c in range(n) if c not in table]
        if step < 0.5 and rest:
            table.append(rng.choice(rest))
        elif step < 0.9 and table:
            for c in rng.sample(table, rng.randint(1, min(3, len(table)))):
                table.remove(c)
        else:
            table = rng.sample(range(n), rng.randint(0, 9))
        played = rng.randrange(n)
        fresh = SetsKind(kind.inputs)
        assert kind.captures(played, table) == fresh.captures(played, list(table)) == reference(kind, played, table)


def test_the_limit_stops_the_count_as_it_stops_the_listing(tmp_path: Path) -> None:
    variant = _variant(tmp_path, "name: tiny\nextends: tablanette\ncapture:\n  kinds:\n    sets: {limit: 3}\n")
    state = position(variant, hands=[["6h"], ["2c"]], table=["3d", "3s", "3c", "3h", "2d", "4s"], to_move=0)
    rules = variant.capture
    if rules.table is not None:
        rules.table.on = False
    with pytest.raises(PigliaError, match=r"capture\.kinds\.sets: .* more than 3 captures"):
        state.raw_moves()
    with pytest.raises(PigliaError, match=r"capture\.kinds\.sets: .* more than 3 captures"):
        state.pick_raw(lambda n: 0)
    # three disjoint sets of 6 make 7 captures: over the limit, whether the sets share cards or not
    deck = variant.deck
    six = deck.parse_card("6h").index
    disjoint = [deck.parse_card(c).index for c in ("6d", "6s", "6c")]
    (kind,) = sets_kinds(variant)
    with pytest.raises(PigliaError, match="more than 3 captures"):
        kind.masks(six, disjoint)


def test_all_singles_counts_its_forced_cards_in_the_limit(tmp_path: Path) -> None:
    """rule all_singles: the single cards alone are one more capture than the unions of groups; the limit
    counts it (as the plain search always did)."""
    variant = _variant(
        tmp_path, "name: tiny2\nextends: tablanette\ncapture:\n  kinds:\n    sets: {rule: all_singles, limit: 3}\n"
    )
    deck = variant.deck
    (kind,) = sets_kinds(variant)
    six = deck.parse_card("6h").index
    # the 6 of spades alone, with the unions of the groups 2+4 and 3+3 (disjoint): 1 + 3 = 4 captures
    table = [deck.parse_card(c).index for c in ("6s", "2d", "4s", "3c", "3d")]
    with pytest.raises(PigliaError, match="more than 3 captures"):
        kind.masks(six, table)
    with pytest.raises(PigliaError, match="more than 3 captures"):
        reference(kind, six, table)
