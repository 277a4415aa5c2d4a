"""Plugin mechanics held to their family's protocol: a plugin's fault is reported as the plugin's.

The engine trusts what a mechanic gives it (a capture kind's captures, an award's entries, a match end's
decision). Piglia's own mechanics are held to that by its tests; a plugin's are not, so every mechanic whose class
is not Piglia's own (its module outside ``piglia.``) is wrapped when a variant is built: what it returns is checked,
and an exception raised inside it, or an answer that breaks the protocol, becomes a :class:`PluginError` naming the
mechanic (family and key), its class and its module. Piglia's own mechanics are never wrapped: they run exactly
their own code, with no check on their hot paths.

The wrapping keeps the mechanic what it is: its class is swapped for a checked subclass that defines the same
methods the plugin's class defines (so the engine's choice of the optional speed hooks, which asks which class
defines them, is the same), each calling the plugin's and checking the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from piglia.dsl.parser import MAX_INT_DIGITS
from piglia.errors import LimitError, PluginError
from piglia.interrupt import Interrupted

if TYPE_CHECKING:
    from piglia.mechanics.capture import KindMechanic

__all__ = [
    "FAMILY_WORDS",
    "MAX_POINTS",
    "PluginError",
    "check_award",
    "check_kind",
    "check_match_end",
    "check_trigger",
    "constructed",
    "describe",
    "is_plugin",
]

FAMILY_WORDS = {"capture": "capture kind", "award": "award form", "bonus": "bonus trigger", "match": "match end"}
# The largest number of points an award may give a team: the limit on every number of a rule file (18 digits).
MAX_POINTS = 10**MAX_INT_DIGITS - 1

T = TypeVar("T")


def is_plugin(origin: Any) -> bool:
    """Whether ``origin`` (a mechanic's class, or an older kind's builder) is a plugin's, not Piglia's own."""
    module = getattr(origin, "__module__", None) or ""
    return not (module == "piglia" or module.startswith("piglia."))


def describe(family: str, key: str, origin: Any) -> str:
    """``capture kind 'x' (plugin class K in module m)``: who is at fault."""
    what = "class" if isinstance(origin, type) else "function"
    name = getattr(origin, "__qualname__", None) or getattr(origin, "__name__", None) or repr(origin)
    return (
        f"{FAMILY_WORDS.get(family, family)} {key!r} (plugin {what} {name} in module "
        f"{getattr(origin, '__module__', '?')})"
    )


def _passes(exc: BaseException) -> bool:
    """Exceptions a plugin may raise on purpose, as Piglia's own mechanics do: a located build error (``b.fail``),
    a kind's option error, an engine limit reached (a user's rules, not a bug), a stop; or a fault already named.
    Any other, a :class:`PigliaError` from a Piglia function the plugin misused included, is the plugin's."""
    from piglia import build  # loaded by now: only the builder builds mechanics
    from piglia.mechanics.capture import KindOptionError

    return isinstance(exc, LimitError | KindOptionError | PluginError | Interrupted | build._Failed)


def _raised(who: str, method: str, exc: Exception) -> PluginError:
    return PluginError(f"{who} raised {type(exc).__name__} in {method}: {exc}")


def _shown(value: Any) -> str:
    if isinstance(value, int) and value.bit_length() > 200:  # (repr refuses an int of thousands of digits)
        return f"{'-' if value < 0 else ''}<a number of about {int(value.bit_length() * 0.30103) + 1:,} digits>"
    if callable(value) and not isinstance(value, type):
        return f"<{getattr(value, '__qualname__', type(value).__name__)}>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _what(value: Any) -> str:
    """A value in a few words for a message: its type and (short) text."""
    return f"{type(value).__name__} {_shown(value)}"


def _call(who: str, method: str, fn: Callable[..., T], *args: Any) -> T:
    try:
        return fn(*args)
    except Exception as exc:
        if _passes(exc):
            raise
        raise _raised(who, method, exc) from None


def constructed(family: str, key: str, origin: Any, build: Callable[[], T]) -> T:
    """``build()`` (a plugin mechanic's constructor), an exception in it named as the plugin's."""
    return _call(describe(family, key, origin), "its constructor", build)


def _is_int(value: Any) -> bool:
    return type(value) is int  # not a bool, not a float: an index or a number of points


def _checked_class(cls: type, methods: dict[str, Callable[..., Any]]) -> type:
    """A subclass of ``cls`` with ``methods`` defined, named as ``cls`` (messages and pages name the plugin's).
    One per mechanic built: the methods hold what they check against (the deck of the variant)."""
    attrs: dict[str, Any] = {
        "__slots__": (),  # the same layout as ``cls``: an instance's class can be swapped for it
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "_plugin_checked": True,
    }
    return type(cls.__name__, (cls,), {**attrs, **methods})


def _swap(obj: T, cls: type, methods: Callable[[], dict[str, Callable[..., Any]]]) -> T:
    if getattr(type(obj), "_plugin_checked", False):
        return obj
    obj.__class__ = _checked_class(cls, methods())
    return obj


def _defines(cls: type, name: str, base: type) -> bool:
    """Whether ``cls`` gives its own ``name`` (not the family base's)."""
    return getattr(cls, name, None) is not getattr(base, name, None)


# -- capture kinds ----------------------------------------------------------------------------------------------


def check_kind(kind: T, origin: Any) -> T:
    """A plugin's capture kind, checked: its table given as a tuple (it cannot change the engine's), its captures
    held to the protocol (each a non-empty ascending tuple of distinct table cards, the list ascending with no
    capture twice), an empty table never asked about, every exception named."""
    from piglia.capture_search import own_hook

    cls: Any = type(kind)
    who = describe("capture", str(getattr(kind, "key", "")), origin)
    deck = kind.inputs.deck  # type: ignore[attr-defined]
    size = len(deck)

    def fault(message: str) -> NoReturn:
        raise PluginError(f"{who} {message}")

    def card(c: int) -> str:
        return f"the {deck.card_name(c)}"

    def check_captures(found: Any, played: int, table: tuple[int, ...]) -> list[tuple[int, ...]]:
        if not isinstance(found, list):
            if not isinstance(found, tuple):
                fault(f"returned {_what(found)} from captures: a kind returns a list of captures (tuples of cards)")
            found = list(found)
        on_table = set(table)
        previous: tuple[int, ...] | None = None
        for cap in found:
            if type(cap) is not tuple:
                fault(f"returned a capture that is {_what(cap)}: a capture is a tuple of table card indexes")
            if not cap:
                fault(f"returned an empty capture for {card(played)}: a capture takes at least one table card")
            for c in cap:
                if not _is_int(c):
                    fault(f"returned a capture {_shown(cap)} holding {_what(c)}: a capture holds card indexes (ints)")
                if c not in on_table:
                    if 0 <= c < size:
                        fault(
                            f"returned a capture for {card(played)} that takes {card(c)}, which is not on the "
                            "table: a capture takes table cards only"
                        )
                    fault(f"returned a capture that takes card index {c}: the deck's cards are 0 to {size - 1}")
            if len(set(cap)) != len(cap):
                twice = next(c for c in cap if cap.count(c) > 1)
                fault(f"returned a capture that takes {card(twice)} twice: a capture lists each table card once")
            if list(cap) != sorted(cap):
                fault(f"returned a capture {_shown(cap)} not in ascending order: a capture lists its cards ascending")
            if previous is not None and cap <= previous:
                if cap == previous:
                    fault(f"returned the capture {_shown(cap)} twice: a kind lists each capture once")
                fault(
                    f"returned its captures out of order ({_shown(previous)} before {_shown(cap)}): a kind lists "
                    "its captures in ascending order"
                )
            previous = cap
        return cast("list[tuple[int, ...]]", found)

    def on_table(mask: int, table: tuple[int, ...]) -> None:
        for c in table:
            mask &= ~(1 << c)
        if mask:
            low = (mask & -mask).bit_length() - 1
            where = card(low) if low < size else f"card index {low}"
            fault(f"returned a capture mask that takes {where}, which is not on the table")

    base_captures = cls.captures

    def captures(self: Any, played: int, table: Sequence[int]) -> list[tuple[int, ...]]:
        if not table:  # a capture takes table cards: a kind is never asked about an empty table
            return []
        given = tuple(table)
        return check_captures(_call(who, "captures", base_captures, self, played, given), played, given)

    methods: dict[str, Callable[..., Any]] = {"captures": captures}
    hooks = {hook: own_hook(cast("KindMechanic", kind), hook) for hook in ("masks", "singles", "signatures", "reaches")}

    if hooks["masks"]:
        base_masks = cls.masks

        def masks(self: Any, played: int, table: Sequence[int]) -> Collection[int]:
            if not table:
                return ()
            given = tuple(table)
            found = _call(who, "masks", base_masks, self, played, given)
            if not isinstance(found, list | tuple | set | frozenset):
                fault(f"returned {_what(found)} from masks: a collection of bit masks (ints)")
            for m in found:
                if not _is_int(m) or m <= 0:
                    fault(f"returned {_what(m)} among its masks: a capture's mask is an int above 0")
                on_table(m, given)
            if isinstance(found, list | tuple) and len(set(found)) != len(found):
                fault("returned a capture mask twice from masks: each capture once")
            return found

        methods["masks"] = masks

    if hooks["singles"]:
        base_singles = cls.singles

        def singles(self: Any, played: int) -> tuple[int | None, int]:
            found = _call(who, "singles", base_singles, self, played)
            if not (
                isinstance(found, tuple)
                and len(found) == 2
                and (found[0] is None or (_is_int(found[0]) and found[0] >= 0))
                and _is_int(found[1])
                and found[1] >= 0
            ):
                fault(f"returned {_what(found)} from singles: (exact: a mask or None, within: a mask)")
            return found

        methods["singles"] = singles

    if hooks["signatures"]:
        base_signatures = cls.signatures

        def signatures(self: Any) -> tuple[Sequence[Hashable], Sequence[Hashable]] | None:
            found = _call(who, "signatures", base_signatures, self)
            if found is None:
                return None
            if not (isinstance(found, tuple | list) and len(found) == 2):
                fault(f"returned {_what(found)} from signatures: (played signatures, table signatures) or None")
            for side in found:
                if not isinstance(side, Sequence) or len(side) != size:
                    fault(f"returned signatures {_what(side)} from signatures: one per card of the deck ({size})")
                try:
                    for s in side:
                        hash(s)
                except TypeError:
                    fault(f"returned a signature that cannot be hashed ({_what(s)}): a signature is hashable")
            return found[0], found[1]

        methods["signatures"] = signatures

    if hooks["reaches"]:
        base_reaches = cls.reaches

        def reaches(self: Any, played: int) -> int | None:
            found = _call(who, "reaches", base_reaches, self, played)
            if found is not None and not (_is_int(found) and found >= 0):
                fault(f"returned {_what(found)} from reaches: a bit mask over the deck (an int of 0 or more) or None")
            return cast("int | None", found)

        methods["reaches"] = reaches

    base_forced = getattr(cls, "forced", None)
    if base_forced is not None:

        def forced(self: Any, played: int, table: Sequence[int]) -> tuple[int, ...]:
            if not table:
                return ()
            given = tuple(table)
            found = _call(who, "forced", base_forced, self, played, given)
            if not isinstance(found, tuple) or any(not _is_int(c) or c not in given for c in found):
                fault(f"returned {_what(found)} from forced: a tuple of table cards")
            return found

        methods["forced"] = forced

    methods.update(_phrasing(who, cls, ("phrase",)))
    return _swap(kind, cls, lambda: methods)


def _phrasing(who: str, cls: type, names: Sequence[str]) -> dict[str, Callable[..., Any]]:
    """The rules-page methods of a plugin's class: an exception named, a text checked (a string)."""
    methods: dict[str, Callable[..., Any]] = {}
    for name in names:
        base = getattr(cls, name, None)
        if base is None:
            continue

        def phrased(self: Any, *args: Any, _base: Any = base, _name: str = name) -> Any:
            said = _call(who, _name, _base, self, *args)
            if _name == "lines":
                if not isinstance(said, list | tuple) or not all(isinstance(s, str) for s in said):
                    raise PluginError(f"{who} returned {_what(said)} from lines: a list of strings")
            elif _name in ("short", "objective"):
                if said is not None and not isinstance(said, str):
                    raise PluginError(f"{who} returned {_what(said)} from {_name}: a string or None")
            elif not isinstance(said, str):
                raise PluginError(f"{who} returned {_what(said)} from {_name}: a string")
            return said

        methods[name] = phrased
    return methods


# -- award forms ------------------------------------------------------------------------------------------------


def _points_ok(value: Any) -> bool:
    return _is_int(value) and -MAX_POINTS <= value <= MAX_POINTS


def check_award(award: T, base: type) -> T:
    """A plugin's award form, checked: its entries a non-empty list of (team or None, points), each team an index
    of the piles given, the points a whole number within the limit on numbers; its values one per team."""
    cls: Any = type(award)
    who = describe("award", str(getattr(award, "key", "")), cls)

    def fault(message: str) -> NoReturn:
        raise PluginError(f"{who} {message}")

    if not isinstance(getattr(award, "carries", False), bool):
        fault(f"has carries = {_what(award.carries)}: True or False")  # type: ignore[attr-defined]

    def check_entries(found: Any, teams: int, method: str) -> list[tuple[int | None, int]]:
        if not isinstance(found, list | tuple) or not found:
            fault(
                f"returned {_what(found)} from {method}: a non-empty list of (team, points), [(None, 0)] when "
                "nobody scores"
            )
        for entry in found:
            if not (isinstance(entry, tuple) and len(entry) == 2):
                fault(f"returned an entry {_what(entry)} from {method}: an entry is a pair (team, points)")
            team, points = entry
            if team is not None and not (_is_int(team) and 0 <= team < teams):
                fault(
                    f"returned an entry for team {_shown(team)} from {method}: a team is None or an index from 0 "
                    f"to {teams - 1} ({teams} teams)"
                )
            if not _points_ok(points):
                fault(
                    f"returned {_what(points)} points from {method}: points are a whole number (an int) of at most "
                    f"{MAX_INT_DIGITS} digits"
                )
        return list(found)

    base_entries = cls.entries

    def entries(self: Any, piles: Sequence[Any], deal: int) -> list[tuple[int | None, int]]:
        return check_entries(_call(who, "entries", base_entries, self, piles, deal), len(piles), "entries")

    methods: dict[str, Callable[..., Any]] = {"entries": entries}

    if _defines(cls, "carry_entries", base):
        base_carry = cls.carry_entries

        def carry_entries(self: Any, piles: Sequence[Any], deal: int, carried: int) -> Any:
            found = _call(who, "carry_entries", base_carry, self, piles, deal, carried)
            if not (isinstance(found, tuple) and len(found) == 2 and _points_ok(found[1])):
                fault(f"returned {_what(found)} from carry_entries: (entries, points carried on)")
            return check_entries(found[0], len(piles), "carry_entries"), found[1]

        methods["carry_entries"] = carry_entries

    if _defines(cls, "values", base):
        base_values = cls.values

        def values(self: Any, piles: Sequence[Any], deal: int) -> list[int | None] | None:
            found = _call(who, "values", base_values, self, piles, deal)
            if found is None:
                return None
            if not isinstance(found, list | tuple) or len(found) != len(piles):
                fault(f"returned {_what(found)} from values: one value per team ({len(piles)}), or None")
            for v in found:
                if v is not None and not _points_ok(v):
                    fault(f"returned {_what(v)} among its values: a whole number (an int) per team, or None")
            return list(found)

        methods["values"] = values

    methods.update(_phrasing(who, cls, ("phrase",)))
    return _swap(award, cls, lambda: methods)


# -- bonus triggers ---------------------------------------------------------------------------------------------


def check_trigger(trigger: T) -> T:
    """A plugin's bonus trigger, checked once built: ``on_play`` a bool (the engine reads it as the class says),
    its compiled condition and points left as the builder gave them; its phrasing named on failure."""
    from piglia.dsl import Compiled

    cls: Any = type(trigger)
    who = describe("bonus", str(getattr(trigger, "key", "")), cls)
    on_play = getattr(trigger, "on_play", False)
    if not isinstance(on_play, bool):
        raise PluginError(
            f"{who} has on_play = {_what(on_play)}: a trigger says which plays it is checked on with the class "
            "attribute on_play = True (every play) or False (captures only)"
        )
    when, points = getattr(trigger, "when", None), getattr(trigger, "points", None)
    if not isinstance(when, Compiled):
        raise PluginError(f"{who} has when = {_what(when)}: the compiled condition the builder gave it")
    if not (isinstance(points, Compiled) or _points_ok(points)):
        raise PluginError(f"{who} has points = {_what(points)}: the points the builder gave it")
    return _swap(trigger, cls, lambda: _phrasing(who, cls, ("phrase",)))


# -- match ends -------------------------------------------------------------------------------------------------


def check_match_end(end: T) -> T:
    """A plugin's match end, checked: ``after_deal`` returns None (it does not decide) or (over, winner), over a
    bool, winner None (a draw) or the index of a team of the totals given; its phrasing named on failure."""
    cls: Any = type(end)
    who = describe("match", str(getattr(end, "key", "")), cls)
    base_after = cls.after_deal

    def after_deal(self: Any, totals: Sequence[int], deals_played: int) -> tuple[bool, int | None] | None:
        found = _call(who, "after_deal", base_after, self, totals, deals_played)
        if found is None:
            return None
        teams = len(totals)
        if not (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], bool)):
            raise PluginError(
                f"{who} returned {_what(found)} from after_deal: None (it does not decide) or (over, winner), "
                "over True or False"
            )
        over, winner = found
        if winner is not None and not (_is_int(winner) and 0 <= winner < teams):
            raise PluginError(
                f"{who} returned the winner {_what(winner)} from after_deal: None (a draw) or a team's index from 0 "
                f"to {teams - 1} ({teams} teams)"
            )
        if not over and winner is not None:
            raise PluginError(f"{who} returned {_shown(found)} from after_deal: a match that goes on has no winner")
        return over, winner

    methods: dict[str, Callable[..., Any]] = {"after_deal": after_deal}
    methods.update(_phrasing(who, cls, ("lines", "short", "objective")))
    return _swap(end, cls, lambda: methods)
