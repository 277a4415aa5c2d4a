"""The AI players' card weights are bounded in work (``piglia.players.knowledge.weight_samples``).

The weights score every award for every team on random splits of the deck, once per card and once more per split.
A rule file whose awards are costly (one near the cost limit of an expression, or thousands of cheap ones) made
that minutes of work before an AI player's first move (tests/data/hostile/slow-award-weights.yaml); such files get
fewer splits, and the built-in games keep all of them.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

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


def test_costly_awards_get_fewer_splits_and_still_weigh_every_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # forty awards of about 82,600 estimated steps each: one split of the deck already passes the bound
    variant = piglia.load_variant(HOSTILE / "slow-award-weights.yaml")
    assert weight_samples(variant, 2) == 1
    calls = [0]
    for award in variant.awards:
        entries = award.entries

        def counted(piles: Any, deal: int, entries: Any = entries) -> Any:
            calls[0] += 1
            return entries(piles, deal)

        monkeypatch.setattr(award, "entries", counted)
    weights = _weights.__wrapped__(variant, 2)  # computed afresh, not the cache's
    # one split: every award scored once with the deck split and once per card moved, not 120 times that
    assert calls[0] == len(variant.awards) * (len(variant.deck) + 1)
    assert len(weights) == len(variant.deck) and all(math.isfinite(w) for w in weights)
    assert WEIGHT_SAMPLES * calls[0] * 2 * 82_000 > WEIGHT_STEPS  # what the 120 splits would have cost, in steps
