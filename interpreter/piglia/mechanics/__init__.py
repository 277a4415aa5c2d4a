"""Mechanics as plugins: capture kinds, award forms, bonus triggers and match ends, each one registered class.

The registry (:mod:`piglia.mechanics.base`) is the one source of truth about mechanics: the rule-file schema's
``type`` enums and per-type blocks are generated from it (:mod:`piglia.mechanics.schema`), the spec builder
builds each part through it and the rules page lets each mechanic phrase itself. Built-in mechanics live in
one module per family; a plugin registers more with :func:`register_mechanic` in a module named in the entry
point group ``piglia.mechanics`` (docs/extending.md).
"""

from piglia.mechanics import awards, bonuses, capture, match, misere, pile, sets
from piglia.mechanics.awards import AwardForm, register_award_form
from piglia.mechanics.base import (
    ENTRY_POINT_GROUP,
    BuildContext,
    Mechanic,
    Page,
    load_plugins,
    mechanics,
    register_mechanic,
)
from piglia.mechanics.bonuses import BonusTrigger
from piglia.mechanics.capture import KindInputs, KindMechanic, register_capture_kind
from piglia.mechanics.match import MatchEnd

__all__ = [
    "ENTRY_POINT_GROUP",
    "AwardForm",
    "BonusTrigger",
    "BuildContext",
    "KindInputs",
    "KindMechanic",
    "MatchEnd",
    "Mechanic",
    "Page",
    "awards",
    "bonuses",
    "capture",
    "load_plugins",
    "match",
    "mechanics",
    "misere",
    "pile",
    "register_award_form",
    "register_capture_kind",
    "register_mechanic",
    "sets",
]
