"""A plugin that loads cleanly, installed beside one that fails (tests/test_plugin_registration.py)."""

from __future__ import annotations

from collections.abc import Sequence

from piglia.mechanics import KindMechanic, register_mechanic


@register_mechanic
class AfterKind(KindMechanic):
    key = "reg_after"
    summary = "Take any one table card."

    def captures(self, played: int, table: Sequence[int]) -> list[tuple[int, ...]]:
        return sorted((c,) for c in table)
