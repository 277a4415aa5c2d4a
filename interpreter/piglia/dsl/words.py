"""The DSL in words: a condition or a score phrased as a sentence, for rules pages.

``empty(table_after) and not last_play`` reads "there are no cards left on the table after the play, except on
the last play of the deal". Every node type of the AST (:mod:`piglia.dsl.nodes`) has a phrasing; the words
themselves come from a message catalog (:class:`Messages`), so a language is added by translating a catalog,
never by touching this module.

It phrases the compiler's typed AST (:attr:`piglia.dsl.compiler.Compiled.types`): the type of every node is
the one the type checker found, never guessed a second time here. Given text, it compiles it first.

The renderer is honest rather than clever: a shape it has no good phrasing for (an unusual function call, a
collection built by an ``if``) is shown as the expression itself in code style (`` `...` ``), never as an empty
or wrong sentence. Output is Markdown inline text: code spans are the only markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from piglia.cards import Deck
from piglia.dsl.compiler import CARD_ATTRIBUTES, Compiled, compile_expr
from piglia.dsl.dtypes import T
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
from piglia.errors import DslError

__all__ = ["Messages", "MissingMessage", "Words"]

Messages = Callable[..., str]
"""``msg(key, **fields)``: the catalog's text for ``key`` with ``{field}`` placeholders filled in; raises
:class:`MissingMessage` for a key the catalog lacks."""


class MissingMessage(LookupError):
    """The catalog has no text for a key (say, a scope variable added after the catalog was written)."""


_CMP = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "in": "in", "not in": "not_in"}
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}
_OPS = {"+": "plus", "-": "minus", "*": "times", "/": "div", "%": "mod"}
_NOUN = {T.SUITS: "suit", T.RANKS: "rank", T.CARDS: "card"}


class _Unphrasable(Exception):
    """This shape has no phrasing: the caller shows the expression's text instead."""


@dataclass(frozen=True)
class _Ctx:
    """What names mean at one point: comprehension variables (with their type) and the current card, if any."""

    local: Mapping[str, T] = field(default_factory=dict)
    subject: bool = False  # bare `suit`, `rank`... are the current card's (inside `where`, or in a filter)

    def bind(self, name: str, t: T) -> _Ctx:
        return _Ctx({**self.local, name: t}, self.subject)


@dataclass(frozen=True)
class _Set:
    """A collection in words: its element noun (card, suit, rank), modifiers, and where the elements are."""

    noun: str
    mods: tuple[str, ...]
    where: str  # "in the pile", "on the table", "" for the suits of the deck


def code_span(text: str) -> str:
    """``text`` on one line as a Markdown code span that holds it whole: its fence one backtick longer than the
    longest run inside (a string literal with a backtick closed a one-backtick span early, and the rest was read
    as Markdown), padded with spaces when it starts or ends with a backtick."""
    line = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall("`+", line)), default=0) + 1)
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


class Words:
    """Phrases DSL expressions of one variant (its deck names the suits, ranks and cards) in one language.

    Each entry point takes a :class:`~piglia.dsl.compiler.Compiled` expression (what a compiled variant keeps)
    or, for convenience, its text and the scope it is compiled in (:mod:`piglia.contexts`). ``subject`` says
    bare card attributes (``court``, ``suit``) and ``card`` refer to the card being filtered, as in a capture
    kind's ``played``/``cards`` filters.
    """

    def __init__(self, deck: Deck, msg: Messages, name: Callable[[str], str] | None = None) -> None:
        self.deck = deck
        self.msg = msg
        # The words for a suit, rank or table name of the rule file in the page's language (default: as written).
        self.name: Callable[[str], str] = name or (lambda ident: ident)
        self.text = ""
        self.scope: frozenset[str] = frozenset()  # the scope variables the expression reads
        self.types: Mapping[Expr, T] = {}

    # -- entry points --------------------------------------------------------------------------------------

    def condition(self, expr: Compiled | str, scope: Mapping[str, T] | None = None, *, subject: bool = False) -> str:
        """A true/false expression as a clause: "there are no cards left on the table after the play"."""
        return self._run(expr, scope, subject, self.clause)

    def number(self, expr: Compiled | str | int, scope: Mapping[str, T] | None = None, *, subject: bool = False) -> str:
        """A number expression (points, a majority's value) as a noun phrase: "the number of cards in the pile"."""
        if isinstance(expr, int):
            return str(expr)
        return self._run(expr, scope, subject, self.value)

    def phrase(self, expr: Compiled | str, scope: Mapping[str, T] | None = None) -> str:
        """Any expression: a clause when it is a condition, a noun phrase otherwise."""

        def either(node: Expr, ctx: _Ctx) -> str:
            is_bool = self.typeof(node, ctx) is T.BOOL
            return self.clause(node, ctx) if is_bool else self.value(node, ctx)

        return self._run(expr, scope, False, either)

    def card_filter(self, expr: Compiled | str, scope: Mapping[str, T] | None = None) -> str:
        """A condition on one card as modifiers of the word "cards": "that are not courts", "of suit coins"."""
        return self._run(expr, scope, True, lambda node, ctx: self.mods_text(self.mods(node, ctx, None)))

    def card(self, rank: str, suit: str) -> str:
        """A card in words: "7 of coins" (suit and rank as the rule file names them, or an alias of them)."""
        suit_obj = self.deck.suit_by_name.get(suit)
        rank_obj = self.deck.rank_by_name.get(rank)
        return self.msg(
            "card",
            rank=self.name(rank_obj.name if rank_obj else rank),
            suit=self.name(suit_obj.name if suit_obj else suit),
        )

    def _run(
        self, expr: Compiled | str, scope: Mapping[str, T] | None, subject: bool, how: Callable[[Expr, _Ctx], str]
    ) -> str:
        if isinstance(expr, str):
            text = expr
            try:
                expr = self.typed(text, scope or {}, subject)
            except DslError:
                # Not a valid expression here: shown as written, never phrased from guessed types.
                return code_span(text)
        self.text = expr.text
        self.types = expr.types
        # In a filter, `card` is the card being filtered: a local, like the bare attributes.
        self.scope = frozenset(n for n in expr.names if not (subject and n == "card"))
        ctx = _Ctx({"card": T.CARD} if subject else {}, subject)
        return self.guard(how, expr.ast, ctx)

    def typed(self, text: str, scope: Mapping[str, T], subject: bool) -> Compiled:
        """Type-check ``text`` in ``scope`` (a filter's bare card added when ``subject``), for its typed AST."""
        if subject:
            scope = {**scope, "card": T.CARD}
        return compile_expr(text, scope=scope, deck=self.deck, expected=tuple(T), bare_card="card" if subject else None)

    def guard(self, how: Callable[[Expr, _Ctx], str], node: Expr, ctx: _Ctx) -> str:
        """``how(node)``, or the node's own text in code style when it has no phrasing."""
        try:
            return how(node, ctx)
        except (_Unphrasable, MissingMessage):
            # No phrasing (or no words for it in this catalog): the expression itself is never wrong.
            return self.code(node)

    def code(self, node: Expr) -> str:
        """The expression's source text as a Markdown code span."""
        return code_span(self.text[node.offset : node.offset + node.length] or "?")

    # -- types: the compiler's, read from the typed AST ------------------------------------------------------

    def typeof(self, node: Expr, ctx: _Ctx) -> T | None:
        """The type the compiler found for ``node`` (None for a node it did not type, such as a synthetic one)."""
        return self.types.get(node)

    def loop_ctx(self, comp: Comprehension, ctx: _Ctx) -> _Ctx:
        """The context inside ``comp``: its loop variable bound to the type it ranges over."""
        return ctx.bind(comp.var.id, self.types.get(comp.var, T.CARD))

    # -- clauses (true/false) --------------------------------------------------------------------------------

    def clause(self, node: Expr, ctx: _Ctx) -> str:
        """A condition as a clause."""
        m = self.msg
        if isinstance(node, BoolLit):
            return m("always" if node.value else "never")
        if isinstance(node, Name):
            if node.id in self.scope and node.id not in ctx.local:
                return m(f"is.{node.id}")
            if self.is_subject_attr(node, ctx):
                return self.attr_clause(m("ref.card"), node.id)
            raise _Unphrasable
        if isinstance(node, Attr):
            obj_t = self.typeof(node.obj, ctx)
            if obj_t in (T.CARD, T.RANK, T.SUIT):
                return self.attr_clause(self.guard(self.value, node.obj, ctx), node.name.id)
            if obj_t is T.PLAY and node.name.id == "placed":
                return m("is.placed", play=self.guard(self.value, node.obj, ctx))
            raise _Unphrasable
        if isinstance(node, Unary):
            return self.negation(node.operand, ctx)
        if isinstance(node, Compare):
            return self.comparison(node.op, node.left, node.right, ctx)
        if isinstance(node, BoolOp):
            return self.bool_op(node, ctx)
        if isinstance(node, IfElse):
            return m(
                "if_else",
                body=self.guard(self.clause, node.body, ctx),
                test=self.guard(self.clause, node.test, ctx),
                orelse=self.guard(self.clause, node.orelse, ctx),
            )
        if isinstance(node, Call):
            return self.call_clause(node, ctx)
        raise _Unphrasable

    def attr_clause(self, subject: str, attr: str) -> str:
        """A card's true/false property as a clause: "``subject`` is a court", "``subject`` is ``attr``"."""
        if attr == "court":
            return self.msg("is.court", x=subject)
        return self.msg("is.prop", x=subject, prop=attr)

    def is_subject_attr(self, node: Expr, ctx: _Ctx) -> bool:
        """Whether ``node`` is a bare card attribute (``court``, ``suit``...) read of the card the clause is about."""
        return (
            isinstance(node, Name)
            and ctx.subject
            and node.id not in ctx.local
            and node.id not in self.scope
            and (node.id in CARD_ATTRIBUTES or node.id in self.deck.prop_of)
        )

    def negation(self, node: Expr, ctx: _Ctx) -> str:
        """``not node`` as a clause, said positively where the language has the words ("is not a court")."""
        m = self.msg
        if isinstance(node, Name) and node.id in self.scope and node.id not in ctx.local:
            return m(f"is_not.{node.id}")
        if isinstance(node, Compare):
            return self.comparison(_NEGATE[node.op], node.left, node.right, ctx)
        if (isinstance(node, Name) and self.is_subject_attr(node, ctx) and node.id == "court") or (
            isinstance(node, Attr) and node.name.id == "court" and self.typeof(node.obj, ctx) in (T.CARD, T.RANK)
        ):
            subject = m("ref.card") if isinstance(node, Name) else self.guard(self.value, node.obj, ctx)
            return m("is_not.court", x=subject)
        if isinstance(node, Attr) and node.name.id == "placed" and self.typeof(node.obj, ctx) is T.PLAY:
            return m("is_not.placed", play=self.guard(self.value, node.obj, ctx))
        if isinstance(node, Call) and node.func.id == "empty" and len(node.args) == 1:
            return m("there_are", **self.set_fields(node.args[0], ctx))
        return m("not", x=self.guard(self.clause, node, ctx))

    def comparison(self, op: str, left: Expr, right: Expr, ctx: _Ctx) -> str:
        """``left op right`` as a clause, in words that fit the types compared."""
        m = self.msg
        if op in ("in", "not in"):
            return m(f"cmp.{_CMP[op]}", a=self.guard(self.value, left, ctx), b=self.set_np(right, ctx))
        lt, rt = self.typeof(left, ctx), self.typeof(right, ctx)
        if lt in (T.CARDS, T.SUITS, T.RANKS) or rt in (T.CARDS, T.SUITS, T.RANKS):
            if op not in ("==", "!="):
                raise _Unphrasable
            key = "cmp.same" if op == "==" else "cmp.not_same"
            return m(key, a=self.set_np(left, ctx), b=self.set_np(right, ctx))
        a = self.rank_or_value(left, ctx, rt)
        b = self.rank_or_value(right, ctx, lt)
        return m(f"cmp.{_CMP[op]}", a=a, b=b)

    def rank_or_value(self, node: Expr, ctx: _Ctx, other: T | None) -> str:
        """One side of a comparison: an integer compared with a rank names the rank, anything else its value."""
        # An integer compared with a rank names the rank (`rank == 7` is the rank called "7").
        if other is T.RANK and isinstance(node, IntLit):
            return str(node.value)
        return self.guard(self.value, node, ctx)

    def bool_op(self, node: BoolOp, ctx: _Ctx) -> str:
        """An ``and``/``or`` as a clause, grouped where the two operators mix."""
        m = self.msg
        left = self.guard(self.clause, node.left, ctx)
        if isinstance(node.left, BoolOp) and node.left.op != node.op:
            left = m("group", x=left)
        right_node = node.right
        if node.op == "and" and isinstance(right_node, Unary) and right_node.op == "not":
            inner = right_node.operand
            if isinstance(inner, Name) and inner.id in self.scope and inner.id not in ctx.local:
                return m("and_except", a=left, b=m(f"except.{inner.id}"))
            if not isinstance(inner, BoolOp):
                return m("and_except", a=left, b=m("except_when", x=self.guard(self.clause, inner, ctx)))
        right = self.guard(self.clause, right_node, ctx)
        if isinstance(right_node, BoolOp) and right_node.op != node.op:
            right = m("group", x=right)
        return m(node.op, a=left, b=right)

    def call_clause(self, node: Call, ctx: _Ctx) -> str:
        """A true/false call (``empty(table)``, ``any(...)``...) as a clause."""
        m = self.msg
        f, args = node.func.id, node.args
        if len(args) != 1:
            raise _Unphrasable
        arg = args[0]
        if f == "empty":
            return m("there_are_no", **self.set_fields(arg, ctx))
        if f in ("any", "all") and isinstance(arg, Comprehension):
            inner = self.loop_ctx(arg, ctx)
            kind = self.typeof(arg.iterable, ctx)
            if f == "any" and kind is T.CARDS and inner.local[arg.var.id] is T.CARD:
                # any(<condition on c> for c in C): "there is a card <modifiers> in C".
                extra = (*self.loop_mods(arg, inner), *self.mods(arg.element, inner, arg.var.id))
                return m("there_is", **self.set_fields(arg.iterable, ctx, extra=extra))
            each = self.each(arg, ctx)
            return m(f"{f}_over", each=each, x=self.guard(self.clause, arg.element, inner))
        raise _Unphrasable

    # -- values (noun phrases) ------------------------------------------------------------------------------

    def value(self, node: Expr, ctx: _Ctx) -> str:
        """A number, card, suit, rank, text or play as a noun phrase."""
        m = self.msg
        if isinstance(node, IntLit):
            return str(node.value)
        if isinstance(node, StrLit):  # a capture kind's name (the language's only texts): in the page's words
            return m("quote", x=self.name(node.value))
        if isinstance(node, BoolLit):
            return m("true" if node.value else "false")
        if isinstance(node, CardOf):
            return self.card(node.rank.id, node.suit.id)
        if isinstance(node, Name):
            return self.name_value(node, ctx)
        if isinstance(node, Attr):
            obj_t = self.typeof(node.obj, ctx)
            attr = node.name.id
            if obj_t is T.PLAY and attr in ("card", "player"):
                return m(f"attr.play_{attr}", play=self.guard(self.value, node.obj, ctx))
            if obj_t in (T.CARD, T.RANK, T.SUIT) and attr != "court":
                msg_key = f"attr.{attr}" if attr in CARD_ATTRIBUTES else "attr.prop"
                return m(msg_key, x=self.guard(self.value, node.obj, ctx), prop=attr)
            raise _Unphrasable
        if isinstance(node, Lookup):
            key = node.key
            # points[c.rank] is "the points value of that card": the rank is how the table is read.
            if isinstance(key, Attr) and key.name.id in ("rank", "suit") and self.typeof(key.obj, ctx) is T.CARD:
                key = key.obj
            return m("lookup", table=self.name(node.table.id), key=self.guard(self.value, key, ctx))
        if isinstance(node, Unary) and node.op == "-":
            return m("neg", x=self.operand(node.operand, ctx))
        if isinstance(node, Binary):
            return m(f"op.{_OPS[node.op]}", a=self.operand(node.left, ctx), b=self.operand(node.right, ctx))
        if isinstance(node, IfElse):
            return m(
                "if_else",
                body=self.guard(self.value, node.body, ctx),
                test=self.guard(self.clause, node.test, ctx),
                orelse=self.guard(self.value, node.orelse, ctx),
            )
        if isinstance(node, Call):
            return self.call_value(node, ctx)
        if isinstance(node, Where):
            return self.set_np(node, ctx)
        raise _Unphrasable

    def operand(self, node: Expr, ctx: _Ctx) -> str:
        """An arithmetic operand in words, grouped where it is itself a sum or a choice."""
        text = self.guard(self.value, node, ctx)
        return self.msg("group", x=text) if isinstance(node, Binary | IfElse) else text

    def name_value(self, node: Name, ctx: _Ctx) -> str:
        """A name's value in words: a loop variable, a scope name, a suit, rank or constant."""
        m = self.msg
        ident = node.id
        t = self.typeof(node, ctx)
        if ident in ctx.local:
            return m(f"ref.{t.value}") if t in (T.CARD, T.SUIT, T.RANK) else self.code(node)
        if ident in self.scope:
            if t in (T.CARDS,):
                return self.set_np(node, ctx)
            return m(f"var.{ident}")
        if self.is_subject_attr(node, ctx):
            key = f"attr.{ident}" if ident in CARD_ATTRIBUTES else "attr.prop"
            return m(key, x=m("ref.card"), prop=ident)
        if t in (T.SUITS, T.RANKS, T.CARDS):
            return self.set_np(node, ctx)
        if t is T.CARD:
            card = self.deck.by_id[ident]
            return self.card(card.rank.name, card.suit.name)
        if t is T.SUIT and ident in self.deck.suit_by_name:
            return self.name(self.deck.suit_by_name[ident].name)
        if t is T.RANK and ident in self.deck.rank_by_name:
            return self.name(self.deck.rank_by_name[ident].name)
        if t in (T.SUIT, T.RANK):
            return self.name(ident)
        raise _Unphrasable

    def call_value(self, node: Call, ctx: _Ctx) -> str:
        """A call's value in words (``count``, ``sum``, ``max``, ``run``...)."""
        m = self.msg
        f, args = node.func.id, node.args
        if f in ("max", "min") and len(args) >= 2:
            items = [self.guard(self.value, a, ctx) for a in args]
            return m(f"{f}_of", items=self.join(items))
        if f == "run" and len(args) == 2:
            rank = self.rank_or_value(args[1], ctx, T.RANK)
            return m("run", rank=rank, **self.set_fields(args[0], ctx))
        if len(args) != 1:
            raise _Unphrasable
        arg = args[0]
        if f == "count":
            if isinstance(arg, Comprehension):
                inner = self.loop_ctx(arg, ctx)
                if inner.local[arg.var.id] is T.CARD and self.typeof(arg.iterable, ctx) is T.CARDS:
                    extra = self.loop_mods(arg, inner)
                    if self.typeof(arg.element, inner) is T.BOOL:
                        extra = (*extra, *self.mods(arg.element, inner, arg.var.id))
                    return m("count", **self.set_fields(arg.iterable, ctx, extra=extra))
                if self.typeof(arg.element, inner) is T.BOOL:
                    return m("count_over", each=self.each(arg, ctx), x=self.guard(self.clause, arg.element, inner))
                raise _Unphrasable
            if isinstance(arg, Call) and arg.func.id == "distinct":
                return m("count_np", np=self.distinct(arg, ctx))
            return m("count", **self.set_fields(arg, ctx))
        if f in ("sum", "max", "min"):
            if isinstance(arg, Comprehension):
                inner = self.loop_ctx(arg, ctx)
                prop = self.card_property(arg.element, arg.var.id, inner)
                if prop is not None and self.typeof(arg.iterable, ctx) is T.CARDS:
                    fields = self.set_fields(arg.iterable, ctx, extra=self.loop_mods(arg, inner))
                    return m(f"{f}_prop", prop=prop, **fields)
                return m(f"{f}_over", each=self.each(arg, ctx), x=self.guard(self.value, arg.element, inner))
            return m(f"{f}_prop", prop=m("prop.value"), **self.set_fields(arg, ctx))
        if f == "distinct":
            return self.distinct(node, ctx)
        raise _Unphrasable

    def card_property(self, node: Expr, var: str, ctx: _Ctx) -> str | None:
        """``points[c.rank]`` or ``c.value`` as a property of the loop card ("points value"), else None."""
        if isinstance(node, Name) and node.id == var:
            return self.msg("prop.value")
        if isinstance(node, Attr) and isinstance(node.obj, Name) and node.obj.id == var and node.name.id == "value":
            return self.msg("prop.value")
        if isinstance(node, Lookup):
            key = node.key
            if isinstance(key, Attr) and key.name.id in ("rank", "suit"):
                key = key.obj
            if isinstance(key, Name) and key.id == var:
                return self.msg("prop.lookup", table=self.name(node.table.id))
        return None

    def distinct(self, node: Call, ctx: _Ctx) -> str:
        """distinct(c.suit for c in C): "the different suits among the cards in C"."""
        arg = node.args[0] if len(node.args) == 1 else None
        if isinstance(arg, Comprehension) and self.typeof(arg.iterable, ctx) is T.CARDS:
            inner = self.loop_ctx(arg, ctx)
            elem = arg.element
            if (
                isinstance(elem, Attr)
                and isinstance(elem.obj, Name)
                and elem.obj.id == arg.var.id
                and elem.name.id in ("suit", "rank")
            ):
                fields = self.set_fields(arg.iterable, ctx, extra=self.loop_mods(arg, inner))
                return self.msg(f"distinct_{elem.name.id}s", **fields)
        raise _Unphrasable

    # -- collections ------------------------------------------------------------------------------------------

    def set_fields(self, node: Expr, ctx: _Ctx, extra: tuple[str, ...] = ()) -> dict[str, str]:
        """``mods`` and ``where`` of a collection of cards, for templates like "the cards{mods} {where}"."""
        s = self.collection(node, ctx)
        return {"mods": self.mods_text((*s.mods, *extra)), "where": s.where}

    def set_np(self, node: Expr, ctx: _Ctx) -> str:
        """A collection as a noun phrase: "the cards of suit coins in the pile", "the suits"."""
        try:
            s = self.collection(node, ctx)
        except _Unphrasable:
            return self.code(node)
        if s.noun != "card":
            return self.msg(f"all_{s.noun}s")
        return self.msg("the_cards", mods=self.mods_text(s.mods), where=s.where)

    def collection(self, node: Expr, ctx: _Ctx) -> _Set:
        """A collection of cards, suits or ranks in words, with its filter as modifiers."""
        m = self.msg
        if isinstance(node, Name):
            t = self.typeof(node, ctx)
            if node.id in self.scope and t is T.CARDS:
                return _Set("card", (), m(f"where.{node.id}"))
            if node.id == "deck" and t is T.CARDS:
                return _Set("card", (), m("where.deck"))
            if node.id in ("suits", "ranks") and t in _NOUN:
                return _Set(_NOUN[t], (), "")
            raise _Unphrasable
        if isinstance(node, Attr) and node.name.id == "captured" and self.typeof(node.obj, ctx) is T.PLAY:
            return _Set("card", (), m("where.play_captured", play=self.guard(self.value, node.obj, ctx)))
        if isinstance(node, Where):
            base = self.collection(node.coll, ctx)
            inner = _Ctx(ctx.local, True)
            return _Set(base.noun, (*base.mods, *self.mods(node.cond, inner, None)), base.where)
        if isinstance(node, Call) and node.func.id == "distinct":
            return _Set("card", (), m("where.among", np=self.distinct(node, ctx)))
        return _Set("card", (), m("where.among", np=self.code(node)))

    def mods_text(self, mods: tuple[str, ...]) -> str:
        """Modifiers joined as the language joins them ("of suit coins and worth 7")."""
        return "".join(" " + mod for mod in mods[:1]) + "".join(" " + self.msg("mod_and", x=mod) for mod in mods[1:])

    def loop_mods(self, comp: Comprehension, inner: _Ctx) -> tuple[str, ...]:
        """The modifiers a comprehension's condition gives its range."""
        return self.mods(comp.cond, inner, comp.var.id) if comp.cond is not None else ()

    def each(self, comp: Comprehension, ctx: _Ctx) -> str:
        """The range of a comprehension: "each card of suit coins in the pile", "each suit"."""
        inner = self.loop_ctx(comp, ctx)
        kind = self.typeof(comp.iterable, ctx)
        if kind is T.CARDS:
            return self.msg("each_card", **self.set_fields(comp.iterable, ctx, extra=self.loop_mods(comp, inner)))
        if kind in (T.SUITS, T.RANKS) and isinstance(comp.iterable, Name) and comp.iterable.id in ("suits", "ranks"):
            noun = _NOUN[kind]
            if comp.cond is None:
                return self.msg(f"each_{noun}")
            return self.msg(f"each_{noun}_if", x=self.guard(self.clause, comp.cond, inner))
        raise _Unphrasable

    # -- conditions on one card, as modifiers of "cards" -------------------------------------------------------

    def mods(self, node: Expr, ctx: _Ctx, var: str | None) -> tuple[str, ...]:
        """Modifiers saying which cards pass ``node``; the card is bare (``var`` None) or the loop variable."""
        m = self.msg
        if isinstance(node, BoolOp):
            if node.op == "and":
                return (*self.mods(node.left, ctx, var), *self.mods(node.right, ctx, var))
            either = self.mods_text(self.mods(node.left, ctx, var)).strip()
            other = self.mods_text(self.mods(node.right, ctx, var)).strip()
            return (m("mod.or", a=either, b=other),)
        attr = self.subject_attr(node, ctx, var)
        if attr == "court":
            return (m("mod.court"),)
        if isinstance(node, Unary) and node.op == "not":
            if self.subject_attr(node.operand, ctx, var) == "court":
                return (m("mod.not_court"),)
            if isinstance(node.operand, Compare):
                neg = node.operand
                return self.mods(Compare(_NEGATE[neg.op], neg.left, neg.right, **_span(node)), ctx, var)
        if isinstance(node, Compare):
            left, right = node.left, node.right
            op = node.op
            if self.subject_attr(right, ctx, var) and not self.subject_attr(left, ctx, var) and op in ("==", "!="):
                left, right = right, left
            la = self.subject_attr(left, ctx, var)
            if la in ("suit", "rank") and op in ("==", "!="):
                if isinstance(right, Name) and right.id in ctx.local:  # the loop's suit: "of that suit"
                    return (m(f"mod.{la}_{_CMP[op]}_ref", x=self.guard(self.value, right, ctx)),)
                what = self.rank_or_value(right, ctx, T.RANK if la == "rank" else T.SUIT)
                return (m(f"mod.{la}_{_CMP[op]}", x=what),)
            if la == "value" and op in _CMP and op not in ("in", "not in"):
                return (m(f"mod.value_{_CMP[op]}", x=self.guard(self.value, right, ctx)),)
            if self.is_subject(left, ctx, var) and op in ("in", "not in"):
                return (m(f"mod.{_CMP[op]}", np=self.set_np(right, ctx)),)
        return (m("mod.such_that", x=self.guard(self.clause, node, ctx)),)

    def is_subject(self, node: Expr, ctx: _Ctx, var: str | None) -> bool:
        """Whether ``node`` names the card a filter is about (the loop variable, or ``card``)."""
        if not isinstance(node, Name):
            return False
        if var is not None:
            return node.id == var
        return node.id == "card" and ctx.local.get("card") is T.CARD

    def subject_attr(self, node: Expr, ctx: _Ctx, var: str | None) -> str | None:
        """The attribute name when ``node`` is an attribute of the card being filtered (``suit``, ``c.suit``)."""
        if isinstance(node, Attr) and self.is_subject(node.obj, ctx, var) and node.name.id in CARD_ATTRIBUTES:
            return node.name.id
        if var is None and isinstance(node, Name) and self.is_subject_attr(node, ctx) and node.id in CARD_ATTRIBUTES:
            return node.id
        return None

    def join(self, items: list[str]) -> str:
        """Items in a list as the language writes one ("a, b and c")."""
        if len(items) == 1:
            return items[0]
        return self.msg("list", items=", ".join(items[:-1]), last=items[-1])


def _span(node: Expr) -> dict[str, int]:
    return {"offset": node.offset, "length": node.length}
