"""Validation by sampling: what the rules do on random opening deals, checked before any match is played.

Some problems of a rule file cannot be seen in its text but show at once on a few shuffles: a redeal condition
that (almost) always holds, so that a deal would need more shuffles than the engine allows (the engine gives up
after ``MAX_REDEALS`` in a row, in the middle of a match); a deck and table on which a played card could take more
groups of cards than the capture limit (:data:`piglia.mechanics.capture.MAX_CAPTURES`). :func:`probe_openings`
deals :data:`SAMPLES` opening deals from a fixed seed (the same answer every time) for every player count and
reports each such problem at its place in the rule file.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from piglia.contexts import DealEnv
from piglia.errors import PigliaError
from piglia.variant import Variant
from piglia.yamlpos import Path

__all__ = ["REDEAL_SHARE", "SAMPLES", "probe_openings"]

SAMPLES = 400  # opening deals sampled per player count: a few milliseconds for any deck the schema allows
# A redeal condition that holds on this share of the sampled openings (or more) is refused: at 95% a deal needs 20
# shuffles on average, and the engine's limit of 1,000 in a row is then never reached (0.95**1000 is 5e-23); a
# condition that holds more often than that could stop a match in its middle.
REDEAL_SHARE = 0.95

Fail = Callable[[Path, str], Exception]


def probe_openings(variant: Variant, fail: Fail, *, samples: int = SAMPLES) -> None:
    """Deal ``samples`` random openings per player count; report (``fail(path, message)``) what they reveal."""
    rng = random.Random("piglia-probe")
    size = len(variant.deck)
    for n in variant.player_counts:
        rules = variant.deal_rules(n)
        held = 0
        for _ in range(samples):
            cards = rng.sample(range(size), size)
            hands = cards[: n * rules.hand]
            table = tuple(cards[n * rules.hand : n * rules.hand + rules.table])
            if rules.redeal is not None:
                try:
                    held += bool(rules.redeal(DealEnv(table, n - 1)))
                except PigliaError as exc:
                    raise fail(("deal", "redeal", "when"), f"cannot be computed on an opening table: {exc}") from None
            _count_captures(variant, hands, table, fail)
        if rules.redeal is not None and held >= REDEAL_SHARE * samples:
            share = f"{held} of {samples}"
            raise fail(
                ("deal", "redeal", "when"),
                f"the redeal condition holds on {share} random opening tables with {n} players: a deal would "
                "need too many shuffles (the engine stops after 1,000 in a row); it must fail on at least "
                f"{round((1 - REDEAL_SHARE) * 100)}% of the openings",
            )


def _count_captures(variant: Variant, hands: list[int], table: tuple[int, ...], fail: Fail) -> None:
    """Refuse a kind that could offer a hand card more captures on this table than the capture limit."""
    from piglia.mechanics.capture import MAX_CAPTURES

    if len(table) < MAX_CAPTURES.bit_length():
        return  # fewer subsets in all than the limit
    for tier in variant.capture.tiers:
        for kind in tier:
            count = getattr(kind, "count", None)
            if count is None:
                continue
            for card in hands:
                found = int(count(card, table))
                if found > MAX_CAPTURES:
                    raise fail(
                        ("capture", "kinds", kind.name),
                        f"on a random opening table of {len(table)} cards the {variant.deck.cards[card].id} could "
                        f"take {found:,} different groups, more than the limit of {MAX_CAPTURES:,} captures per "
                        "played card: give this kind a max_cards, or deal a smaller table",
                    )
