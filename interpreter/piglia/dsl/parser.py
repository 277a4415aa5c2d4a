"""Text to typed AST: Lark's LALR parser over ``grammar/dsl.lark``, then a small tree walk.

Lark's own exceptions never escape: every failure becomes a :class:`DslSyntaxError` with the character
offset of the problem. Two limits keep hostile input cheap and keep the (recursive) AST builder and
compiler far from Python's recursion limit: the text is at most :data:`MAX_LENGTH` characters, and the
expression at most :data:`MAX_DEPTH` levels deep, which is measured on the parse tree *without*
recursion before anything recursive touches it.

A parsed expression is also kept in the on-disk cache (:mod:`piglia.diskcache`) as JSON, keyed by its text and by
the grammar, this module and the AST's node classes: a new process reads the AST back instead of importing Lark
and loading its tables, which costs more than the rest of loading a small rule file. The JSON names node classes
from a fixed list and holds only numbers, strings and booleans; nothing in it is ever evaluated. Only successful
parses are kept, so every syntax error is found and worded by the parser itself, every time.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from piglia import diskcache
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
from piglia.errors import DslSyntaxError
from piglia.resources import data_dir

if TYPE_CHECKING:
    # Lark is imported where a text is really parsed, never for an expression the cache has.
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "MAX_LENGTH", "lark_grammar", "parse"]

MAX_LENGTH = 10_000
"""Longest expression text accepted, in characters."""

MAX_DEPTH = 64
"""Deepest nesting accepted: parentheses, calls and operators each add a level; literals and names do not."""

MAX_INT_DIGITS = 18
"""Most digits of a number: an expression's literal, and a number written in the rule file (piglia.yamlpos). Rule
values are scores and counts; this keeps them clear of Python's int/str conversion limit, of absurd folding work,
and of scores no average can turn into a float."""

# Parse-tree nodes that add no nesting level: leaves, and the wrappers of call arguments (the call
# itself already counts).
_FLAT = frozenset(
    {
        "int",
        "string",
        "true",
        "false",
        "name",
        "card_id",
        "card",
        "arguments",
        "comprehension",
        "comp_op",
        "add_op",
        "mul_op",
    }
)

# The parser wants an INT exactly where an expression must start (NAME or "(" may also continue one:
# `count(`, `a not in`), so that is the test for saying "expected an expression".
_STARTER = "INT"
_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})

# What to say when the text stops while the parser still wanted one of these, first match wins.
_MISSING = (
    ("RPAR", "missing ')'"),
    ("RSQB", "missing ']'"),
    ("ELSE", "missing 'else'"),
    ("IN", "missing 'in'"),
)

_HINTS = {
    '"': "unterminated string",
    "=": "unexpected '=' (write '==' to compare)",
    "!": "unexpected '!' (write 'not', or '!=' to compare)",
    "&": "unexpected '&' (write 'and')",
    "|": "unexpected '|' (write 'or')",
}

_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_ESCAPED = {"n": "\n", "t": "\t"}


@functools.cache
def _lark() -> Lark:
    """The parser, built once: LALR with the basic lexer, so keywords are never names. Lark keeps the built
    tables in a cache file (in the temporary directory, keyed by the grammar and these options), so a new
    process loads them instead of building them again."""
    from lark import Lark

    from piglia.dsl.resources import grammar_text

    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="basic",
        propagate_positions=True,
        maybe_placeholders=False,
        start="start",
        cache=True,
    )


def lark_grammar() -> str:
    """The Lark grammar of the DSL (start rule ``start``), e.g. for ``hypothesis.extra.lark.from_lark``."""
    from piglia.dsl.resources import grammar_text

    return grammar_text()


def parse(text: str) -> Expr:
    """Parse an expression into its typed AST; raises :class:`DslSyntaxError` if it is not one."""
    if len(text) > MAX_LENGTH:
        raise DslSyntaxError(
            f"expression too long ({len(text)} characters; the limit is {MAX_LENGTH})",
            MAX_LENGTH,
            length=len(text) - MAX_LENGTH,
        )
    return _parse(text)


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Expr:
    # Variants repeat expressions (and the AST is immutable), so parse each distinct text once.
    key = _cache_key(text)
    if key is not None:
        cached = _from_cache(key)
        if cached is not None:
            return cached
    expr = _parse_with_lark(text)
    if key is not None:
        diskcache.store(_PARSED, key, json.dumps(_encode(expr), separators=(",", ":")).encode("utf-8"))
    return expr


def _parse_with_lark(text: str) -> Expr:
    from lark import Token
    from lark.exceptions import LarkError, UnexpectedInput

    try:
        tree = _lark().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, text) from None
    except LarkError as e:  # pragma: no cover - Lark raises UnexpectedInput subclasses for bad input
        raise DslSyntaxError(f"cannot parse the expression ({e})", 0, length=max(len(text), 1)) from None
    if isinstance(tree, Token):  # pragma: no cover - every atom is an aliased tree in the grammar
        raise DslSyntaxError("expected an expression", 0)
    _check_depth(tree)
    return _build(tree)


# ---------------------------------------------------------------------------------------------------
# The cache of parsed expressions
# ---------------------------------------------------------------------------------------------------

_PARSED = "dsl-parsed"
# The only classes a cached AST may name: every node class, by name.
_NODES: dict[str, type[Expr]] = {
    cls.__name__: cls for cls in Expr.__subclasses__() if cls.__module__ == Expr.__module__
}  # the classes of piglia.dsl.nodes only: a subclass defined elsewhere (a test's, a plugin's) is never named


@functools.cache
def _parser_stamp() -> str | None:
    """What a cached AST depends on besides its text: the grammar and the code that turns a parse into an AST
    (this module and the node classes). None when one of them cannot be read: then nothing is cached."""
    try:
        here = Path(__file__)
        parts = [
            (data_dir("grammar") / "dsl.lark").read_bytes(),
            here.read_bytes(),
            here.with_name("nodes.py").read_bytes(),
        ]
    except (OSError, ValueError):
        return None
    return diskcache.digest("dsl parse", *parts)


def _cache_key(text: str) -> str | None:
    stamp = _parser_stamp()
    return None if stamp is None else diskcache.digest(stamp, text)


def _encode(node: Any) -> Any:
    """A node as JSON data: ``{"": class name, field: value...}``; a tuple of nodes as ``{"()": [...]}``."""
    if isinstance(node, Expr):
        out: dict[str, Any] = {"": type(node).__name__}
        for f in dataclasses.fields(node):
            out[f.name] = _encode(getattr(node, f.name))
        return out
    if isinstance(node, tuple):
        return {"()": [_encode(item) for item in node]}
    return node


def _decode(data: Any) -> Any:
    if isinstance(data, dict):
        if "()" in data:
            return tuple(_decode(item) for item in data["()"])
        cls = _NODES[data[""]]
        return cls(**{k: _decode(v) for k, v in data.items() if k != ""})
    if data is None or type(data) in (int, str, bool):
        return data
    raise ValueError(f"not an AST value: {data!r}")


def _from_cache(key: str) -> Expr | None:
    """The AST kept under ``key``, or None: absent, or not a well-formed AST (a damaged entry is a miss)."""
    raw = diskcache.load(_PARSED, key)
    if raw is None:
        return None
    try:
        expr = _decode(json.loads(raw))
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    return expr if isinstance(expr, Expr) else None


# ---------------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------------


def _syntax_error(e: UnexpectedInput, text: str) -> DslSyntaxError:
    """A clear message and offset for one of Lark's parse errors."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream if e.pos_in_stream is not None else 0
        char = text[pos] if pos < len(text) else ""
        message = _HINTS.get(char, f"unexpected character {char!r}")
        if char == '"':
            return DslSyntaxError(message, pos, length=len(text) - pos)
        return DslSyntaxError(message, pos)
    if isinstance(e, UnexpectedToken):
        token = e.token
        expected = set(e.expected)
        if token.type == "$END":
            if expected == {"NAME"}:
                return DslSyntaxError("expected a name", len(text), length=0)
            if _STARTER in expected:
                return DslSyntaxError("expected an expression", len(text), length=0)
            for terminal, message in _MISSING:
                if terminal in expected:
                    return DslSyntaxError(message, len(text), length=0)
            return DslSyntaxError("unexpected end of expression", len(text), length=0)
        offset = token.start_pos if token.start_pos is not None else 0
        message = f"unexpected {_show(token)}"
        if expected == {"NAME"}:
            message += ": expected a name"
        elif _STARTER in expected:
            message += ": expected an expression"
        elif str(token) in _COMPARISONS:
            message += " (comparisons do not chain: write 'a < b and b < c')"
        return DslSyntaxError(message, offset, length=max(len(token), 1))
    # UnexpectedEOF and anything else Lark may add: the end of the text is the best place to point.
    return DslSyntaxError("unexpected end of expression", len(text), length=0)


def _show(token: Token) -> str:
    """How to name a token in an error message."""
    kind = {"NAME": "name", "INT": "number", "CARD_ID": "card", "STRING": "string"}.get(token.type)
    return f"{kind} {str(token)!r}" if kind else repr(str(token))


def _check_depth(tree: Tree[Token]) -> None:
    """Refuse trees nested more than MAX_DEPTH levels, without recursing (the tree may be thousands deep)."""
    from lark import Tree

    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data not in _FLAT:
            depth += 1
            if depth > MAX_DEPTH:
                start = node.meta.start_pos
                raise DslSyntaxError(
                    f"expression nested too deeply (more than {MAX_DEPTH} levels)",
                    start,
                    length=node.meta.end_pos - start,
                )
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))


# ---------------------------------------------------------------------------------------------------
# Parse tree to AST
# ---------------------------------------------------------------------------------------------------


def _span(node: Tree[Token] | Token) -> dict[str, int]:
    """``offset`` and ``length`` keywords for an AST node made from this tree or token."""
    from lark import Token

    if isinstance(node, Token):
        start = node.start_pos or 0
        return {"offset": start, "length": len(node)}
    return {"offset": node.meta.start_pos, "length": node.meta.end_pos - node.meta.start_pos}


def _name(node: Tree[Token] | Token) -> Name:
    token = _token(node)
    return Name(str(token), **_span(token))


def _int(token: Token) -> IntLit:
    digits = str(token)
    if len(digits) > MAX_INT_DIGITS:
        raise DslSyntaxError(f"number too large (more than {MAX_INT_DIGITS} digits)", **_span(token))
    return IntLit(int(digits), **_span(token))


def _string(token: Token) -> StrLit:
    body = str(token)[1:-1]
    value = _ESCAPE.sub(lambda m: _ESCAPED.get(m.group(1), m.group(1)), body)
    return StrLit(value, **_span(token))


def _tree(node: Tree[Token] | Token) -> Tree[Token]:
    from lark import Tree

    assert isinstance(node, Tree)
    return node


def _token(node: Tree[Token] | Token) -> Token:
    from lark import Token

    assert isinstance(node, Token)
    return node


_BOOL = {"and_": "and", "or_": "or"}


def _build(tree: Tree[Token]) -> Expr:
    """The AST of a parse tree (recursive; the depth was bounded by _check_depth)."""
    kind = str(tree.data)
    kids = tree.children
    span = _span(tree)
    if kind in ("binary", "compare"):
        # The operator is a keep-all-tokens rule (`!comp_op`, `!add_op`, `!mul_op`) between the operands.
        op = " ".join(str(t) for t in _tree(kids[1]).children)
        node = Binary if kind == "binary" else Compare
        return node(op, _build(_tree(kids[0])), _build(_tree(kids[2])), **span)
    if kind in _BOOL:
        return BoolOp(_BOOL[kind], _build(_tree(kids[0])), _build(_tree(kids[1])), **span)
    builder = _BUILDERS.get(kind)
    if builder is None:  # pragma: no cover - the grammar and this table are kept in step
        raise DslSyntaxError(f"unsupported construct {kind!r}", **span)
    return builder(tree)


def _build_call(tree: Tree[Token]) -> Call:
    func = _name(tree.children[0])
    args: tuple[Expr, ...] = ()
    if len(tree.children) > 1:
        arguments = _tree(tree.children[1])
        first = _tree(arguments.children[0])
        if first.data == "comprehension":
            args = (_build_comprehension(first),)
        else:
            args = tuple(_build(_tree(a)) for a in arguments.children)
    return Call(func, args, **_span(tree))


def _build_comprehension(tree: Tree[Token]) -> Comprehension:
    kids = tree.children
    cond = _build(_tree(kids[3])) if len(kids) > 3 else None
    return Comprehension(_build(_tree(kids[0])), _name(kids[1]), _build(_tree(kids[2])), cond, **_span(tree))


def _build_card(tree: Tree[Token]) -> CardOf:
    rank, suit = tree.children
    return CardOf(_name(rank), _name(suit), **_span(tree))


_BUILDERS: dict[str, Callable[[Tree[Token]], Expr]] = {
    "int": lambda t: _int(_token(t.children[0])),
    "string": lambda t: _string(_token(t.children[0])),
    "true": lambda t: BoolLit(True, **_span(t)),
    "false": lambda t: BoolLit(False, **_span(t)),
    "name": lambda t: _name(t.children[0]),
    "card_id": lambda t: _name(t.children[0]),
    "card": _build_card,
    "attr": lambda t: Attr(_build(_tree(t.children[0])), _name(t.children[1]), **_span(t)),
    "lookup": lambda t: Lookup(_name(t.children[0]), _build(_tree(t.children[1])), **_span(t)),
    "call": _build_call,
    "paren": lambda t: _build(_tree(t.children[0])),
    "neg": lambda t: Unary("-", _build(_tree(t.children[0])), **_span(t)),
    "not_": lambda t: Unary("not", _build(_tree(t.children[0])), **_span(t)),
    "if_else": lambda t: IfElse(
        _build(_tree(t.children[0])), _build(_tree(t.children[1])), _build(_tree(t.children[2])), **_span(t)
    ),
    "where": lambda t: Where(_build(_tree(t.children[0])), _build(_tree(t.children[1])), **_span(t)),
}
