"""The sweep-risk instrument of benchmarks/risk.py (issue 14): the risks it records are chances no lower than the
least on offer, and a sweep (S3.1) it counts as conceded always followed a move that the coach's estimate said
could concede one."""

from __future__ import annotations

import piglia
from conftest import load_benchmark


def test_risk_instrument_ties_each_sweep_it_counts_to_a_positive_risk() -> None:
    """S3.1: a sweep needs a card of the table's total in the next hand; a move that left it possible carries a
    risk above zero by the estimate (the sweeping card was unseen to the mover), and no risk exceeds one or falls
    below the least on offer."""
    risk = load_benchmark("risk")
    variant = piglia.load_variant("scopa")
    decisions = risk.play(variant, ["greedy", "random"], 3, 5)
    assert {d.player for d in decisions} == {"greedy", "random"}
    for d in decisions:
        assert 0.0 <= d.least <= d.risk <= 1.0
        if d.conceded:
            assert d.risk > 0.0
    # random play leaves sweeps: the instrument sees them in six games of Scopa
    assert sum(d.conceded for d in decisions if d.player == "random") > 0
