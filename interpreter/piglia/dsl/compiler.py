"""Type-check a DSL expression against a scope and compile it, once, into plain Python closures.

No ``eval``/``exec``: the result is a tree of small closures built at compile time, with every name,
attribute, table and card literal already resolved to an array or a constant, so a call does no tree
walking and no dictionary lookups.

How it stays fast
-----------------
Each sub-expression compiles to a :class:`Code`, one of four kinds:

* ``CONST`` - a known value (constant folding: ``7 of X`` for a suit X, ``count(deck where court)``);
* ``TAB`` - a value that depends on one comprehension variable only, precomputed for every value the
  variable can take (every card, suit or rank): ``c.suit == X`` becomes a tuple of 41 booleans, and
  ``pile where suit == X`` runs as ``filter(mask.__getitem__, pile)`` in C;
* ``ENV`` - a function of the environment only, ``efn(env)`` (scope variables are read with
  :func:`operator.attrgetter` bound once);
* ``GEN`` - the general case, ``fn(env, frame)``, where ``frame`` is a list holding the comprehension
  variables (slot ``k`` for the ``k``-th variable).

Combining codes folds whatever can be folded: an operation on constants is a constant, on constants and
tables of the same variable a table, and a general code that reads no environment and one variable is
tabulated by evaluating it for every value of that variable (within a work budget).

Run-time values never raise: a card index of ``-1`` ("no card", e.g. ``previous.card`` before the first
play) reads the sentinel entry at the end of every per-card array (no suit, no rank, value 0), and
integer division or remainder by zero gives 0.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from piglia.cards import Deck, mask_of
from piglia.dsl.dtypes import ELEMENT_OF, T, collection_of, describe, describe_any
from piglia.dsl.nodes import (
    Attr,
    Binary,
    BoolLit,
    BoolOp,
    Call,
    CardOf,
    Compare,
    Comprehension,
    Expr,
    IfElse,
    IntLit,
    Lookup,
    Name,
    StrLit,
    Unary,
    Where,
)
from piglia.dsl.parser import parse
from piglia.errors import DslError, DslNameError, DslTypeError, LimitError, did_you_mean

__all__ = ["AGGREGATES", "FUNCTIONS", "MAX_COST", "Compiled", "compile_expr", "compile_reference"]

# The most of an unknown name a message quotes (see Compiler.unknown_name).
_NAME_SHOWN = 64
# Numbers as other languages write them (1_000, 1e3, 0x10): read as an unknown card id, which puzzled.
_NUMBER_LIKE = re.compile(r"[0-9][0-9_]*_[0-9_]*|[0-9]+[eE][0-9]+|0[xXoObB][0-9a-fA-F_]+")

Fn = Callable[[Any, Any], Any]  # (env, frame) -> value
EnvFn = Callable[[Any], Any]  # env -> value

AGGREGATES = ("count", "empty", "sum", "max", "min", "any", "all", "distinct")
FUNCTIONS = (*AGGREGATES, "run")

# Most element evaluations we are willing to spend folding one sub-expression at compile time; past it
# the code is left to run at run time (an absurd nest of comprehensions over the deck must not hang).
_FOLD_BUDGET = 100_000

# Most estimated steps one evaluation of an expression may take (a loop costs the size of its domain times its
# body: nested loops multiply). A step is roughly 0.05 microseconds; an expression may be computed on every play.
# The built-in variants' costliest expression is about 2,000 steps; two loops nested over a 40-card deck are about
# 10,000; three are about 560,000, which as a bonus condition costs a second a deal, and four are 23 million.
MAX_COST = 100_000

CARD_ATTRIBUTES = ("suit", "rank", "value", "court")  # every card has them (the deck's props aside)
_RANK_ATTRS = ("value", "court")
_BUILTIN_NAMES = ("suits", "ranks", "deck")


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: ``fn(env)`` computes it, reading scope variable ``x`` as ``env.x``.

    ``type`` is the expression's type, ``ast`` its syntax tree and ``names`` the scope variables it reads;
    ``types`` is the typed AST (the type the checker found for every expression node, and for each
    comprehension variable) and ``text`` the source, for :class:`piglia.dsl.words.Words` to phrase.
    """

    fn: Callable[[Any], Any]
    type: T
    ast: Expr
    names: frozenset[str]
    types: Mapping[Expr, T] = field(default_factory=dict, compare=False, repr=False)
    text: str = ""
    cost: int = 0  # the estimated steps of one evaluation (see MAX_COST)


# ---------------------------------------------------------------------------------------------------
# Compiled sub-expressions
# ---------------------------------------------------------------------------------------------------


class Kind(enum.Enum):
    """How a :class:`Code` computes its value (see the module docstring)."""

    CONST = "const"
    TAB = "tab"
    ENV = "env"
    GEN = "gen"


@dataclass(frozen=True, slots=True)
class Code:
    """One compiled sub-expression. ``fn(env, frame)`` works for every kind; the rest is for folding."""

    type: T
    kind: Kind
    fn: Fn
    efn: EnvFn | None = None  # CONST and ENV: env -> value
    value: Any = None  # CONST: the value
    slot: int = -1  # TAB: the variable; value == table[frame[slot]]
    table: tuple[Any, ...] = ()  # TAB: one entry per value of the variable, the last one for -1
    deps: frozenset[int] = frozenset()  # variables (frame slots) read
    env: bool = False  # reads the environment
    cost: int = 1  # rough number of steps per evaluation, for the folding budget
    path: str | None = None  # ENV reading a dotted attribute path of env: one attrgetter will do
    # An aggregate built once per value of an enclosing variable (``c.suit == s`` inside ``for s in suits``):
    # (one function of the collection per value of that variable, the collection's code, the variable's slot),
    # so that a loop of that variable over a constant collection can be unrolled at compile time.
    per_value: tuple[tuple[Callable[[Any], Any], ...], Code, int] | None = None


def _const(t: T, value: Any) -> Code:
    return Code(t, Kind.CONST, lambda e, f: value, lambda e: value, value=value)


def _tab(t: T, slot: int, table: tuple[Any, ...]) -> Code:
    return Code(t, Kind.TAB, lambda e, f: table[f[slot]], slot=slot, table=table, deps=frozenset((slot,)))


def _env(t: T, efn: EnvFn, cost: int, path: str | None = None) -> Code:
    return Code(t, Kind.ENV, lambda e, f: efn(e), efn, env=True, cost=cost, path=path)


def _gen(t: T, fn: Fn, deps: frozenset[int], env: bool, cost: int) -> Code:
    return Code(t, Kind.GEN, fn, deps=deps, env=env, cost=cost)


def _efn(code: Code) -> EnvFn:
    assert code.efn is not None, code.kind
    return code.efn


def _env_closure(f: Callable[..., Any], args: Sequence[Code]) -> EnvFn:
    """``env -> f(*args)`` for arguments that are constants or functions of the environment."""
    if len(args) == 1:
        g = _efn(args[0])
        return lambda e: f(g(e))
    if len(args) == 2:
        a, b = args
        if a.kind is Kind.CONST:
            av, gb = a.value, _efn(b)
            return lambda e: f(av, gb(e))
        if b.kind is Kind.CONST:
            ga, bv = _efn(a), b.value
            return lambda e: f(ga(e), bv)
        ga, gb = _efn(a), _efn(b)
        return lambda e: f(ga(e), gb(e))
    gs = tuple(_efn(a) for a in args)
    return lambda e: f(*[g(e) for g in gs])


def _gen_closure(f: Callable[..., Any], args: Sequence[Code]) -> Fn:
    """``(env, frame) -> f(*args)``, inlining table lookups for the shapes comprehensions produce."""
    if len(args) == 1:
        g = args[0].fn
        return lambda e, fr: f(g(e, fr))
    if len(args) == 2:
        a, b = args
        if a.kind is Kind.TAB and b.kind is Kind.TAB:
            ta, ka, tb, kb = a.table, a.slot, b.table, b.slot
            return lambda e, fr: f(ta[fr[ka]], tb[fr[kb]])
        if a.kind is Kind.TAB and b.kind is Kind.ENV:
            ta, ka, gb = a.table, a.slot, _efn(b)
            return lambda e, fr: f(ta[fr[ka]], gb(e))
        if a.kind is Kind.ENV and b.kind is Kind.TAB:
            ga, tb, kb = _efn(a), b.table, b.slot
            return lambda e, fr: f(ga(e), tb[fr[kb]])
        if a.kind is Kind.CONST:
            av, fb = a.value, b.fn
            return lambda e, fr: f(av, fb(e, fr))
        if b.kind is Kind.CONST:
            fa, bv = a.fn, b.value
            return lambda e, fr: f(fa(e, fr), bv)
        fa, fb = a.fn, b.fn
        return lambda e, fr: f(fa(e, fr), fb(e, fr))
    fs = tuple(a.fn for a in args)
    return lambda e, fr: f(*[g(e, fr) for g in fs])


# ---------------------------------------------------------------------------------------------------
# Run-time helpers (pure, never raise on well-typed values)
# ---------------------------------------------------------------------------------------------------


# The largest product an expression may make: rule values are scores and counts, and a literal has at most 18 digits
# (parser.MAX_INT_DIGITS). Products alone can grow fast (sixty literals multiplied make a number of a thousand
# digits, which a simulation's averages cannot turn into a float); sums grow only with the cost limit.
MAX_PRODUCT = 10**18 - 1


def _same_but_case(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 're'?)`` for `Re`: names are case-sensitive, and the spelling search missed a name that
    differs in case only (`Re`, `7C` had no suggestion; `True` was offered `re`)."""
    folded = word.casefold()
    same = next((c for c in candidates if c.casefold() == folded), None)
    return f" (did you mean {same!r}?)" if same is not None else ""


def _mul(a: int, b: int) -> int:
    product = a * b
    if -MAX_PRODUCT <= product <= MAX_PRODUCT:
        return product
    raise LimitError(f"a product in the rules' expressions passed 18 digits ({a} * {b})")


def _floordiv(a: int, b: int) -> int:
    # A rule dividing by an empty count should not crash a simulation: x / 0 is 0.
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _set_eq(a: Iterable[int], b: Iterable[int]) -> bool:
    # Collections compare as sets: `captured == table_before` does not depend on order.
    return frozenset(a) == frozenset(b)


def _set_ne(a: Iterable[int], b: Iterable[int]) -> bool:
    return frozenset(a) != frozenset(b)


def _not_contains(collection: Collection[int], x: int) -> bool:
    return x not in collection


def _getter(items: Sequence[Any]) -> Callable[[int], Any]:
    """``items[i]`` as a function of ``i``: a list's bound ``__getitem__``, a fast method (a tuple's is a slot
    wrapper costing about 1.5 times the instructions per call, and compiled code calls these per card)."""
    return list(items).__getitem__


def _max0(values: Iterable[int]) -> int:
    return max(values, default=0)


def _min0(values: Iterable[int]) -> int:
    return min(values, default=0)


def _distinct(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(set(values)))


# What an aggregate makes of the list of (filtered, mapped) element values.
_FINISH: dict[str, Callable[[list[Any]], Any]] = {
    "count": len,
    "empty": operator.not_,
    "sum": sum,
    "max": _max0,
    "min": _min0,
    "any": any,
    "all": all,
    "distinct": _distinct,
    "filter": tuple,
}


# ---------------------------------------------------------------------------------------------------
# The compiler
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    """What names mean at one point of the expression."""

    local: Mapping[str, tuple[int, T]] = field(default_factory=dict)  # comprehension variables: slot, type
    card: Code | None = None  # the card that bare `suit`, `rank`... refer to: a `where`'s, or a filter's

    def bind(self, name: str, slot: int, t: T) -> _Ctx:
        return _Ctx({**self.local, name: (slot, t)}, self.card)

    def with_card(self, card: Code) -> _Ctx:
        return _Ctx(self.local, card)


@dataclass(frozen=True)
class _Loop:
    """A comprehension or filter: for each element of ``coll`` (slot ``slot``), if ``cond``, ``elem``."""

    coll: Code
    slot: int
    cond: Code | None
    elem: Code
    elem_node: Expr


@dataclass(frozen=True)
class _Prop:
    """A named property declared on ranks or suits, normalised to one type."""

    type: T
    of_card: tuple[Any, ...]  # per card, plus the sentinel for "no card"
    of_rank: tuple[Any, ...] | None  # per rank plus sentinel, if declared on ranks
    of_suit: tuple[Any, ...] | None  # per suit plus sentinel, if declared on suits


def _props(deck: Deck) -> dict[str, _Prop]:
    """Every property of the deck with its type: all bool -> BOOL, all int -> INT, else STR.

    A card whose rank and suit both lack the property reads False, 0 or "" (never None, so comparisons
    cannot fail at run time).
    """
    rank_names = {k for r in deck.ranks for k in r.props}
    suit_names = {k for s in deck.suits for k in s.props}
    props: dict[str, _Prop] = {}
    for name, values in deck.prop_of.items():
        present = [v for v in values if v is not None]
        norm: Callable[[Any], Any]
        if all(isinstance(v, bool) for v in present):
            t, norm = T.BOOL, lambda v: bool(v) if v is not None else False
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            t, norm = T.INT, lambda v: v if v is not None else 0
        else:
            t, norm = T.STR, lambda v: str(v) if v is not None else ""
        sentinel = norm(None)
        props[name] = _Prop(
            t,
            (*(norm(v) for v in values), sentinel),
            (*(norm(r.props.get(name)) for r in deck.ranks), sentinel) if name in rank_names else None,
            (*(norm(s.props.get(name)) for s in deck.suits), sentinel) if name in suit_names else None,
        )
    return props


def _hint(word: str, names: list[str], what: str) -> str:
    """A close name if there is one, else the whole (short) list: `8` is close to no rank of a 40-card deck."""
    close = did_you_mean(word, names)
    if close or len(names) > 20:
        return close
    return f" (the {what} are {', '.join(names)})"


class _Compiler:
    """Compiles one expression; holds the deck's arrays (with sentinels) and the variables allocated."""

    def __init__(
        self,
        scope: Mapping[str, T],
        deck: Deck,
        known_elsewhere: Collection[str],
        *,
        fold: bool = True,
        string_values: Mapping[str, Collection[str]] | None = None,
    ) -> None:
        self.fold = fold  # False: no constants, tables or fast loops (the reference for tests)
        self.scope = scope
        # Scope collections the environment also gives as bit masks (Scope.bits): aggregates over them run on the
        # mask. Not in the reference, which stays the plain loop the fast forms are checked against.
        self.bits: Mapping[str, str] = getattr(scope, "bits", {}) if fold else {}
        self.string_values = string_values or {}
        self.deck = deck
        self.known_elsewhere = known_elsewhere
        # The attributes of a play: one table, owned by the scopes' module (imported here, not at the top,
        # because piglia.contexts itself imports the DSL's types).
        from piglia.contexts import PLAY_ATTRS

        self.play_attrs = PLAY_ATTRS
        self.names: set[str] = set()
        self.types: dict[Expr, T] = {}  # the typed AST: each node's type, as checked
        self.domains: list[tuple[int, ...]] = []  # per slot: the values the variable takes, -1 last
        self.idents: list[Code] = []  # per slot: the variable itself, as a TAB code
        # Per-card arrays, with the "no card" (-1) entry at the end so that index -1 reads it.
        self.suit_of = (*deck.suit_of, -1)
        self.rank_of = (*deck.rank_of, -1)
        self.value_of = (*deck.value_of, 0)
        self.court_of = (*deck.court_of, False)
        self.rank_value = (*(r.value for r in deck.ranks), 0)
        self.rank_court = (*(r.court for r in deck.ranks), False)
        self.props = _props(deck)
        self.sizes = {T.CARD: len(deck.cards), T.SUIT: len(deck.suits), T.RANK: len(deck.ranks)}

    # -- folding -------------------------------------------------------------------------------------

    def new_slot(self, t: T) -> int:
        """A frame slot for a comprehension variable of type ``t`` (CARD, SUIT or RANK)."""
        slot = len(self.domains)
        domain = (*range(self.sizes[t]), -1)
        self.domains.append(domain)
        if self.fold:
            self.idents.append(_tab(t, slot, domain))
        else:
            self.idents.append(_gen(t, lambda e, fr: fr[slot], frozenset((slot,)), False, 1))
        return slot

    def frame(self) -> list[int]:
        return [-1] * len(self.domains)

    def lift(self, t: T, f: Callable[..., Any], args: Sequence[Code], cost: int = 1) -> Code:
        """The code for ``f(*args)`` (f pure), folded as far as the arguments allow."""
        if self.fold and all(a.kind is Kind.CONST for a in args):
            return _const(t, f(*[a.value for a in args]))
        slots = {a.slot for a in args if a.kind is Kind.TAB}
        if self.fold and len(slots) == 1 and all(a.kind in (Kind.CONST, Kind.TAB) for a in args):
            (slot,) = slots
            n = len(self.domains[slot])
            columns = [a.table if a.kind is Kind.TAB else (a.value,) * n for a in args]
            return _tab(t, slot, tuple(f(*row) for row in zip(*columns, strict=True)))
        total = cost + sum(a.cost for a in args)
        if all(not a.deps for a in args):
            return _env(t, _env_closure(f, args), total)
        deps = frozenset().union(*(a.deps for a in args))
        return self.settle(_gen(t, _gen_closure(f, args), deps, any(a.env for a in args), total))

    def settle(self, code: Code) -> Code:
        """Fold a general code that does not read the environment into a constant or a table."""
        if not self.fold or code.kind is not Kind.GEN or code.env or len(code.deps) > 1:
            return code
        if not code.deps:
            if code.cost > _FOLD_BUDGET:
                return _env(code.type, _with_frame(code.fn, len(self.domains)), code.cost)
            return _const(code.type, code.fn(None, self.frame()))
        (slot,) = code.deps
        domain = self.domains[slot]
        if code.cost * len(domain) > _FOLD_BUDGET:
            return code
        frame = self.frame()
        values = []
        for v in domain:
            frame[slot] = v
            values.append(code.fn(None, frame))
        return _tab(code.type, slot, tuple(values))

    def tabulate(self, code: Code, slot: int, frame: list[int]) -> tuple[Any, ...]:
        """The code's value for every value of variable ``slot``, the other variables as in ``frame``."""
        if code.kind is Kind.CONST:
            return (code.value,) * len(self.domains[slot])
        if code.kind is Kind.TAB and code.slot == slot:
            return code.table
        values = []
        for x in self.domains[slot]:
            frame[slot] = x
            values.append(code.fn(None, frame))
        return tuple(values)

    def finish(self, code: Code) -> Callable[[Any], Any]:
        """The one-argument function for the whole expression."""
        if code.kind is Kind.CONST:
            value = code.value
            return lambda env: value
        if code.efn is not None:
            return code.efn
        # Not reached: every variable is bound inside its comprehension, so the root reads none.
        return _with_frame(code.fn, len(self.domains))  # pragma: no cover

    # -- dispatch ------------------------------------------------------------------------------------

    def expr(self, node: Expr, ctx: _Ctx) -> Code:
        """Type-check and compile one node (and record its type in the typed AST)."""
        code = self._expr(node, ctx)
        self.types[node] = code.type
        return code

    def _expr(self, node: Expr, ctx: _Ctx) -> Code:
        match node:
            case IntLit(value=value):
                return _const(T.INT, value)
            case BoolLit(value=value):
                return _const(T.BOOL, value)
            case StrLit(value=value):
                return _const(T.STR, value)
            case Name():
                return self.name(node, ctx)
            case CardOf():
                return self.card_of(node)
            case Attr():
                return self.attribute(self.expr(node.obj, ctx), node.name)
            case Lookup():
                return self.lookup(node, ctx)
            case Call():
                return self.call(node, ctx)
            case Unary():
                return self.unary(node, ctx)
            case Binary():
                return self.binary(node, ctx)
            case Compare():
                return self.compare(node, ctx)
            case BoolOp():
                return self.bool_op(node, ctx)
            case IfElse():
                return self.if_else(node, ctx)
            case Where():
                return self.reduce("filter", self.where_loop(node, ctx), node)
            case Comprehension():
                raise DslTypeError(
                    "a 'for' expression can only be the argument of "
                    + ", ".join(f"{a}()" for a in AGGREGATES[:-1])
                    + f" or {AGGREGATES[-1]}()",
                    node.offset,
                    length=node.length,
                )
        raise DslTypeError(f"unsupported expression {type(node).__name__}", node.offset)  # pragma: no cover

    def need(self, code: Code, node: Expr, types: T | tuple[T, ...], what: str) -> None:
        """Raise ``<what> needs <types>, got <type>`` unless the code has one of the types."""
        allowed = (types,) if isinstance(types, T) else types
        if code.type not in allowed:
            raise DslTypeError(
                f"{what} needs {describe_any(allowed)}, got {describe(code.type)}",
                node.offset,
                length=node.length,
            )

    # -- names ---------------------------------------------------------------------------------------

    def name(self, node: Name, ctx: _Ctx) -> Code:
        """Resolve a bare name: locals, scope, the current card's attributes, builtins, suits, ranks, ids."""
        ident = node.id
        deck = self.deck
        if ident in ctx.local:
            slot, _ = ctx.local[ident]
            return self.idents[slot]
        if ident in self.scope:
            self.names.add(ident)
            return _env(self.scope[ident], operator.attrgetter(ident), 1, path=ident)
        if ctx.card is not None and (ident in CARD_ATTRIBUTES or ident in self.props):
            return self.attribute(ctx.card, node)
        if ident == "suits":
            return _const(T.SUITS, tuple(range(len(deck.suits))))
        if ident == "ranks":
            return _const(T.RANKS, tuple(range(len(deck.ranks))))
        if ident == "deck":
            return _const(T.CARDS, tuple(range(len(deck.cards))))
        if ident in deck.suit_by_name:
            return _const(T.SUIT, deck.suit_by_name[ident].index)
        if ident in deck.rank_by_name:
            return _const(T.RANK, deck.rank_by_name[ident].index)
        if ident in deck.by_id:
            return _const(T.CARD, deck.by_id[ident].index)
        raise self.unknown_name(node, ctx)

    def unknown_name(self, node: Name, ctx: _Ctx) -> DslError:
        where = {"offset": node.offset, "length": node.length}
        if len(node.id) > _NAME_SHOWN:
            # No name is this long (a key is at most 64 characters): quoted whole in every message, one such name
            # aliased across a file made hundreds of megabytes of them, and a search for a close name took minutes.
            return DslNameError(f"unknown name {node.id[:_NAME_SHOWN] + '…'!r} ({len(node.id)} characters)", **where)
        ident = node.id
        if ident[:1].isdigit() and _NUMBER_LIKE.fullmatch(ident) and ident not in self.deck.by_id:
            return DslNameError(f"{ident!r} is no number here: a number is written with digits only, as 1000", **where)
        if ident[:1].isdigit():
            hint = (
                _same_but_case(ident, self.deck.by_id)
                or did_you_mean(ident, self.deck.by_id)
                or (
                    f" (a card id is a rank id then a suit id, such as {self.deck.cards[0].id!r})"
                    if self.deck.cards
                    else ""
                )
            )
            return DslNameError(f"unknown card {ident!r}{hint}", **where)
        if ident in self.known_elsewhere:
            sees = ", ".join(self.scope) or "no variables"
            return DslNameError(f"{ident!r} is not available here (this expression sees {sees})", **where)
        if ident in self.deck.tables:
            return DslNameError(f"{ident!r} is a table: look a value up with {ident}[...]", **where)
        if ident in FUNCTIONS:
            return DslNameError(f"{ident!r} is a function: call it as {ident}(...)", **where)
        candidates = [
            *ctx.local,
            *self.scope,
            *_BUILTIN_NAMES,
            *self.deck.suit_by_name,
            *self.deck.rank_by_name,
        ]
        if ctx.card is not None:
            candidates += [*CARD_ATTRIBUTES, *self.props]
        if ident[:1].isupper():
            # Card ids (`Rc`) only as suggestions for capitalised names: `c` should not suggest `Rc`.
            candidates += list(self.deck.by_id)
        candidates += ["true", "false"]  # words of the grammar, not names: `True` is `true`, not a misspelt `re`
        hint = _same_but_case(ident, candidates) or did_you_mean(ident, candidates)
        return DslNameError(f"unknown name {ident!r}{hint}", **where)

    def rank_named(self, node: Expr, word: str) -> Code:
        """The rank called ``word`` (its name, or failing that its id), as a constant."""
        deck = self.deck
        rank = deck.rank_by_name.get(word) or next((r for r in deck.ranks if r.id == word), None)
        if rank is None:
            names = [r.name for r in deck.ranks]
            raise DslNameError(f"unknown rank {word!r}{_hint(word, names, 'ranks')}", node.offset, length=node.length)
        return _const(T.RANK, rank.index)

    def coerce(self, node: Expr, code: Code, want: T) -> Code:
        """An integer literal where a rank is wanted names the rank: ``rank == 7`` is the rank "7"."""
        if want is T.RANK and code.type is T.INT and isinstance(node, IntLit):
            return self.rank_named(node, str(node.value))
        return code

    def card_of(self, node: CardOf) -> Code:
        """``7 of X``: a card constant (a rank, then a suit)."""
        deck = self.deck
        rank = self.rank_named(node.rank, node.rank.id).value
        word = node.suit.id
        suit = deck.suit_by_name.get(word) or next((s for s in deck.suits if s.id == word), None)
        if suit is None:
            names = [s.name for s in deck.suits]
            raise DslNameError(
                f"unknown suit {word!r}{_hint(word, names, 'suits')}", node.suit.offset, length=node.suit.length
            )
        return _const(T.CARD, suit.index * len(deck.ranks) + rank)

    # -- attributes and tables -----------------------------------------------------------------------

    def attribute(self, obj: Code, name: Name) -> Code:
        """``obj.name`` for cards, ranks, suits and plays."""
        attr, t = name.id, obj.type
        if t is T.CARD:
            arrays: dict[str, tuple[T, tuple[Any, ...]]] = {
                "suit": (T.SUIT, self.suit_of),
                "rank": (T.RANK, self.rank_of),
                "value": (T.INT, self.value_of),
                "court": (T.BOOL, self.court_of),
            }
            for prop_name, prop in self.props.items():
                arrays.setdefault(prop_name, (prop.type, prop.of_card))
        elif t is T.RANK:
            arrays = {"value": (T.INT, self.rank_value), "court": (T.BOOL, self.rank_court)}
            for prop_name, prop in self.props.items():
                if prop.of_rank is not None:
                    arrays.setdefault(prop_name, (prop.type, prop.of_rank))
        elif t is T.SUIT:
            arrays = {n: (p.type, p.of_suit) for n, p in self.props.items() if p.of_suit is not None}
        elif t is T.PLAY:
            if attr not in self.play_attrs:
                raise self.no_attribute(name, t, self.play_attrs)
            rt = self.play_attrs[attr]
            if obj.path is not None:
                # `previous.card` is one C-level attrgetter("previous.card"), not two calls.
                path = f"{obj.path}.{attr}"
                return _env(rt, operator.attrgetter(path), obj.cost, path=path)
            return self.lift(rt, operator.attrgetter(attr), [obj])
        else:
            # the example names one of this variant's suits: a hint in another game's words would confuse
            example = f"pile where suit == {self.deck.suits[0].name}" if self.deck.suits else "pile where court"
            hint = f" (to choose cards, filter them: {example})" if t is T.CARDS else ""
            verb = "have" if t in ELEMENT_OF else "has"
            raise DslTypeError(
                f"{describe(t)} {verb} no attribute {attr!r}{hint}", name.offset - 1, length=name.length + 1
            )
        if attr not in arrays:
            raise self.no_attribute(name, t, arrays)
        rt, array = arrays[attr]
        return self.lift(rt, _getter(array), [obj])

    def no_attribute(self, name: Name, t: T, known: Iterable[str]) -> DslNameError:
        return DslNameError(
            f"{describe(t)} has no attribute {name.id!r}{did_you_mean(name.id, known)}",
            name.offset,
            length=name.length,
        )

    def lookup(self, node: Lookup, ctx: _Ctx) -> Code:
        """``table[key]``: a rank-, suit- or card-keyed table of numbers."""
        deck = self.deck
        table = deck.tables.get(node.table.id)
        if table is None:
            raise DslNameError(
                f"unknown table {node.table.id!r}{did_you_mean(node.table.id, deck.tables)}",
                node.table.offset,
                length=node.table.length,
            )
        key = self.expr(node.key, ctx)
        size = {"rank": len(deck.ranks), "suit": len(deck.suits)}.get(table.key, len(deck.cards))
        # Exactly one value per key index, then 0 for the -1 key ("no card"/"no rank").
        values = (*(table.values[i] if i < len(table.values) else 0 for i in range(size)), 0)
        if table.key == "rank":
            key = self.coerce(node.key, key, T.RANK)
            allowed: tuple[T, ...] = (T.RANK, T.CARD)
            index_of: tuple[int, ...] | None = self.rank_of
        elif table.key == "suit":
            allowed, index_of = (T.SUIT, T.CARD), self.suit_of
        else:
            allowed, index_of = (T.CARD,), None
        self.need(key, node.key, allowed, f"the table {node.table.id!r}")
        if key.type is T.CARD and index_of is not None:
            # A card given to a rank- or suit-keyed table: precompose, one lookup per card.
            values = tuple(values[i] for i in index_of)
        return self.lift(T.INT, _getter(values), [key])

    # -- operators -----------------------------------------------------------------------------------

    def unary(self, node: Unary, ctx: _Ctx) -> Code:
        operand = self.expr(node.operand, ctx)
        if node.op == "-":
            self.need(operand, node.operand, T.INT, "'-'")
            return self.lift(T.INT, operator.neg, [operand])
        self.need(operand, node.operand, T.BOOL, "'not'")
        return self.lift(T.BOOL, operator.not_, [operand])

    def binary(self, node: Binary, ctx: _Ctx) -> Code:
        left, right = self.expr(node.left, ctx), self.expr(node.right, ctx)
        self.need(left, node.left, T.INT, f"'{node.op}'")
        self.need(right, node.right, T.INT, f"'{node.op}'")
        if node.op in "/%" and right.kind is Kind.CONST and right.value == 0:
            raise DslTypeError("division by zero", node.right.offset, length=node.right.length)
        f = {"+": operator.add, "-": operator.sub, "*": _mul, "/": _floordiv, "%": _mod}[node.op]
        try:
            return self.lift(T.INT, f, [left, right])
        except LimitError:  # a product of constants, folded here: at its place in the file
            raise DslTypeError(
                "number too large (a product of more than 18 digits)", node.offset, length=node.length
            ) from None

    def compare(self, node: Compare, ctx: _Ctx) -> Code:
        left, right = self.expr(node.left, ctx), self.expr(node.right, ctx)
        op = node.op
        where = {"offset": node.offset, "length": node.length}
        if op in ("in", "not in"):
            element = ELEMENT_OF.get(right.type)
            if element is None:
                raise DslTypeError(
                    f"'{op}' needs cards, suits or ranks on its right, got {describe(right.type)}",
                    node.right.offset,
                    length=node.right.length,
                )
            left = self.coerce(node.left, left, element)
            if left.type is not element:
                raise DslTypeError(f"cannot look for {describe(left.type)} in {describe(right.type)}", **where)
            if right.kind is Kind.CONST:
                members = frozenset(right.value)
                test = members.__contains__ if op == "in" else lambda x: x not in members
                return self.lift(T.BOOL, test, [left])
            # a scan of the collection: as many steps as it may hold
            scan = operator.contains if op == "in" else _not_contains
            return self.lift(T.BOOL, scan, [right, left], cost=1 + self.most_held(right.type))
        left = self.coerce(node.left, left, right.type)
        right = self.coerce(node.right, right, left.type)
        t = left.type
        if t is not right.type:
            raise DslTypeError(f"cannot compare {describe(t)} with {describe(right.type)}", **where)
        if t is T.STR:
            self.check_value(node.left, node.right, ctx)
            self.check_value(node.right, node.left, ctx)
        if op in ("==", "!="):
            if t is T.PLAY:
                raise DslTypeError("plays cannot be compared; compare their card or captured cards", **where)
            if t in ELEMENT_OF:
                # two sets made of the collections, then compared: steps for every element of both
                set_test = _set_eq if op == "==" else _set_ne
                return self.lift(T.BOOL, set_test, [left, right], cost=1 + 2 * self.most_held(t))
            f: Callable[[Any, Any], bool] = operator.eq if op == "==" else operator.ne
        else:
            if t not in (T.INT, T.RANK, T.STR):
                raise DslTypeError(f"'{op}' needs numbers, ranks or strings, got {describe(t)}", **where)
            f = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]
        return self.lift(T.BOOL, f, [left, right])

    def most_held(self, t: T) -> int:
        """The most elements a collection of type ``t`` holds: the deck's cards, suits or ranks (the cost of a
        step that reads every one, such as a comparison of two collections as sets)."""
        deck = self.deck
        sizes = {T.CARDS: len(deck.cards), T.SUITS: len(deck.suit_by_name), T.RANKS: len(deck.rank_by_name)}
        return sizes.get(t, 1)

    def check_value(self, name: Expr, literal: Expr, ctx: _Ctx) -> None:
        """``kind == "x"``: a text variable with a known set of values compared with a string it never takes.

        Such a comparison would be always false (or always true), silently, so a misspelt value is an error
        at the string, with the close name or the list, like every other name.
        """
        if not (isinstance(name, Name) and isinstance(literal, StrLit)) or name.id in ctx.local:
            return
        values = self.string_values.get(name.id)
        if values is None or name.id not in self.scope or literal.value in values:
            return
        names = sorted(v for v in values if v)
        raise DslNameError(
            f"{name.id} is never {literal.value!r}{_hint(literal.value, names, f'values of {name.id}')}",
            literal.offset,
            length=literal.length,
        )

    def bool_op(self, node: BoolOp, ctx: _Ctx) -> Code:
        """``and``/``or`` of two conditions."""
        left, right = self.expr(node.left, ctx), self.expr(node.right, ctx)
        self.need(left, node.left, T.BOOL, f"'{node.op}'")
        self.need(right, node.right, T.BOOL, f"'{node.op}'")
        return self.and_or(node.op == "and", left, right)

    def and_or(self, is_and: bool, left: Code, right: Code) -> Code:
        """``left and right`` (or ``or``), short-circuit: the right side runs only when it decides."""
        # Every expression is pure, so a constant on either side decides or drops out.
        for known, other in ((left, right), (right, left)):
            if self.fold and known.kind is Kind.CONST:
                if known.value == is_and:  # `true and x`, `false or x`
                    return other
                return _const(T.BOOL, not is_and)
        if self.fold and left.kind is Kind.TAB and right.kind is Kind.TAB and left.slot == right.slot:
            return self.lift(T.BOOL, (lambda a, b: a and b) if is_and else (lambda a, b: a or b), [left, right])
        cost = left.cost + right.cost + 1
        if not left.deps and not right.deps:
            ga, gb = _efn(left), _efn(right)
            efn: EnvFn = (lambda e: ga(e) and gb(e)) if is_and else (lambda e: ga(e) or gb(e))
            return _env(T.BOOL, efn, cost)
        fa, fb = left.fn, right.fn
        fn: Fn = (lambda e, fr: fa(e, fr) and fb(e, fr)) if is_and else (lambda e, fr: fa(e, fr) or fb(e, fr))
        return self.settle(_gen(T.BOOL, fn, left.deps | right.deps, left.env or right.env, cost))

    def if_else(self, node: IfElse, ctx: _Ctx) -> Code:
        """``body if test else orelse``; only the chosen branch runs."""
        test = self.expr(node.test, ctx)
        self.need(test, node.test, T.BOOL, "'if'")
        body, orelse = self.expr(node.body, ctx), self.expr(node.orelse, ctx)
        body = self.coerce(node.body, body, orelse.type)
        orelse = self.coerce(node.orelse, orelse, body.type)
        if body.type is not orelse.type:
            raise DslTypeError(
                f"the two sides of 'if ... else' differ: {describe(body.type)} and {describe(orelse.type)}",
                node.offset,
                length=node.length,
            )
        t = body.type
        if self.fold and test.kind is Kind.CONST:
            return body if test.value else orelse
        parts = (test, body, orelse)
        if self.fold and all(p.kind in (Kind.CONST, Kind.TAB) for p in parts):
            return self.lift(t, lambda c, a, b: a if c else b, parts)
        cost = test.cost + max(body.cost, orelse.cost) + 1
        if not (test.deps or body.deps or orelse.deps):
            gt, ga, gb = _efn(test), _efn(body), _efn(orelse)
            return _env(t, lambda e: ga(e) if gt(e) else gb(e), cost)
        ft, fa, fb = test.fn, body.fn, orelse.fn
        deps = test.deps | body.deps | orelse.deps
        env = test.env or body.env or orelse.env
        return self.settle(_gen(t, lambda e, fr: fa(e, fr) if ft(e, fr) else fb(e, fr), deps, env, cost))

    # -- comprehensions, filters and calls -----------------------------------------------------------

    def where_loop(self, node: Where, ctx: _Ctx) -> _Loop:
        """``coll where cond``: bare card attributes in ``cond`` are the current card's."""
        coll = self.expr(node.coll, ctx)
        self.need(coll, node.coll, T.CARDS, "'where'")
        slot = self.new_slot(T.CARD)
        cond = self.expr(node.cond, ctx.with_card(self.idents[slot]))
        self.need(cond, node.cond, T.BOOL, "'where'")
        self.types[node] = T.CARDS
        return _Loop(coll, slot, cond, self.idents[slot], node.coll)

    def comprehension(self, node: Comprehension, ctx: _Ctx) -> _Loop:
        """``element for var in iterable [where cond]``."""
        coll = self.expr(node.iterable, ctx)
        element_type = ELEMENT_OF.get(coll.type)
        if element_type is None:
            raise DslTypeError(
                f"'for ... in' needs cards, suits or ranks, got {describe(coll.type)}",
                node.iterable.offset,
                length=node.iterable.length,
            )
        slot = self.new_slot(element_type)
        self.types[node.var] = element_type
        inner = ctx.bind(node.var.id, slot, element_type)
        cond = None
        if node.cond is not None:
            cond_ctx = inner.with_card(self.idents[slot]) if element_type is T.CARD else inner
            cond = self.expr(node.cond, cond_ctx)
            self.need(cond, node.cond, T.BOOL, "'where'")
        return _Loop(coll, slot, cond, self.expr(node.element, inner), node.element)

    def call(self, node: Call, ctx: _Ctx) -> Code:
        """The builtins: aggregates over a collection or a comprehension, and run()."""
        fname, args = node.func.id, node.args
        where = {"offset": node.offset, "length": node.length}
        if fname not in FUNCTIONS:
            hint = f" ({fname!r} is a table: write {fname}[...])" if fname in self.deck.tables else ""
            raise DslNameError(
                f"unknown function {fname!r}{hint or did_you_mean(fname, FUNCTIONS)}",
                node.func.offset,
                length=node.func.length,
            )
        if any(isinstance(a, Comprehension) for a in args) and fname not in AGGREGATES:
            raise DslTypeError(f"{fname}() does not take a 'for' expression", **where)
        if fname == "run":
            if len(args) != 2:
                raise DslTypeError(f"run() takes two arguments (cards, rank), got {len(args)}", **where)
            cards, rank = self.expr(args[0], ctx), self.expr(args[1], ctx)
            self.need(cards, args[0], T.CARDS, "run()")
            rank = self.coerce(args[1], rank, T.RANK)
            self.need(rank, args[1], T.RANK, "run()")
            return self.lift(T.INT, self.run_length(), [cards, rank], cost=self.sizes[T.CARD])
        if fname in ("max", "min") and len(args) >= 2:
            codes = [self.expr(a, ctx) for a in args]
            for code, arg in zip(codes, args, strict=True):
                self.need(code, arg, T.INT, f"{fname}()")
            return self.lift(T.INT, max if fname == "max" else min, codes)
        if len(args) != 1:
            raise DslTypeError(f"{fname}() takes one argument, got {len(args)}", **where)
        (arg,) = args
        if isinstance(arg, Comprehension):
            return self.reduce(fname, self.comprehension(arg, ctx), node)
        if isinstance(arg, Where):
            return self.reduce(fname, self.where_loop(arg, ctx), node)
        return self.aggregate(fname, self.expr(arg, ctx), arg)

    def run_length(self) -> Callable[[Iterable[int], int], int]:
        """run(cards, rank): how many consecutive ranks, from ``rank`` up, the cards hold."""
        bit = (*(1 << r for r in self.deck.rank_of), 0)

        def run(cards: Iterable[int], rank: int) -> int:
            if rank < 0:
                return 0
            held = 0
            for c in cards:
                held |= bit[c]
            x = held >> rank
            return (~x & (x + 1)).bit_length() - 1  # trailing one bits of x

        return run

    def aggregate(self, fname: str, coll: Code, node: Expr) -> Code:
        """An aggregate of a plain collection: count(pile), sum(captured), distinct(...)."""
        kinds = (T.CARDS, T.SUITS, T.RANKS)
        n = self.sizes[T.CARD]
        if fname == "count":
            self.need(coll, node, kinds, "count()")
            return self.lift(T.INT, len, [coll], cost=1)
        if fname == "empty":
            self.need(coll, node, kinds, "empty()")
            return self.lift(T.BOOL, operator.not_, [coll], cost=1)
        if fname == "distinct":
            self.need(coll, node, kinds, "distinct()")
            return self.lift(coll.type, _distinct, [coll], cost=n)
        if fname in ("sum", "max", "min"):
            self.need(coll, node, T.CARDS, f"{fname}()")
            value = _getter(self.value_of)
            folds: dict[str, Callable[[Iterable[int]], int]] = {"sum": sum, "max": _max0, "min": _min0}
            fold = folds[fname]
            return self.lift(T.INT, lambda cards: fold(map(value, cards)), [coll], cost=n)
        raise DslTypeError(
            f"{fname}() needs a condition for each element, e.g. {fname}(c.court for c in pile)",
            node.offset,
            length=node.length,
        )

    def reduce(self, agg: str, loop: _Loop, node: Expr) -> Code:
        """An aggregate (or ``filter``, for ``where``) over a comprehension: type-check, then build."""
        elem: Code | None = loop.elem
        cond = loop.cond
        assert elem is not None
        if agg in ("sum", "max", "min"):
            if elem.type is T.CARD:
                elem = self.lift(T.INT, _getter(self.value_of), [elem])
            self.need(elem, loop.elem_node, T.INT, f"{agg}()")
            rt = T.INT
        elif agg in ("any", "all"):
            self.need(elem, loop.elem_node, T.BOOL, f"{agg}()")
            rt = T.BOOL
        elif agg == "distinct":
            self.need(elem, loop.elem_node, (T.CARD, T.SUIT, T.RANK), "distinct()")
            rt = collection_of(elem.type) or T.CARDS
        elif agg in ("count", "empty"):
            # count(c.court for c in pile) counts the true ones; otherwise the element does not matter.
            if elem.type is T.BOOL:
                cond = elem if cond is None else self.and_or(True, cond, elem)
            elem = None
            rt = T.INT if agg == "count" else T.BOOL
        else:  # filter: the elements themselves
            elem = None
            rt = T.CARDS
        return self.loop(agg, rt, loop, cond, elem)

    def bits_of(self, coll: Code) -> Code | None:
        """The code reading ``coll`` as a bit mask, when it is a scope collection the environment also gives so
        (:class:`~piglia.dsl.dtypes.Scope`'s ``bits``); else None."""
        attr = self.bits.get(coll.path) if coll.kind is Kind.ENV and coll.path is not None else None
        return None if attr is None else _env(T.INT, operator.attrgetter(attr), 1)

    def loop(self, agg: str, rt: T, loop: _Loop, cond: Code | None, elem: Code | None) -> Code:
        """Build the code of one aggregate over one loop, in C-speed form when the parts are tables."""
        slot, coll = loop.slot, loop.coll
        size = len(self.domains[slot])
        finish = _FINISH[agg]
        if self.fold and cond is not None and cond.kind is Kind.CONST:
            if not cond.value:
                return _const(rt, finish([]))  # nothing passes, whatever the collection
            cond = None

        def on_slot(code: Code | None) -> bool:
            return code is None or code.kind is Kind.CONST or (code.kind is Kind.TAB and code.slot == slot)

        # The collection as a bit mask, where the environment gives it so (Scope.bits); None: as its cards.
        bits = self.bits_of(coll)

        if self.fold and on_slot(cond) and on_slot(elem):
            mask = None if cond is None else cond.table
            values = None if elem is None else (elem.table if elem.kind is Kind.TAB else (elem.value,) * size)
            on_bits = None if bits is None else _fast_bits(agg, mask, values)
            if on_bits is not None:
                assert bits is not None
                return self.lift(rt, on_bits, [bits], cost=size)
            return self.lift(rt, _fast(agg, mask, values), [coll], cost=size)

        inner = [p for p in (cond, elem) if p is not None]
        outer = frozenset().union(*(p.deps for p in inner)) - {slot}
        if self.fold and len(outer) == 1 and not any(p.env for p in inner):
            # The condition or element also reads one enclosing variable (`c.suit == s`): build the
            # fast form once per value of that variable, and pick it at run time.
            (other,) = outer
            work = len(self.domains[other]) * size * (1 + sum(p.cost for p in inner))
            if work <= _FOLD_BUDGET:
                frame, tables = self.frame(), []
                for v in self.domains[other]:
                    frame[other] = v
                    mask = None if cond is None else self.tabulate(cond, slot, frame)
                    values = None if elem is None else self.tabulate(elem, slot, frame)
                    tables.append((mask, values))
                # on the bit mask if every value's form can be, else on the cards
                bit_cores = [] if bits is None else [_fast_bits(agg, mask, values) for mask, values in tables]
                cores: list[Callable[[Any], Any]] = [f for f in bit_cores if f is not None]
                over = bits if bits is not None and len(cores) == len(tables) else coll
                if over is coll:
                    cores = [_fast(agg, mask, values) for mask, values in tables]
                by_value = tuple(cores)
                code = self.lift(rt, lambda c, v: by_value[v](c), [over, self.idents[other]], cost=size)
                if code.kind is Kind.GEN and not over.deps and over.efn is not None:
                    code = dataclasses.replace(code, per_value=(by_value, over, other))
                return code

        if (
            self.fold
            and cond is None
            and coll.kind is Kind.CONST
            and elem is not None
            and elem.per_value is not None
            and elem.per_value[2] == slot
        ):
            # A loop over a constant collection of an aggregate built per value of the loop's variable
            # (`sum(max(... for c in pile where c.suit == s) for s in suits)`): unrolled here, one function
            # of the inner collection per element, called in the collection's order.
            by_value, over, _ = elem.per_value
            fns = tuple(by_value[v] for v in coll.value)
            get = _efn(over)

            def unrolled(e: Any) -> Any:
                c = get(e)
                return finish([f(c) for f in fns])

            return _env(rt, unrolled, over.cost + size * elem.cost)

        parts = [p for p in (coll, cond, elem) if p is not None]
        deps = frozenset().union(*(p.deps for p in parts)) - {slot}
        env = any(p.env for p in parts)
        cost = coll.cost + size * (2 + sum(p.cost for p in (cond, elem) if p is not None))
        run = _general(finish, slot, coll.fn, None if cond is None else cond.fn, None if elem is None else elem.fn)
        if deps:
            return self.settle(_gen(rt, run, deps, env, cost))
        if self.fold and not env and cost <= _FOLD_BUDGET:
            return _const(rt, run(None, self.frame()))
        # The outermost loop of a nest owns the frame its variables live in.
        return _env(rt, _with_frame(run, len(self.domains)), cost)


def _with_frame(fn: Fn, size: int) -> EnvFn:
    """``env -> fn(env, fresh frame)``: a new frame per call keeps compiled code reentrant."""
    return lambda e: fn(e, [-1] * size)


def _general(finish: Callable[[list[Any]], Any], slot: int, coll: Fn, cond: Fn | None, elem: Fn | None) -> Fn:
    """The general loop: bind each element in the frame, test, map, then finish the list."""
    if cond is None and elem is not None:

        def run_map(e: Any, fr: Any) -> Any:
            out = []
            for x in coll(e, fr):
                fr[slot] = x
                out.append(elem(e, fr))
            return finish(out)

        return run_map
    if cond is not None and elem is None:

        def run_filter(e: Any, fr: Any) -> Any:
            out = []
            for x in coll(e, fr):
                fr[slot] = x
                if cond(e, fr):
                    out.append(x)
            return finish(out)

        return run_filter
    if cond is not None and elem is not None:

        def run_both(e: Any, fr: Any) -> Any:
            out = []
            for x in coll(e, fr):
                fr[slot] = x
                if cond(e, fr):
                    out.append(elem(e, fr))
            return finish(out)

        return run_both
    return lambda e, fr: finish(list(coll(e, fr)))


def _fast(agg: str, mask: tuple[Any, ...] | None, values: tuple[Any, ...] | None) -> Callable[[Any], Any]:
    """An aggregate as a function of the collection alone, the per-element work done by table lookups.

    ``mask[x]`` says whether element ``x`` passes the condition (None: all do), ``values[x]`` is the
    element expression's value for ``x`` (None: the element itself).
    """
    if agg in ("count", "empty", "filter"):
        if mask is None:
            plain: dict[str, Callable[[Any], Any]] = {"count": len, "empty": operator.not_, "filter": tuple}
            return plain[agg]
        passes = _getter(mask)
        if agg == "count":
            return lambda c: sum(map(passes, c))
        if agg == "empty":
            return lambda c: not any(map(passes, c))
        return lambda c: tuple(filter(passes, c))
    assert values is not None
    if agg in ("sum", "any", "all"):
        # Fold the mask into the values: an excluded element adds 0, is not "any", does not spoil "all".
        if mask is not None:
            neutral = {"sum": 0, "any": False, "all": True}[agg]
            values = tuple(v if m else neutral for m, v in zip(mask, values, strict=True))
        value = _getter(values)
        folds: dict[str, Callable[[Iterable[Any]], Any]] = {"sum": sum, "any": any, "all": all}
        fold = folds[agg]
        return lambda c: fold(map(value, c))
    folds = {"max": _max0, "min": _min0, "distinct": _distinct}
    fold = folds[agg]
    if mask is None:
        value = _getter(values)
        return lambda c: fold(map(value, c))
    if agg in ("max", "min") and values:
        # The excluded elements take a value beyond every real one (below for max, above for min): the fold
        # runs in C over the collection, and gives that value back exactly when nothing passed (then 0).
        beyond = min(values) - 1 if agg == "max" else max(values) + 1
        masked = _getter([v if m else beyond for m, v in zip(mask, values, strict=True)])
        best = max if agg == "max" else min

        def extreme(c: Any) -> Any:
            r = best(map(masked, c), default=beyond)
            return 0 if r == beyond else r

        return extreme
    vals, keep = values, mask
    return lambda c: fold([vals[x] for x in c if keep[x]])


# An aggregate over a bit mask reads the values of its cards through tables of every subset of a run of
# _CHUNK consecutive cards (1,024 entries each), at most _MAX_CHUNKS of them; past that, it reads the cards.
_CHUNK = 10
_MAX_CHUNKS = 4


def _fast_bits(agg: str, mask: tuple[Any, ...] | None, values: tuple[Any, ...] | None) -> Callable[[int], Any] | None:
    """:func:`_fast` for a collection given as a bit mask (bit ``c`` for card ``c``), or None when it has no such
    form (``distinct``, ``filter``; values spread over more than _MAX_CHUNKS runs of cards).

    ``mask`` and ``values`` are as for :func:`_fast`: one entry per card, then one for "no card" (not in a mask).
    """
    n = len(mask if mask is not None else values if values is not None else ()) - 1
    passing = [c for c in range(n) if mask is None or mask[c]]
    if agg in ("count", "empty"):
        if mask is None:
            return int.bit_count if agg == "count" else operator.not_
        chosen = mask_of(passing)
        if agg == "count":
            return lambda b: (b & chosen).bit_count()
        return lambda b: not b & chosen
    if values is None or agg not in ("sum", "max", "min", "any", "all"):
        return None
    if agg in ("any", "all"):
        # any: some passing card's value holds; all: no passing card's value fails
        hits = mask_of([c for c in passing if bool(values[c]) is (agg == "any")])
        if agg == "any":
            return lambda b: b & hits != 0
        return lambda b: not b & hits
    count = [c for c in passing if values[c]] if agg == "sum" else passing  # a zero adds nothing to a sum
    if not count:
        return lambda b: 0  # nothing can pass: the empty aggregate's 0
    first, last = count[0], count[-1]
    chunks = (last - first) // _CHUNK + 1
    if chunks > _MAX_CHUNKS:
        return None
    kept = set(count)
    # The empty run's entry: 0 for a sum; for max and min a value beyond every real one, so that "nothing passed"
    # is told from a real value and gives 0 at the end, as _max0 and _min0 do.
    if agg == "sum":
        empty, fold = 0, operator.add
    else:
        real = [values[c] for c in count]
        empty = min(real) - 1 if agg == "max" else max(real) + 1
        fold = max if agg == "max" else min
    parts: list[tuple[int, int, list[Any]]] = []
    for k in range(chunks):
        start = first + k * _CHUNK
        width = min(_CHUNK, last + 1 - start)
        table = [empty]
        for c in range(start, start + width):  # each card doubles the table: the subsets without it, then with it
            table += [fold(t, values[c]) for t in table] if c in kept else table
        parts.append((start, (1 << width) - 1, table))
    if len(parts) == 1:
        ((start, low, table),) = parts
        if agg != "sum":
            table = [0 if t == empty else t for t in table]
        return lambda b: table[(b >> start) & low]
    if agg == "sum":
        return lambda b: sum([table[(b >> start) & low] for start, low, table in parts])
    best = max if agg == "max" else min

    def extreme(b: int) -> Any:
        r = best([table[(b >> start) & low] for start, low, table in parts])
        return 0 if r == empty else r

    return extreme


# ---------------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------------


def compile_expr(
    text: str,
    *,
    scope: Mapping[str, T],
    deck: Deck,
    expected: T | tuple[T, ...],
    known_elsewhere: Collection[str] = (),
    bare_card: str | None = None,
    string_values: Mapping[str, Collection[str]] | None = None,
) -> Compiled:
    """Parse, type-check and compile ``text`` into a :class:`Compiled`.

    ``scope`` maps the variables the expression may read to their types; ``known_elsewhere`` names the
    variables of other scopes, for the message "'x' is not available here". The result's type must be
    ``expected`` (or one of them). Raises :class:`DslSyntaxError`, :class:`DslNameError` or
    :class:`DslTypeError`, each with the offset of the problem in ``text``. ``bare_card`` names a card variable
    of ``scope`` whose attributes may be written bare, as inside a ``where`` (a capture filter's ``not court``).
    ``string_values`` gives, for text variables of ``scope``, every value they can take (the variant's capture
    kind names for ``kind``): a comparison with any other string is a :class:`DslNameError` at the string.
    """
    return _compile(
        text, scope, deck, expected, known_elsewhere, fold=True, bare_card=bare_card, string_values=string_values
    )


def compile_reference(
    text: str,
    *,
    scope: Mapping[str, T],
    deck: Deck,
    expected: T | tuple[T, ...],
    known_elsewhere: Collection[str] = (),
    bare_card: str | None = None,
    string_values: Mapping[str, Collection[str]] | None = None,
) -> Compiled:
    """Like :func:`compile_expr`, without constant folding, tables or fast loops.

    Every node runs as a plain closure, so this is slow; tests compare it with :func:`compile_expr` to
    check that the optimisations do not change any value.
    """
    return _compile(
        text, scope, deck, expected, known_elsewhere, fold=False, bare_card=bare_card, string_values=string_values
    )


def _compile(
    text: str,
    scope: Mapping[str, T],
    deck: Deck,
    expected: T | tuple[T, ...],
    known_elsewhere: Collection[str],
    *,
    fold: bool,
    bare_card: str | None = None,
    string_values: Mapping[str, Collection[str]] | None = None,
) -> Compiled:
    ast = parse(text)
    compiler = _Compiler(scope, deck, known_elsewhere, fold=fold, string_values=string_values)
    ctx = _Ctx()
    if bare_card is not None:
        assert scope.get(bare_card) is T.CARD, bare_card
        compiler.names.add(bare_card)
        ctx = ctx.with_card(_env(T.CARD, operator.attrgetter(bare_card), 1, path=bare_card))
    code = compiler.expr(ast, ctx)
    if code.cost > MAX_COST:
        raise DslError(
            f"expression too costly: about {code.cost:,} steps each time it is computed (the limit is "
            f"{MAX_COST:,}); loops inside loops multiply (a loop over the deck inside another is "
            f"{len(deck) ** 2:,} steps): nest fewer of them",
            ast.offset,
            length=ast.length,
        )
    wanted = (expected,) if isinstance(expected, T) else tuple(expected)
    if code.type not in wanted and T.RANK in wanted:
        code = compiler.coerce(ast, code, T.RANK)
    if code.type not in wanted:
        raise DslTypeError(f"expected {describe_any(wanted)}, got {describe(code.type)}", ast.offset, length=ast.length)
    return Compiled(compiler.finish(code), code.type, ast, frozenset(compiler.names), compiler.types, text, code.cost)
