"""The condition and scoring DSL: small expressions in variant files, compiled once to closures.

>>> from piglia.dsl import T, compile_expr  # doctest: +SKIP
>>> rule = compile_expr("count(pile where suit == coins)", scope={"pile": T.CARDS}, deck=deck, expected=T.INT)
>>> rule.fn(env)  # reads env.pile  # doctest: +SKIP

The language is described in docs/dsl.md; the grammar is grammar/dsl.lark.
"""

from piglia.dsl.compiler import Compiled, compile_expr
from piglia.dsl.dtypes import T
from piglia.dsl.parser import lark_grammar, parse

__all__ = ["Compiled", "T", "compile_expr", "lark_grammar", "parse"]
