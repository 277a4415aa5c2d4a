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
_state = {"generation": 0, "plugins_loaded": False}


def register_mechanic(cls: M) -> M:
    """Class decorator: make ``cls`` usable in rule files (and in the generated schema) under its ``key``."""
    if cls.family not in _REGISTRY:
        raise PigliaError(f"mechanic {cls.__name__}: unknown family {cls.family!r} (one of {', '.join(FAMILIES)})")
    if not cls.key:
        raise PigliaError(f"mechanic {cls.__name__}: no key (the word rule files choose it by)")
    _REGISTRY[cls.family][cls.key] = cls
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
    """Import every module registered under the entry point group ``piglia.mechanics`` (once per process)."""
    if _state["plugins_loaded"] and not again:
        return
    _state["plugins_loaded"] = True
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            entry.load()
        except Exception as exc:  # a broken plugin is the user's to fix: say which, never a traceback
            raise PigliaError(
                f"the mechanics plugin {entry.name!r} ({entry.value}) failed to load: {type(exc).__name__}: {exc}"
            ) from exc


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
