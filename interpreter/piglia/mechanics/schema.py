"""The rule-file JSON Schema, generated: a hand-written base plus every registered mechanic's fragment.

``grammar/variant.base.schema.json`` holds everything that is not a mechanic (deck, players, deal...) and
marks with ``{"$generated": "<family>"}`` the places the registry fills: the capture kinds' ``type`` enum and
per-type blocks, the award forms' keys, the bonus triggers' ``on`` enum and the match ends' keys. The
checked-in ``grammar/variant.schema.json`` is this module's output for the built-in mechanics
(``make schema`` writes it with ``piglia schema``; a test fails when it is stale); ``piglia schema`` prints the
schema of the running registry, plugins included, and the loader validates against that.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from piglia.mechanics import builds, declarations
from piglia.mechanics.awards import SHARED_PROPERTIES, AwardForm
from piglia.mechanics.base import Mechanic, mechanics
from piglia.mechanics.bonuses import DEFAULT_TRIGGER
from piglia.mechanics.capture import FILTER_PROPERTIES
from piglia.mechanics.match import MatchEnd
from piglia.resources import data_dir

__all__ = ["BASE_FILE", "generate_schema", "schema_text"]

BASE_FILE = "variant.base.schema.json"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _own_properties(cls: type[Mechanic]) -> dict[str, Any]:
    """The mechanic's properties, each default written into its schema (``"default"``), nested ones too."""
    props = copy.deepcopy(dict(cls.properties))
    for key, value in cls.defaults.items():
        if key in props:
            props[key]["default"] = value
            continue
        for sub in props.values():
            if isinstance(sub, dict) and key in sub.get("properties", {}):
                sub["properties"][key]["default"] = value
    return props


def _capture_kinds() -> dict[str, Any]:
    kinds = mechanics("capture")
    blocks = []
    for key, cls in kinds.items():
        then: dict[str, Any] = {
            "type": "object",
            "description": cls.summary,
            "properties": {
                "type": {"const": key, "description": f"{key}: {cls.summary[:1].lower()}{cls.summary[1:]}"},
                **_own_properties(cls),
                **copy.deepcopy(dict(FILTER_PROPERTIES)),
            },
            "required": ["type", *cls.required],
        }
        if not getattr(cls, "open_schema", False):
            then["additionalProperties"] = False
        cond = {"properties": {"type": {"const": key}}, "required": ["type"]}
        blocks.append({"if": cond, "then": then})
    return {
        "description": f"One way to capture. type picks the mechanic: {_or(list(kinds))}.",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": sorted(kinds), "description": "The capture mechanic."}},
        "allOf": blocks,
    }


def _award() -> dict[str, Any]:
    forms = mechanics("award")
    props: dict[str, Any] = {}
    for cls in forms.values():
        assert issubclass(cls, AwardForm)
        props.update(_own_properties(cls))
    props.update(copy.deepcopy(dict(SHARED_PROPERTIES)))
    return {
        "description": f"An end-of-deal award: exactly one of {_or(list(forms))}.",
        "type": "object",
        "additionalProperties": False,
        "properties": props,
    }


def _bonus_on() -> dict[str, Any]:
    triggers = mechanics("bonus")
    words = "; ".join(f"{key}: {cls.summary[:1].lower()}{cls.summary[1:].rstrip('.')}" for key, cls in triggers.items())
    return {"enum": list(triggers), "default": DEFAULT_TRIGGER, "description": f"When it is checked ({words})."}


def _match() -> dict[str, Any]:
    ends = mechanics("match")
    props: dict[str, Any] = {}
    for cls in ends.values():
        assert issubclass(cls, MatchEnd)
        props.update(_own_properties(cls))
    return {
        "type": "object",
        "description": "When the match ends.",
        "properties": props,
        "additionalProperties": False,
        "anyOf": [{"required": [key]} for key, cls in ends.items() if issubclass(cls, MatchEnd) and cls.sufficient],
    }


def _declarations() -> dict[str, Any]:
    return copy.deepcopy(dict(declarations.SCHEMA))


def _builds() -> dict[str, Any]:
    return copy.deepcopy(dict(builds.SCHEMA))


_FILLERS = {
    "capture": _capture_kinds,
    "award": _award,
    "bonus": _bonus_on,
    "match": _match,
    "declarations": _declarations,
    "builds": _builds,
}


def _fill(node: Any) -> Any:
    if isinstance(node, Mapping):
        if set(node) == {"$generated"}:
            return _FILLERS[node["$generated"]]()
        return {k: _fill(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill(v) for v in node]
    return node


def generate_schema() -> dict[str, Any]:
    """The rule-file schema for the mechanics registered now (built-ins and loaded plugins)."""
    base = json.loads((data_dir("grammar") / BASE_FILE).read_text(encoding="utf-8"))
    filled: dict[str, Any] = _fill(base)
    filled["$comment"] = (
        "Generated by piglia.mechanics.schema from variant.base.schema.json: edit that, run make schema."
    )
    return filled


def schema_text() -> str:
    """The schema as the checked-in file spells it (two-space indent, trailing newline)."""
    return json.dumps(generate_schema(), indent=2, ensure_ascii=False) + "\n"
