"""The rule-file JSON Schema and its errors in words a person can act on.

The schema is generated from the mechanics registry (:mod:`piglia.mechanics.schema`), so a capture kind or an
award form registered by a plugin validates like a built-in one; ``grammar/variant.schema.json`` is the same
schema for the built-in mechanics, checked in for editors.

jsonschema reports what failed in its own terms ("Additional properties are not allowed"); here each error
becomes one message at the path it is about, with a suggestion for a misspelt key or value.

Checking is the costly part of loading a small rule file (importing jsonschema alone takes longer than the rest of
the load), so that a file passed the check is kept in the on-disk cache (:mod:`piglia.diskcache`), keyed by the
hashes of the data checked, of the schema and of the validator's installation: the same data under the same
schema is not checked twice, and jsonschema is then not even imported. Only a clean pass is kept: a file with
problems is checked, and its messages written, every time.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from piglia import diskcache
from piglia.errors import did_you_mean
from piglia.mechanics.base import generation
from piglia.mechanics.schema import generate_schema

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError

    from piglia.yamlpos import Path

__all__ = ["SchemaProblem", "check_context", "is_plain", "schema", "schema_problems", "validator_stamp"]

SchemaProblem = tuple["Path", str, bool]  # (path, message, points at the key rather than the value)

_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "nothing",
}


def schema() -> dict[str, Any]:
    """The rule-file JSON Schema of the mechanics registered now, as a dict."""
    return _schema_of(generation())


@cache
def _schema_of(_generation: int) -> dict[str, Any]:
    # Regenerated only when a mechanic has been registered since (the registry's generation changed).
    return generate_schema()


def _validator() -> jsonschema.protocols.Validator:
    return _validator_of(generation())


@cache
def _validator_of(_generation: int) -> jsonschema.protocols.Validator:
    import jsonschema  # here: a run whose rule files are all in the cache of checked files never needs it

    base = jsonschema.validators.validator_for(schema())
    # JSON Schema counts 1.0 as an integer, and YAML reads `11.0`, `1.1e+1` or `!!float 1` as that float: it then
    # reached the engine as a float (an internal error in points, "match to 11.0" on the rules page). A whole
    # number is an int here, never a float (nor a bool, which JSON Schema already keeps apart).
    whole = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    cls = jsonschema.validators.extend(base, type_checker=whole)  # type: ignore[no-untyped-call]
    validator: jsonschema.protocols.Validator = cls(schema())
    return validator


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        digits = len(str(abs(value)))
        return f"a number of {digits} digits" if digits > 18 else f"the number {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing"


def _expected(sub: dict[str, Any]) -> list[str]:
    """Words for what a sub-schema accepts."""
    if "const" in sub:
        return [repr(sub["const"])]
    if "enum" in sub:
        return [repr(v) for v in sub["enum"]]
    if "oneOf" in sub or "anyOf" in sub:
        return [w for branch in sub.get("oneOf", sub.get("anyOf", [])) for w in _expected(branch)]
    kinds = sub.get("type")
    if isinstance(kinds, str):
        kinds = [kinds]
    return [_TYPE_WORDS.get(k, k) for k in kinds or []]


def _or(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _message(err: ValidationError) -> Iterator[SchemaProblem]:
    from jsonschema.exceptions import best_match

    path: Path = tuple(err.absolute_path)
    v = err.validator
    inst = err.instance
    sub: dict[str, Any] = dict(err.schema) if isinstance(err.schema, Mapping) else {}
    value: Any = err.validator_value
    if v == "additionalProperties" and isinstance(inst, dict):
        known = list(sub.get("properties", {}))
        for key in inst:
            if key not in known:
                yield (*path, key), f"unknown key {key!r}{did_you_mean(key, known)}", True
        return
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else str(value)
        yield path, f"missing required key {missing!r}", False
        return
    if v == "type":
        hint = ""
        if sub.get("type") == "string" and isinstance(inst, bool | int):
            # YAML read `when: true` or `score: 3` as a value; an expression is text
            hint = f'; to write the expression {str(inst).lower()}, quote it: "{str(inst).lower()}"'
        yield path, f"expected {_or(_expected(sub))}, got {_kind_of(inst)}{hint}", False
        return
    if v == "enum":
        options = [str(o) for o in value]
        hint = did_you_mean(str(inst), options) if isinstance(inst, str) else ""
        yield path, f"{inst!r} is not one of {', '.join(options)}{hint}", False
        return
    if v == "const":
        yield path, f"expected {value!r}, got {_kind_of(inst)}", False
        return
    if v in ("oneOf", "anyOf"):
        # Prefer the branch whose type fits: its own error says the most. If no branch takes this type of
        # value at all, say what is accepted.
        # A branch's type error about a value inside (``when: true`` in a bonus mapping) is the precise one too.
        fitting = [e for e in err.context or [] if e.validator not in ("type", "const") or len(e.relative_path)]
        if fitting:
            yield from _message(best_match(fitting))
            return
        yield path, f"expected {_or(list(dict.fromkeys(_expected(sub))))}, got {_kind_of(inst)}", False
        return
    if v == "pattern":
        rule = str(sub.get("description", "see the schema")).rstrip(".")
        shown = repr(inst) if len(str(inst)) <= 60 else f"{str(inst)[:40]!r}... ({len(str(inst)):,} characters)"
        yield path, f"{shown} is not allowed here: {rule[:1].lower()}{rule[1:]}", False
        return
    if v in ("maxLength", "minLength") and isinstance(inst, str):
        bound = "at most" if v == "maxLength" else "at least"
        yield path, f"must be {bound} {value} characters, got {len(inst):,}", False
        return
    if v in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        bound = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most"}.get(v, "less than")
        yield path, f"must be {bound} {value}, got {_kind_of(inst)}", False
        return
    if v == "minProperties" and isinstance(inst, dict) and not inst:
        yield path, "must not be empty", False
        return
    if v == "minItems" and isinstance(inst, list) and not inst:
        yield path, "must not be an empty list", False
        return
    if v == "uniqueItems":
        yield path, "lists the same item twice", False
        return
    yield path, err.message, False


_CHECKED = "schema-checked"  # the cache's entries: "this data passed this schema", payload _PASSED
_PASSED = b"no schema errors"


def is_plain(data: Any) -> bool:
    """Whether ``data`` is made only of what JSON writes back unchanged (text keys, finite numbers...), so that
    its JSON text stands for it exactly: 1 and "1" and true and 1.0 stay apart."""
    if isinstance(data, dict):
        return all(type(k) is str and is_plain(v) for k, v in data.items())
    if isinstance(data, list):
        return all(is_plain(v) for v in data)
    if isinstance(data, float):
        return math.isfinite(data)
    return data is None or type(data) in (str, int, bool)


@cache
def _schema_digest(_generation: int) -> str:
    return diskcache.digest(json.dumps(schema(), sort_keys=True, separators=(",", ":"), ensure_ascii=False))


def validator_stamp() -> str | None:
    """Which jsonschema is installed (where, and when its files were written), without importing it: another
    version may judge the same data otherwise, so it is part of the key."""
    try:
        spec = importlib.util.find_spec("jsonschema")
        if spec is None or spec.origin is None:
            return None
        st = os.stat(spec.origin)
    except (ImportError, OSError, ValueError):
        return None
    return f"{spec.origin}:{st.st_size}:{st.st_mtime_ns}"


def check_context() -> str | None:
    """What a clean check depends on besides the data: the schema of the mechanics registered now, and the
    installed jsonschema. None when that cannot be told (then nothing is cached)."""
    stamp = validator_stamp()
    if stamp is None:
        return None
    return f"{stamp}|{_schema_digest(generation())}"


def _check_key(data: Any) -> str | None:
    """The cache key of checking ``data`` against the current schema, or None when it cannot have one."""
    if diskcache.cache_dir() is None:
        return None
    try:
        if not is_plain(data):
            return None
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (RecursionError, ValueError, TypeError):
        return None
    context = check_context()
    if context is None:
        return None
    return diskcache.digest("schema check", context, text)


# C0 and C1 control characters but the tab and the line feed: a title or a name holding ESC sequences validated, then
# `piglia play` and `piglia rules` wrote them to the terminal (a window title changed, the screen cleared).
# Also the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder the text
# shown around them, so an expression or a name could read as another on a terminal or a page ("Trojan Source");
# the marks (U+200E, U+200F, U+061C) that right-to-left text may need stay allowed.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _control_problems(data: Any) -> list[SchemaProblem]:
    """Every text of ``data`` (keys too) holding a control character, where it is."""
    problems: list[SchemaProblem] = []
    todo: list[tuple[Path, Any]] = [((), data)]
    while todo:  # a loop, not recursion: nesting is bounded when read, but not by Python's stack
        path, value = todo.pop()
        items: Iterator[tuple[Any, Any]]
        if isinstance(value, Mapping):
            items = iter(value.items())
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        for k, v in items:
            here = (*path, k)
            for text, at_key in ((k, True), (v, False)):
                found = _CONTROL.search(text) if isinstance(text, str) else None
                if found is not None:
                    char = ord(found[0])
                    acts = "which reorders the text around it" if char > 0x9F else "which a terminal would act on"
                    problems.append(
                        (here, f"holds the control character U+{char:04X}, {acts}: "
                         "rule-file text is printable characters, tabs and line breaks", at_key)
                    )  # fmt: skip
            todo.append((here, v))
    return sorted(problems, key=lambda p: [str(x) for x in p[0]])


def schema_problems(data: Any) -> list[SchemaProblem]:
    """Every schema problem in ``data``, most specific first, one message per place."""
    key = _check_key(data)
    if key is not None and diskcache.load(_CHECKED, key) == _PASSED:
        return []
    problems: list[SchemaProblem] = _control_problems(data)
    seen: set[Path] = set()
    errors = sorted(_validator().iter_errors(data), key=lambda e: (-len(e.absolute_path), str(e.absolute_path)))
    if not errors and not problems:
        if key is not None:
            diskcache.store(_CHECKED, key, _PASSED)
        return []
    for err in errors:
        for path, message, at_key in _message(err):
            # A precise error deeper down makes a generic one about an enclosing value redundant.
            generic = err.validator in ("oneOf", "anyOf", "allOf", "if", "then", "type")
            if generic and any(p[: len(path)] == path for p in seen):
                continue
            if (path, message, at_key) in problems:
                continue
            seen.add(path)
            problems.append((path, message, at_key))
    # A misspelt required key is one mistake, not two: keep "unknown key 'vaule' (did you mean 'value'?)" and
    # drop "missing required key 'value'" beside it.
    suggested = {(p[:-1], m.rsplit("'", 2)[-2]) for p, m, k in problems if k and "(did you mean '" in m}
    return [
        (p, m, k)
        for p, m, k in problems
        if not (m.startswith("missing required key '") and (p, m.split("'")[1]) in suggested)
    ]
