"""What a deal's expressions add up to (piglia.costs): each expression is bounded by the DSL's cost limit, and the
number of times a deal computes them by DEAL_STEPS, checked when the rules are loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

import piglia
from piglia.costs import DEAL_STEPS, deal_costs
from piglia.errors import SpecErrors
from piglia.spec import builtin_names

# two loops over the deck: within the limit of one expression (piglia.dsl.compiler.MAX_COST)
COSTLY = "count(c for c in deck where count(d for d in deck where d in pile and d.value > c.value) > 3) > 100"


def bonuses_file(tmp_path: Path, count: int) -> Path:
    path = tmp_path / f"bonuses-{count}.yaml"
    lines = ["name: many", "extends: scopa", "bonuses:", f'  b0: {{points: 1, on: play, when: &w "{COSTLY}"}}']
    lines += [f"  b{i}: {{points: 1, on: play, when: *w}}" for i in range(1, count)]
    path.write_text("\n".join(lines) + "\n")
    return path


def deal_steps(variant: piglia.Variant) -> int:
    return max(sum(c.steps for c in deal_costs(variant, n)) for n in variant.player_counts)


def test_every_built_in_game_is_far_within_the_limit() -> None:
    for name in builtin_names():
        assert deal_steps(piglia.load_variant(name)) < DEAL_STEPS // 100, name


def test_bonuses_are_refused_once_together_they_pass_the_limit(tmp_path: Path) -> None:
    one = piglia.load_variant(str(bonuses_file(tmp_path, 1)))
    each = next(c.steps for c in deal_costs(one, 2) if c.path == ("bonuses", "b0"))
    rest = deal_steps(one) - each
    most = (DEAL_STEPS - rest) // each  # as many as fit
    assert 1 < most < 400
    assert deal_steps(piglia.load_variant(str(bonuses_file(tmp_path, most)))) <= DEAL_STEPS
    with pytest.raises(SpecErrors) as caught:
        piglia.load_variant(str(bonuses_file(tmp_path, most + 1)))
    error = caught.value.errors[0]
    assert error.path == "bonuses.b0" and (error.line, error.col) == (4, 7)
    assert f"more than the limit of {DEAL_STEPS:,}" in error.message


def test_a_kind_condition_counts_for_every_card_of_the_hand(tmp_path: Path) -> None:
    """A kind's `when` is asked for each card of the hand to move: the same condition that fits with hands of
    three cards is refused with hands of twenty, and the error is placed at that condition."""
    when = "count(c for c in deck where count(d for d in deck where d in table and d.value > c.value) > 3) > 100"
    text = "name: k\nextends: scopa\ncapture:\n  priority: [odd, match, sum]\n  kinds:\n"
    text += f'    odd: {{type: match, when: "{when}"}}\n'
    small = tmp_path / "small.yaml"
    small.write_text(text)
    piglia.load_variant(str(small))
    big = tmp_path / "big.yaml"
    big.write_text(text + "deal: {hand: 20, table: 0}\n")
    with pytest.raises(SpecErrors) as caught:
        piglia.load_variant(str(big))
    assert caught.value.errors[0].path == "capture.kinds.odd.when"
    assert "each of the 20 cards of a hand" in caught.value.errors[0].message
