"""The mechanics registry: every capture kind, award form, bonus trigger and match end is one registered class.

A mechanic class carries everything about itself, so adding one is one module (plus its catalog lines):

* ``family`` and ``key``: where a rule file chooses it and by which word (``capture`` kinds by ``type: sum``,
  ``award`` forms by their own key ``most:``, ``bonus`` triggers by ``on: play``, ``match`` ends by their key);
* ``properties``, ``required`` and ``defaults``: the JSON Schema of its own keys, defaults stated once here (they
  are written into the generated schema as ``default`` and applied by the builder);
* its builder (a constructor or ``build`` classmethod that checks what a schema cannot, reporting through a
  :class:`BuildContext`, then compiles);
* its play-time behaviour (the protocol of its family: ``captures``, ``entries``, ...);
* ``phrase(page)``: its words on the rules page, from its compiled self; ``messages`` lists its catalog keys.

Third-party mechanics register with :func:`register_mechanic` in a module that Piglia imports through the entry
point group ``piglia.mechanics`` (see docs/extending.md); :func:`mechanics` loads them on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from piglia import entrypoints as metadata  # importlib.metadata only if a plugin may be installed
from piglia.cards import Deck
from piglia.dsl import Compiled, T
from piglia.errors import PigliaError

if TYPE_CHECKING:
    from piglia.dsl.words import Words
    from piglia.yamlpos import Path

__all__ = [
    "ENTRY_POINT_GROUP",
    "FAMILIES",
    "BuildContext",
    "Mechanic",
    "Page",
    "Quantity",
    "generation",
    "load_plugins",
    "mechanic_text",
    "mechanics",
    "quantity_fn",
    "register_mechanic",
    "unregister_mechanic",
]

ENTRY_POINT_GROUP = "piglia.mechanics"

# The families, with where in a rule file a mechanic of each is chosen (for the schema's descriptions).
FAMILIES: Mapping[str, str] = MappingProxyType(
    {
        "capture": "capture.kinds.<name>.type",
        "award": "awards.<name>: one of the form keys",
        "bonus": "bonuses.<name>.on",
        "match": "match: one key per way the match can end",
    }
)

Quantity = int | Compiled  # a number written as a whole number or as an expression
Expr = Callable[[Any], Any]


def quantity_fn(q: Quantity) -> Expr:
    """The function computing a quantity: a constant for a whole number, else the compiled expression."""
    if isinstance(q, int):
        value = q
        return lambda _env: value
    return q.fn


class BuildContext(Protocol):
    """What a mechanic's builder may use: the deck and located, collected errors (the spec's VariantBuilder)."""

    deck: Deck | None

    def fail(self, path: Path, message: str, *, key: bool = False) -> Exception:
        """Record an error at ``path``; raise what it returns to abandon this part."""
        ...

    def compiled(
        self,
        path: Path,
        text: str,
        scope: Mapping[str, T],
        expected: T | tuple[T, ...],
        *,
        bare_card: str | None = None,
    ) -> Compiled:
        """Compile the expression at ``path`` (an error is recorded at its exact column, then raised)."""
        ...

    def quantity(self, path: Path, value: int | str, scope: Mapping[str, T]) -> Quantity:
        """A whole number as is, or the number expression at ``path`` compiled."""
        ...

    def newest(self, *paths: Path) -> Path:
        """Of ``paths``, the first written by the file being checked (not inherited), else the first."""
        ...


class Page(Protocol):
    """What a mechanic's phrasing may use: the catalog, the expression phraser and the page's common words."""

    words: Words

    def msg(self, key: str, /, **fields: Any) -> str:
        """The catalog's text for ``key``."""
        ...

    def plural(self, key: str, n: int, /, **fields: Any) -> str:
        """``key.one`` or ``key.other``."""
        ...

    def side_word(self, plural: bool = False) -> str:
        """player, team or side: who scores, in this variant."""
        ...

    def side_msg(self, key: str, /, **fields: Any) -> str:
        """``key.player``, ``key.team`` or ``key.mixed``: a sentence about who scores, written whole for each kind
        of side so that each language inflects the word as it must (built-in messages are written so)."""
        ...

    def name(self, ident: str) -> str:
        """One of the rule file's names (a suit, a bonus, an award...) in the page's language."""
        ...

    def reason(self, key: str, written: str) -> str:
        """A reason the rule file gives (``redeal``, ``instant_win``) in the page's language, else as written."""
        ...

    def points(self, value: Quantity) -> str:
        """A number of points in words (a whole number, or an expression phrased)."""
        ...


class Mechanic:
    """Base of every mechanic class; subclasses set the class attributes and register with the decorator."""

    family: ClassVar[str] = ""
    key: ClassVar[str] = ""
    summary: ClassVar[str] = ""  # one line for the schema: what this mechanic does
    properties: ClassVar[Mapping[str, Any]] = {}  # JSON Schema of its own keys
    required: ClassVar[tuple[str, ...]] = ()
    defaults: ClassVar[Mapping[str, Any]] = {}  # the value of each optional key not written
    messages: ClassVar[tuple[str, ...]] = ()  # the catalog keys its phrasing uses ("k.*": k.player, k.team, k.mixed)
    # A plugin's own words, by language then key, for keys the installed catalogs lack (built-ins have none:
    # their words are in piglia/locales/*.json). English is the fallback for a language it does not cover.
    texts: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    @classmethod
    def with_defaults(cls, spec: Mapping[str, Any]) -> dict[str, Any]:
        """``spec`` with this mechanic's defaults filled in: the one place they are applied."""
        return {**cls.defaults, **spec}


M = TypeVar("M", bound=type[Mechanic])

_REGISTRY: dict[str, dict[str, type[Mechanic]]] = {family: {} for family in FAMILIES}
_state = {"generation": 0, "plugins_loaded": False, "loading": False}

# The base class a mechanic of each family derives from (module, name): looked up when a mechanic registers, not
# imported here (those modules import this one, and register their built-ins while they are being imported).
FAMILY_BASES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "capture": ("piglia.mechanics.capture", "KindMechanic"),
        "award": ("piglia.mechanics.awards", "AwardForm"),
        "bonus": ("piglia.mechanics.bonuses", "BonusTrigger"),
        "match": ("piglia.mechanics.match", "MatchEnd"),
    }
)
# What a mechanic of each family is called in messages.
_WORDS: Mapping[str, str] = MappingProxyType(
    {"capture": "capture kind", "award": "award form", "bonus": "bonus trigger", "match": "match end"}
)
# The families whose mechanics' properties the schema merges into one block (an award takes one of the forms'
# keys next to the shared ones; the match block takes every end's keys): a property name is the family's, once;
# and a mechanic of them is chosen by writing its key in that block, so its key must be one of its properties.
_MERGED = frozenset({"award", "match"})


_RESOLVED: dict[str, tuple[type[Mechanic], dict[str, str]]] = {}  # per family: its base class and its own keys


def _family(family: str) -> tuple[type[Mechanic], dict[str, str]]:
    """The family's base class, and the keys its own schema already gives every mechanic of it (what each is),
    which a mechanic's properties may not reuse. Looked up once per family (a built-in registers while its module
    is being imported: the module is there, half done, with its base and shared keys defined)."""
    found = _RESOLVED.get(family)
    if found is None:
        import importlib
        import sys

        name, base_name = FAMILY_BASES[family]
        module = sys.modules.get(name) or importlib.import_module(name)
        keys: dict[str, str] = {}
        if family == "capture":  # the kind's block: its type, the filters every kind takes
            keys = {"type": "the kind's selector", **{k: "a filter every kind takes" for k in module.FILTER_PROPERTIES}}
        elif family == "award":  # the keys every award form takes
            keys = {k: "a key every award takes" for k in module.SHARED_PROPERTIES}
        elif family == "bonus":  # grammar/variant.base.schema.json: a bonus is points, when and on, nothing else
            keys = {k: "a key every bonus takes" for k in ("points", "when", "on")}
        found = _RESOLVED[family] = (getattr(module, base_name), keys)
    return found


def _name(cls: type) -> str:
    return f"{getattr(cls, '__module__', '?')}.{getattr(cls, '__qualname__', getattr(cls, '__name__', '?'))}"


def _identity(obj: Any) -> tuple[Any, ...]:
    """What makes two class objects the same class: its name and the file that defines it. A module imported
    twice (under two names, or run again after it failed) makes a new class object of the same class."""
    import sys

    module = sys.modules.get(getattr(obj, "__module__", ""))
    where = getattr(module, "__file__", None) or getattr(obj, "__module__", None)
    ident: tuple[Any, ...] = (getattr(obj, "__qualname__", None), where)
    builder = vars(obj).get("builder") if isinstance(obj, type) else None
    if builder is not None:  # a class made by register_capture_kind("wild") around a builder: the builder's
        ident += _identity(getattr(builder, "__func__", builder))
    return ident


def _same_class(a: type, b: type) -> bool:
    return a is b or _identity(a) == _identity(b)


def _json_problem(value: Any, where: str) -> str | None:
    """Why ``value`` is not JSON data (mappings with string keys, lists, strings, numbers, booleans, null)."""
    if value is None or isinstance(value, (bool, str)):
        return None
    if isinstance(value, (int, float)):
        return None if value == value and value not in (float("inf"), float("-inf")) else f"{where} is {value!r}"
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{where} has the key {k!r}, not a string"
            problem = _json_problem(v, f"{where}[{k!r}]")
            if problem:
                return problem
        return None
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            problem = _json_problem(v, f"{where}[{i}]")
            if problem:
                return problem
        return None
    return f"{where} is a {type(value).__name__} ({value!r:.60}), not JSON (a Python set? write a list)"


_CHECKED = "mechanic-properties"  # the disk cache's kind: properties found valid JSON Schema


def _schema_problem(properties: Mapping[str, Any]) -> str | None:
    """Why ``properties`` is not a valid JSON Schema ``properties`` block, for the draft of the rule-file schema.

    Importing jsonschema costs a quarter of a second, more than a small run's whole start: a verdict "valid" is
    kept in the disk cache, keyed by the properties' JSON text and the installed jsonschema, so a plugin's run
    imports it only the first time (or when the plugin's properties or jsonschema change)."""
    import json

    from piglia import diskcache
    from piglia.schema import validator_stamp  # here: piglia.schema imports this module

    key = None
    stamp = validator_stamp()
    if stamp is not None:
        text = json.dumps(properties, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        key = diskcache.digest("mechanic properties", text, stamp)
        if diskcache.load(_CHECKED, key) == b"valid":
            return None
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import Draft202012Validator  # grammar/variant.base.schema.json's $schema

    for name, fragment in properties.items():
        try:
            Draft202012Validator.check_schema(fragment)
        except SchemaError as exc:
            at = "".join(f"[{p!r}]" for p in exc.absolute_path)
            return f"properties[{name!r}]{at} is not valid JSON Schema: {exc.message}"
    if key is not None:
        diskcache.store(_CHECKED, key, b"valid")
    return None


def _own_names(cls: type[Mechanic]) -> set[str]:
    """The property names of ``cls`` and those one level down (an object property's own keys): where a default
    may be written (piglia.mechanics.schema writes it there)."""
    names = set(cls.properties)
    for fragment in cls.properties.values():
        inner = fragment.get("properties")
        if isinstance(inner, Mapping):
            names.update(k for k in inner if isinstance(k, str))
    return names


def _check_declarations(cls: type[Mechanic], who: str) -> None:
    """Refuse a plugin's class whose declarations are not what the schema and the builder need."""
    if not isinstance(cls.summary, str):
        raise PigliaError(f"{who}: summary must be a string, not {type(cls.summary).__name__}")
    properties = cls.properties
    if not isinstance(properties, Mapping):
        raise PigliaError(
            f"{who}: properties must be a mapping of property names to JSON Schema, not a {type(properties).__name__}"
        )
    for name, fragment in properties.items():
        if not isinstance(name, str) or not name:
            raise PigliaError(f"{who}: property names must be non-empty strings, not {name!r}")
        if not isinstance(fragment, Mapping):
            raise PigliaError(
                f"{who}: properties[{name!r}] must be a mapping (its JSON Schema), not a {type(fragment).__name__}"
            )
    problem = _json_problem(properties, "properties")
    if problem:
        raise PigliaError(f"{who}: {problem}")
    problem = _schema_problem(properties)  # jsonschema is imported only here: a run without plugins never does
    if problem:
        raise PigliaError(f"{who}: {problem}")
    for what in ("required", "defaults"):
        declared = getattr(cls, what)
        if not isinstance(declared, (Mapping, tuple, list)) or (what == "defaults") != isinstance(declared, Mapping):
            shape = "a mapping of property names to values" if what == "defaults" else "a tuple of property names"
            raise PigliaError(f"{who}: {what} must be {shape}, not a {type(declared).__name__}")
        unknown = [k for k in declared if not isinstance(k, str) or k not in _own_names(cls)]
        if unknown:
            raise PigliaError(
                f"{who}: {what} names {', '.join(map(repr, unknown))}, not among its properties "
                f"({', '.join(properties) or 'none'})"
            )
    conditions = getattr(cls, "conditions", {})  # a kind's own condition keys, compiled only when written
    if not isinstance(conditions, Mapping):
        raise PigliaError(f"{who}: conditions must map property names to the scope each sees")
    stray = [k for k in conditions if k not in properties]
    if stray:
        raise PigliaError(f"{who}: conditions names {', '.join(map(repr, stray))}, not among its properties")
    problem = _json_problem(cls.defaults, "defaults")
    if problem:
        raise PigliaError(f"{who}: {problem}")
    texts = cls.texts
    if not isinstance(texts, Mapping) or not all(
        isinstance(lang, str)
        and isinstance(words, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in words.items())
        for lang, words in texts.items()
    ):
        raise PigliaError(f"{who}: texts must map each language to a mapping of catalog keys to strings")


def _check(cls: type[Mechanic]) -> None:
    """Refuse a mechanic class whose declarations are wrong, with what is wrong and which class it is."""
    who = f"mechanic {_name(cls)}"
    family = cls.family
    if not isinstance(family, str) or family not in _REGISTRY:
        raise PigliaError(f"{who}: unknown family {family!r} (one of {', '.join(FAMILIES)})")
    base, reserved = _family(family)
    if not issubclass(cls, base):
        raise PigliaError(
            f"{who}: a {_WORDS[family]} must derive from {base.__module__.rsplit('.', 1)[0]}.{base.__name__}, "
            f"not only from {', '.join(b.__name__ for b in cls.__bases__)}"
        )
    key = cls.key
    if not isinstance(key, str) or not key.strip():
        raise PigliaError(f"{who}: its key (the word rule files choose it by) must be a non-empty string, not {key!r}")
    who = f"{who} ({_WORDS[family]} {key!r})"
    if not _builtin(cls):  # Piglia's own are held to these by its tests (the schema's): not checked at each start
        _check_declarations(cls, who)
    properties = cls.properties
    if family == "bonus" and properties:
        raise PigliaError(
            f"{who}: a bonus trigger takes no properties of its own (a bonus is points, when and on), "
            f"but it declares {', '.join(properties)}"
        )
    for name in properties:
        if name in reserved:
            raise PigliaError(f"{who}: its property {name!r} is {reserved[name]}; choose another name")
    if family in _MERGED and key not in properties:
        raise PigliaError(
            f"{who}: its properties must include its own key {key!r} (a rule file chooses it by writing that key), "
            f"but they are {', '.join(properties) or 'none'}"
        )
    held = _REGISTRY[family].get(key)
    if held is not None and not _same_class(held, cls):
        raise PigliaError(
            f"{who}: the key {key!r} is already taken by the {_WORDS[family]} {_name(held)}; choose another key "
            f"(a plugin cannot replace a registered mechanic)"
        )
    if family in _MERGED:
        for other in _REGISTRY[family].values():
            if other is held:
                continue
            shared = [name for name in properties if name in other.properties]
            if shared:
                raise PigliaError(
                    f"{who}: its property {shared[0]!r} is already a property of the {_WORDS[family]} {other.key!r} "
                    f"({_name(other)}), and the properties of every {_WORDS[family]} share one block of the "
                    "schema; choose another name"
                )


def _builtin(cls: type) -> bool:
    return getattr(cls, "__module__", "").startswith("piglia.")


def register_mechanic(cls: M) -> M:
    """Class decorator: make ``cls`` usable in rule files (and in the generated schema) under its ``key``.

    The class is refused (:class:`PigliaError`, naming it) when its declarations are wrong (see _check and
    docs/extending.md) or its key is taken by another class of its family: a plugin never replaces a built-in or
    another plugin's mechanic. The same class registered again (its module imported twice) changes nothing.
    """
    if not isinstance(cls, type) or not issubclass(cls, Mechanic):
        raise PigliaError(f"register_mechanic: {cls!r} is not a class deriving from piglia.mechanics.Mechanic")
    _check(cls)
    _REGISTRY[cls.family][cls.key] = cls  # new, the same class again, or its newer object (its module run again)
    _state["generation"] += 1
    return cls


def unregister_mechanic(cls: type[Mechanic]) -> None:
    """Remove a registered mechanic (for tests that register one for a while)."""
    if _REGISTRY.get(cls.family, {}).get(cls.key) is cls:
        del _REGISTRY[cls.family][cls.key]
        _state["generation"] += 1


def generation() -> int:
    """A number that changes whenever a mechanic is registered (caches of the schema key on it)."""
    load_plugins()
    return _state["generation"]


def load_plugins(*, again: bool = False) -> None:
    """Import every module registered under the entry point group ``piglia.mechanics`` (once per process).

    A plugin that fails to load (its import raises, or a class it registers is refused) leaves nothing
    registered and fails again the next time it is asked for; the plugins after it are loaded all the same, and
    the failure is raised once they are.
    """
    if (_state["plugins_loaded"] and not again) or _state["loading"]:
        return  # loaded; or being loaded, by a plugin asking for the registry as it is imported: what is there
    failures: list[PigliaError] = []
    _state["loading"] = True
    try:
        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            before = {family: dict(found) for family, found in _REGISTRY.items()}
            try:
                entry.load()
            except Exception as exc:  # a broken plugin is the user's to fix: say which, never a traceback
                _restore(before)  # what it registered before it failed goes: the registry is as if it were absent
                error = PigliaError(
                    f"the mechanics plugin {entry.name!r} ({entry.value}) failed to load: {type(exc).__name__}: {exc}"
                )
                error.__cause__ = exc
                failures.append(error)
    finally:
        _state["loading"] = False
    _state["plugins_loaded"] = not failures  # down: the next call tries the failed plugins again, and fails again
    if failures:
        if len(failures) > 1:
            raise PigliaError("\n".join(str(f) for f in failures)) from failures[0].__cause__
        raise failures[0]


def _restore(before: Mapping[str, Mapping[str, type[Mechanic]]]) -> None:
    """Put the registry back as it was (a plugin that failed to load half-way)."""
    for family, found in _REGISTRY.items():
        if found != before[family]:
            found.clear()
            found.update(before[family])
            _state["generation"] += 1


def mechanic_text(lang: str, key: str) -> str | None:
    """A registered mechanic's own text for ``key`` in ``lang`` (else in English), or None."""
    for family in _REGISTRY.values():
        for cls in family.values():
            for language in (lang, "en"):
                text = cls.texts.get(language, {}).get(key)
                if text is not None:
                    return text
    return None


def mechanics(family: str) -> Mapping[str, type[Mechanic]]:
    """The registered mechanics of ``family`` by key, in registration order (built-ins first)."""
    load_plugins()
    return MappingProxyType(_REGISTRY[family])
