"""Every built-in variant (and the mixed proof variant) survives 200 simulated deals, and every record replays.

The games of RULES.md sections 1-4 each get at least 200 deals of random play (whole matches, so multi-deal
games play fewer matches); each record is then replayed by the verifier, which re-checks every move, bonus,
opening bonus, award, total, instant win and winner against the rules. Two players unless the variant allows
only other counts; variants that allow several counts are played with each.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import piglia
from piglia.record import verify_lines
from piglia.simulate import simulate
from piglia.spec import builtin_names

MIXED = Path(__file__).parent / "variants" / "mixed.yaml"
DEALS = 200


def cases() -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for name in [*builtin_names(), str(MIXED)]:
        variant = piglia.load_variant(name)
        out.extend((name, n) for n in variant.player_counts)
    return out


def test_every_game_of_rules_md_is_built_in() -> None:
    """RULES.md sections 1-4: each game is a rule file in variants/ (issue 3's list)."""
    assert set(builtin_names()) >= {
        "scopa",
        "scopa-gamerules",
        "scopa-french",
        "scopa-numerals",
        "cicera",
        "cicera-traditional",
        "scopone",
        "scopone-scientifico",
        "scopa-d-assi",
        "scopa-15",
        "escoba",
        "chkobba",
        "scopa-napola",
        "spazzino",
    }


@pytest.mark.parametrize(("name", "players"), cases(), ids=lambda v: Path(str(v)).stem)
def test_200_deals_replay_clean(name: str, players: int) -> None:
    variant = piglia.load_variant(name)
    out = io.StringIO()
    summary = simulate(variant, deals=DEALS, seed=2024, players=players, record=out)
    assert summary.deals >= DEALS
    count, errors = verify_lines(out.getvalue().splitlines(), f"{variant.name}.jsonl", variant=variant)
    assert [str(e) for e in errors] == []
    assert count == summary.matches
    # Every point of every deal is accounted for: some points are scored, all go to real teams.
    assert sum(summary.points) > 0
