"""The AI players' card weights are bounded in work (``piglia.players.knowledge.weight_samples``).

The weights score every award for every team on random splits of the deck, once per card and once more per split.
A rule file whose awards are costly (one near the cost limit of an expression, or thousands of cheap ones) made
that minutes of work before an AI player's first move (tests/data/hostile/slow-award-weights.yaml); such files get
fewer splits, and the built-in games keep all of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import piglia
from piglia.players.knowledge import WEIGHT_SAMPLES, WEIGHT_STEPS, _weights, weight_samples
from piglia.spec import builtin_names

HOSTILE = Path(__file__).parent / "data" / "hostile"


@pytest.mark.parametrize("name", builtin_names())
def test_a_built_in_game_keeps_every_split(name: str) -> None:
    variant = piglia.load_variant(name)
    for teams in (2, 3, 4):
        assert weight_samples(variant, teams) == WEIGHT_SAMPLES, teams


def test_costly_awards_get_fewer_splits_and_still_weigh_every_card() -> None:
    variant = piglia.load_variant(HOSTILE / "slow-award-weights.yaml")
    samples = weight_samples(variant, 2)
    assert 1 <= samples < WEIGHT_SAMPLES
    # one split scores every award for two teams once per card and once more: the bound holds for all of them
    odd = variant.awards[-1]
    assert odd.name == "odd"
    assert samples * 2 * 96_000 * (len(variant.deck) + 1) <= WEIGHT_STEPS
    weights = _weights.__wrapped__(variant, 2)  # computed afresh, not the cache's
    # S3.3 (the settebello is a point of its own, beside coins and primiera, which the file keeps): even over so few
    # splits the 7 of coins is the card worth most
    assert weights[variant.deck.parse_card("7d").index] == max(weights) > 0.5
