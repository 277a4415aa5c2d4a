"""The condition and scoring DSL: small expressions in variant files, compiled once to closures.

Given a deck, ``compile_expr("count(pile where court)", scope={"pile": T.CARDS}, deck=deck, expected=T.INT)``
returns a :class:`Compiled` whose ``fn(env)`` reads ``env.pile``.

The language is described in docs/language.md (Expressions); the grammar is grammar/dsl.lark.
"""

from piglia.dsl.compiler import Compiled, compile_expr
from piglia.dsl.dtypes import Scope, T
from piglia.dsl.parser import lark_grammar, parse

__all__ = ["Compiled", "Scope", "T", "compile_expr", "lark_grammar", "parse"]
