"""A plugin that registers a capture kind, then fails (tests/test_plugin_registration.py)."""

from __future__ import annotations

from collections.abc import Sequence

from piglia.mechanics import KindMechanic, register_mechanic


@register_mechanic
class HalfKind(KindMechanic):
    key = "reg_half"
    summary = "Registered before its module fails."

    def captures(self, played: int, table: Sequence[int]) -> list[tuple[int, ...]]:
        return sorted((c,) for c in table)


raise RuntimeError("the plugin's module fails after registering one class")
