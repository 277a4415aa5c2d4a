"""The ``sets`` capture kind and alternative card values, against a brute-force oracle written from their
definition (docs/language.md): every subset of the table is tried and split into sets by exhaustive search.

The kind under test never lists subsets; the oracle does nothing else. Tables are small (up to 8 cards) so the
oracle stays fast; the decks are Tablanette's (ace 1 or 11, courts 12-14) and Basra's (courts without value).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import piglia
from conftest import moves_of, position, write_variant
from piglia.errors import PigliaError
from piglia.mechanics.sets import SetsKind, sum_groups
from piglia.variant import Variant

TABLANETTE = piglia.load_variant("tablanette")
BASRA = piglia.load_variant("basra")


def _maximal_variant() -> Variant:
    import tempfile

    folder = Path(tempfile.mkdtemp())
    path = write_variant(folder, "name: tab-max\nextends: tablanette\ncapture:\n  kinds:\n    sets: {rule: maximal}\n")
    return piglia.load_variant(path)


TABLANETTE_MAXIMAL = _maximal_variant()


def is_set(variant: Variant, played: int, group: Sequence[int], value: int, by_rank: bool, sums: bool) -> bool:
    """The definition: one card of the value (or rank), or (with sums) two or more cards adding up to it."""
    deck = variant.deck
    if len(group) == 1:
        c = group[0]
        if deck.rank_of[c] == deck.rank_of[played] if by_rank else value in deck.values_of[c]:
            return True
    if not sums or len(group) < 2 or value <= 0:
        return False
    choices = [[a for a in deck.values_of[c] if a > 0] for c in group]
    return any(sum(pick) == value for pick in itertools.product(*choices))


def splits(variant: Variant, played: int, cards: frozenset[int], value: int, by_rank: bool, sums: bool) -> bool:
    """Whether ``cards`` is a union of disjoint sets (exhaustive: the lowest card's set, then the rest)."""
    if not cards:
        return True
    first = min(cards)
    rest = sorted(cards - {first})
    for n in range(len(rest) + 1):
        for others in itertools.combinations(rest, n):
            group = (first, *others)
            if is_set(variant, played, group, value, by_rank, sums) and splits(
                variant, played, cards - set(group), value, by_rank, sums
            ):
                return True
    return False


def oracle(variant: Variant, kind: SetsKind, played: int, table: Sequence[int]) -> set[tuple[int, ...]]:
    by_rank, sums, maximal = kind.by == "rank", kind.sums, kind.rule == "maximal"
    values = variant.deck.values_of[played] if (sums or not by_rank) else (0,)
    out: set[tuple[int, ...]] = set()
    for value in values:
        subsets = [frozenset(s) for n in range(1, len(table) + 1) for s in itertools.combinations(table, n)]
        valid = [s for s in subsets if splits(variant, played, s, value, by_rank, sums)]
        for s in valid:
            left = [c for c in table if c not in s]
            some_set_left = any(
                is_set(variant, played, g, value, by_rank, sums)
                for n in range(1, len(left) + 1)
                for g in itertools.combinations(left, n)
            )
            if not maximal or not some_set_left:
                out.add(tuple(sorted(s)))
    return out


def sets_kind(variant: Variant, name: str) -> SetsKind:
    kind = next(k for tier in variant.capture.tiers for k in tier if k.name == name)
    assert isinstance(kind, SetsKind)
    return kind


def deals(variant: Variant) -> st.SearchStrategy[tuple[int, list[int]]]:
    n = len(variant.deck)
    return st.lists(st.integers(0, n - 1), min_size=2, max_size=9, unique=True).map(lambda xs: (xs[0], xs[1:]))


@settings(max_examples=120, deadline=None)
@given(deals(TABLANETTE))
def test_choice_lists_every_union_of_disjoint_sets_once(deal: tuple[int, list[int]]) -> None:
    """T2.1 and T1.1: any number of disjoint sets, aces counting 1 or 11 each on their own."""
    played, table = deal
    kind = sets_kind(TABLANETTE, "sets")
    found = kind.captures(played, table)
    assert len(found) == len(set(found)) == kind.count(played, table)  # each capture once, counted
    assert found == sorted(found)
    assert set(found) == oracle(TABLANETTE, kind, played, table)


@settings(max_examples=120, deadline=None)
@given(deals(TABLANETTE_MAXIMAL))
def test_maximal_lists_exactly_the_captures_after_which_nothing_more_can_be_taken(
    deal: tuple[int, list[int]],
) -> None:
    played, table = deal
    kind = sets_kind(TABLANETTE_MAXIMAL, "sets")
    assert set(kind.captures(played, table)) == oracle(TABLANETTE_MAXIMAL, kind, played, table)


@settings(max_examples=120, deadline=None)
@given(deals(BASRA))
def test_basra_kinds_match_the_oracle(deal: tuple[int, list[int]]) -> None:
    """BA2.1 (number cards, maximal) and BA2.2 (queens and kings by rank, no sums)."""
    played, table = deal
    for name in ("numbers", "courts"):
        kind = sets_kind(BASRA, name)
        expected = oracle(BASRA, kind, played, table) if kind.inputs.played_ok[played] else set()
        assert set(kind.captures(played, table)) == expected


def test_sum_groups_uses_each_alternative() -> None:
    # three aces (1 or 11) and a 2 reaching 13: 11 + 2, or 11 + 1 + 1 with the 2 left out (never 1 + 1 + 11 + 2)
    groups = sum_groups([(1, 11), (1, 11), (1, 11), (2,)], 13)
    as_sets = {frozenset(i for i in range(4) if m >> i & 1) for m in groups}
    assert as_sets == {frozenset({0, 3}), frozenset({1, 3}), frozenset({2, 3}), frozenset({0, 1, 2})}


def test_the_limit_is_a_clear_error_before_any_move_is_listed(tmp_path: Path) -> None:
    path = write_variant(tmp_path, "name: tiny\nextends: tablanette\ncapture:\n  kinds:\n    sets: {limit: 3}\n")
    variant = piglia.load_variant(path)
    # a 6 on 3, 3, 3, 3, 2, 4: far more than 3 captures
    state = position(variant, hands=[["6h"], ["2c"]], table=["3d", "3s", "3c", "3h", "2d", "4s"], to_move=0)
    with pytest.raises(PigliaError, match=r"capture\.kinds\.sets: .* more than 3 captures .* raise the kind's limit"):
        state.legal_moves()
    # within the limit, the count is exposed without listing
    kind = sets_kind(variant, "sets")
    deck = variant.deck
    assert kind.count(deck.parse_card("6h").index, [deck.parse_card("3d").index, deck.parse_card("3s").index]) == 1


def test_alternative_values_reach_match_and_sum_kinds(tmp_path: Path) -> None:
    """The ``match`` and ``sum`` kinds use every alternative too (docs/language.md, values)."""
    path = write_variant(
        tmp_path,
        """
        name: alt
        extends: scopa
        deck:
          ranks:
            - {name: asso, id: A, value: 1, values: [1, 8]}
            - {name: "2", id: "2", value: 2}
            - {name: "3", id: "3", value: 3}
            - {name: "4", id: "4", value: 4}
            - {name: "5", id: "5", value: 5}
            - {name: "6", id: "6", value: 6}
            - {name: "7", id: "7", value: 7}
            - {name: fante, id: F, value: 8, court: true}
            - {name: cavallo, id: C, value: 9, court: true}
            - {name: re, id: R, value: 10, court: true}
        """,
    )
    variant = piglia.load_variant(path)
    # a fante (8) matches a table ace counting 8; with none equal, a cavallo (9) takes asso (1) + fante (8)...
    state = position(variant, hands=[["Fd", "Cd", "Ad"], ["2c"]], table=["Ac", "Fs"], to_move=0)
    assert moves_of(state, "Fd") == {"Fd x Ac", "Fd x Fs"}
    assert moves_of(state, "Cd") == {"Cd x Ac+Fs"}
    # ... and the played ace counts 1 or 8: it matches the other ace, or the fante
    assert moves_of(state, "Ad") == {"Ad x Ac", "Ad x Fs"}


def test_values_must_include_the_value(tmp_path: Path) -> None:
    path = write_variant(
        tmp_path,
        "name: bad\nextends: tablanette\ndeck:\n  ranks:\n    - {name: A, id: A, value: 1, values: [2, 11]}\n",
    )
    with pytest.raises(piglia.SpecErrors, match=r"values \[2, 11\] must include the rank's value 1"):
        piglia.load_variant(path)


def test_a_table_of_too_many_groups_stops_with_an_error_not_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/language.md, "Guarantees and limits": the groups a sets kind lists of a table are bounded; past the bound
    # the capture stops with the kind's error (here the bound is lowered to what 8 low cards exceed: 2 ** 8 groups)
    from piglia.errors import LimitError
    from piglia.mechanics import sets

    kind = next(k for tier in BASRA.capture.tiers for k in tier if isinstance(k, SetsKind))
    deck = BASRA.deck
    table = [deck.parse_card(c).index for c in ("Ad", "Ah", "Ac", "As", "2d", "2h", "2c", "2s")]
    played = deck.parse_card("10d").index
    assert kind.count(played, table) > 0  # under the real bound: counted (2+2+2+2+A+A makes ten)
    monkeypatch.setattr(sets, "MAX_TABLE_GROUPS", 100)
    monkeypatch.setattr(kind, "_tables", [None] * len(kind._tables))  # listed again, under the lowered bound
    with pytest.raises(LimitError, match=r"form more than 100 groups adding up to at most"):
        kind.count(played, table)
