"""The typed AST of a DSL expression: frozen dataclasses that remember where they came from.

Every node has ``offset`` (0-based character offset of its first character in the expression's text)
and ``length`` (how many characters it spans), so that errors found after parsing, by the type
checker, can still point at the right place.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Attr",
    "Binary",
    "BoolLit",
    "BoolOp",
    "Call",
    "CardOf",
    "Compare",
    "Comprehension",
    "Expr",
    "IfElse",
    "IntLit",
    "Lookup",
    "Name",
    "StrLit",
    "Unary",
    "Where",
    "conjuncts",
]


@dataclass(frozen=True, kw_only=True)
class Expr:
    """Base of every node: where the node is in the source text."""

    offset: int
    length: int


@dataclass(frozen=True)
class IntLit(Expr):
    """An integer literal: ``3``. Compared with a rank, it names the rank (``rank == 7``)."""

    value: int


@dataclass(frozen=True)
class BoolLit(Expr):
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True)
class StrLit(Expr):
    """A double-quoted string, escapes already decoded."""

    value: str


@dataclass(frozen=True)
class Name(Expr):
    """A bare name: a variable, suit, rank, card id (``Rc``, ``7d``), ``suits``, ``ranks``, ``deck``."""

    id: str


@dataclass(frozen=True)
class CardOf(Expr):
    """A card written in words: ``7 of coins``, ``re of swords``."""

    rank: Name
    suit: Name


@dataclass(frozen=True)
class Attr(Expr):
    """Attribute access: ``c.suit``, ``previous.captured``."""

    obj: Expr
    name: Name


@dataclass(frozen=True)
class Lookup(Expr):
    """A table lookup: ``points[c.rank]``."""

    table: Name
    key: Expr


@dataclass(frozen=True)
class Comprehension(Expr):
    """``element for var in iterable [where cond]``; only ever the single argument of a call."""

    element: Expr
    var: Name
    iterable: Expr
    cond: Expr | None


@dataclass(frozen=True)
class Call(Expr):
    """A builtin call: ``count(pile)``, ``max(x for x in ...)``, ``run(pile, asso)``."""

    func: Name
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Expr):
    """``-x`` (op ``"-"``) or ``not x`` (op ``"not"``)."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    """Arithmetic: op is one of ``+ - * / %``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Expr):
    """A comparison: op is one of ``== != < <= > >= in``, ``not in``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp(Expr):
    """``and`` / ``or`` (short-circuit)."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class IfElse(Expr):
    """``body if test else orelse``."""

    body: Expr
    test: Expr
    orelse: Expr


@dataclass(frozen=True)
class Where(Expr):
    """A filter: ``coll where cond``; inside ``cond`` bare ``suit``, ``rank``... are the current card's."""

    coll: Expr
    cond: Expr


def conjuncts(expr: Expr) -> tuple[Expr, ...]:
    """The terms a chain of ``and`` joins, left to right (the expression itself when it is not one): the
    expression holds only when every one of them holds."""
    if isinstance(expr, BoolOp) and expr.op == "and":
        return conjuncts(expr.left) + conjuncts(expr.right)
    return (expr,)
