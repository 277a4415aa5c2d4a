"""Where the DSL's grammar file lives, in a wheel and in a source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["grammar_text"]

_GRAMMAR = ("grammar", "dsl.lark")


def grammar_text() -> str:
    """The text of ``dsl.lark``: from the installed package data if present, else from the checkout.

    A wheel carries the grammar at ``piglia/_data/grammar/dsl.lark`` (pyproject's force-include); a
    source checkout or editable install has it at the top of the repository, three levels above the
    ``piglia`` package directory.
    """
    try:
        packaged = resources.files("piglia").joinpath("_data", *_GRAMMAR)
        if packaged.is_file():
            return packaged.read_text(encoding="utf-8")
    except (ImportError, OSError, TypeError, ValueError):
        # No such package data (or a namespace package importlib cannot look into): use the checkout.
        pass
    # This file is piglia/dsl/resources.py, so parents[1] is the piglia package directory and
    # parents[3] the repository root (piglia.__file__'s parent.parent.parent).
    checkout = Path(__file__).resolve().parents[3].joinpath(*_GRAMMAR)
    return checkout.read_text(encoding="utf-8")
